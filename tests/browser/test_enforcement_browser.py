"""The officer takes a confirmed violation through the ordinance's enforcement steps in
Chromium: notice, appeal, the Board's decision, abatement and its cost, two payments; the
notice and the statement of account print on Letter paper."""

from __future__ import annotations

import datetime as dt
import re
from zoneinfo import ZoneInfo

import pytest
from browsing import OVERFLOW, check
from helpers import PASSWORD, add_enrolled_account, next_code
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

LETTER_WIDTH_PX = 8.5 * 96


class Clock:
    def __init__(self, tz: ZoneInfo) -> None:
        self.tz, self.moment = tz, None

    def __call__(self) -> dt.datetime:
        return self.moment

    def set(self, day: str) -> None:
        self.moment = dt.datetime.fromisoformat(f"{day}T10:00").replace(tzinfo=self.tz)


@pytest.fixture
def clock(live_app):
    """The live portal's clock, moved by the test and given back after it."""
    clock = Clock(live_app.extensions["content"].settings.timezone)
    clock.set("2027-03-01")
    before = live_app.config.get("CLOCK")
    live_app.config["CLOCK"] = clock
    yield clock
    live_app.config["CLOCK"] = before


def pdf_pages(page, tmp_path, name: str) -> int:
    """Print the page on Letter paper; how many sheets it takes (nothing cut at the side)."""
    page.emulate_media(media="print")
    page.set_viewport_size({"width": int(LETTER_WIDTH_PX), "height": 1056})
    fit = page.evaluate(OVERFLOW)
    assert not fit["wide"] and fit["scrollWidth"] <= fit["clientWidth"], f"{name}: cut: {fit}"
    assert page.is_hidden(".site-header") and page.is_hidden(".no-print")
    pdf = page.pdf(format="Letter", print_background=False)
    (tmp_path / f"{name}.pdf").write_bytes(pdf)
    page.emulate_media(media="screen")
    page.set_viewport_size({"width": 360, "height": 740})
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


def dates_on(page) -> list[str]:
    return page.eval_on_selector_all("time[datetime]", "els => els.map(e => e.dateTime)")


def step(page, button: str, fields: dict[str, str], message: str) -> None:
    for label, value in fields.items():
        page.get_by_label(label, exact=True).fill(value)
    page.get_by_role("button", name=button).click()
    expect(page.locator(".flash")).to_contain_text(message)


