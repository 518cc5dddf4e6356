"""A notice's dates from its records (portal/enforcement/timeline.py), with the legal review's own
scenarios: an upheld appeal never shortens the notice's deadline, a late appeal holds
nothing, a protest awaiting the Board makes nothing due, and late steps show late."""

from __future__ import annotations

import datetime as dt

import pytest

from content_model.enforcement import Terms
from portal.core.deadlines import BusinessCalendar
from portal.enforcement.notices import STEP_COLUMNS
from portal.enforcement.timeline import timeline

D = dt.date.fromisoformat
TERMS = Terms()


@pytest.fixture(scope="module")
def calendar(content):
    return BusinessCalendar(content.settings.holidays)


def dates_of(issued: str, deadline: str | None, today: str, calendar, payments=(), **steps):
    """The timeline of a notice issued (served) on `issued`, with these steps recorded."""
    notice = {"issued_on": issued, "superseded_by": None, "deadline": deadline}
    recorded = {key: None for key in STEP_COLUMNS} | {"conditions": {}} | steps
    paid = [
        {"paid_on": day, "cents": cents, "voided_at": voided} for day, cents, voided in payments
    ]
    return timeline(notice, recorded, paid, [], TERMS, calendar, D(today))


def test_f4_an_upheld_appeal_keeps_the_notices_later_deadline(calendar):
    # Issued 28 January 2027 with a deadline of 31 March; appealed 10 February; upheld Monday 1
    # March (five business days later: 8 March); abated 15 March.
    line = dates_of(
        "2027-01-28",
        "2027-03-31",
        "2027-03-20",
        calendar,
        appeal_filed_on="2027-02-10",
        decided_on="2027-03-01",
        upheld=1,
        completed_on="2027-03-15",
    )
    assert line.correction == D("2027-03-31")
    assert line.weeks == 0, "no week of continued violation inside the time the notice gave"
    assert line.get("correction").done == D("2027-03-15") and not line.get("correction").late


def test_f10_a_late_appeal_holds_nothing_and_opens_no_hearing(calendar):
    # The window closed Tuesday 16 February 2027; the appeal was logged 26 February.
    line = dates_of(
        "2027-01-28", "2027-03-31", "2027-03-01", calendar, appeal_filed_on="2027-02-26"
    )
    assert line.appeal_timely is False
    assert line.correction == D("2027-03-31")
    assert line.get("hearing") is None, "no 'Hearing due Monday, March 29, 2027'"
    appeal = line.get("appeal")
    assert appeal.late and appeal.done == D("2027-02-26") and appeal.due == D("2027-02-16")
    # The Board accepted it all the same: the hearing is due 30 days after it (29 March).
    accepted = dates_of(
        "2027-01-28",
        "2027-03-31",
        "2027-03-01",
        calendar,
        appeal_filed_on="2027-02-26",
        late_appeal_accepted=1,
    )
    assert accepted.appeal_timely is True and accepted.correction is None
    assert accepted.get("hearing").due == D("2027-03-29")


def test_f5_no_special_assessment_while_a_protest_awaits_the_board(calendar):
    # $1,100 completed 1 March 2027; cost notice mailed 17 March, received 22 March (protest
    # window to 21 April); protest filed 5 April; 6 payments chosen; nothing paid.
    steps = {
        "completed_on": "2027-03-01",
        "work_cents": 100_000,
        "admin_cents": 10_000,
        "cost_notice_mailed_on": "2027-03-17",
        "cost_notice_received_on": "2027-03-22",
        "protest_filed_on": "2027-04-05",
        "payment_count": 6,
    }
    line = dates_of("2027-01-04", "2027-02-01", "2027-04-30", calendar, **steps)
    assert line.get("protest").due == D("2027-04-21")
    assert line.protest_pending and line.protest_timely
    assert not line.special_assessment and line.schedule == [] and line.next_payment is None
    assert line.get("payment") is None
    # Interest still runs from the 31st day after completion (1 April), as the text says: 30
    # days on $1,100 at 9% a year by 30 April, $8.14.
    assert line.account.interest_from == D("2027-04-01") and line.account.interest_total == 814
    # The Board decides on 10 May that payment is due from 1 June: then the schedule runs.
    decided = dates_of(
        "2027-01-04",
        "2027-02-01",
        "2027-06-02",
        calendar,
        **steps,
        protest_decided_on="2027-05-10",
        protest_payment_due_on="2027-06-01",
    )
    assert not decided.protest_pending
    assert [i.due for i in decided.schedule[:3]] == [
        D("2027-06-01"),
        D("2027-07-01"),
        D("2027-08-02"),
    ]
    assert decided.special_assessment, "payment 1 unpaid after 1 June"


