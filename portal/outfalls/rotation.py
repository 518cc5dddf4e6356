"""The screening rotation: every outfall screened in dry weather at least once in N years
(content/outfalls.yaml, screening.every_years). An outfall is next due N years after its
last screening (in the portal, or on paper before it: the import's last-screened date).
Our readings, in the content: one never screened is due when it enters the inventory
(never_screened_due_within_days, 0 by default: the permit asks every outfall be screened
once in the term), and one whose last call was suspect or obvious is due again within
rescreen_suspect_within_days (30). Only outfalls are on the rotation, not catch basins or
manholes."""

from __future__ import annotations

import calendar
import datetime as dt
from dataclasses import dataclass
from typing import Any, Protocol

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


class Rule(Protocol):
    """What the rotation reads of content/outfalls.yaml (content_model.outfalls)."""

    every_years: int
    first_within_days: int
    follow_up_within_days: int


@dataclass(frozen=True)
class Turn:
    """An outfall's place in the rotation on `today`."""

    last: dt.date | None  # its last screening (None: never screened)
    due: dt.date
    state: str  # OVERDUE (due before today), DUE (today to the month's end), LATER
    # Why it is due when it is: "cycle", "never" (never screened) or "follow-up" (screened
    # again after a suspect or obvious call).
    why: str = "cycle"

    @property
    def words(self) -> str:
        return STATE_WORDS[self.state]


def turn(
    last: dt.date | None, added: dt.date, rule: Rule, today: dt.date, *, suspect: bool = False
) -> Turn:
    """When an outfall screened last on `last` (or never, added on `added`) is next due;
    `suspect`: its last screening's call was suspect or obvious."""
    if last is None:
        due, why = added + dt.timedelta(days=rule.first_within_days), "never"
    elif suspect:
        due, why = last + dt.timedelta(days=rule.follow_up_within_days), "follow-up"
    else:
        due, why = add_years(last, rule.every_years), "cycle"
    state = OVERDUE if due < today else DUE if due <= month_end(today) else LATER
    return Turn(last, due, state, why)


def _day(stamp: str | None) -> dt.date | None:
    return dt.date.fromisoformat(stamp[:10]) if stamp else None


# A screening the rotation and the annual counts take: not voided, and made in dry weather
# (portal/screening/corrections.py; content/outfalls.yaml, dry_weather_hours).
COUNTED = "voided_at IS NULL AND wet_weather = 0"

# Each outfall's last screening in the portal (its day and call) beside the last one on paper
# (outfalls.last_screened_on, from the import): the later of the two counts.
TURN_SQL = f"""
SELECT o.*, s.last, s.overall AS last_overall FROM outfalls o
LEFT JOIN (SELECT outfall_id, screened_at AS last, overall, row_number() OVER (
    PARTITION BY outfall_id ORDER BY screened_at DESC, id DESC) AS n FROM screenings
    WHERE {COUNTED}) s
    ON s.outfall_id = o.id AND s.n = 1
WHERE o.structure_type = 'outfall'
"""


def _turn_of_row(row: dict[str, Any], rule: Rule, today: dt.date) -> Turn:
    in_portal, on_paper = _day(row["last"]), _day(row["last_screened_on"])
    if on_paper and (in_portal is None or on_paper > in_portal):
        return turn(on_paper, _day(row["created_at"]), rule, today)
    suspect = row["last_overall"] in ("suspect", "obvious")
    return turn(in_portal, _day(row["created_at"]), rule, today, suspect=suspect)


def turns(
    db: sqlite_utils.Database, rule: Rule, today: dt.date, where: str = "", params: tuple = ()
) -> list[dict[str, Any]]:
    """Every outfall (or those `where` picks, over `o`) with its `turn`, soonest due first."""
    rows = list(db.query(TURN_SQL + (f" AND ({where})" if where else ""), params))
    for row in rows:
        row["turn"] = _turn_of_row(row, rule, today)
    rows.sort(key=lambda row: (row["turn"].due, row["code"]))
    return rows


def turn_of(db: sqlite_utils.Database, outfall: dict[str, Any], rule: Rule, today: dt.date):
    """One outfall's turn (None: not an outfall, so not on the rotation)."""
    if outfall["structure_type"] != "outfall":
        return None
    (row,) = turns(db, rule, today, "o.id = ?", (outfall["id"],))
    return row["turn"]


@dataclass(frozen=True)
class Waiting:
    """The outfalls overdue and due this month, for the due page, the queue and the digest."""

    overdue: list[dict[str, Any]]
    due: list[dict[str, Any]]

    def __bool__(self) -> bool:
        return bool(self.overdue or self.due)


def waiting(db: sqlite_utils.Database, rule: Rule, today: dt.date) -> Waiting:
    rows = turns(db, rule, today)
    return Waiting(
        overdue=[row for row in rows if row["turn"].state == OVERDUE],
        due=[row for row in rows if row["turn"].state == DUE],
    )
