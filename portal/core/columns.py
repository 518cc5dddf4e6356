"""How a stored value reads in the staff spreadsheets (portal/staff/exports.py): times as a
spreadsheet reads a date and time, 0/1 as yes/no. Each kind's own columns use these too."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any


def spreadsheet_time(value: str | None) -> str | None:
    """A stored local time ("2026-11-30T13:06:18-05:00") as a spreadsheet reads a date and
    time: "2026-11-30 13:06" (the offset dropped: every time here is the municipality's)."""
    return f"{dt.datetime.fromisoformat(value):%Y-%m-%d %H:%M}" if value else None


def yes_no(value: Any) -> str | None:
    return None if value is None else ("yes" if value else "no")


def time_of(name: str) -> Callable[[dict[str, Any]], str | None]:
    """A column: the row's stored time `name`, as a spreadsheet reads it."""
    return lambda row: spreadsheet_time(row[name])