def test_with_no_protest_the_first_payment_falls_due_when_the_period_closes(calendar):
    steps = {
        "completed_on": "2027-03-01",
        "work_cents": 120_000,
        "admin_cents": 0,
        "cost_notice_mailed_on": "2027-03-17",
        "cost_notice_received_on": "2027-03-22",
        "payment_count": 2,
    }
    line = dates_of("2027-01-04", "2027-02-01", "2027-04-22", calendar, **steps)
    assert [(i.due, i.cents) for i in line.schedule] == [
        (D("2027-04-21"), 60_000),
        (D("2027-05-21"), 60_000),
    ]
    assert line.special_assessment
    # A voided payment counts for nothing; the right one pays the first installment.
    paid = dates_of(
        "2027-01-04",
        "2027-02-01",
        "2027-04-22",
        calendar,
        payments=[
            ("2027-04-20", 6_000_000, "2027-04-21T09:00:00-04:00"),
            ("2027-04-20", 61_000, None),
        ],
        **steps,
    )
    # 19 days of interest on $1,200 ($5.62) first, $604.38 to the charge. The money paid meets
    # payment 1 ($600) and $10 of payment 2, which carries the interest it will have on its
    # date, 21 May ($5.62, and $4.55 for 20 April to 20 May on $595.62; officer's week M5):
    # $600 + $10.17 - $10 left.
    assert paid.account.paid == 61_000 and not paid.special_assessment
    assert [s.left for s in paid.states] == [0, 60_017]


def test_late_steps_show_late(calendar):
    # Finding 13: completed 10 November 2026, cost notice due 10 December, mailed 14 December.
    line = dates_of(
        "2026-10-01",
        "2026-10-30",
        "2026-12-20",
        calendar,
        completed_on="2026-11-10",
        cost_notice_mailed_on="2026-12-14",
    )
    cost = line.get("cost-notice")
    assert (cost.due, cost.done, cost.late, cost.open) == (
        D("2026-12-10"),
        D("2026-12-14"),
        True,
        False,
    )
    on_time = dates_of(
        "2026-10-01",
        "2026-10-30",
        "2026-12-20",
        calendar,
        completed_on="2026-11-10",
        cost_notice_mailed_on="2026-12-10",
    )
    assert not on_time.get("cost-notice").late


# (Seed 199: "The liability shall be paid in not more than 12 equal payments";
# a special assessment only "if the amount due is not paid within a timely manner"): $1,100
# abated 3 May 2027, cost notice mailed 20 May, 3 payments, the first due 24 June (the protest
# period from the presumed receipt, 25 May), the second Monday 26 July (24 July is a Saturday).
L1_STEPS = {
    "completed_on": "2027-05-03",
    "work_cents": 100_000,
    "admin_cents": 10_000,
    "cost_notice_mailed_on": "2027-05-20",
    "payment_count": 3,
}


def test_l1_a_payment_of_the_printed_amount_on_its_date_is_not_past_due(calendar):
    line = dates_of(
        "2027-03-01",
        "2027-03-31",
        "2027-07-27",
        calendar,
        payments=[("2027-05-28", 36_668, None), ("2027-07-26", 36_666, None)],
        **L1_STEPS,
    )
    assert [(i.due, i.cents) for i in line.schedule] == [
        (D("2027-06-24"), 36_668),
        (D("2027-07-26"), 36_666),
        (D("2027-08-24"), 36_666),
    ]
    # Interest took $9.58 of the second payment (3 June to 25 July on $733.32): the schedule
    # still counts it paid, and the interest rides on the last payment, due 24 August, as it
    # will be on that date ($9.58, and $2.69 for 26 July to 23 August on the $376.24 of the
    # cost left; officer's week M5), though $9.77 is charged to today.
    assert line.account.interest_total == 977
    assert [(s.left, s.past_due) for s in line.states] == [(0, False), (0, False), (37_893, False)]
    assert not line.special_assessment
    assert line.next_payment.number == 3
    # Unpaid after 24 August, the last payment (with its interest) is past due.
    late = dates_of(
        "2027-03-01",
        "2027-03-31",
        "2027-08-25",
        calendar,
        payments=[("2027-05-28", 36_668, None), ("2027-07-26", 36_666, None)],
        **L1_STEPS,
    )
    assert late.special_assessment and late.states[2].past_due


def test_l1_a_protest_decided_late_does_not_eat_the_first_payment(calendar):
    # Review scenario B: $100 paid on 30 August against a first payment of $91.74 due 31
    # August, after $31.46 of interest ran while the protest awaited the Board.
    steps = {
        "completed_on": "2027-04-05",
        "work_cents": 100_000,
        "admin_cents": 10_000,
        "cost_notice_mailed_on": "2027-04-20",
        "cost_notice_received_on": "2027-04-22",
        "protest_filed_on": "2027-05-10",
        "protest_decided_on": "2027-08-02",
        "protest_payment_due_on": "2027-08-31",
        "payment_count": 12,
    }
    line = dates_of(
        "2027-03-01",
        "2027-03-31",
        "2027-09-01",
        calendar,
        payments=[("2027-08-30", 10_000, None)],
        **steps,
    )
    assert line.schedule[0].due == D("2027-08-31") and line.schedule[0].cents == 9_174
    assert line.states[0].left == 0 and not line.states[0].past_due
    assert not line.special_assessment


