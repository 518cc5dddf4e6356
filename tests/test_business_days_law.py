"""The deadlines engine against an independent reading of New York's General Construction Law.

GCL § 24 names the public holidays; a holiday that falls on a Sunday is kept on the Monday
after it, except Flag Day, and there is no Saturday rule. GCL § 25-a: a period that ends on
a Saturday, Sunday or public holiday runs to the next business day. This file reads those
rules from the statute's words with its own arithmetic (listing each month's days); it asks
the engine only for the answers under test, for every day of 2024 to 2031.
"""

from __future__ import annotations

import calendar
from datetime import date, timedelta

import pytest

from content_model.loader import load_content
from portal.core.deadlines import BusinessCalendar

MON, TUE, THU, SAT, SUN = 0, 1, 3, 5, 6
YEARS = range(2024, 2032)


def weekdays_of(year: int, month: int, weekday: int) -> list[date]:
    last = calendar.monthrange(year, month)[1]
    return [
        date(year, month, d)
        for d in range(1, last + 1)
        if date(year, month, d).weekday() == weekday
    ]


def gcl_24(year: int) -> set[date]:
    """The days New York keeps as public holidays in a year, as GCL § 24 words them."""
    fixed = [
        date(year, 1, 1),
        date(year, 2, 12),
        date(year, 6, 19),
        date(year, 7, 4),
        date(year, 11, 11),
        date(year, 12, 25),
    ]
    floating = [
        weekdays_of(year, 1, MON)[2],  # Martin Luther King Jr. Day, third Monday in January
        weekdays_of(year, 2, MON)[2],  # Washington's Birthday, third Monday in February
        weekdays_of(year, 5, MON)[-1],  # Memorial Day, last Monday in May
        weekdays_of(year, 9, MON)[0],  # Labor Day, first Monday in September
        weekdays_of(year, 10, MON)[1],  # Columbus Day, second Monday in October
        weekdays_of(year, 11, THU)[3],  # Thanksgiving Day, fourth Thursday in November
        # Each general election day: the Tuesday next after the first Monday in November.
        weekdays_of(year, 11, MON)[0] + timedelta(1),
    ]
    kept = set()
    for day in fixed + floating:
        kept.add(day)
        if day.weekday() == SUN:  # "the next day thereafter shall be a public holiday"
            kept.add(day + timedelta(1))
    kept.add(weekdays_of(year, 6, SUN)[1])  # Flag Day, second Sunday in June: never moved
    return kept


def open_day(day: date) -> bool:
    return day.weekday() < SAT and day not in gcl_24(day.year)


def period_end(day: date, days: int) -> date:
    """GCL § 25-a: the last day of a period; on a weekend or holiday, the next business day."""
    end = day + timedelta(days)
    while not open_day(end):
        end += timedelta(1)
    return end


def nth_business_day(day: date, n: int) -> date:
    """Counting business days only: the n-th after `day`."""
    while n:
        day += timedelta(1)
        n -= open_day(day)
    return day


ENGINE = BusinessCalendar(load_content().settings.holidays)
EVERY_DAY = [
    date(2024, 1, 1) + timedelta(i) for i in range((date(2032, 1, 1) - date(2024, 1, 1)).days)
]


def test_the_default_content_has_no_closures_of_its_own():
    # The comparison is with the law alone; a Village closure would be a difference on purpose.
    assert load_content().settings.holidays.closures == ()


@pytest.mark.parametrize("year", YEARS)
def test_every_day_agrees_with_gcl_24_and_25a(year):
    wrong = []
    for day in (d for d in EVERY_DAY if d.year == year):
        expected = (open_day(day), period_end(day, 1), nth_business_day(day, 3))
        got = (
            ENGINE.is_business_day(day),
            ENGINE.next_business_day(day),
            ENGINE.add_business_days(day, 3),
        )
        if got != expected:
            wrong.append((day.isoformat(), got, expected))
    assert not wrong, wrong[:5]


@pytest.mark.parametrize("year", YEARS)
def test_the_weekday_holidays_are_the_law_s(year):
    engine = {d for d in ENGINE.observed_holidays(year) if d.weekday() < SAT}
    assert engine == {d for d in gcl_24(year) if d.weekday() < SAT}


@pytest.mark.parametrize(
    ("day", "open_"),
    [
        ("2026-07-03", True),
        ("2027-12-24", True),
        ("2027-12-31", True),
        ("2027-07-05", False),
        ("2028-02-14", True),
        ("2028-02-21", False),
        ("2026-02-12", False),
    ],
)
def test_the_days_the_issue_names(day, open_):
    # Fridays before a Saturday holiday are open (no Saturday rule); a Sunday's holiday is
    # kept on the Monday; Lincoln's Birthday is a holiday.
    assert open_day(date.fromisoformat(day)) is open_
    assert ENGINE.is_business_day(date.fromisoformat(day)) is open_
