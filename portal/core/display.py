"""How stored values are shown to people."""

from __future__ import annotations

import datetime as dt


def _moment(value: str | dt.datetime) -> dt.datetime:
    return value if isinstance(value, dt.datetime) else dt.datetime.fromisoformat(value)


def when(value: str | dt.datetime | None) -> str:
    """'2026-11-29T13:05:00-05:00' -> 'November 29, 2026 at 1:05 p.m.'"""
    if not value:
        return ""
    moment = _moment(value)
    return f"{moment:%B} {moment.day}, {moment.year} at {clock(moment)}"


def clock(value: str | dt.datetime | dt.time) -> str:
    """The time of day as people write it: '4:00 p.m.'"""
    moment = value if isinstance(value, dt.time | dt.datetime) else _moment(value)
    hour = moment.hour % 12 or 12
    half = "a.m." if moment.hour < 12 else "p.m."
    return f"{hour}:{moment:%M} {half}"


def day(value: str | dt.date | dt.datetime | None) -> str:
    """A date with its weekday: 'Monday, November 30, 2026'."""
    if not value:
        return ""
    moment = _moment(value) if isinstance(value, str) else value
    return f"{moment:%A}, {moment:%B} {moment.day}, {moment.year}"
