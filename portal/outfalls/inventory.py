"""The inventory in the database: reading structures, the nearest ones to a place, and
storing an import or a staff edit."""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterator
from typing import Any

import sqlite_utils

from content_model.site import ServiceArea
from portal.core.db import insert, one, rows, transaction
from portal.outfalls import checking, history, import_plan, readers, rotation, sheets
from portal.outfalls.choices import OTHER
from portal.outfalls.import_plan import Plan, Report
from portal.outfalls.readers import FileRefused
from portal.staff.queue import METERS_PER_DEGREE, distance_m

Row = dict[str, Any]


def stored(db: sqlite_utils.Database) -> dict[str, Row]:
    """Every structure by its id, case-folded (as the importer compares them), with the
    set of its `paper_days`."""
    days: dict[int, set[str]] = {}
    for paper in rows(db, "SELECT outfall_id, screened_on FROM outfall_paper_screenings"):
        days.setdefault(paper["outfall_id"], set()).add(paper["screened_on"])
    return {
        row["code"].casefold(): {**row, "paper_days": days.get(row["id"], set())}
        for row in rows(db, "SELECT * FROM outfalls")
    }


def get(db: sqlite_utils.Database, outfall_id: int) -> Row | None:
    return one(db, "SELECT * FROM outfalls WHERE id = ?", [outfall_id])


def matching(db: sqlite_utils.Database, typed: str, limit: int = 5) -> list[Row]:
    """The structures whose id is what was typed, or starts with it (the queue's search box:
    "HH-002" leads to the outfall), each with its last screening's id, day and call."""
    typed = " ".join(typed.split())[:40]
    if len(typed) < 2:
        return []
    escaped = typed.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return rows(
        db,
        "SELECT o.id, o.code, o.structure_type, o.location, s.id AS screening_id,"
        " s.screened_at, s.overall FROM outfalls o LEFT JOIN screenings s ON s.id ="
        " (SELECT id FROM screenings WHERE outfall_id = o.id AND voided_at IS NULL"
        " ORDER BY screened_at DESC, id DESC LIMIT 1)"
        " WHERE o.code LIKE ? ESCAPE '\\' ORDER BY o.code = ? COLLATE NOCASE DESC, o.code"
        " LIMIT ?",
        [f"{escaped}%", typed, limit],
    )


def by_code(db: sqlite_utils.Database, code: str) -> Row | None:
    return one(db, "SELECT * FROM outfalls WHERE code = ?", [code.strip()])


def nearest(
    db: sqlite_utils.Database,
    latitude: float,
    longitude: float,
    *,
    limit: int = 10,
    within_m: float = 2000,
    outfalls_only: bool = False,
) -> list[Row]:
    """The structures in service nearest a place, nearest first, each with its `distance`
    (metres); only those within `within_m` (a box through the index, then the exact distance)."""
    dlat = within_m / METERS_PER_DEGREE
    dlon = within_m / (METERS_PER_DEGREE * max(math.cos(math.radians(latitude)), 0.01))
    # A retired structure is no longer there to screen, trace or point to.
    only = " AND retired_on IS NULL" + (" AND structure_type = 'outfall'" if outfalls_only else "")
    near = []
    for row in rows(
        db,
        "SELECT id, code, structure_type, latitude, longitude, location, receiving_water"
        " FROM outfalls WHERE latitude BETWEEN ? AND ? AND longitude BETWEEN ? AND ?" + only,
        [latitude - dlat, latitude + dlat, longitude - dlon, longitude + dlon],
    ):
        row["distance"] = distance_m(latitude, longitude, row["latitude"], row["longitude"])
        if row["distance"] <= within_m:
            near.append(row)
    near.sort(key=lambda row: (row["distance"], row["code"]))
    return near[:limit]


def import_file(
    db: sqlite_utils.Database,
    name: str,
    sheet_or_data: sheets.Sheet | bytes,
    area: ServiceArea,
    *,
    actor: str,
    stamp: str,
    check_only: bool = False,
    beside: bool = False,
) -> Report:
    """Read, check and (unless `check_only`) store a file in one transaction; the report
    says what was added, updated, unchanged and refused. A new id at the place of a stored
    structure is refused (import_plan.same_place) unless `beside`."""
    try:
        sheet = (
            sheet_or_data
            if isinstance(sheet_or_data, sheets.Sheet)
            else readers.read_file(name, sheet_or_data)
        )
    except FileRefused as error:
        return Report(name, "row", 0, 0, 0, 0, [], [], 0, check_only, str(error))
    records, refusals = checking.check_rows(sheet, area, dt.date.fromisoformat(stamp[:10]))
    in_file = {record.code.casefold() for record in records} | {
        refusal.code.casefold() for refusal in refusals if refusal.code
    }
    with transaction(db):
        current = stored(db)
        planned = import_plan.plan(records, current)
        if not beside:
            refusals += import_plan.same_place(
                planned, current, in_file, sheet.columns["code"], distance_m
            )
            refusals.sort(key=lambda refusal: refusal.number)
        if not check_only:
            apply(db, planned, actor=actor, stamp=stamp)
    return Report(
        file=name,
        unit=sheet.unit,
        read=len(sheet.rows),
        added=len(planned.added),
        updated=len(planned.updated),
        unchanged=len(planned.unchanged),
        refusals=refusals,
        ignored=sheet.ignored,
        not_in_file=len(set(current) - in_file),
        checked_only=check_only,
        others=sorted(
            (other for record in planned.records() for other in record.others),
            key=lambda other: other.number,
        ),
    )


