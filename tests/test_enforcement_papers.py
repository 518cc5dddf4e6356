"""Issued papers are records (legal review A2, officer's week B1): a cost notice is kept as
mailed and printed again as mailed; a receipt recorded later never ends the protest period
before the date the notice printed; the Board's decision on a protest is an event of its own
that the statement, the balance and the annual figure follow, never a rewrite of the notice."""

from __future__ import annotations

import html
import re

from enforcement_helpers import issue, ok, post, violation

pytest_plugins = ["enforcement_fixtures"]  # the clock and the signed-in officer

N = "/staff/notices/1/"
COST_LETTER = f"{N}cost-letter"


def text(page: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)).replace("\xa0", " "))


def step(client, name: str, **data):
    return post(client, f"{N}steps/{name}", N, **data)


def noticed(client, clock, served: str, deadline: str, committed: str) -> None:
    """A violation and its notice (both orders), served on `served`."""
    clock.set(served)
    violation(client, committed_on=committed, found_on=served)
    ok(post(client, "/staff/violations/1/notice", order_1="y", order_2="y", deadline=deadline))
    issue(client, served_on=served)


def a2_mailed(client, clock) -> None:
    """Legal review A2: abated Tuesday 30 November 2027 for $12,000.00 + $345.67, the cost
    notice mailed Friday 10 December 2027 for 12 payments; its receipt recorded as 11 December."""
    noticed(client, clock, "2027-03-01", "2027-03-31", "2027-02-26")
    clock.set("2027-11-30")
    ok(step(client, "completion", completed_on="2027-11-30", work="12,000.00", admin="345.67"))
    clock.set("2027-12-10")
    ok(step(client, "costs", cost_notice_mailed_on="2027-12-10", payment_count="12"))
    clock.set("2027-12-13")
    ok(
        step(
            client,
            "costs",
            cost_notice_mailed_on="2027-12-10",
            payment_count="12",
            cost_notice_received_on="2027-12-11",
        )
    )


PRINTED_PROTEST = (
    "You may file a written protest objecting to the amount by Friday, January 14, 2028 (30"
    " days from the day we presume this notice reaches you, 5 days after mailing). If it"
    " reaches you later than that, you have 30 days from the day it does."
)


def protest_on(client, clock, day: str) -> None:
    """A2's cost notice (mailed 10 December 2027, 12 payments, received 11 December) with a
    protest filed on `day`, recorded that day."""
    clock.set(day)
    ok(
        step(
            client,
            "costs",
            cost_notice_mailed_on="2027-12-10",
            payment_count="12",
            cost_notice_received_on="2027-12-11",
            protest_filed_on=day,
        )
    )


def test_a2_the_cost_notice_reprints_as_mailed_with_its_protest_date(officer, clock):
    a2_mailed(officer, clock)
    letter = text(officer.get(COST_LETTER).text)
    assert "Copy as mailed on Friday, December 10, 2027 ." in letter
    assert PRINTED_PROTEST in letter
    assert "Total $12,345.67" in letter
    assert "1 Friday, January 14, 2028 $1,028.87" in letter
    # The review's own hand computation of the last payment, interest day by day.
    assert (
        "12 Thursday, December 14, 2028 $1,028.80 of the cost, plus $580.93 interest: $1,609.73"
        in letter
    )
    # A receipt recorded later does not change the letter the owner holds.
    assert "Monday, January 10, 2028" not in letter
    page = text(officer.get(N).text)
    assert "Papers kept as sent: Notice of violation, as issued on Monday, March 1, 2027" in page
    assert "Cost notice, as mailed on Friday, December 10, 2027" in page


def test_a2_an_earlier_receipt_never_ends_the_protest_before_the_printed_date(officer, clock):
    a2_mailed(officer, clock)
    page = text(officer.get(N).text)
    assert "Protest due by Friday, January 14, 2028 (the date the cost notice printed" in page
    assert "Monday, January 10, 2028" not in page
    # Filed on the printed date: in time, so nothing falls due while the Board decides it.
    protest_on(officer, clock, "2028-01-14")
    clock.set("2028-01-20")
    page = text(officer.get(N).text)
    assert "Protest filed Friday, January 14, 2028 , in time: nothing is due" in page
    assert "January 14, 2028 , after the period" not in page
    assert "Tax bill Unpaid after its due date" not in page
    statement = text(officer.get(f"{N}statement").text)
    assert "A written protest was filed Friday, January 14, 2028 . No payment is due" in statement
    assert "after the time to protest had passed" not in statement
    assert "past due" not in statement
    tax = step(officer, "tax", tax_bill_on="2028-01-20")
    assert tax.status_code == 422 and "while a timely protest awaits" in tax.text


def test_a2_a_protest_two_days_before_the_printed_date_is_in_time(officer, clock):
    a2_mailed(officer, clock)
    protest_on(officer, clock, "2028-01-12")
    page = text(officer.get(N).text)
    assert "Protest filed Wednesday, January 12, 2028 , in time" in page
    # The day after the printed date, a protest is late.
    protest_on(officer, clock, "2028-01-15")
    page = text(officer.get(N).text)
    assert "Protest filed Saturday, January 15, 2028 , after the period" in page


