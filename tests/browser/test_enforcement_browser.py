"""The officer takes a confirmed violation through the ordinance's enforcement steps in
Chromium: notice, appeal, the Board's decision, abatement and its cost, two payments; the
notice and the statement of account print on Letter paper."""

from __future__ import annotations

import datetime as dt
import re
import subprocess
from zoneinfo import ZoneInfo

import pytest
from browsing import OVERFLOW, check, give_session
from helpers import add_enrolled_account
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


def sheets(tmp_path, name: str) -> list[str]:
    """The text of each printed sheet of `name`.pdf (poppler's pdftotext, one form feed a sheet)."""
    path = tmp_path / f"{name}.pdf"
    out = subprocess.run(["pdftotext", "-layout", path, "-"], capture_output=True, check=True)
    return [sheet for sheet in out.stdout.decode().split("\f") if sheet.strip()]


def dates_on(page) -> list[str]:
    return page.eval_on_selector_all("time[datetime]", "els => els.map(e => e.dateTime)")


def step(page, button: str, fields: dict[str, str], message: str, form: str = "main") -> None:
    """Fill a form of the page (`form`: a selector for it) and send it."""
    scope = page.locator(form)
    for label, value in fields.items():
        scope.get_by_label(label, exact=True).fill(value)
    scope.get_by_role("button", name=button).click()
    expect(page.locator(".flash")).to_contain_text(message)


def open_confirmed_case(page, live_app, live_server, username: str, what: str) -> str:
    """A resident's report, then `username` signs in, confirms it and opens its enforcement
    page; returns the report's reference."""
    add_enrolled_account(live_app, username)
    page.goto(f"{live_server}/report/")
    page.get_by_label("Describe what you saw").fill(what)
    page.get_by_label("Street address or landmark").fill("12 Elm Street")
    page.get_by_role("button", name="Send report").click()
    reference = page.text_content(".reference").strip()
    give_session(page, live_app, live_server, username)
    page.goto(f"{live_server}/staff/")
    page.get_by_label("Search").fill(reference)
    page.get_by_role("button", name="Filter").click()
    page.get_by_role("link", name=reference).click()
    # Investigation confirms the violation; the enforcement page records it.
    page.get_by_label("Investigation found").select_option(label="Confirmed illicit discharge")
    page.get_by_role("button", name="Save changes").click()
    page.get_by_role("link", name=re.compile("Enforcement: violations")).click()
    return reference


def record_violation(page, fields: dict[str, str], respondent: str | None = None) -> None:
    """Fill the violation form (labels to values; the section is the exemptions' A)."""
    if respondent:
        option = page.locator("#respondent option", has_text=respondent)
        page.select_option("#respondent", option.get_attribute("value"))
    for label, value in fields.items():
        page.get_by_label(label, exact=True).fill(value)
    page.select_option("#section", "216-6 A")
    page.get_by_role("button", name="Record the violation").click()
    expect(page.locator(".flash")).to_contain_text("Violation recorded.")


def issue_it(page, signer: str = "Dana Reyes") -> str:
    """Issue the draft on the page (served today by certified mail); its number."""
    page.get_by_label("How it is served").select_option("Certified mail, return receipt requested")
    page.get_by_label("Signed by (name)").fill(signer)
    page.get_by_role("button", name="Issue the notice").click()
    expect(page.locator(".flash")).to_contain_text("Issued as NOV-")
    return re.search(r"NOV-\d{4}-\d{4}", page.text_content("h1")).group(0)


def complete_and_bill(
    page, completed: str, work: str, admin: str, mailed: str, received: str, payments: str
) -> None:
    """Record the abatement completed and its cost, then the cost notice mailed and received."""
    step(
        page,
        "Record the completed abatement",
        {
            "Date the abatement was completed": completed,
            "Cost of the work": work,
            "Administrative costs (optional)": admin,
        },
        "Abatement completion",
    )
    page.get_by_label("Date the cost notice was mailed").fill(mailed)
    page.get_by_label("Date the owner received it (optional)").fill(received)
    page.select_option("#payment_count", payments)
    page.get_by_role("button", name="Save the cost notice").click()
    expect(page.locator(".flash")).to_contain_text("Cost notice recorded.")