def apply(db: sqlite_utils.Database, planned: Plan, *, actor: str, stamp: str) -> None:
    """Store a plan (call inside a transaction); every change goes in the audit log."""
    for record in planned.added:
        _add(db, {"code": record.code, "structure_type": "outfall", **record.values}, actor, stamp)
    for _, row_id, changes in planned.updated:
        _update(db, row_id, changes, actor, stamp)


def _words_follow(values: Row) -> Row:
    """A field set to a known value (or to none) keeps no "other" words: a file's RCP, or a
    staff member's, replaces the "Asbestos cement" stored before it."""
    for name, column in OTHER.items():
        if name in values and values[name] != "other":
            values[column] = None
    return values


def _add(db: sqlite_utils.Database, values: Row, actor: str, stamp: str) -> int:
    values = _words_follow(values)
    paper = values.pop(checking.PAPER_DAY, None)
    row_id = insert(
        db,
        "outfalls",
        {
            **values,
            "created_at": stamp,
            "updated_at": stamp,
            "updated_by": actor,
        },
    )
    history.log(db, row_id, history.ADDED, None, values["code"], actor=actor, stamp=stamp)
    if paper:
        history.add_paper_day(db, row_id, paper, actor=actor, stamp=stamp)
    return row_id


def _update(db: sqlite_utils.Database, row_id: int, changes: Row, actor: str, stamp: str):
    unknown = set(changes) - set(checking.IMPORTED_FIELDS) - {"code"}
    if unknown:
        raise KeyError(f"not an inventory field: {sorted(unknown)}")
    changes = _words_follow(dict(changes))
    if paper := changes.pop(checking.PAPER_DAY, None):
        history.add_paper_day(db, row_id, paper, actor=actor, stamp=stamp)
    current = get(db, row_id) or {}
    changes = {name: value for name, value in changes.items() if current.get(name) != value}
    if not changes:
        return
    for name, value in changes.items():
        history.log(db, row_id, name, current.get(name), value, actor=actor, stamp=stamp)
    sets = ", ".join(f'"{name}" = ?' for name in changes)
    db.execute(
        f"UPDATE outfalls SET {sets}, updated_at = ?, updated_by = ? WHERE id = ?",
        [*changes.values(), stamp, actor, row_id],
    )


def save(db: sqlite_utils.Database, row_id: int | None, values: Row, actor: str, stamp: str):
    """A staff edit (or a new structure, `row_id` None); returns the structure's id."""
    with transaction(db):
        if row_id is None:
            return _add(db, dict(values), actor, stamp)
        _update(db, row_id, values, actor, stamp)
        return row_id


def retire(
    db: sqlite_utils.Database,
    row_id: int,
    day: str | None,
    reason: str | None,
    *,
    actor: str,
    stamp: str,
) -> None:
    """Retire a structure from `day` for `reason`, or (`day` None) bring it back into
    service from the day this is done; both in the audit log, dated for the figures."""
    with transaction(db):
        current = get(db, row_id)
        if current is None or current["retired_on"] == day:
            return
        history.log(
            db,
            row_id,
            "retired_on",
            current["retired_on"],
            day,
            actor=actor,
            stamp=stamp,
            effective_on=day or stamp[:10],
            reason=reason or "brought back into service",
        )
        db.execute(
            "UPDATE outfalls SET retired_on = ?, retired_reason = ?, updated_at = ?,"
            " updated_by = ? WHERE id = ?",
            [day, reason if day else None, stamp, actor, row_id],
        )


def photos_of(db: sqlite_utils.Database, outfall_id: int) -> list[Row]:
    return rows(
        db,
        "SELECT id, position, width, height, added_at, added_by FROM outfall_photos"
        " WHERE outfall_id = ? ORDER BY position",
        [outfall_id],
    )


# Left out of the public file: free text a person typed may name someone ("behind Jane
# Doe's house"), and a private outfall's owner is often a person. The point itself is
# published, so nobody needs the words to find the structure.
PRIVATE_FIELDS = ("notes", "location", "owner")


def geojson_features(
    db: sqlite_utils.Database, *, public: bool, rule: rotation.Rule, today: dt.date
) -> Iterator[Row]:
    """Every structure as a GeoJSON feature: its fields, its last screening and when it is
    next due (outfalls only: the others are not on the rotation), never who edited it (and,
    in the public file, no free-text notes)."""
    left_out = {"latitude", "longitude", *(PRIVATE_FIELDS if public else ())}
    turns = {row["id"]: row["turn"] for row in rotation.turns(db, rule, today)}
    # A retired structure leaves the public file; the staff file keeps it, with its day.
    query = "SELECT * FROM outfalls" + (" WHERE retired_on IS NULL" if public else "")
    for row in rows(db, query + " ORDER BY code"):
        turn = turns.get(row["id"])
        properties = {
            "id": row["code"],
            **{name: row[name] for name in checking.STORED_FIELDS if name not in left_out},
            "last_screened": turn.last.isoformat() if turn and turn.last else None,
            "next_screening_due": turn.due.isoformat() if turn else None,
            **({} if public else {"retired_on": row["retired_on"]}),
            "updated_at": row["updated_at"],
        }
        yield {
            "type": "Feature",
            "geometry": {"type": "Point", "coordinates": [row["longitude"], row["latitude"]]},
            "properties": properties,
        }
