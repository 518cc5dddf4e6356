"""The inventory over time: every change written to outfall_changes (the audit log), the
screening days on paper, and each structure as it was on a given day, so a closed period's
figures are counted from what held then, not from today's values (issue 24 point 5).

Our readings, said on the annual page: an outfall is in the inventory from its inventory day
(the day it was mapped or installed, given by the import or the edit form; without one, the
day it was entered in the portal), or from its first screening if that is earlier (a
screening, even on paper, proves it was there); it leaves on the day it is retired. Its type
on a day is the type recorded then: a reclassification holds from the day it was made.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import sqlite_utils

from portal.core.db import insert, one, rows, value
from portal.core.display import day as day_words

Row = dict[str, Any]
# The fields whose past values the figures read (the rest are logged for the audit only;
# as_of() names them in its query).
DATED_FIELDS = ("structure_type", "retired_on", "impaired_water")
ADDED, PAPER = "added", "paper_screening"


def log(
    db: sqlite_utils.Database,
    outfall_id: int,
    field: str,
    old: Any,
    new: Any,
    *,
    actor: str,
    stamp: str,
    effective_on: str | None = None,
    reason: str | None = None,
) -> None:
    """One change in the audit log (call inside a transaction); `effective_on` defaults to
    the day of `stamp`."""
    insert(
        db,
        "outfall_changes",
        {
            "outfall_id": outfall_id,
            "field": field,
            "old_value": None if old is None else str(old),
            "new_value": None if new is None else str(new),
            "effective_on": effective_on or stamp[:10],
            "reason": reason,
            "changed_at": stamp,
            "changed_by": actor,
        },
    )


def changes_of(db: sqlite_utils.Database, outfall_id: int) -> list[Row]:
    """A structure's audit log, newest first."""
    return rows(
        db,
        "SELECT * FROM outfall_changes WHERE outfall_id = ? ORDER BY changed_at DESC, id DESC",
        [outfall_id],
    )


# ---------------------------------------------------------------- paper screening days


def paper_days(db: sqlite_utils.Database, outfall_id: int) -> list[Row]:
    """A structure's screening days on paper, latest first."""
    return rows(
        db,
        "SELECT id, screened_on, recorded_at, recorded_by FROM outfall_paper_screenings"
        " WHERE outfall_id = ? ORDER BY screened_on DESC",
        [outfall_id],
    )


def add_paper_day(
    db: sqlite_utils.Database, outfall_id: int, day: str, *, actor: str, stamp: str
) -> bool:
    """Add a screening day on paper (call inside a transaction); False if it is there already."""
    added = db.execute(
        "INSERT OR IGNORE INTO outfall_paper_screenings (outfall_id, screened_on, recorded_at,"
        " recorded_by) VALUES (?, ?, ?, ?)",
        [outfall_id, day, stamp, actor],
    ).rowcount
    if added:
        log(db, outfall_id, PAPER, None, day, actor=actor, stamp=stamp, effective_on=day)
    return bool(added)


def change_paper_day(
    db: sqlite_utils.Database,
    outfall_id: int,
    paper_id: int,
    day: str | None,
    *,
    actor: str,
    stamp: str,
    reason: str,
) -> bool:
    """Correct a paper day (`day`) or remove it (None); False if that row or day is wrong."""
    old = value(  # screened_on is NOT NULL: None is no such row
        db,
        "SELECT screened_on FROM outfall_paper_screenings WHERE id = ? AND outfall_id = ?",
        [paper_id, outfall_id],
    )
    if old is None or old == day:
        return False
    if day is None:
        db.execute("DELETE FROM outfall_paper_screenings WHERE id = ?", [paper_id])
    else:
        taken = value(
            db,
            "SELECT 1 FROM outfall_paper_screenings WHERE outfall_id = ? AND screened_on = ?",
            [outfall_id, day],
        )
        if taken:
            return False
        db.execute(
            "UPDATE outfall_paper_screenings SET screened_on = ?, recorded_at = ?,"
            " recorded_by = ? WHERE id = ?",
            [day, stamp, actor, paper_id],
        )
    log(
        db,
        outfall_id,
        PAPER,
        old,
        day,
        actor=actor,
        stamp=stamp,
        effective_on=min(old, day or old),
        reason=reason,
    )
    return True


# ---------------------------------------------------------------- the inventory on a day

# Each structure's inventory day and first screening (in the portal or on paper).
_STARTS = """
SELECT o.*, coalesce(o.inventoried_on, substr(o.created_at, 1, 10)) AS inventory_day,
    (SELECT min(day) FROM (
        SELECT substr(screened_at, 1, 10) AS day FROM screenings
        WHERE outfall_id = o.id AND voided_at IS NULL
        UNION ALL SELECT screened_on FROM outfall_paper_screenings WHERE outfall_id = o.id
    )) AS first_screened
FROM outfalls o
"""