def test_from_a_confirmed_violation_to_two_payments(
    open_tab, live_app, live_server, clock, tmp_path
):
    tab = open_tab("phone")
    page = tab.page
    reference = open_confirmed_case(
        page, live_app, live_server, "enforcer", "Soapy water from the car wash on Elm Street"
    )
    check(page, "case enforcement")
    record_violation(
        page,
        {
            "Name of the person or business": "Elm Street Car Wash Inc.",
            "Mailing address": "PO Box 77\nHorseheads NY 14845",
            "Place of the violation": "12 Elm Street",
            "Date the violation was committed": "2027-02-26",
            "Date the officer found it": "2027-02-27",
            "What was found": "Wash water piped to the storm drain.",
        },
    )

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
    number = issue_it(page)
    check(page, "issued notice")
    # 15 days from 1 March: the appeal window closes 16 March; the notice's deadline 31 March.
    assert {"2027-03-16", "2027-03-31"} <= set(dates_on(page))

    page.get_by_role("link", name="The letter, to print").click()
    check(page, "letter")
    expect(page.locator(".letter")).to_contain_text(number)
    assert "2027-03-16" in dates_on(page)
    assert 1 <= pdf_pages(page, tmp_path, "notice") <= 2
    # Officer walk 11: the last sheet holds the last paragraph with the signature, never the
    # signature alone.
    last = sheets(tmp_path, "notice")[-1]
    assert "Signature" in last and "If the violation is not corrected" in last, last
    page.go_back()

    clock.set("2027-03-10")
    page.reload()
    step(
        page,
        "Log the appeal",
        {"Date the appeal reached the clerk": "2027-03-10"},
        "Appeal logged.",
    )
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
    complete_and_bill(page, "2027-05-03", "1,200.00", "150.00", "2027-05-03", "2027-05-05", "3")
    # The cost notice within 30 days of the abatement (2 June); the protest and the first
    # payment by the date the cost notice printed from the receipt presumed 5 days after
    # mailing (8 May: Monday 7 June), which the earlier receipt recorded (5 May) never shortens.
    assert {"2027-06-02", "2027-06-07"} <= set(dates_on(page))
    assert "2027-06-04" not in dates_on(page)

    clock.set("2027-06-01")
    page.reload()
    step(
        page,
        "Record the payment",
        {"Date paid": "2027-06-01", "Amount": "450.00"},
        "Payment recorded.",
        "#step-payment",
    )
    clock.set("2027-07-11")
    page.reload()
    step(
        page,
        "Record the payment",
        {"Date paid": "2027-07-11", "Amount": "450.00"},
        "Payment recorded.",
        "#step-payment",
    )
    # 38 days of 9% on $900 ($8.43), paid first; then a day on the $458.43 left.
    expect(page.locator("#balance")).to_have_text("$458.54")
    check(page, "notice with payments")

    page.get_by_role("link", name="Statement of account").click()
    check(page, "statement")
    expect(page.locator(".statement")).to_contain_text("$8.43")
    assert 1 <= pdf_pages(page, tmp_path, "statement") <= 2, "the statement prints on 2 pages"
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
    for words in (
        "Violation recorded",
        f"Notice of violation issued ({number})",
        "Appeal logged",
        "Board decision recorded",
        "Payment recorded",
    ):
        expect(page.locator(".audit")).to_contain_text(words)
    # The error responses: the sign-in page answering the anonymous visit (401), and the
    # draft sent without an order (422).
    assert [e for e in tab.errors if not re.search("401|422", e)] == []
    assert not tab.external_requests


