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


def test_a2_the_cost_notice_reprints_as_mailed_with_its_protest_date(officer, clock):
    a2_mailed(officer, clock)
    letter = text(officer.get(COST_LETTER).text)
    assert "Copy as mailed on Friday, December 10, 2027 ." in letter
    assert PRINTED_PROTEST in letter
    assert "Total $12,345.67" in letter
    assert "1 Friday, January 14, 2028 $1,028.87" in letter
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
    clock.set("2028-01-14")
    ok(
        step(
            officer,
            "costs",
            cost_notice_mailed_on="2027-12-10",
            payment_count="12",
            cost_notice_received_on="2027-12-11",
            protest_filed_on="2028-01-14",
        )
    )
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
    clock.set("2028-01-12")
    ok(
        step(
            officer,
            "costs",
            cost_notice_mailed_on="2027-12-10",
            payment_count="12",
            cost_notice_received_on="2027-12-11",
            protest_filed_on="2028-01-12",
        )
    )
    page = text(officer.get(N).text)
    assert "Protest filed Wednesday, January 12, 2028 , in time" in page
    # The day after the printed date, a protest is late.
    clock.set("2028-01-15")
    ok(
        step(
            officer,
            "costs",
            cost_notice_mailed_on="2027-12-10",
            payment_count="12",
            cost_notice_received_on="2027-12-11",
            protest_filed_on="2028-01-15",
        )
    )
    page = text(officer.get(N).text)
    assert "Protest filed Saturday, January 15, 2028 , after the period" in page
