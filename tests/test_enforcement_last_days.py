"""The last day of each of a notice's periods, through timeline(): a date is open (not
overdue) on its own day and overdue the day after; a step recorded on the last day is done in
time, the day after late. The notice is served Monday 1 March 2027 with a deadline of
Wednesday 31 March; the abatement is completed Thursday 1 April."""

from __future__ import annotations

import datetime as dt

import pytest

from content_model.enforcement import Terms
from portal.core.deadlines import BusinessCalendar
from portal.enforcement.notices import STEP_COLUMNS
from portal.enforcement.timeline import timeline

D = dt.date.fromisoformat
TERMS = Terms()
ABATED = {"completed_on": "2027-04-01", "work_cents": 100_000, "admin_cents": 0}


@pytest.fixture(scope="module")
def calendar(content):
    return BusinessCalendar(content.settings.holidays)


def line_of(today: str, calendar, **steps):
    notice = {"issued_on": "2027-03-01", "superseded_by": None, "deadline": "2027-03-31"}
    recorded = {key: None for key in STEP_COLUMNS} | {"conditions": {}} | steps
    return timeline(notice, recorded, [], [], TERMS, calendar, D(today))


def test_the_correction_date_is_open_on_its_day_and_overdue_the_day_after(calendar):
    on_the_day = line_of("2027-03-31", calendar).get("correction")
    assert on_the_day.open and not on_the_day.overdue
    assert line_of("2027-04-01", calendar).get("correction").overdue


def test_an_abatement_before_the_correction_date_has_passed_is_flagged(calendar):
    on_the_day = line_of("2027-04-02", calendar, **{**ABATED, "completed_on": "2027-03-31"})
    assert on_the_day.abated_early is True
    assert line_of("2027-04-02", calendar, **ABATED).abated_early is False


def test_a_hearing_on_its_last_day_is_in_time(calendar):
    # Appealed 16 March: the hearing is due within 30 days, by Thursday 15 April.
    held = line_of("2027-04-20", calendar, appeal_filed_on="2027-03-16", hearing_on="2027-04-15")
    hearing = held.get("hearing")
    assert hearing.due == D("2027-04-15") and hearing.done == D("2027-04-15")
    assert not hearing.late and not hearing.open
    late = line_of("2027-04-20", calendar, appeal_filed_on="2027-03-16", hearing_on="2027-04-16")
    assert late.get("hearing").late


def test_the_cost_notice_on_its_last_day_is_in_time(calendar):
    # 30 days after 1 April is Saturday 1 May: the period runs to Monday 3 May.
    sent = line_of("2027-05-10", calendar, **ABATED, cost_notice_mailed_on="2027-05-03")
    assert sent.get("cost-notice").due == D("2027-05-03") and not sent.get("cost-notice").late
    late = line_of("2027-05-10", calendar, **ABATED, cost_notice_mailed_on="2027-05-04")
    assert late.get("cost-notice").late


MAILED = {**ABATED, "cost_notice_mailed_on": "2027-04-01", "payment_count": 2}


def test_a_protest_on_its_last_day_holds_the_payments(calendar):
    # Mailed 1 April, receipt presumed 6 April (5 days), protest within 30 days: 6 May.
    assert line_of("2027-05-06", calendar, **MAILED).get("protest").open
    assert not line_of("2027-05-07", calendar, **MAILED).get("protest").open
    held = line_of("2027-05-10", calendar, **MAILED, protest_filed_on="2027-05-06")
    assert held.protest_timely is True and held.protest_pending is True
    assert held.schedule == [] and held.special_assessment is False
    late = line_of("2027-05-10", calendar, **MAILED, protest_filed_on="2027-05-07")
    assert late.protest_timely is False and late.protest_pending is False
    assert [i.due for i in late.schedule] == [D("2027-05-06"), D("2027-06-07")]


def test_the_last_payment_is_due_through_its_day(calendar):
    # The second payment, a month after 6 May, falls on Sunday 6 June: due Monday 7 June.
    on_the_day = line_of("2027-06-07", calendar, **MAILED)
    assert on_the_day.schedule[-1].due == D("2027-06-07")
    assert on_the_day.last_due_passed is False
    assert line_of("2027-06-08", calendar, **MAILED).last_due_passed is True
