"""A plant manager files a release notification on a phone, and prints the receipt."""

from __future__ import annotations

import re

import pytest
from browsing import OVERFLOW, check
from helpers import notification_data
from playwright.sync_api import expect

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
    page.get_by_role("button", name="Review your record").click()

    page.wait_for_selector("h1:text('Check your record')")
    check(page, "review")
    assert "Given by telephone" in page.text_content(".deadlines")
    page.get_by_role("button", name="Submit this record").click()

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
    radios = (
        "emergency_called",
        "dec_called",
        "facility_kind",
        "permit",
        "is_over",
        "unit",
        "reached_drain",
        "prior_notice",
    )
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
    page.get_by_role("button", name="Review your record").click()
    page.wait_for_selector("h1:text('Check your record')")
    check(page, f"review at {width} px")
    page.get_by_role("button", name="Submit this record").click()
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


def answer_triage(page, live_server: str, triage: dict) -> None:
    page.goto(f"{live_server}/notify/")
    for name, value in triage.items():
        choose(page, name, value)
    page.get_by_role("button", name="Continue").click()
    page.wait_for_selector("h1:text('Tell us about the release')")


def top(page, selector: str) -> float:
    return page.locator(selector).first.bounding_box()["y"]


def test_step_1_opens_with_the_red_box_then_the_village_then_the_form(open_tab, live_server):
    tab = open_tab("phone")
    page = tab.page
    page.goto(f"{live_server}/notify/")
    check(page, "step 1")
    red, village, form = top(page, ".emergency"), top(page, ".call-first"), top(page, "form")
    assert red < village < form, (red, village, form)
    assert red < 740, "the red box is on the first screen of a 360 × 740 phone"
    box = page.text_content(".emergency")
    assert box.index("911") < box.index("1-800-457-7362") < box.index("within two hours")
    assert "by the next business day" in page.text_content(".call-first h2")
    # Our readings of the deadline come folded between the Village's box and the form, so
    # the first question follows the box closely; opened, every word is there.
    readings = page.locator("details#readings")
    assert village < top(page, "#readings") < form
    assert not readings.evaluate("d => d.open")
    expect(readings.locator("summary")).to_have_text(
        "Business days and deadlines: how we read the law"
    )
    expect(page.get_by_text("The ordinance does not define “business day”")).to_be_hidden()
    box_end = page.locator(".call-first").bounding_box()
    safety = top(page, "h2:text('First, safety')")
    assert safety - (box_end["y"] + box_end["height"]) < 740 / 2, "half a screen at most"
    readings.locator("summary").click()
    expect(readings).to_contain_text("The ordinance does not define “business day”.")
    expect(readings).to_contain_text(
        "so a notice given by the end of that day counts as in time: our reading too."
    )


def test_back_from_the_review_shows_step_2_without_a_resubmission_error(
    browser, live_app, live_server
):
    # A context of its own: open_tab's request routing makes Chromium send a POST again on
    # Back, which would hide the "Confirm Form Resubmission" error this test is about.
    live_app.extensions["rate_limiter"].reset()
    context = browser.new_context(
        viewport={"width": 360, "height": 740},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    )
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        data = notification_data()
        answer_triage(page, live_server, {k: data[k] for k in ("danger", "hazardous", "petroleum")})
        fill_details(page, data)
        page.get_by_role("button", name="Review your record").click()
        page.wait_for_selector("h1:text('Check your record')")
        page.go_back()
        page.wait_for_selector("h1:text('Tell us about the release')")
        assert page.input_value("#facility_name") == data["facility_name"]
        # Shown from this browser's cache: nothing went over the network, no form sent again.
        navigation = page.evaluate("performance.getEntriesByType('navigation')[0].toJSON()")
        assert navigation["type"] == "back_forward" and navigation["transferSize"] == 0
        # From there, on again: the review comes back as before.
        page.get_by_role("button", name="Review your record").click()
        page.wait_for_selector("h1:text('Check your record')")
    finally:
        context.close()


def test_changing_the_safety_answers_keeps_step_2(open_tab, live_app, live_server):
    live_app.extensions["rate_limiter"].reset()
    tab = open_tab("phone")
    page = tab.page
    answer_triage(page, live_server, {"danger": "no", "hazardous": "no", "petroleum": "no"})
    page.fill("#facility_name", "Depot Street Fuel")
    page.fill("#cause", "A split fuel hose")
    page.get_by_role("link", name="“Change the safety answers”").click()
    assert page.url.endswith("#change-safety")
    page.get_by_role("button", name="Change the safety answers").click()
    page.wait_for_selector("h2:text('First, safety')")
    check(page, "step 1 again")
    assert page.is_checked("input[name=hazardous][value='no']")
    choose(page, "hazardous", "yes")
    page.get_by_role("button", name="Continue").click()
    page.wait_for_selector("text=Call 911 first")
    assert page.input_value("#facility_name") == "Depot Street Fuel"
    assert page.input_value("#cause") == "A split fuel hose"
    assert not tab.errors and not tab.external_requests


# Each word of the labels of a summary list (dt) on one line: a word split over two lines
# has client rectangles on two lines.
SPLIT_WORDS = """() => {
  const split = [];
  for (const term of document.querySelectorAll(".summary-list dt")) {
    for (const node of term.childNodes) {
      if (node.nodeType !== Node.TEXT_NODE) continue;
      for (const m of node.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (lines.size > 1) split.push(m[0]);
      }
    }
  }
  return split;
}"""


def test_the_receipt_s_first_screen_says_it_is_not_the_notice_and_what_is_due(
    open_tab, live_app, live_server
):
    live_app.extensions["rate_limiter"].reset()
    tab = open_tab("phone")
    page = tab.page
    data = notification_data(
        prior_notice="none", prior_notice_at="", prior_notice_to="", responsible_email=LONG_EMAIL
    )
    answer_triage(page, live_server, {k: data[k] for k in ("danger", "hazardous", "petroleum")})
    fill_details(page, {k: v for k, v in data.items() if not k.startswith("prior_notice_")})
    page.get_by_role("button", name="Review your record").click()
    page.wait_for_selector("h1:text('Check your record')")
    assert page.evaluate(SPLIT_WORDS) == [], "a label broken inside a word on the review"
    page.get_by_role("button", name="Submit this record").click()
    page.wait_for_url(re.compile(r"/status/[\w-]+/\?filed=1$"))
    check(page, "receipt, nothing told yet")
    first = page.locator("text=This is not your notice to the Village.")
    assert first.bounding_box()["y"] + first.bounding_box()["height"] <= 740
    due = page.locator(".late-advice li").first
    assert "Tell the Village now" in due.text_content()
    assert due.bounding_box()["y"] < 740, "what is still due starts on the first screen"
    assert page.evaluate(SPLIT_WORDS) == [], "a label broken inside a word on the receipt"
    page.emulate_media(media="print")
    pdf = page.pdf(format="Letter", print_background=False)
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
    assert 1 <= pages <= 2, f"the receipt prints on {pages} Letter pages"
    assert not tab.external_requests
