"""The legal review of round 3 on the enforcement pages: a correction by the respondent can be
recorded, the access request follows only a missed correction date, the tax bill
waits for a past-due payment, and the notice's abatement statement and wording."""

from __future__ import annotations

import html
import re

from enforcement_helpers import issue, ok, post, violation

pytest_plugins = ["enforcement_fixtures"]  # the clock and the signed-in officer

N = "/staff/notices/1/"


def text(page: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)).replace("\xa0", " "))


def step(client, name: str, **data):
    return post(client, f"{N}steps/{name}", N, **data)


def notice(client, deadline: str | None = "2027-03-31", **orders) -> None:
    """A violation and its notice, issued Monday 1 March 2027."""
    violation(client)
    chosen = orders or {"order_1": "y", "order_2": "y", "specifics_2": "Clean the catch basin."}
    ok(post(client, "/staff/violations/1/notice", deadline=deadline or "", **chosen))
    issue(client)


def billed(client, clock, completed: str, mailed: str, work: str) -> None:
    """The notice, abated on `completed` ($`work` and $100 of administration), its cost notice
    mailed on `mailed` for 12 payments."""
    notice(client)
    clock.set(completed)
    ok(step(client, "completion", completed_on=completed, work=work, admin="100"))
    clock.set(mailed)
    ok(step(client, "costs", cost_notice_mailed_on=mailed, payment_count="12"))


def test_l3_the_respondents_correction_is_recorded_and_stops_the_clock(officer, clock):
    notice(officer)
    clock.set("2027-04-21")
    page = text(officer.get(N).text)
    assert "Overdue" in page and "3 weeks from the correction date" in page
    refused = step(
        officer, "corrected", corrected_on="2027-03-29", correction_checked_on="2027-03-28"
    )
    assert refused.status_code == 422
    assert "Enter a date on or after the day it was corrected." in refused.text
    ok(step(officer, "corrected", corrected_on="2027-03-29", correction_checked_on="2027-03-30"))
    page = text(officer.get(N).text)
    assert (
        "Corrected by the respondent on Monday, March 29, 2027 (checked on Tuesday, March 30,"
        " 2027 ; recorded by smo): no access request or abatement follows (§ 216-15 A)." in page
    )
    assert (
        "0 weeks from the correction date, Wednesday, March 31, 2027 , to the correction by"
        " the respondent, Monday, March 29, 2027" in page
    )
    assert "Overdue" not in page and "Done, Monday, March 29, 2027" in page
    assert "No request: the respondent corrected the violation." in page
    letter = officer.get(f"{N}access-letter", follow_redirects=True)
    assert "has not been corrected" not in letter.text
    assert "No request: the respondent corrected the violation" in text(letter.text)
    events = text(officer.get("/staff/cases/1/").text)
    assert "Correction by the respondent recorded" in events
    # Nothing left to abate: no work by the Village, so no cost notice saying it did it.
    abated = step(officer, "completion", completed_on="2027-04-20", work="1,000", admin="100")
    assert abated.status_code == 422
    assert "The respondent corrected the violation (recorded above)" in abated.text


def test_l4_no_access_request_before_the_correction_date_or_during_an_appeal(officer, clock):
    notice(officer)
    clock.set("2027-03-20")
    page = text(officer.get(N).text)
    assert "Not yet: the correction is due by Wednesday, March 31, 2027 ." in page
    early = officer.get(f"{N}access-letter")
    assert early.status_code == 303
    refused = step(officer, "access", access_requested_on="2027-03-20")
    assert refused.status_code == 422
    assert "Not before the day after the correction date, March 31, 2027." in refused.text
    # A timely appeal, pending: no request, whatever the day.
    ok(step(officer, "appeal", appeal_filed_on="2027-03-10"))
    clock.set("2027-04-20")
    assert "No request: an appeal is pending before the Board." in text(officer.get(N).text)
    assert officer.get(f"{N}access-letter").status_code == 303
    # The Board did not uphold the notice: no request, and no "if it is not corrected".
    ok(step(officer, "decision", decided_on="2027-04-05", upheld="no"))
    page = text(officer.get(N).text)
    assert "No request: the Board did not uphold the notice." in page
    assert "If it is not corrected" not in page


