"""Business-day deadlines (§ 216-12): New York's holidays as observed, closures and the switches.

Every expected date below was checked against Python's `calendar` by hand, not by this module.
"""

from __future__ import annotations

import calendar
import dataclasses
from datetime import date, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from content_model.loader import load_content
from content_model.site import Holiday, HolidayRules
from portal.core.deadlines import BusinessCalendar

RULES = load_content().settings.holidays
REAL = BusinessCalendar(RULES)
NEW_YORK = ZoneInfo("America/New_York")


def d(text: str) -> date:
    return date.fromisoformat(text)


def with_rules(**changes: object) -> BusinessCalendar:
    """A calendar of the real rules with some parts changed."""
    return BusinessCalendar(dataclasses.replace(RULES, **changes))


# (day, its next business day) under the real rules.
NEXT = [
    ("weekend-friday", "2026-11-13", "2026-11-16"),
    ("weekend-saturday", "2026-11-14", "2026-11-16"),
    ("weekend-sunday", "2026-11-15", "2026-11-16"),
    ("memorial-day", "2026-05-22", "2026-05-26"),
    ("memorial-day-saturday", "2026-05-23", "2026-05-26"),
    ("memorial-day-itself", "2026-05-25", "2026-05-26"),
    ("july-4-saturday-not-moved", "2026-07-02", "2026-07-03"),
    ("july-4-itself-a-saturday", "2026-07-04", "2026-07-06"),
    ("july-4-sunday-kept-monday", "2027-07-02", "2027-07-06"),
    ("lincolns-birthday", "2026-02-11", "2026-02-13"),
    ("washingtons-birthday", "2026-02-13", "2026-02-17"),
    ("election-day-2026", "2026-11-02", "2026-11-04"),
    ("election-day-2028", "2028-11-06", "2028-11-08"),
    ("veterans-day", "2026-11-10", "2026-11-12"),
    ("veterans-day-saturday-not-moved", "2028-11-09", "2028-11-10"),
    ("thanksgiving", "2026-11-25", "2026-11-27"),
    ("christmas-saturday-not-moved", "2027-12-23", "2027-12-24"),
    ("new-year-saturday-not-moved", "2027-12-30", "2027-12-31"),
    ("new-year-sunday-kept-monday", "2022-12-30", "2023-01-03"),
    ("juneteenth-friday", "2026-06-18", "2026-06-22"),
    ("juneteenth-saturday-not-moved", "2027-06-17", "2027-06-18"),
    ("columbus-day", "2026-10-09", "2026-10-13"),
    ("mlk-day", "2026-01-16", "2026-01-20"),
    ("labor-day", "2026-09-04", "2026-09-08"),
    ("flag-day-sunday-not-moved", "2026-06-12", "2026-06-15"),
]


@pytest.mark.parametrize(("day", "expected"), [c[1:] for c in NEXT], ids=[c[0] for c in NEXT])
def test_next_business_day(day, expected):
    assert REAL.next_business_day(d(day)) == d(expected)
    assert REAL.add_business_days(d(day), 1) == d(expected)


# (day, n, the n-th business day after it): a written confirmation "within three business days".
ADD = [
    ("friday-before-memorial-day", "2026-05-22", 3, "2026-05-28"),
    ("friday-before-columbus-day", "2026-10-09", 3, "2026-10-15"),
    ("monday-before-election-day", "2026-11-02", 3, "2026-11-06"),
    ("tuesday-before-veterans-day", "2026-11-10", 3, "2026-11-16"),
    ("wednesday-before-thanksgiving", "2026-11-25", 3, "2026-12-01"),
    ("over-christmas-2027", "2027-12-22", 3, "2027-12-27"),
    ("into-2028-new-year-on-a-saturday", "2027-12-29", 3, "2028-01-03"),
    ("from-a-saturday", "2026-11-14", 3, "2026-11-18"),
    ("from-the-friday-before-a-saturday-holiday", "2026-07-03", 1, "2026-07-06"),
    ("ten-over-election-and-veterans-day", "2026-11-02", 10, "2026-11-18"),
]


@pytest.mark.parametrize(("day", "n", "expected"), [c[1:] for c in ADD], ids=[c[0] for c in ADD])
def test_add_business_days(day, n, expected):
    assert REAL.add_business_days(d(day), n) == d(expected)


