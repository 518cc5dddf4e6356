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
    fill_details(page, data)
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


LONG_EMAIL = (
    "facility.environmental.compliance.manager@depot-street-fuel-and-heating-oil.example.test"
)


def fill_details(page, data: dict) -> None:
    """Answer step 2 from `data` (the safety answers were given in step 1)."""
    radios = ("emergency_called", "dec_called", "facility_kind", "permit", "is_over", "unit",
              "reached_drain", "prior_notice")  # fmt: skip
    for name, value in data.items():
        if name in radios:
            choose(page, name, value)
        elif name not in ("danger", "hazardous", "petroleum", "nickname", "latitude", "longitude"):
            page.fill(f"#{name}", value)


@pytest.mark.parametrize("width", [320, 360])
def test_review_and_receipt_fit_a_narrow_phone_with_a_long_email(
    open_tab, live_app, live_server, width
):
    # Three filings a minute from one address would meet the rate limit: start afresh.
    live_app.extensions["rate_limiter"].reset()
    tab = open_tab("phone")
    page = tab.page
    page.set_viewport_size({"width": width, "height": 740})
    data = notification_data(responsible_email=LONG_EMAIL, dec_spill_number="2608123456789012")
    page.goto(f"{live_server}/notify/")
    for name in ("danger", "hazardous", "petroleum"):
        choose(page, name, data[name])
    page.get_by_role("button", name="Continue").click()
    page.wait_for_selector("text=Call 911 first")
    fill_details(page, data)
    page.get_by_role("button", name="Review your notification").click()
    page.wait_for_selector("h1:text('Check your notification')")
    check(page, f"review at {width} px")
    page.get_by_role("button", name="Submit notification").click()
    page.wait_for_url(re.compile(r"/status/[\w-]+/\?filed=1$"))
    check(page, f"receipt at {width} px")
    assert LONG_EMAIL in page.text_content("main")
    # Printed, the receipt is one or two Letter pages without the site's navigation.
    page.emulate_media(media="print")
    assert page.is_hidden(".site-nav") and page.is_hidden(".site-footer")
    pdf = page.pdf(format="Letter", print_background=False)
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
    assert 1 <= pages <= 2, f"the receipt prints on {pages} Letter pages"
    assert not tab.external_requests
