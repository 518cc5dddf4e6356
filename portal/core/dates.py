"""Calendar arithmetic every rule shares: the same day some years later.

The law counts some periods in years ("within a period of five years", "at least three
years", "once every five years"). A year after 29 February has no 29 February, and which
neighbour stands in for it is a reading each rule takes for itself, so the caller names it:

- `EARLIER` (28 February): the period never runs a day past the calendar's own date, for a
  period a person must act within or that limits a count (an offense history, a rotation);
- `LATER` (1 March): the period is never a day short, for a duty to keep something at least
  that long (a record kept "at least three years").
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

EARLIER: Literal["earlier"] = "earlier"
LATER: Literal["later"] = "later"
LeapDay = Literal["earlier", "later"]


def add_years(day: dt.date, years: int, *, leap_day: LeapDay) -> dt.date:
    """The same day `years` later (or earlier, with a negative `years`); a 29 February that
    lands in a common year becomes 28 February (`EARLIER`) or 1 March (`LATER`)."""
    if leap_day not in (EARLIER, LATER):
        raise ValueError(f"leap_day is {EARLIER!r} or {LATER!r}, not {leap_day!r}")
    try:
        return day.replace(year=day.year + years)
    except ValueError:  # 29 February, in a year that has none
        if leap_day == EARLIER:
            return dt.date(day.year + years, 2, 28)
        return dt.date(day.year + years, 3, 1)