# (after, before, the weekday holidays strictly between): what a count passed over.
PASSED_OVER = [
    ("election-and-veterans-day", "2026-11-02", "2026-11-18", ["2026-11-03", "2026-11-11"]),
    ("lincoln-and-washington-2027", "2027-02-11", "2027-02-16", ["2027-02-12", "2027-02-15"]),
    ("weekends-are-not-named", "2026-11-13", "2026-11-16", []),
    ("the-ends-are-not-counted", "2026-11-03", "2026-11-11", []),
    ("same-day", "2026-11-03", "2026-11-03", []),
]


@pytest.mark.parametrize(
    ("after", "before", "expected"), [c[1:] for c in PASSED_OVER], ids=[c[0] for c in PASSED_OVER]
)
def test_closed_weekdays(after, before, expected):
    assert REAL.closed_weekdays(d(after), d(before)) == [d(day) for day in expected]


# (day, whether it is a business day) under the real rules.
BUSINESS = [
    ("flag-day-monday-after-is-open", "2026-06-15", True),
    ("susan-b-anthony-day-is-open", "2028-02-15", True),
    ("feb-15-2027-is-washingtons-birthday", "2027-02-15", False),
    ("ordinary-wednesday", "2026-11-18", True),
    ("saturday", "2026-11-14", False),
    ("july-3-2026-friday-before-saturday-holiday", "2026-07-03", True),
    ("july-5-2027-observed", "2027-07-05", False),
    ("christmas-eve-2027-friday-is-open", "2027-12-24", True),
    ("dec-31-2027-friday-is-open", "2027-12-31", True),
    ("jan-2-2023-new-year-observed", "2023-01-02", False),
    ("veterans-day-2028-friday-before-is-open", "2028-11-10", True),
    ("election-day-2028", "2028-11-07", False),
    ("mlk-day-2027", "2027-01-18", False),
    ("columbus-day-2026", "2026-10-12", False),
    ("juneteenth-2026", "2026-06-19", False),
]


@pytest.mark.parametrize(("day", "open_"), [c[1:] for c in BUSINESS], ids=[c[0] for c in BUSINESS])
def test_is_business_day(day, open_):
    assert REAL.is_business_day(d(day)) is open_


OBSERVED = [
    ("new-year-2028-on-a-saturday", 2028, "2028-01-01", "New Year's Day"),
    ("new-year-2027", 2027, "2027-01-01", "New Year's Day"),
    ("christmas-2027-on-a-saturday", 2027, "2027-12-25", "Christmas Day"),
    ("new-year-2023", 2023, "2023-01-02", "New Year's Day"),
    ("independence-day-2026-on-a-saturday", 2026, "2026-07-04", "Independence Day"),
    ("flag-day-2026-kept-sunday", 2026, "2026-06-14", "Flag Day"),
    ("thanksgiving-2026", 2026, "2026-11-26", "Thanksgiving Day"),
]


@pytest.mark.parametrize(
    ("year", "day", "name"), [c[1:] for c in OBSERVED], ids=[c[0] for c in OBSERVED]
)
def test_observed_holidays(year, day, name):
    assert REAL.observed_holidays(year)[d(day)] == name


def test_observed_holidays_cross_the_year_boundary():
    # With the Saturday switch on (not the default), 2027 keeps its own New Year's Day and
    # 2028's; 2028 keeps none. By default each year keeps its own 14.
    friday = with_rules(saturday_to_friday=True)
    assert len(friday.observed_holidays(2027)) == 15
    assert len(friday.observed_holidays(2028)) == 13
    assert not any(day.month == 1 and day.day <= 2 for day in friday.observed_holidays(2028))
    assert len(REAL.observed_holidays(2027)) == len(REAL.observed_holidays(2028)) == 14


def test_saturday_to_friday_is_off_by_default():
    # GCL § 24 moves only a holiday on a Sunday; a Friday closure is content, not law.
    assert RULES.saturday_to_friday is False
    assert RULES.sunday_to_monday is True


def test_observed_holidays_returns_a_copy():
    REAL.observed_holidays(2026).clear()
    assert len(REAL.observed_holidays(2026)) == 14


def test_closure_is_not_a_business_day_and_pushes_the_deadline():
    assert REAL.add_business_days(d("2026-12-23"), 1) == d("2026-12-24")
    closed = with_rules(closures=(d("2026-12-24"),))
    assert not closed.is_business_day(d("2026-12-24"))
    assert closed.observed_holidays(2026)[d("2026-12-24")] == "Office closure"
    assert closed.add_business_days(d("2026-12-23"), 1) == d("2026-12-28")