def test_l4_after_an_upheld_appeal_the_request_waits_five_business_days(officer, clock):
    notice(officer)
    clock.set("2027-04-05")
    ok(step(officer, "appeal", appeal_filed_on="2027-03-10"))
    ok(step(officer, "decision", decided_on="2027-04-05", upheld="yes"))
    assert officer.get(f"{N}access-letter").status_code == 303
    clock.set("2027-04-13")
    refused = step(officer, "access", access_requested_on="2027-04-12")
    assert "Not before the day after the correction date, April 12, 2027." in refused.text
    ok(step(officer, "access", access_requested_on="2027-04-13"))
    letter = text(officer.get(f"{N}access-letter").text)
    assert "has not been corrected by Monday, April 12, 2027 , as the notice required" in letter


def test_l5_no_tax_bill_while_a_protest_awaits_the_board(officer, clock):
    notice(officer)
    clock.set("2027-04-05")
    ok(step(officer, "completion", completed_on="2027-04-05", work="1,000", admin="100"))
    # Mailed 20 April, protest in time on 10 May (the window closes 25 May).
    clock.set("2027-05-10")
    ok(
        step(
            officer,
            "costs",
            cost_notice_mailed_on="2027-04-20",
            payment_count="12",
            protest_filed_on="2027-05-10",
        )
    )
    clock.set("2027-06-01")
    refused = step(officer, "tax", tax_bill_on="2027-06-01")
    assert refused.status_code == 422
    assert (
        "Charges cannot go on the tax bill while a timely protest awaits the Board's"
        " decision, or before a payment is past due." in text(refused.text)
    )
    statement = text(officer.get(f"{N}statement").text)
    assert "added to the tax bill" not in statement


def test_l5_the_tax_bill_follows_a_past_due_payment(officer, clock):
    billed(officer, clock, "2027-04-05", "2027-04-20", work="1,000")
    # Payment 1 ($91.74) is due Tuesday 25 May: on that day the tax bill is refused.
    clock.set("2027-05-25")
    assert step(officer, "tax", tax_bill_on="2027-05-25").status_code == 422
    clock.set("2027-05-26")
    ok(step(officer, "tax", tax_bill_on="2027-05-26"))
    statement = text(officer.get(f"{N}statement").text)
    assert "A payment is past due." in statement
    assert "They were added to the tax bill on Wednesday, May 26, 2027 ." in statement


def test_l8_order_a_with_a_deadline_carries_the_abatement_statement(officer, clock):
    violation(officer)
    refused = post(
        officer,
        "/staff/violations/1/notice",
        order_0="y",
        specifics_0="Disconnect the floor drain from the storm sewer.",
    )
    assert refused.status_code == 422 and "set the deadline" in refused.text
    assert (
        "Required when (a) or (c) is ordered: these are the orders that ask for abatement or"
        " restoration (our reading of § 216-13 A (2)), and the notice then says the work will"
        " otherwise be done at the violator's expense." in text(refused.text)
    )
    ok(
        post(
            officer,
            "/staff/violations/1/notice",
            order_0="y",
            deadline="2027-03-31",
            specifics_0="Disconnect the floor drain from the storm sewer.",
        )
    )
    issue(officer)
    letter = text(officer.get(f"{N}letter").text)
    assert (
        "Complete this by Wednesday, March 31, 2027 . Should you fail to abate the violation"
        " or restore the property by then, the work will be done by a designated governmental"
        " agency or a contractor and the expense will be charged to you" in letter
    )