# The cost notice mailed Tuesday 20 April 2027 printed its payment dates from
# the presumed receipt (25 April, protest by Tuesday 25 May); staff then record that it arrived
# on 22 April. Thirty days from that receipt would close the protest on Monday 24 May, but the
# period applied never ends before the date the owner was given (legal review A2): Tuesday 25
# May; nor do the payment dates the owner holds move earlier.
def test_l2_an_earlier_recorded_receipt_keeps_the_printed_payment_dates(calendar):
    steps = {
        "completed_on": "2027-04-05",
        "work_cents": 100_000,
        "admin_cents": 10_000,
        "cost_notice_mailed_on": "2027-04-20",
        "payment_count": 12,
    }
    printed = dates_of("2027-03-01", "2027-03-31", "2027-06-25", calendar, **steps)
    received = dates_of(
        "2027-03-01",
        "2027-03-31",
        "2027-06-25",
        calendar,
        cost_notice_received_on="2027-04-22",
        **steps,
    )
    assert printed.get("protest").due == D("2027-05-25")
    assert received.get("protest").due == D("2027-05-25")
    assert received.get("protest").note == "as the cost notice printed it"
    assert received.protest_printed == D("2027-05-25")
    first = [D("2027-05-25"), D("2027-06-25"), D("2027-07-26")]
    assert [i.due for i in received.schedule[:3]] == first
    assert [i.due for i in printed.schedule[:3]] == first
    # A receipt recorded later than presumed moves them later: received 1 May, 31 May (a
    # Monday, Memorial Day) rolls to Tuesday 1 June.
    later = dates_of(
        "2027-03-01",
        "2027-03-31",
        "2027-06-25",
        calendar,
        cost_notice_received_on="2027-05-01",
        **steps,
    )
    assert later.schedule[0].due == D("2027-06-01")


# (Seed 173: "Each week's continued violation shall constitute a separate
# additional violation"; seed 196: access is asked "if the violation has not been corrected").
def test_l3_a_correction_by_the_respondent_closes_the_date_and_stops_the_weeks(calendar):
    line = dates_of(
        "2027-03-01",
        "2027-03-31",
        "2027-04-21",
        calendar,
        corrected_on="2027-03-29",
        correction_checked_on="2027-03-30",
    )
    correction = line.get("correction")
    assert (correction.open, correction.overdue, correction.done) == (False, False, D("2027-03-29"))
    assert line.weeks == 0 and line.access_block == "corrected"
    assert line.get("cost-notice") is None
    # Corrected on 14 April, two whole weeks after 31 March: late, and the count stops there.
    late = dates_of(
        "2027-03-01",
        "2027-03-31",
        "2027-05-21",
        calendar,
        corrected_on="2027-04-14",
        correction_checked_on="2027-04-15",
    )
    assert late.get("correction").late and late.weeks == 2
    # Nothing recorded: open, overdue, 3 weeks to 21 April, and access may be asked.
    none = dates_of("2027-03-01", "2027-03-31", "2027-04-21", calendar)
    assert none.get("correction").overdue and none.weeks == 3 and none.access_block is None


# (Seed 196: access is asked "if the violation has not been corrected pursuant
# to the requirements set forth in the notice of violation, or, in the event of an appeal,
# within five business days of the decision ... upholding the decision of the SMO").
@pytest.mark.parametrize(
    ("today", "steps", "block"),
    [
        ("2027-03-31", {}, "not-yet"),
        ("2027-04-01", {}, None),
        ("2027-04-20", {"appeal_filed_on": "2027-03-10"}, "pending"),
        (
            "2027-04-20",
            {"appeal_filed_on": "2027-03-10", "decided_on": "2027-04-05", "upheld": 0},
            "not-upheld",
        ),
        (
            "2027-04-12",
            {"appeal_filed_on": "2027-03-10", "decided_on": "2027-04-05", "upheld": 1},
            "not-yet",
        ),
        (
            "2027-04-13",
            {"appeal_filed_on": "2027-03-10", "decided_on": "2027-04-05", "upheld": 1},
            None,
        ),
        ("2027-04-20", {"appeal_filed_on": "2027-03-20"}, None),
    ],
)
def test_l4_access_is_asked_only_after_a_missed_correction_date(calendar, today, steps, block):
    assert dates_of("2027-03-01", "2027-03-31", today, calendar, **steps).access_block == block
    no_deadline = dates_of("2027-03-01", None, "2027-06-01", calendar)
    assert no_deadline.access_block == "no-date"