def test_from_a_confirmed_violation_to_two_payments(
    open_tab, live_app, live_server, clock, tmp_path
):
    add_enrolled_account(live_app, "enforcer")
    tab = open_tab("phone")
    page = tab.page
    page.goto(f"{live_server}/report/")
    page.get_by_label("Describe what you saw").fill("Soapy water from the car wash on Elm Street")
    page.get_by_label("Street address or landmark").fill("12 Elm Street")
    page.get_by_role("button", name="Send report").click()
    reference = page.text_content(".reference").strip()

    page.goto(f"{live_server}/staff/")
    page.get_by_label("Username").fill("enforcer")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_label("Code from your authenticator app").fill(next_code(live_app, "enforcer"))
    page.get_by_role("button", name="Sign in").click()
    page.get_by_label("Search").fill(reference)
    page.get_by_role("button", name="Filter").click()
    page.get_by_role("link", name=reference).click()

    # Investigation confirms the violation; then it is recorded against a new respondent.
    page.get_by_label("Investigation confirmed an illicit discharge").check()
    page.get_by_role("button", name="Save", exact=True).click()
    page.get_by_role("link", name=re.compile("Enforcement: violations")).click()
    check(page, "case enforcement")
    page.get_by_label("Name of the person or business").fill("Elm Street Car Wash Inc.")
    page.get_by_label("Mailing address").fill("PO Box 77\nHorseheads NY 14845")
    page.get_by_label("Property address (where the violation is)").fill("12 Elm Street")
    page.get_by_label("Date of the violation").fill("2027-02-26")
    page.select_option("#section", "216-6 A")
    page.get_by_label("What was found").fill("Wash water piped to the storm drain.")
    page.get_by_role("button", name="Record the violation").click()
    expect(page.locator(".flash")).to_contain_text("Violation recorded.")

    page.get_by_role("link", name=re.compile("Draft a notice of violation")).click()
    check(page, "draft")
    page.get_by_role("button", name="Save the draft").click()
    expect(page.locator(".error-message").first).to_contain_text("Choose at least one order.")
    check(page, "draft with errors")
    page.get_by_label(re.compile(r"^\(b\)")).check()
    page.get_by_label(re.compile(r"^\(c\)")).check()
    page.get_by_label("Specifics for (c)").fill("Clean the catch basin and the outfall.")
    page.get_by_label("Deadline to comply, abate or restore").fill("2027-03-31")
    page.get_by_role("button", name="Save the draft").click()
    expect(page.locator(".flash")).to_contain_text("Draft saved.")
    check(page, "draft notice")
    page.get_by_role("button", name="Issue the notice").click()
    expect(page.locator(".flash")).to_contain_text("Issued as NOV-2027-")
    number = re.search(r"NOV-2027-\d{4}", page.text_content("h1")).group(0)
    check(page, "issued notice")
    # 15 days from 1 March: the appeal window closes 16 March; the notice's deadline 31 March.
    assert {"2027-03-16", "2027-03-31"} <= set(dates_on(page))

    page.get_by_role("link", name="The letter, to print").click()
    check(page, "letter")
    expect(page.locator(".letter")).to_contain_text(number)
    assert "2027-03-16" in dates_on(page)
    assert 1 <= pdf_pages(page, tmp_path, "notice") <= 2
    page.go_back()

    clock.set("2027-03-10")
    page.reload()
    step(page, "Log the appeal", {"Date the appeal was filed": "2027-03-10"}, "Appeal logged.")
    assert "2027-04-09" in dates_on(page), "the hearing, 30 days after the filing"
    clock.set("2027-04-05")
    page.reload()
    page.get_by_label("Date of the Board's decision").fill("2027-04-05")
    page.locator("#step-decision").get_by_label("Yes").check()
    page.get_by_role("button", name="Record the decision").click()
    expect(page.locator(".flash")).to_contain_text("Board decision recorded.")
    # Filed and mailed within 5 days (10 April, a Saturday: Monday 12 April); correction
    # within 5 business days of the decision upholding the notice: also 12 April.
    assert "2027-04-12" in dates_on(page)
    expect(page.locator("main")).to_contain_text("Correction due by Monday, April 12, 2027")

    clock.set("2027-05-05")
    page.reload()
    step(page, "Record the completed abatement", {"Date the abatement was completed": "2027-05-03",
         "Cost of the work": "1,200.00", "Administrative costs (optional)": "150.00"}, "Abatement completion")  # fmt: skip
    page.get_by_label("Date the cost notice was mailed").fill("2027-05-03")
    page.get_by_label("Date the owner received it").fill("2027-05-05")
    page.select_option("#payment_count", "3")
    page.get_by_role("button", name="Save the cost notice").click()
    expect(page.locator(".flash")).to_contain_text("Cost notice recorded.")
    assert {"2027-06-02", "2027-06-03", "2027-06-04"} <= set(dates_on(page))

    clock.set("2027-06-01")
    page.reload()
    step(
        page,
        "Record the payment",
        {"Date paid": "2027-06-01", "Amount": "450.00"},
        "Payment recorded.",
    )
    clock.set("2027-07-11")
    page.reload()
    step(
        page,
        "Record the payment",
        {"Date paid": "2027-07-11", "Amount": "450.00"},
        "Payment recorded.",
    )
    # 38 days of 9% on $900 ($8.43), paid first; then a day on the $458.43 left.
    expect(page.locator("#balance")).to_have_text("$458.54")
    check(page, "notice with payments")

    page.get_by_role("link", name="Statement of account").click()
    check(page, "statement")
    expect(page.locator(".statement")).to_contain_text("$8.43")
    assert 1 <= pdf_pages(page, tmp_path, "statement") <= 1, "the statement prints on one page"
    page.go_back()

    page.goto(f"{live_server}/staff/enforcement/deadlines")
    check(page, "deadlines")
    expect(page.locator("main")).to_contain_text(number)
    page.goto(f"{live_server}/staff/respondents/")
    check(page, "respondents")
    page.get_by_role("link", name="Elm Street Car Wash Inc.").click()
    check(page, "respondent")
    assert "2027-02-26" in dates_on(page)

    page.goto(f"{live_server}/staff/")
    check(page, "queue with enforcement dates")
    expect(page.locator("main")).to_contain_text("Enforcement dates")
    page.locator("#queue-caption").locator("..").get_by_role("link", name=reference).click()
    for words in ("Violation recorded", f"Notice of violation issued ({number})", "Appeal logged",
                  "Board decision recorded", "Payment recorded"):  # fmt: skip
        expect(page.locator(".audit")).to_contain_text(words)
    # The error responses: the sign-in page answering the anonymous visit (401), and the
    # draft sent without an order (422).
    assert [e for e in tab.errors if not re.search("401|422", e)] == []
    assert not tab.external_requests
