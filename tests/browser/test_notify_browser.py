"""A plant manager files a release notification on a phone, and prints the receipt."""

from __future__ import annotations

import re

import pytest
from browsing import OVERFLOW, check
from helpers import notification_data

pytestmark = pytest.mark.browser

LETTER_WIDTH_PX = 8.5 * 96


def choose(page, name: str, value: str) -> None:
    page.check(f"input[name={name}][value='{value}']")


def test_from_triage_to_a_printed_receipt_on_a_phone(open_tab, live_server, tmp_path):
    tab = open_tab("phone")
    page = tab.page
    data = notification_data()
    page.goto(f"{live_server}/notify/")
    check(page, "triage")
    page.get_by_role("button", name="Continue").click()
    page.wait_for_selector("#error-summary")
    check(page, "triage with errors")
    for name in ("danger", "hazardous", "petroleum"):
        choose(page, name, data[name])
    page.get_by_role("button", name="Continue").click()

    page.wait_for_selector("text=Call 911 first")
    check(page, "details")
    radios = ("emergency_called", "dec_called", "facility_kind", "permit", "is_over", "unit",
              "reached_drain", "prior_notice")  # fmt: skip
    for name, value in data.items():
        if name in radios:
            choose(page, name, value)
        elif name not in ("danger", "hazardous", "petroleum", "nickname", "latitude", "longitude"):
            page.fill(f"#{name}", value)
    page.get_by_role("button", name="Review your notification").click()

    page.wait_for_selector("h1:text('Check your notification')")
    check(page, "review")
    assert "Given by telephone" in page.text_content(".deadlines")
    page.get_by_role("button", name="Submit notification").click()

    page.wait_for_url(re.compile(r"/status/[\w-]+/\?filed=1$"))
    check(page, "receipt")
    assert re.search(r"REL-\d{4}-\d{4}", page.text_content(".reference"))
    assert page.is_visible("#print-receipt"), "the print button appears with JavaScript"

    page.emulate_media(media="print")
    page.set_viewport_size({"width": int(LETTER_WIDTH_PX), "height": 1056})
    fit = page.evaluate(OVERFLOW)
    assert not fit["wide"] and fit["scrollWidth"] <= fit["clientWidth"], f"cut text: {fit}"
    assert page.is_hidden(".site-header") and page.is_hidden("#print-receipt")
    pdf = page.pdf(format="Letter", print_background=False)
    (tmp_path / "receipt.pdf").write_bytes(pdf)
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
    assert 1 <= pages <= 2, f"the receipt prints on {pages} Letter pages"
    # The one error response is the deliberate 422 of the unanswered triage.
    assert [e for e in tab.errors if "422" not in e] == [] and not tab.external_requests