SWITCHES = [
    ("sunday-off-july-5-2027-open", {"sunday_to_monday": False}, "2027-07-02", "2027-07-05"),
    ("saturday-on-july-3-2026-closed", {"saturday_to_friday": True}, "2026-07-02", "2026-07-06"),
    ("saturday-on-dec-31-2027-closed", {"saturday_to_friday": True}, "2027-12-30", "2028-01-03"),
    ("sunday-off-jan-2-2023-open", {"sunday_to_monday": False}, "2022-12-30", "2023-01-02"),
]


@pytest.mark.parametrize(
    ("changes", "day", "expected"), [c[1:] for c in SWITCHES], ids=[c[0] for c in SWITCHES]
)
def test_weekend_switches(changes, day, expected):
    switched = with_rules(**changes)
    assert switched.is_business_day(d(expected))
    assert switched.next_business_day(d(day)) == d(expected)


def test_holiday_without_shift_stays_on_the_weekend():
    # Independence Day made unshiftable: Saturday July 4, 2026 moves nowhere.
    rules = tuple(
        dataclasses.replace(r, shift=False) if r.name == "Independence Day" else r
        for r in RULES.observed
    )
    fixed = with_rules(observed=rules)
    assert fixed.observed_holidays(2026)[d("2026-07-04")] == "Independence Day"
    assert fixed.is_business_day(d("2026-07-03"))


# (weekday, after_first, year, expected): "the <weekday> after the first <after_first> in November".
AFTER_FIRST = [
    ("election-day-month-starts-tuesday", 1, 0, 2022, "2022-11-08"),
    ("election-day-month-starts-sunday", 1, 0, 2026, "2026-11-03"),
    ("monday-after-first-monday-is-a-week-on", 0, 0, 2026, "2026-11-09"),
    # Anchors other than a Monday (the content's only kind today) must work as well.
    ("thursday-after-first-wednesday", 3, 2, 2026, "2026-11-05"),
    ("monday-after-first-friday", 0, 4, 2026, "2026-11-09"),
]


@pytest.mark.parametrize(
    ("weekday", "after_first", "year", "expected"),
    [c[1:] for c in AFTER_FIRST],
    ids=[c[0] for c in AFTER_FIRST],
)
def test_after_first_rules(weekday, after_first, year, expected):
    rule = Holiday("Rule", 11, weekday=weekday, after_first=after_first, shift=False)
    cal = BusinessCalendar(HolidayRules((rule,), (), True, True))
    assert list(cal.observed_holidays(year)) == [d(expected)]


@pytest.mark.parametrize(
    ("weekday", "expected"),
    [(0, "2026-05-25"), (4, "2026-05-29"), (6, "2026-05-31"), (3, "2026-05-28")],
    ids=["last-monday", "last-friday", "last-sunday-is-the-last-day", "last-thursday"],
)
def test_last_weekday_rules(weekday, expected):
    rule = Holiday("Rule", 5, weekday=weekday, nth=-1, shift=False)
    cal = BusinessCalendar(HolidayRules((rule,), (), True, True))
    assert list(cal.observed_holidays(2026)) == [d(expected)]


def test_a_rule_with_no_day_in_a_year_does_not_hide_the_rules_after_it():
    rules = (Holiday("Leap Day", 2, 29), Holiday("Independence Day", 7, 4, shift=False))
    cal = BusinessCalendar(HolidayRules(rules, (), True, False))
    assert cal.observed_holidays(2027) == {d("2027-07-04"): "Independence Day"}


def test_two_holidays_on_one_day_are_both_named():
    rules = (Holiday("Founders Day", 7, 4, shift=False), Holiday("Independence Day", 7, 4))
    cal = BusinessCalendar(HolidayRules(rules, (), True, False))
    assert cal.observed_holidays(2029) == {d("2029-07-04"): "Founders Day; Independence Day"}


def test_close_of_business_is_the_office_closing_time_that_day():
    from datetime import time

    close = REAL.close_of_business(d("2026-11-02"), NEW_YORK, time(16, 30))
    assert (close.date(), close.hour, close.minute) == (d("2026-11-02"), 16, 30)
    assert close.tzinfo is NEW_YORK and close.utcoffset() == timedelta(hours=-5)


def test_february_29_rule_only_in_leap_years():
    leap = BusinessCalendar(HolidayRules((Holiday("Leap Day", 2, 29),), (), True, True))
    assert leap.observed_holidays(2028) == {d("2028-02-29"): "Leap Day"}
    assert leap.observed_holidays(2027) == {}


