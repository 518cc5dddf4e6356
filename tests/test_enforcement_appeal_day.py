"""The last day to appeal, through the code the app runs: a notice served Monday 1 March 2027
may be appealed through Tuesday 16 March (15 calendar days); an appeal filed that day holds
the notice's deadline, one filed on 17 March holds nothing. Checked through timeline(), the
notice page the officer reads, and the offense history of the respondent's next violation."""

from __future__ import annotations

import datetime as dt
import html
import re

import pytest
from enforcement_helpers import issue, ok, post, times, violation

from content_model.enforcement import Terms
from portal.core.deadlines import BusinessCalendar
from portal.enforcement import rules
from portal.enforcement.notices import STEP_COLUMNS
from portal.enforcement.timeline import timeline

pytest_plugins = ["enforcement_fixtures"]  # the clock and the signed-in officer
D = dt.date.fromisoformat
TERMS = Terms()


def text(page: str) -> str:
    """A page's words, tags and spacing dropped."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)).replace("\xa0", " "))


@pytest.fixture(scope="module")
def calendar(content):
    return BusinessCalendar(content.settings.holidays)


def line_of(today: str, calendar, **steps):
    notice = {"issued_on": "2027-03-01", "superseded_by": None, "deadline": "2027-03-31"}
    recorded = {key: None for key in STEP_COLUMNS} | {"conditions": {}} | steps
    return timeline(notice, recorded, [], [], TERMS, calendar, D(today))


# ---------------------------------------------------------------- timeline()


def test_the_window_is_open_through_its_last_day(calendar):
    assert line_of("2027-03-16", calendar).get("appeal").open is True
    assert line_of("2027-03-17", calendar).get("appeal").open is False


def test_an_appeal_on_the_last_day_holds_the_deadline_and_opens_a_hearing(calendar):
    line = line_of("2027-03-20", calendar, appeal_filed_on="2027-03-16")
    assert line.appeal_timely is True and line.appeal_in_time is True
    assert line.correction is None, "the deadline waits for the Board"
    assert line.get("hearing").due == D("2027-04-15")
    assert line.get("appeal").late is False
    assert line.access_block == "pending"


def test_an_appeal_the_day_after_holds_nothing(calendar):
    line = line_of("2027-03-20", calendar, appeal_filed_on="2027-03-17")
    assert line.appeal_timely is False and line.appeal_in_time is False
    assert line.correction == D("2027-03-31")
    assert line.get("hearing") is None
    assert line.get("appeal").late is True


def test_upheld_after_an_appeal_on_the_last_day_the_correction_follows_the_decision(calendar):
    # Decided Thursday 1 April: five business days is Thursday 8 April; the notice gave until
    # 31 March, so the later date holds.
    line = line_of(
        "2027-04-02", calendar, appeal_filed_on="2027-03-16", decided_on="2027-04-01", upheld=1
    )
    assert line.correction == D("2027-04-08")
    late = line_of(
        "2027-04-02", calendar, appeal_filed_on="2027-03-17", decided_on="2027-04-01", upheld=1
    )
    assert late.correction == D("2027-03-31")


def test_the_correction_date_is_the_respondents_through_its_last_day(calendar):
    on_the_day = line_of("2027-03-31", calendar)
    assert on_the_day.access_block == "not-yet" and on_the_day.weeks == 0
    after = line_of("2027-04-01", calendar)
    assert after.access_block is None and after.weeks == 0
    assert line_of("2027-04-07", calendar).weeks == 1, "a whole week from 1 April"


@pytest.mark.parametrize(
    "appealed, today, standing",
    [
        ("2027-03-16", "2027-03-20", ("pending", "its appeal awaits the Board")),
        ("2027-03-17", "2027-03-20", ("established", "not appealed in time")),
        (None, "2027-03-16", ("pending", "the appeal period runs until March 16, 2027")),
        (None, "2027-03-17", ("established", "not appealed in time")),
    ],
)
def test_a_notice_appealed_on_the_last_day_is_not_yet_established(
    calendar, appealed, today, standing
):
    found = rules.notice_standing(
        D("2027-03-01"), appealed and D(appealed), False, None, None, D(today), TERMS, calendar
    )
    assert found == standing


# ---------------------------------------------------------------- the notice page


def appeal_on(officer, clock, day: str) -> str:
    """A notice served 1 March 2027, its appeal logged as filed on `day` (that day), and the
    notice page four days later."""
    violation(officer)
    ok(post(officer, "/staff/violations/1/notice", order_1="y", order_2="y", deadline="2027-03-31"))
    issue(officer)
    clock.set(day)
    ok(post(officer, "/staff/notices/1/steps/appeal", "/staff/notices/1/", appeal_filed_on=day))
    clock.set("2027-03-21")
    return officer.get("/staff/notices/1/").text


def test_the_page_holds_an_appeal_filed_on_the_last_day(officer, clock):
    page = appeal_on(officer, clock, "2027-03-16")
    words = text(page)
    assert "Appeal to the Board of Trustees due by Tuesday, March 16, 2027" in words
    assert "Filed Tuesday, March 16, 2027 ; hearing due by Thursday, April 15, 2027" in words
    assert "Filed Tuesday, March 16, 2027 : after the period" not in words
    assert "Done late" not in words
    assert "The correction date waits for the decision of the Board of Trustees" in words
    assert "2027-04-15" in times(page)


def test_the_page_says_an_appeal_filed_the_day_after_is_late(officer, clock):
    page = appeal_on(officer, clock, "2027-03-17")
    words = text(page)
    assert "Filed Wednesday, March 17, 2027 : after the period, so it does not hold" in words
    assert "Hearing due" not in words and "Done late" in words
    assert "Correction due by Wednesday, March 31, 2027" in words
