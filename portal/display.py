"""How stored values are shown to people."""

from __future__ import annotations

import datetime as dt


def when(value: str | None) -> str:
    """'2026-11-29T13:05:00-05:00' -> 'November 29, 2026 at 1:05 p.m.'"""
    if not value:
        return ""
    moment = dt.datetime.fromisoformat(value)
    hour = moment.hour % 12 or 12
    half = "a.m." if moment.hour < 12 else "p.m."
    return f"{moment:%B} {moment.day}, {moment.year} at {hour}:{moment:%M} {half}"
