"""The screening rotation: every outfall screened in dry weather at least once in N years
(content/outfalls.yaml, screening.every_years). An outfall is next due N years after its
last screening; one never screened, N years after it entered the inventory (our reading:
the permit gives a whole cycle for each outfall). Only outfalls are on the rotation, not
catch basins or manholes."""

from __future__ import annotations

import calendar
import datetime as dt
from dataclasses import dataclass
from typing import Any

import sqlite_utils

OVERDUE, DUE, LATER = "overdue", "due", "later"
STATE_WORDS = {OVERDUE: "Overdue", DUE: "Due this month", LATER: "Not yet due"}


def add_years(day: dt.date, years: int) -> dt.date:
    """The same day `years` later; 29 February becomes 28 February in a year without one
    (the earlier day: a screening is never counted late by a day the calendar lacks)."""
    try:
        return day.replace(year=day.year + years)
    except ValueError:
        return day.replace(year=day.year + years, day=28)


def month_end(day: dt.date) -> dt.date:
    return day.replace(day=calendar.monthrange(day.year, day.month)[1])


@dataclass(frozen=True)
class Turn:
    """An outfall's place in the rotation on `today`."""

    last: dt.date | None  # its last screening (None: never screened)
    due: dt.date
    state: str  # OVERDUE (due before today), DUE (today to the month's end), LATER

    @property
    def words(self) -> str:
        return STATE_WORDS[self.state]


def turn(last: dt.date | None, added: dt.date, years: int, today: dt.date) -> Turn:
    """When an outfall screened last on `last` (or never, added on `added`) is next due."""
    due = add_years(last or added, years)
    state = OVERDUE if due < today else DUE if due <= month_end(today) else LATER
    return Turn(last, due, state)


def _day(stamp: str | None) -> dt.date | None:
    return dt.date.fromisoformat(stamp[:10]) if stamp else None


def turns(db: sqlite_utils.Database, years: int, today: dt.date) -> list[dict[str, Any]]:
    """Every outfall with its `turn`, soonest due first (then by id)."""
    rows = list(
        db.query(
            "SELECT o.id, o.code, o.location, o.receiving_water, o.latitude, o.longitude,"
            " o.created_at, s.last FROM outfalls o LEFT JOIN (SELECT outfall_id,"
            " max(screened_at) AS last FROM screenings GROUP BY outfall_id) s"
            " ON s.outfall_id = o.id WHERE o.structure_type = 'outfall'"
        )
    )
    for row in rows:
        row["turn"] = turn(_day(row["last"]), _day(row["created_at"]), years, today)
    rows.sort(key=lambda row: (row["turn"].due, row["code"]))
    return rows


def turn_of(db: sqlite_utils.Database, outfall: dict[str, Any], years: int, today: dt.date):
    """One outfall's turn (None: not an outfall, so not on the rotation)."""
    if outfall["structure_type"] != "outfall":
        return None
    (last,) = db.execute(
        "SELECT max(screened_at) FROM screenings WHERE outfall_id = ?", [outfall["id"]]
    ).fetchone()
    return turn(_day(last), _day(outfall["created_at"]), years, today)


@dataclass(frozen=True)
class Waiting:
    """The outfalls overdue and due this month, for the due page, the queue and the digest."""

    overdue: list[dict[str, Any]]
    due: list[dict[str, Any]]

    def __bool__(self) -> bool:
        return bool(self.overdue or self.due)


def waiting(db: sqlite_utils.Database, years: int, today: dt.date) -> Waiting:
    rows = turns(db, years, today)
    return Waiting(
        overdue=[row for row in rows if row["turn"].state == OVERDUE],
        due=[row for row in rows if row["turn"].state == DUE],
    )