@pytest.mark.parametrize("n", [0, -1], ids=["zero", "negative"])
def test_n_below_one_is_refused(n):
    with pytest.raises(ValueError, match=f"n must be at least 1, not {n}"):
        REAL.add_business_days(d("2026-11-13"), n)


END_OF_DAY = [
    ("summer-edt", "2026-07-15", -4),
    ("winter-est", "2026-01-15", -5),
    ("dst-starts", "2026-03-08", -4),
    ("dst-ends", "2026-11-01", -5),
]


@pytest.mark.parametrize(
    ("day", "hours"), [c[1:] for c in END_OF_DAY], ids=[c[0] for c in END_OF_DAY]
)
def test_end_of_day(day, hours):
    end = REAL.end_of_day(d(day), NEW_YORK)
    assert (end.date(), end.hour, end.minute, end.second) == (d(day), 23, 59, 59)
    assert end.tzinfo is NEW_YORK
    assert end.utcoffset() == timedelta(hours=hours)


def test_the_app_builds_its_calendar_once_from_the_content(make_app):
    app = make_app()
    calendar = app.extensions["calendar"]
    assert calendar.rules == RULES
    for day in ("2026-11-13", "2027-12-23", "2026-07-04", "2026-06-15"):
        assert calendar.is_business_day(d(day)) is REAL.is_business_day(d(day))
        assert calendar.add_business_days(d(day), 3) == REAL.add_business_days(d(day), 3)


# ---------------------------------------------------------------- properties

DAYS = st.dates(date(1990, 1, 1), date(2100, 12, 31))
COUNTS = st.integers(1, 15)
YEARS = st.integers(1990, 2100)


def business_days_between(start: date, end: date) -> int:
    """Business days strictly between two dates."""
    days = (start + timedelta(i) for i in range(1, (end - start).days))
    return sum(REAL.is_business_day(day) for day in days)


@given(DAYS, COUNTS)
def test_add_business_days_skips_no_business_day(day, n):
    result = REAL.add_business_days(day, n)
    assert result > day
    assert REAL.is_business_day(result)
    assert business_days_between(day, result) == n - 1


@given(DAYS, st.integers(2, 15))
def test_add_business_days_is_repeated_next_business_day(day, n):
    assert REAL.next_business_day(day) == REAL.add_business_days(day, 1)
    assert REAL.add_business_days(day, n) == REAL.next_business_day(
        REAL.add_business_days(day, n - 1)
    )


def actual_date(rule: Holiday, year: int) -> date | None:
    """A rule's date by brute force over the month, independent of the module's arithmetic."""
    month = [
        date(year, rule.month, i) for i in range(1, calendar.monthrange(year, rule.month)[1] + 1)
    ]
    if rule.day is not None:
        return date(year, rule.month, rule.day) if rule.day <= len(month) else None
    if rule.after_first is not None:
        anchor = next(day for day in month if day.weekday() == rule.after_first)
        return next(day for day in month if day > anchor and day.weekday() == rule.weekday)
    return [day for day in month if day.weekday() == rule.weekday][
        rule.nth - 1 if rule.nth > 0 else -1
    ]


@given(YEARS, st.booleans(), st.booleans())
def test_every_rule_is_observed_where_the_switches_say(year, sunday_to_monday, saturday_to_friday):
    cal = with_rules(sunday_to_monday=sunday_to_monday, saturday_to_friday=saturday_to_friday)
    for rule in RULES.observed:
        actual = actual_date(rule, year)
        kept = actual
        if rule.shift and actual.weekday() == 6 and sunday_to_monday:
            kept = actual + timedelta(1)
        if rule.shift and actual.weekday() == 5 and saturday_to_friday:
            kept = actual - timedelta(1)
        assert cal.observed_holidays(kept.year)[kept] == rule.name


@given(YEARS, st.booleans(), st.booleans())
def test_observed_dates_are_in_the_year_and_weekdays_unless_unshifted(year, to_monday, to_friday):
    cal = with_rules(sunday_to_monday=to_monday, saturday_to_friday=to_friday)
    by_name = {rule.name: rule for rule in RULES.observed}
    for day, name in cal.observed_holidays(year).items():
        assert day.year == year
        if day.weekday() == 5:
            assert not by_name[name].shift or not to_friday
        if day.weekday() == 6:
            assert not by_name[name].shift or not to_monday
