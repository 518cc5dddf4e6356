"""Business-day deadlines: the release notification section's "next business day" and
"within three business days".

A business day is Monday to Friday, not a holiday as observed under the content's HolidayRules
and not a closure of the municipality's. Dates are computed from the rules for any year,
never from a table.
"""

from __future__ import annotations

import calendar
from datetime import MAXYEAR, MINYEAR, date, datetime, time, timedelta, tzinfo

from content_model.site import Holiday, HolidayRules

SATURDAY, SUNDAY = 5, 6
CLOSURE = "Office closure"
# The last second of a day: a deadline "by the end of" a day.
END_OF_DAY = time(23, 59, 59)


def _holiday_date(rule: Holiday, year: int) -> date | None:
    """The day a rule's holiday actually falls on in a year (None: no such day that year)."""
    if rule.day is not None:
        # February 29 is a valid rule (the loader allows it) but exists only in leap years.
        if rule.month == 2 and rule.day == 29 and not calendar.isleap(year):
            return None
        return date(year, rule.month, rule.day)
    assert rule.weekday is not None  # the loader requires a day or a weekday
    first = date(year, rule.month, 1)
    if rule.after_first is not None:
        # "The Tuesday after the first Monday": the anchor, then the next such weekday after it.
        anchor = first + timedelta((rule.after_first - first.weekday()) % 7)
        return anchor + timedelta((rule.weekday - anchor.weekday()) % 7 or 7)
    if rule.nth == -1:
        last = date(year, rule.month, calendar.monthrange(year, rule.month)[1])
        return last - timedelta((last.weekday() - rule.weekday) % 7)
    assert rule.nth is not None
    return first + timedelta((rule.weekday - first.weekday()) % 7 + 7 * (rule.nth - 1))


class BusinessCalendar:
    """Business days under HolidayRules: Monday to Friday, not an observed holiday or closure."""

    def __init__(self, rules: HolidayRules) -> None:
        self.rules = rules
        self._years: dict[int, dict[date, str]] = {}

    def _observed(self, rule: Holiday, actual: date) -> date:
        """The day a holiday is kept on, after the weekend switches."""
        if rule.shift and actual.weekday() == SUNDAY and self.rules.sunday_to_monday:
            return actual + timedelta(1)
        if rule.shift and actual.weekday() == SATURDAY and self.rules.saturday_to_friday:
            return actual - timedelta(1)
        return actual

    def _holidays(self, year: int) -> dict[date, str]:
        """The cached holidays of a year; callers must not change the dict."""
        if year not in self._years:
            found: dict[date, str] = {}
            # A shift can cross New Year (January 1, 2028 is kept on December 31, 2027),
            # so the neighbouring years' rules can place a holiday in this one.
            for source in range(max(year - 1, MINYEAR), min(year + 1, MAXYEAR) + 1):
                for rule in self.rules.observed:
                    actual = _holiday_date(rule, source)
                    if actual is None:
                        continue
                    kept = self._observed(rule, actual)
                    if kept.year == year:
                        # Two holidays on one day are both named, so neither is lost.
                        found[kept] = f"{found[kept]}; {rule.name}" if kept in found else rule.name
            for closure in self.rules.closures:
                if closure.year == year:
                    found.setdefault(closure, CLOSURE)
            self._years[year] = dict(sorted(found.items()))
        return self._years[year]

    def observed_holidays(self, year: int) -> dict[date, str]:
        """Observed date -> holiday name, for every holiday and closure kept in that year."""
        return dict(self._holidays(year))  # a copy, so the cache cannot be changed

    def is_business_day(self, day: date) -> bool:
        """Whether the municipality's office is open: a weekday, not a holiday or closure."""
        return day.weekday() < SATURDAY and day not in self._holidays(day.year)

    def closed_weekdays(self, after: date, before: date) -> list[date]:
        """The weekdays strictly between two days that are holidays or closures: the days a
        count of business days passed over though the office might be open on them."""
        days = (after + timedelta(n) for n in range(1, (before - after).days))
        return [day for day in days if day.weekday() < SATURDAY and not self.is_business_day(day)]

    def add_business_days(self, day: date, n: int) -> date:
        """The n-th business day after `day`, not counting `day` itself (n >= 1)."""
        if n < 1:
            raise ValueError(f"n must be at least 1, not {n}")
        while n:
            day += timedelta(1)
            if self.is_business_day(day):
                n -= 1
        return day

    def next_business_day(self, day: date) -> date:
        """The first business day after `day`, whatever kind of day `day` is."""
        return self.add_business_days(day, 1)

    def end_of_day(self, day: date, tz: tzinfo) -> datetime:
        """23:59:59 local time on `day`, timezone-aware: a deadline "by the end of" that day."""
        return datetime.combine(day, END_OF_DAY, tzinfo=tz)

    def close_of_business(self, day: date, tz: tzinfo, closes: time) -> datetime:
        """The office's closing time on `day`, timezone-aware: the last moment notice in
        person or by telephone can be given that day."""
        return datetime.combine(day, closes, tzinfo=tz)