def b1_protested(client, clock) -> None:
    """The officer's week B1: abated Friday 26 February 2027, $2,687.45 + $313.60 =
    $3,001.05 in 12 payments, the cost notice mailed Friday 5 March, received 8 March; a
    protest filed 22 March."""
    noticed(client, clock, "2027-01-04", "2027-02-19", "2027-01-02")
    clock.set("2027-02-26")
    ok(step(client, "completion", completed_on="2027-02-26", work="2,687.45", admin="313.60"))
    clock.set("2027-03-05")
    ok(step(client, "costs", cost_notice_mailed_on="2027-03-05", payment_count="12"))
    clock.set("2027-03-22")
    ok(
        step(
            client,
            "costs",
            cost_notice_mailed_on="2027-03-05",
            payment_count="12",
            cost_notice_received_on="2027-03-08",
            protest_filed_on="2027-03-22",
        )
    )


def reduce(client, clock) -> None:
    """The Board reduces the charge to $2,787.45 on Tuesday 20 April 2027, payments from
    20 May."""
    clock.set("2027-04-20")
    ok(
        step(
            client,
            "protest",
            protest_outcome="reduced",
            decided="2,787.45",
            protest_decided_on="2027-04-20",
            protest_mail_number="7019 0700 0000 1234 5678",
            protest_payment_due_on="2027-05-20",
        )
    )


def test_b1_the_boards_reduction_leaves_the_mailed_notice_as_mailed(officer, clock):
    b1_protested(officer, clock)
    reduce(officer, clock)
    letter = text(officer.get(COST_LETTER).text)
    assert "Copy as mailed on Friday, March 5, 2027 ." in letter
    assert "Total $3,001.05" in letter and "$2,787.45" not in letter
    assert "$250.17" in letter, "the first of the 12 payments as mailed"
    page = text(officer.get(N).text)
    assert (
        "decided Tuesday, April 20, 2027 : the charge reduced to $2,787.45 (certified mail 7019"
        " 0700 0000 1234 5678), payments due from Thursday, May 20, 2027 ." in page
    )
    assert (
        "As the Board of Trustees decided $2,787.45 (the charge reduced to $2,787.45; the cost"
        " notice stated $3,001.05)" in page
    )
    statement = text(officer.get(f"{N}statement").text)
    assert "Tuesday, April 20, 2027 the charge reduced to $2,787.45 −$213.60 $2,787.45" in statement
    assert "The Board of Trustees decided it Tuesday, April 20, 2027 : the charge reduced" in (
        statement
    )
    # 12 payments of the amount decided, the odd cents on the first: $232.37, then $232.28.
    assert "1 Thursday, May 20, 2027 $232.37" in statement
    assert "2 Monday, June 21, 2027 $232.28" in statement


def test_b1_the_mailed_cost_cannot_be_typed_over(officer, clock):
    b1_protested(officer, clock)
    reduce(officer, clock)
    refused = step(officer, "completion", completed_on="2027-02-26", work="2,687.45", admin="100")
    assert refused.status_code == 422
    assert (
        "The cost notice was sent on Friday, March 5, 2027 and is kept as mailed: the completion"
        " date, the cost and the payments it printed cannot change. A different amount is the"
        " Board's decision on the owner's protest" in text(refused.text)
    )
    fewer = step(officer, "costs", cost_notice_mailed_on="2027-03-05", payment_count="6")
    assert fewer.status_code == 422 and "kept as mailed" in fewer.text
    letter = text(officer.get(COST_LETTER).text)
    assert "Total $3,001.05" in letter and "Administrative costs $313.60" in letter


def test_b1_the_annual_figure_counts_the_charge_as_decided(officer, clock):
    b1_protested(officer, clock)
    year = {"start": "2027-01-03", "end": "2028-01-02"}
    before = text(officer.get("/staff/annual-report/", query_string=year).text)
    assert "Abatement costs charged (cost notices mailed) $3,001.05 (1 record" in before
    reduce(officer, clock)
    after = text(officer.get("/staff/annual-report/", query_string=year).text)
    assert "Abatement costs charged (cost notices mailed) $2,787.45 (1 record" in after


def test_the_boards_decision_says_what_it_decided(officer, clock):
    b1_protested(officer, clock)
    clock.set("2027-04-20")
    missing = step(officer, "protest", protest_decided_on="2027-04-20")
    assert missing.status_code == 422
    assert "Say what the Board decided." in missing.text
    no_amount = step(
        officer,
        "protest",
        protest_outcome="reduced",
        protest_decided_on="2027-04-20",
        protest_payment_due_on="2027-05-20",
    )
    assert no_amount.status_code == 422 and "Enter the amount the Board set." in no_amount.text
    more = step(
        officer,
        "protest",
        protest_outcome="reduced",
        decided="3,001.05",
        protest_decided_on="2027-04-20",
        protest_payment_due_on="2027-05-20",
    )
    assert more.status_code == 422 and "below the amount mailed" in more.text
    no_day = step(officer, "protest", protest_outcome="upheld", protest_decided_on="2027-04-20")
    assert no_day.status_code == 422 and "Enter the day payment is due from." in no_day.text
    # Withdrawn: nothing is owed and nothing falls due, and nothing awaits the Board.
    ok(step(officer, "protest", protest_outcome="withdrawn", protest_decided_on="2027-04-20"))
    clock.set("2027-08-01")
    page = text(officer.get(N).text)
    assert "decided Tuesday, April 20, 2027 : the charge withdrawn, nothing is owed." in page
    assert "Tax bill Unpaid after its due date" not in page
    statement = text(officer.get(f"{N}statement").text)
    assert "the charge withdrawn, nothing is owed −$3,001.05 $0.00" in statement
    assert "Balance due $0.00" in statement