def since(row: Row) -> str:
    """The day a structure counts in the inventory from (our reading, above)."""
    first = row.get("first_screened")
    return min(row["inventory_day"], first) if first else row["inventory_day"]


def first_screened(db: sqlite_utils.Database, outfall_id: int) -> str | None:
    """Its first screening's day (in the portal or on paper), or None if never screened."""
    row = one(db, _STARTS + " WHERE o.id = ?", [outfall_id])
    return row["first_screened"] if row else None


def since_problem(db: sqlite_utils.Database, outfall_id: int, since: dt.date | None) -> str | None:
    """ "In the inventory since" after its first screening: the figures would count it from
    that screening anyway (`since` above), so it is said, not silently overruled (officer's
    week 2026-12-03 F11)."""
    first = first_screened(db, outfall_id)
    if first and since and since.isoformat() > first:
        return (
            f"It was screened on {day_words(first)}, so it has been in the inventory since that day"
            " at the latest: enter that day or an earlier one."
        )
    return None


def day_moved(outfall: Row, since: dt.date | None) -> str | None:
    """The earliest day its inventory day moves from or to (None: it stays), `since` being
    the "in the inventory since" saved (empty: the day it was entered counts)."""
    entered = outfall["created_at"][:10]
    before = outfall["inventoried_on"] or entered
    after = since.isoformat() if since else entered
    return min(before, after) if before != after else None


def first_day(db: sqlite_utils.Database, outfall_id: int) -> str:
    """The first day a structure counts in the inventory (its inventory day, or its first
    screening if earlier): retired from it, it counts in no period. Asked only of a
    structure there (its page found it first): an unknown id is a LookupError."""
    row = one(db, _STARTS + " WHERE o.id = ?", [outfall_id])
    if row is None:
        raise LookupError(f"no structure with id {outfall_id}")
    return since(row)


def as_of(db: sqlite_utils.Database, until: str) -> list[Row]:
    """The structures in service in the inventory before `until` (ISO day, the day after a
    period), each with its `structure_type` as it was then and the `day` it counts from,
    in the order of their ids."""
    dated: dict[tuple[int, str], Any] = {}
    first_old: dict[tuple[int, str], Any] = {}
    for change in rows(
        db,
        "SELECT outfall_id, field, old_value, new_value, effective_on FROM outfall_changes"
        " WHERE field IN ('structure_type', 'retired_on', 'impaired_water')"
        " ORDER BY effective_on, id",
    ):
        key = (change["outfall_id"], change["field"])
        first_old.setdefault(key, change["old_value"])
        if change["effective_on"] < until:
            dated[key] = change["new_value"]
    result = []
    for row in rows(db, _STARTS + " ORDER BY o.code"):
        day = since(row)
        if day >= until:
            continue
        for field in DATED_FIELDS:
            key = (row["id"], field)
            # Before its first recorded change, a field held that change's old value; a
            # field never changed has held its value all along.
            row[field] = dated[key] if key in dated else first_old.get(key, row[field])
        if row["retired_on"] is not None and row["retired_on"] < until:
            continue
        row["day"] = day
        result.append(row)
    return result


# The audit log's field names, as a person reads them.
FIELD_WORDS = {
    "code": "id",
    "structure_type": "kind",
    "size_in": "size (in)",
    "height_in": "height (in)",
    "receiving_water": "receiving water",
    "impaired_water": "impaired or priority receiving water",
    "drainage_area": "drainage area",
    "inventoried_on": "in the inventory since",
    "structure_type_other": "other kind, in words",
    "conveyance_other": "other conveyance, in words",
    "material_other": "other material, in words",
    "shape_other": "other shape, in words",
    "condition_other": "other condition, in words",
}


def change_words(change: Row) -> str:
    """One line of the audit log in words, e.g. "kind: outfall to catch-basin"."""
    field, old, new = change["field"], change["old_value"], change["new_value"]
    if field == ADDED:
        return f"added as {new}"
    if field == PAPER:
        if old is None:
            return f"paper screening day {new} added"
        if new is None:
            return f"paper screening day {old} removed"
        return f"paper screening day {old} corrected to {new}"
    if field == "retired_on":
        if new is None:
            return f"brought back into service (retired from {old})"
        return f"retired from {new}: {change['reason']}"
    return f"{FIELD_WORDS.get(field, field)}: {old or 'empty'} to {new or 'empty'}"