def test_each_violation_has_its_place_and_respondents_are_kept_true(
    open_tab, live_app, live_server, clock, tmp_path
):
    """Issue 21, point 1: a repeat offender's second violation prints its own place; the
    respondent's contacts are edited, a paper-file offense entered, a duplicate merged."""
    tab = open_tab("desktop")
    page = tab.page
    open_confirmed_case(page, live_app, live_server, "placer", "Carpet cleaner's van hosing out")
    record_violation(
        page,
        {
            "Name of the person or business": "Sparkle Carpet Cleaning LLC",
            "Mailing address": "PO Box 5\nHorseheads NY 14845",
            "Place of the violation": "Catch basin in front of 412 Grand Central Avenue",
            "Date the violation was committed": "2027-02-20",
            "Date the officer found it": "2027-02-22",
            "What was found": "Carpet-cleaning water poured into the catch basin.",
        },
    )
    record_violation(
        page,
        {
            "Place of the violation": "Catch basin at Orchard and Broad",
            "Owner of the property, if not the respondent (optional)": "Broad Street Holdings",
            "Owner's mailing address (optional)": "1 Broad Street\nHorseheads NY 14845",
            "Date the violation was committed": "2027-02-26",
            "Date the officer found it": "2027-02-26",
            "What was found": "The same, again.",
        },
        respondent="Sparkle Carpet Cleaning LLC",
    )
    check(page, "two violations on a case")
    page.get_by_role("link", name=re.compile("Draft a notice of violation")).last.click()
    page.get_by_label(re.compile(r"^\(b\)")).check()
    page.get_by_role("button", name="Save the draft").click()
    issue_it(page)
    expect(page.locator("main")).to_contain_text("Catch basin at Orchard and Broad")
    page.get_by_role("link", name="The letter, to print").click()
    letter = page.locator(".letter")
    expect(letter).to_contain_text("Place of the violation: Catch basin at Orchard and Broad.")
    expect(letter).not_to_contain_text("Grand Central")
    assert 1 <= pdf_pages(page, tmp_path, "repeat-offender-notice") <= 2
    page.go_back()

    page.get_by_role("link", name="Sparkle Carpet Cleaning LLC").first.click()
    check(page, "respondent")
    page.get_by_label("Phone (optional)").fill("(607) 555-0188")
    page.get_by_label("E-mail (optional)").fill("office@sparkle.test")
    page.get_by_label("Operator (runs the business or activity)").check()
    page.get_by_role("button", name="Save the details").click()
    expect(page.locator(".flash")).to_contain_text("Details saved.")
    expect(page.locator(".summary-list")).to_contain_text("(607) 555-0188")
    # Two paper-file offenses: a notice upheld in 2023 and one overturned in 2024.
    for day, reference, outcome in [
        ("2023-04-15", "NOV-2023-0003", "Notice of violation final"),
        ("2024-01-10", "NOV-2024-0001", "Notice overturned"),
    ]:
        form = page.locator("#add-prior")
        form.get_by_label("Date the offense was committed").fill(day)
        form.locator("select").select_option("216-6 A")
        form.get_by_label("Notice number or court reference").fill(reference)
        form.get_by_label(re.compile(outcome)).check()
        form.get_by_role("button", name="Add the earlier offense").click()
        expect(page.locator(".flash")).to_contain_text("Earlier offense added.")
    check(page, "respondent with earlier offenses")
    expect(page.locator("#priors ~ ul").first).to_contain_text("NOV-2024-0001")

    # A duplicate record of the same business, entered with a third violation, merged in.
    person = page.url
    page.locator("#history-caption").locator("..").get_by_role("link").first.click()
    record_violation(
        page,
        {
            "Name of the person or business": "Sparkle Carpet Cleaning",
            "Mailing address": "P.O. Box 5, Horseheads",
            "Place of the violation": "Ditch at 9 Hanover Street",
            "Date the violation was committed": "2027-02-27",
            "Date the officer found it": "2027-02-27",
            "What was found": "Rinse water in the ditch.",
        },
    )
    page.goto(person)
    merge = page.locator("#merge-respondent")
    duplicate = page.locator("#other option", has_text="Sparkle Carpet Cleaning, P.O. Box 5")
    page.select_option("#other", duplicate.get_attribute("value"))
    merge.get_by_role("button", name="Merge into this record").click()
    expect(page.locator("#merge-respondent .error-message")).to_contain_text("Tick this once")
    check(page, "merge refused")
    page.get_by_label("I checked that both records are the same person or business").check()
    page.get_by_role("button", name="Merge into this record").click()
    expect(page.locator(".flash")).to_contain_text("Merged: 1 violation moved here")
    expect(page.locator("#history-caption").locator("..").locator("tbody tr")).to_have_count(3)
    expect(page.locator(".audit")).to_contain_text("(on the record of Sparkle Carpet Cleaning)")
    expect(page.locator(".audit")).to_contain_text("Another record merged into this one")
    check(page, "merged respondent")
    page.goto(f"{live_server}/staff/respondents/")
    rows = page.locator("#respondents-caption").locator("..").locator("tbody th")
    names = rows.all_text_contents()
    assert "Sparkle Carpet Cleaning LLC" in names and "Sparkle Carpet Cleaning" not in names
    assert [e for e in tab.errors if not re.search("401|422", e)] == []


