"""Track-down's source found: what and where it is, who is responsible, and its
elimination, each change one transaction with its entry in the case's audit log; what the
case page shows of a track-down, what the staff CSV exports, and what enforcement starts
from."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from portal.core.clock import local_stamp
from portal.core.db import insert, one, rows, transaction
from portal.core.statuses import STATUSES
from portal.enforcement import people
from portal.staff.workflow import WorkflowError, log
from portal.trackdown.choices import ELIMINATION_METHODS
from portal.trackdown.records import Row, changed_columns, steps_of, update_row
from portal.trackdown.schema import ELIMINATION_COLUMNS, SOURCE_COLUMNS

# ---------------------------------------------------------------- the source found


def current_respondent(db: sqlite_utils.Database, respondent_id: int | None) -> Row | None:
    """The respondent's record, or the one it was merged into (merges never delete)."""
    person = people.respondent(db, respondent_id) if respondent_id else None
    seen = set()
    while person and person["merged_into"] and person["id"] not in seen:
        seen.add(person["id"])
        person = people.respondent(db, person["merged_into"])
    return person


def source_of(db: sqlite_utils.Database, case_id: int) -> Row | None:
    """The source found on a case, with its respondent's current record (`respondent`)."""
    source = one(db, "SELECT * FROM discharge_sources WHERE case_id = ?", [case_id])
    if source is not None:
        source["respondent"] = current_respondent(db, source["respondent_id"])
    return source


def save_source(
    db: sqlite_utils.Database,
    case_id: int,
    actor: str,
    values: Row,
    respondent_id: int | None,
    new_respondent: Row | None,
) -> list[str]:
    """Record the source found, or change it: against a respondent on record, a new one made
    from the details given (in enforcement's records, with its own log), or none yet. The
    fields it changed (every field, for a source new to the case)."""
    with transaction(db):
        if new_respondent:
            respondent_id = people.add(db, actor, new_respondent)
        elif respondent_id is not None and current_respondent(db, respondent_id) is None:
            raise WorkflowError("Choose a respondent from the list.", "respondent")
        after = {**values, "respondent_id": respondent_id}
        before = one(db, "SELECT * FROM discharge_sources WHERE case_id = ?", [case_id])
        if before is None:
            insert(
                db,
                "discharge_sources",
                {**after, "case_id": case_id, "recorded_at": local_stamp(), "recorded_by": actor},
            )
            log(
                db,
                case_id,
                actor,
                "trackdown_source",
                found_on=after["found_on"],
                description=after["description"],
                address=after["address"],
                respondent=_name(db, respondent_id),
                new_respondent=bool(new_respondent),
            )
            return list(SOURCE_COLUMNS)
        if before["eliminated_on"] and after["found_on"] > before["eliminated_on"]:
            raise WorkflowError("The source cannot be found after it was eliminated.", "found_on")
        changes = changed_columns(before, after, SOURCE_COLUMNS)
        if changes:
            changed = {name: after[name] for name in changes}
            update_row(db, "discharge_sources", ("case_id", case_id), changed, actor)
            if "respondent_id" in changes:
                changes["respondent_id"] = {
                    "from": _name(db, before["respondent_id"]),
                    "to": _name(db, respondent_id),
                }
            log(
                db,
                case_id,
                actor,
                "trackdown_source_changed",
                changes=changes,
                new_respondent=bool(new_respondent),
            )
    return list(changes)


def _name(db: sqlite_utils.Database, respondent_id: int | None) -> str | None:
    person = current_respondent(db, respondent_id)
    return person["name"] if person else None