def test_a_notice_with_a_deadline_and_no_abatement_order_prints(officer, clock):
    """Order (b) with a deadline: no abatement statement, and the letter prints (it was a 500)."""
    notice(officer, deadline="2027-03-31", order_1="y", specifics_1="Stop washing into the drain.")
    letter = officer.get(f"{N}letter")
    assert letter.status_code == 200
    assert "Complete this by Wednesday, March 31, 2027 ." in text(letter.text)
    assert "Should you fail to abate" not in letter.text


def test_l19_no_deadline_no_later_of_the_deadline_above(officer, clock):
    notice(officer, deadline=None, order_1="y", specifics_1="Stop washing into the drain.")
    letter = text(officer.get(f"{N}letter").text)
    assert "the later of the deadline above" not in letter
    assert (
        "(or, after an appeal the Board upholds, within 5 business days of its decision)" in letter
    )


def test_l18_the_statement_says_when_the_time_to_protest_ended(officer, clock):
    notice(officer)
    clock.set("2027-05-20")
    ok(step(officer, "completion", completed_on="2027-05-03", work="1,000", admin="100"))
    ok(step(officer, "costs", cost_notice_mailed_on="2027-05-20", payment_count="3"))
    clock.set("2027-06-24")
    assert "by Thursday, June 24, 2027" in text(officer.get(f"{N}statement").text)
    clock.set("2027-07-27")
    statement = text(officer.get(f"{N}statement").text)
    assert (
        "The time to protest (30 days from receiving the cost notice) ended on Thursday,"
        " June 24, 2027 ." in statement
    )
    assert "You may object to the amount" not in statement


def test_the_deadlines_page_lists_every_past_due_payment(officer, clock):
    """Officer walk 5: at 31 December 2027, payments 3 (Monday 29 November, the 28th a Sunday)
    and 4 (Tuesday 28 December) are both past due, as the statement shows."""
    billed(officer, clock, "2027-08-16", "2027-08-24", work="1,900")
    clock.set("2027-10-15")
    ok(post(officer, f"{N}payments", N, paid_on="2027-10-15", amount="500"))
    clock.set("2027-12-31")
    page = text(officer.get("/staff/enforcement/deadlines").text)
    assert "Payment 3 of 12 due" in page and "Payment 4 of 12 due" in page
    assert "Payment 5 of 12 due" in page, "the next one still to come"
    assert "Payment 6 of 12" not in page and "Payment 2 of 12" not in page
    dates = re.findall(
        r'<time datetime="(2027-1[012]-\d\d|2028-01-\d\d)"',
        officer.get("/staff/enforcement/deadlines").text,
    )
    assert [d for d in dates if d != "2027-12-31"] == ["2027-11-29", "2027-12-28", "2028-01-28"]
    statement = text(officer.get(f"{N}statement").text)
    assert statement.count("past due") >= 2


def test_l17_the_fine_order_states_the_range_never_an_amount(officer, clock):
    """Seed 167 lets a notice order "Payment of a fine"; 173 sets fines only on conviction."""
    violation(officer)
    refused = post(officer, "/staff/violations/1/notice", order_4="y", specifics_4="Pay $200.")
    assert refused.status_code == 422
    assert "Leave the amount out: the law sets a fine only on conviction." in text(refused.text)
    assert "Pay $200." in refused.text, "what was typed is kept"
    for typed in ("Pay 200 dollars.", "Pay $ 50"):
        again = post(officer, "/staff/violations/1/notice", order_4="y", specifics_4=typed)
        assert again.status_code == 422
    ok(post(officer, "/staff/violations/1/notice", order_4="y", specifics_4="As a court sets it."))
    issue(officer)
    letter = text(officer.get(f"{N}letter").text)
    assert (
        "(e) Payment of a fine. As a court sets it. The fine is set by a court, on"
        " conviction (§ 216-13 B): the ranges are under “Penalties” below." in letter
    )