def test_money_is_corrected_and_the_papers_print(open_tab, live_app, live_server, clock, tmp_path):
    """Issue 21, point 3: a payment corrected and another voided, with reasons in the audit
    log; the statement with its whole schedule, the cost notice and the two access letters,
    each on at most two Letter pages."""
    tab = open_tab("desktop")
    page = tab.page
    reference = open_confirmed_case(page, live_app, live_server, "payer", "Grey water, Main St")
    record_violation(
        page,
        {
            "Name of the person or business": "Main Street Laundry Inc.",
            "Mailing address": "PO Box 9\nHorseheads NY 14845",
            "Place of the violation": "Outfall behind 30 Main Street",
            "Date the violation was committed": "2027-02-25",
            "Date the officer found it": "2027-02-26",
            "What was found": "Laundry water piped to the outfall.",
        },
    )
    page.get_by_role("link", name=re.compile("Draft a notice of violation")).click()
    page.get_by_label(re.compile(r"^\(c\)")).check()
    page.get_by_label("Deadline to comply, abate or restore").fill("2027-03-31")
    page.get_by_role("button", name="Save the draft").click()
    issue_it(page)
    clock.set("2027-04-12")
    page.reload()
    complete_and_bill(page, "2027-04-05", "1,000.00", "100.00", "2027-04-07", "2027-04-09", "3")
    for amount in ("2,125.00", "50.00"):
        step(
            page,
            "Record the payment",
            {"Date paid": "2027-04-12", "Amount": amount},
            "Payment recorded.",
            "#step-payment",
        )
    # The typo: $2,125.00 for $212.50, corrected with its reason; the $50 voided.
    first = page.locator(".payments li").filter(has_text="$2,125.00")
    first.locator("summary").click()
    first.get_by_label("Amount").fill("212.50")
    first.get_by_role("button", name="Correct the payment").click()
    expect(page.locator(".payments .error-message").first).to_contain_text("Say why")
    check(page, "payment correction refused")
    first = page.locator(".payments li").filter(has_text="$2,125.00")
    first.get_by_label("Amount").fill("212.50")
    first.get_by_label("Reason for the correction").fill("Typed $2,125.00 for $212.50.")
    first.get_by_role("button", name="Correct the payment").click()
    expect(page.locator(".flash")).to_contain_text("Payment corrected.")
    second = page.locator(".payments li").filter(has_text="$50.00").filter(has_not_text="voided")
    second.locator("summary").click()
    second.get_by_label("Reason", exact=True).fill("Recorded twice.")
    second.get_by_role("button", name="Void the payment").click()
    expect(page.locator(".flash")).to_contain_text("Payment voided.")
    # $1,100 less $212.50; interest starts 6 May.
    expect(page.locator("#balance")).to_have_text("$887.50")
    check(page, "notice with corrected payments")

    page.get_by_role("link", name="Statement of account").click()
    check(page, "statement")
    statement = page.locator(".statement")
    expect(statement).to_contain_text("3 equal payments of the charge")
    expect(statement.locator(".schedule tbody tr")).to_have_count(3)
    expect(statement).to_contain_text("a lien on it")
    expect(statement).not_to_contain_text("Where the law is silent")
    # Protest by 12 May, as the cost notice printed it from the presumed receipt (the receipt
    # recorded on 9 April would give 10 May, and never shortens it); the payments from it:
    # 12 May, 14 June (12 June is a Saturday), 12 July.
    assert {"2027-05-12", "2027-06-14", "2027-07-12"} <= set(dates_on(page))
    assert "2027-05-10" not in dates_on(page)
    assert 1 <= pdf_pages(page, tmp_path, "statement") <= 2
    page.go_back()
    for link, title in [
        ("Cost notice", "Notice of the cost of abatement"),
        ("Letter asking the owner for access", "Request for access to abate"),
        ("The letter, to print", "Notice of violation"),
    ]:
        # The letter's own link, not the kept copy's ("Cost notice, as mailed on ...").
        page.get_by_role("link", name=re.compile(rf"^{link}(?!, as)")).click()
        expect(page.locator(".letter-title")).to_contain_text(title)
        check(page, title)
        expect(page.locator(".signature")).to_contain_text("Dana Reyes")
        assert 1 <= pdf_pages(page, tmp_path, title) <= 2, title
        page.go_back()
    page.get_by_role("link", name=re.compile("^Enforcement on")).click()
    page.get_by_role("link", name=re.compile("access to inspect")).click()
    page.get_by_label("How it is sent").select_option("Delivered in person")
    page.get_by_role("button", name="Show the letter").click()
    expect(page.locator(".signature")).to_contain_text("Sent or served: Delivered in person")
    check(page, "inspection letter")
    assert 1 <= pdf_pages(page, tmp_path, "inspection") <= 2

    page.goto(f"{live_server}/staff/")
    page.get_by_label("Search").fill(reference)
    page.get_by_role("button", name="Filter").click()
    page.locator("#queue-caption").locator("..").get_by_role("link", name=reference).click()
    audit = page.locator(".audit")
    expect(audit).to_contain_text("Payment corrected")
    expect(audit).to_contain_text("reason Typed $2,125.00 for $212.50.")
    expect(audit).to_contain_text("Payment voided")
    assert [e for e in tab.errors if not re.search("401|422", e)] == []
    assert not tab.external_requests