def record_elimination(db: sqlite_utils.Database, case_id: int, actor: str, values: Row) -> bool:
    """The day the source's discharge was eliminated and how, or a correction of it; False
    when nothing changed."""
    with transaction(db):
        before = one(db, "SELECT * FROM discharge_sources WHERE case_id = ?", [case_id])
        if before is None:
            raise WorkflowError("Record the source found first.", "eliminated_on")
        if values["eliminated_on"] < before["found_on"]:
            raise WorkflowError(
                "It cannot be eliminated before the source was found.", "eliminated_on"
            )
        changes = changed_columns(before, values, ELIMINATION_COLUMNS)
        if not changes:
            return False
        changed = {name: values[name] for name in ELIMINATION_COLUMNS}
        update_row(db, "discharge_sources", ("case_id", case_id), changed, actor)
        action = (
            "trackdown_elimination_changed" if before["eliminated_on"] else "trackdown_eliminated"
        )
        log(db, case_id, actor, action, **values, changes=changes)
    return True


def elimination_days(db: sqlite_utils.Database) -> dict[int, str]:
    """{case id: the ISO day its discharge was eliminated}: what the annual figures count an
    elimination by, where track-down recorded one (app.extensions["elimination_days"])."""
    return {
        row["case_id"]: row["eliminated_on"]
        for row in rows(
            db,
            "SELECT case_id, eliminated_on FROM discharge_sources WHERE eliminated_on IS NOT NULL",
        )
    }


# ---------------------------------------------------------------- the staff CSV


def export_values(db: sqlite_utils.Database, case_ids: list[int]) -> dict[int, Row]:
    """For the cases exported: how many investigation steps, and the source and elimination."""
    found: dict[int, Row] = {}
    for row in rows(
        db,
        "SELECT case_id, count(*) AS steps FROM trackdown_steps WHERE removed_at IS NULL"
        " AND case_id IN (SELECT value FROM json_each(?)) GROUP BY case_id",
        [json.dumps(case_ids)],
    ):
        found[row["case_id"]] = {"trackdown_steps": row["steps"]}
    for row in rows(
        db,
        "SELECT case_id, found_on, description, address, eliminated_on, elimination_method"
        " FROM discharge_sources WHERE case_id IN (SELECT value FROM json_each(?))",
        [json.dumps(case_ids)],
    ):
        found.setdefault(row["case_id"], {}).update(
            # Prefixed: a report's own columns include source_description (who may cause it).
            {f"trackdown_{name}": value for name, value in row.items() if name != "case_id"}
        )
    return found


EXPORT_COLUMNS: tuple[tuple[str, Any], ...] = (
    ("Investigation steps", lambda c: c.get("trackdown_steps")),
    ("Source found on", lambda c: c.get("trackdown_found_on")),
    ("Source found", lambda c: c.get("trackdown_description")),
    ("Source found at", lambda c: c.get("trackdown_address")),
    ("Discharge eliminated on", lambda c: c.get("trackdown_eliminated_on")),
    (
        "How it was eliminated",
        lambda c: (
            ELIMINATION_METHODS.get(c.get("trackdown_elimination_method") or "")
            or c.get("trackdown_elimination_method")
        ),
    ),
)


# ---------------------------------------------------------------- the case page


@dataclass(frozen=True)
class Trackdown:
    """What the case page shows of a case's track-down."""

    steps: list[Row]
    source: Row | None
    # Confirmed and eliminated, yet open: recording the elimination never changes the status.
    open_after_elimination: bool


def trackdown(db: sqlite_utils.Database, case: Row) -> Trackdown:
    source = source_of(db, case["id"])
    status = STATUSES.get(case["status"])
    still_open = status is not None and not status.closed
    eliminated = bool(source and source["eliminated_on"])
    return Trackdown(
        steps_of(db, case["id"]),
        source,
        bool(case["confirmed_illicit"]) and eliminated and still_open,
    )


def enforcement_args(source: Row) -> dict[str, str]:
    """What the violation form is filled with, to start enforcement against this source: its
    respondent (as on record now), its place, the day it was found and what it is."""
    place = source["address"] + (
        f", tax parcel {source['parcel_id']}" if source["parcel_id"] else ""
    )
    args = {"place": place, "found_on": source["found_on"], "description": source["description"]}
    if source["respondent"]:
        args["respondent"] = str(source["respondent"]["id"])
    return args
