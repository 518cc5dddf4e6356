"""The reporting period every figure, export and date filter counts by: the permit year and
its counting window. One place, so the last day of a year is counted in that year by all."""

from __future__ import annotations

import datetime as dt

from flask import current_app


def reporting_year(day: dt.date, starts: tuple[int, int] | None = None) -> tuple[dt.date, dt.date]:
    """The permit year holding `day`: from its first day to the day before the next one
    (content: reporting_year_starts)."""
    month, first = starts or current_app.extensions["content"].settings.reporting_year_starts
    start = dt.date(day.year, month, first)
    if day < start:
        start = dt.date(day.year - 1, month, first)
    return start, dt.date(start.year + 1, month, first) - dt.timedelta(days=1)


def window_of(start: dt.date, end: dt.date) -> list[str]:
    """[first day, the day after the last) as ISO dates, for comparing stored ISO moments as
    strings: everything on `end`, to its last second, is inside."""
    return [start.isoformat(), (end + dt.timedelta(days=1)).isoformat()]
