"""The screening rotation: every outfall screened in dry weather at least once in N years
(content/outfalls.yaml, screening.every_years). An outfall is next due N years after its
last screening (in the portal, or on paper before it: the latest paper day).
Our readings, in the content: one never screened is due N years after its inventory day
(NEVER_SCREENED_CYCLE: the day it was mapped or installed, else the day it was entered here;
never_screened_due_within_days, when a pack sets it, makes it that many days instead), and
one whose last call was suspect or obvious is due again within rescreen_suspect_within_days
(30). Only outfalls in service are on the rotation, not catch basins, manholes or retired
outfalls."""

from __future__ import annotations

import calendar
import datetime as dt
from dataclasses import dataclass
from typing import Any, Protocol

import sqlite_utils
from flask import current_app, has_app_context

from portal.core.dates import EARLIER, add_years
from portal.core.db import rows
from portal.core.deadlines import BusinessCalendar

OVERDUE, DUE, NOT_YET_DUE = "overdue", "due", "later"
STATE_WORDS = {OVERDUE: "Overdue", DUE: "Due this month", NOT_YET_DUE: "Not yet due"}


def month_end(day: dt.date) -> dt.date:
    return day.replace(day=calendar.monthrange(day.year, day.month)[1])


class Rule(Protocol):
    """What the rotation reads of content/outfalls.yaml (content_model.outfalls)."""

    every_years: int
    first_within_days: int | None
    follow_up_within_days: int


# Our reading where the permit is silent: an outfall never screened has the same N years as any
# other, counted from the day it entered the inventory. "Due at once" made every outfall overdue the
# day after an import, so "overdue" told the officer nothing; an inventory mapped in 2018 and never
# screened is overdue, one mapped this year is not. A pack may set never_screened_due_within_days to
# count days instead.
NEVER_SCREENED_CYCLE = "every_years after the inventory day"


@dataclass(frozen=True)
class Turn:
    """An outfall's place in the rotation on `today`."""

    last: dt.date | None  # its last screening (None: never screened)
    due: dt.date
    state: str  # OVERDUE (due before today), DUE (today to the month's end), NOT_YET_DUE
    # Why it is due when it is: "cycle", "never" (never screened) or "follow-up" (screened
    # again after a suspect or obvious call).
    why: str = "cycle"

    @property
    def words(self) -> str:
        return STATE_WORDS[self.state]


def turn(
    last: dt.date | None,
    added: dt.date,
    rule: Rule,
    today: dt.date,
    *,
    suspect: bool = False,
    calendar: BusinessCalendar | None = None,
) -> Turn:
    """When an outfall screened last on `last` (or never, added on `added`) is next due;
    `suspect`: its last screening's call was suspect or obvious. With the office's
    `calendar`, a follow-up "within N days" falls due on the last business day of them, not
    on a Saturday or a holiday (our reading; officer's week 2026-12-03 P1)."""
    if last is None:
        if rule.first_within_days is None:  # NEVER_SCREENED_CYCLE
            due = add_years(added, rule.every_years, leap_day=EARLIER)
        else:
            due = added + dt.timedelta(days=rule.first_within_days)
        why = "never"
    elif suspect:
        due, why = last + dt.timedelta(days=rule.follow_up_within_days), "follow-up"
        while calendar is not None and not calendar.is_business_day(due) and due > last:
            due -= dt.timedelta(days=1)
    else:
        # 29 February's turn falls on 28 February in a common year: never a day late.
        due, why = add_years(last, rule.every_years, leap_day=EARLIER), "cycle"
    state = OVERDUE if due < today else DUE if due <= month_end(today) else NOT_YET_DUE
    return Turn(last, due, state, why)


def _day(stamp: str | None) -> dt.date | None:
    return dt.date.fromisoformat(stamp[:10]) if stamp else None


# A screening the rotation and the annual counts take: not voided, and made in dry weather
# (portal/screening/corrections.py; content/outfalls.yaml, dry_weather_hours).
COUNTED = "voided_at IS NULL AND wet_weather = 0"

# Each outfall in service with its last counted screening in the portal (its day and call)
# beside its latest day on paper (outfall_paper_screenings): the later of the two counts.
TURN_SQL = f"""
SELECT o.*, s.last, s.overall AS last_overall, p.on_paper FROM outfalls o
LEFT JOIN (SELECT outfall_id, screened_at AS last, overall, row_number() OVER (
    PARTITION BY outfall_id ORDER BY screened_at DESC, id DESC) AS n FROM screenings
    WHERE {COUNTED}) s
    ON s.outfall_id = o.id AND s.n = 1
LEFT JOIN (SELECT outfall_id, max(screened_on) AS on_paper FROM outfall_paper_screenings
    GROUP BY outfall_id) p ON p.outfall_id = o.id
WHERE o.structure_type = 'outfall' AND o.retired_on IS NULL
"""


def _turn_of_row(row: dict[str, Any], rule: Rule, today: dt.date) -> Turn:
    in_portal, on_paper = _day(row["last"]), _day(row["on_paper"])
    added = inventory_day(row)
    if on_paper and (in_portal is None or on_paper > in_portal):
        return turn(on_paper, added, rule, today)
    suspect = row["last_overall"] in ("suspect", "obvious")
    return turn(in_portal, added, rule, today, suspect=suspect, calendar=_office_calendar())


def _office_calendar() -> BusinessCalendar | None:
    """The office's business days (content's holidays), where the portal runs."""
    return current_app.extensions.get("calendar") if has_app_context() else None


def inventory_day(row: dict[str, Any]) -> dt.date:
    """The day a structure entered the inventory: its own (mapped, installed), or the day it
    was entered in the portal."""
    return dt.date.fromisoformat(row.get("inventoried_on") or row["created_at"][:10])


def turns(
    db: sqlite_utils.Database, rule: Rule, today: dt.date, where: str = "", params: tuple = ()
) -> list[dict[str, Any]]:
    """Every outfall (or those `where` picks, over `o`) with its `turn`, soonest due first."""
    found = rows(db, TURN_SQL + (f" AND ({where})" if where else ""), params)
    for row in found:
        row["turn"] = _turn_of_row(row, rule, today)
    found.sort(key=lambda row: (row["turn"].due, row["code"]))
    return found


def turn_of(db: sqlite_utils.Database, outfall: dict[str, Any], rule: Rule, today: dt.date):
    """One outfall's turn (None: not an outfall in service, so not on the rotation)."""
    if outfall["structure_type"] != "outfall" or outfall.get("retired_on"):
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
    found = turns(db, rule, today)
    return Waiting(
        overdue=[row for row in found if row["turn"].state == OVERDUE],
        due=[row for row in found if row["turn"].state == DUE],
    )
