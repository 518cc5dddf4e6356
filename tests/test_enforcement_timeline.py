"""A notice's dates from its records (portal/enforcement/timeline.py), with the legal review's own
scenarios: an upheld appeal never shortens the notice's deadline (F4), a late appeal holds
nothing (F10), a protest awaiting the Board makes nothing due (F5), and late steps show late."""

from __future__ import annotations

import datetime as dt

import pytest

from content_model.enforcement import Terms
from portal.core.deadlines import BusinessCalendar
from portal.enforcement.records import STEP_COLUMNS
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
    line = dates_of("2027-01-28", "2027-03-31", "2027-03-20", calendar,
                    appeal_filed_on="2027-02-10", decided_on="2027-03-01", upheld=1,
                    completed_on="2027-03-15")  # fmt: skip
    assert line.correction == D("2027-03-31")
    assert line.weeks == 0, "no week of continued violation inside the time the notice gave"
    assert line.get("correction").done == D("2027-03-15") and not line.get("correction").late


def test_f10_a_late_appeal_holds_nothing_and_opens_no_hearing(calendar):
    # The window closed Tuesday 16 February 2027; the appeal was logged 26 February.
    line = dates_of("2027-01-28", "2027-03-31", "2027-03-01", calendar,
                    appeal_filed_on="2027-02-26")  # fmt: skip
    assert line.appeal_timely is False
    assert line.correction == D("2027-03-31")
    assert line.get("hearing") is None, "no 'Hearing due Monday, March 29, 2027'"
    appeal = line.get("appeal")
    assert appeal.late and appeal.done == D("2027-02-26") and appeal.due == D("2027-02-16")
    # The Board accepted it all the same: the hearing is due 30 days after it (29 March).
    accepted = dates_of("2027-01-28", "2027-03-31", "2027-03-01", calendar,
                        appeal_filed_on="2027-02-26", late_appeal_accepted=1)  # fmt: skip
    assert accepted.appeal_timely is True and accepted.correction is None
    assert accepted.get("hearing").due == D("2027-03-29")


def test_f5_no_special_assessment_while_a_protest_awaits_the_board(calendar):
    # $1,100 completed 1 March 2027; cost notice mailed 17 March, received 22 March (protest
    # window to 21 April); protest filed 5 April; 6 payments chosen; nothing paid.
    steps = {"completed_on": "2027-03-01", "work_cents": 100_000, "admin_cents": 10_000,
             "cost_notice_mailed_on": "2027-03-17", "cost_notice_received_on": "2027-03-22",
             "protest_filed_on": "2027-04-05", "payment_count": 6}  # fmt: skip
    line = dates_of("2027-01-04", "2027-02-01", "2027-04-30", calendar, **steps)
    assert line.get("protest").due == D("2027-04-21")
    assert line.protest_pending and line.protest_timely
    assert not line.special_assessment and line.schedule == [] and line.next_payment is None
    assert line.get("payment") is None
    # Interest still runs from the 31st day after completion (1 April), as the text says: 30
    # days on $1,100 at 9% a year by 30 April, $8.14.
    assert line.account.interest_from == D("2027-04-01") and line.account.interest_total == 814
    # The Board decides on 10 May that payment is due from 1 June: then the schedule runs.
    decided = dates_of("2027-01-04", "2027-02-01", "2027-06-02", calendar, **steps,
                       protest_decided_on="2027-05-10", protest_payment_due_on="2027-06-01")  # fmt: skip
    assert not decided.protest_pending
    assert [i.due for i in decided.schedule[:3]] == [
        D("2027-06-01"),
        D("2027-07-01"),
        D("2027-08-02"),
    ]
    assert decided.special_assessment, "payment 1 unpaid after 1 June"


def test_with_no_protest_the_first_payment_falls_due_when_the_period_closes(calendar):
    steps = {"completed_on": "2027-03-01", "work_cents": 120_000, "admin_cents": 0,
             "cost_notice_mailed_on": "2027-03-17", "cost_notice_received_on": "2027-03-22",
             "payment_count": 2}  # fmt: skip
    line = dates_of("2027-01-04", "2027-02-01", "2027-04-22", calendar, **steps)
    assert [(i.due, i.cents) for i in line.schedule] == [
        (D("2027-04-21"), 60_000), (D("2027-05-21"), 60_000)
    ]  # fmt: skip
    assert line.special_assessment
    # A voided payment counts for nothing; the right one pays the first installment.
    paid = dates_of("2027-01-04", "2027-02-01", "2027-04-22", calendar,
                    payments=[("2027-04-20", 6_000_000, "2027-04-21T09:00:00-04:00"),
                              ("2027-04-20", 61_000, None)], **steps)  # fmt: skip
    # 19 days of interest on $1,200 ($5.62) first, $604.38 to the charge.
    assert paid.account.paid == 61_000 and not paid.special_assessment
    assert [s.left for s in paid.states] == [0, 59_562]


def test_late_steps_show_late(calendar):
    # Finding 13: completed 10 November 2026, cost notice due 10 December, mailed 14 December.
    line = dates_of("2026-10-01", "2026-10-30", "2026-12-20", calendar,
                    completed_on="2026-11-10", cost_notice_mailed_on="2026-12-14")  # fmt: skip
    cost = line.get("cost-notice")
    assert (cost.due, cost.done, cost.late, cost.open) == (
        D("2026-12-10"),
        D("2026-12-14"),
        True,
        False,
    )
    on_time = dates_of("2026-10-01", "2026-10-30", "2026-12-20", calendar,
                       completed_on="2026-11-10", cost_notice_mailed_on="2026-12-10")  # fmt: skip
    assert not on_time.get("cost-notice").late
