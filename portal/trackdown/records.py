"""Track-down's records: a case's investigation steps and their lab results, and the source
found with its elimination. Every change is one transaction with its entry in the case's
audit log (portal/staff/workflow.py `log`), which keeps what each changed field was."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from portal.core.clock import local_stamp
from portal.core.db import insert, one, rows, transaction
from portal.core.statuses import STATUSES
from portal.enforcement import people
from portal.outfalls import inventory
from portal.staff.workflow import WorkflowError, log
from portal.trackdown.choices import ELIMINATION_METHODS
from portal.trackdown.schema import ELIMINATION_COLUMNS, SOURCE_COLUMNS, STEP_COLUMNS

Row = dict[str, Any]


def _changes(before: Row, after: Row, columns: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    """Each column whose value changes, with what it was and what it becomes."""
    return {
        name: {"from": before[name], "to": after[name]}
        for name in columns
        if before[name] != after[name]
    }


def _update(
    db: sqlite_utils.Database, table: str, where: tuple[str, int], values: Row, actor: str
) -> None:
    """Write the changed `values` to one row, with who changed it and when."""
    column, key = where
    sets = ", ".join(f"{name} = ?" for name in values)
    db.execute(
        f"UPDATE {table} SET {sets}, updated_at = ?, updated_by = ? WHERE {column} = ?",
        [*values.values(), local_stamp(), actor, key],
    )


def _place(db: sqlite_utils.Database, values: Row) -> Row:
    """The step's values with its structure: the inventory's own code and row when the id
    typed is one of its structures (whatever its case), else the id as typed."""
    typed = values.pop("structure", None)
    found = inventory.by_code(db, typed) if typed else None
    return {
        **values,
        "structure_code": found["code"] if found else typed,
        "outfall_id": found["id"] if found else None,
    }


# ---------------------------------------------------------------- steps and results


def steps_of(db: sqlite_utils.Database, case_id: int) -> list[Row]:
    """A case's investigation steps in the order they were done, each with its lab results."""
    steps = rows(
        db,
        "SELECT * FROM trackdown_steps WHERE case_id = ? AND removed_at IS NULL"
        " ORDER BY done_at, id",
        [case_id],
    )
    for step in steps:
        step["results"] = results_of(db, step["id"])
    return steps


def results_of(db: sqlite_utils.Database, step_id: int) -> list[Row]:
    """A sample's lab results still standing, in the order they were entered."""
    return rows(
        db,
        "SELECT * FROM trackdown_results WHERE step_id = ? AND removed_at IS NULL ORDER BY id",
        [step_id],
    )


def step_of(db: sqlite_utils.Database, case_id: int, step_id: int) -> Row | None:
    """The step, if it is one of this case's and was not removed."""
    return one(
        db,
        "SELECT * FROM trackdown_steps WHERE id = ? AND case_id = ? AND removed_at IS NULL",
        [step_id, case_id],
    )


def _log_step(db: sqlite_utils.Database, actor: str, step: Row, action: str, **detail: Any) -> int:
    """An entry in the step's case's log, naming the step and its sample."""
    return log(db, step["case_id"], actor, action, step=step["id"], sample=step["sample_id"],
               **detail)  # fmt: skip


def _words(result: Row) -> str:
    """A lab result in words: "Ammonia 1.2 mg/L"."""
    return f"{result['name']} {result['value']} {result['unit'] or ''}".strip()


def add_step(db: sqlite_utils.Database, case_id: int, actor: str, values: Row) -> int:
    """A new investigation step (`values`: the step form's, its structure as typed)."""
    with transaction(db):
        stored = _place(db, dict(values))
        step = insert(
            db,
            "trackdown_steps",
            {**stored, "case_id": case_id, "recorded_at": local_stamp(), "recorded_by": actor},
        )
        log(
            db,
            case_id,
            actor,
            "trackdown_step",
            step=step,
            kind=stored["kind"],
            done_at=stored["done_at"],
            where=stored["structure_code"] or stored["location"],
            sample=stored["sample_id"],
        )
    return step


def change_step(db: sqlite_utils.Database, actor: str, step: Row, values: Row) -> list[str]:
    """Change a step; the case's log keeps what each changed field was. A sample with lab
    results stays a sample."""
    with transaction(db):
        after = _place(db, dict(values))
        changes = _changes(step, after, STEP_COLUMNS)
        if "kind" in changes and step["kind"] == "sample" and results_of(db, step["id"]):
            raise WorkflowError("This sample has lab results: it stays a sample.", "kind")
        if changes:
            changed = {name: after[name] for name in [*changes, "outfall_id"]}
            _update(db, "trackdown_steps", ("id", step["id"]), changed, actor)
            _log_step(db, actor, step, "trackdown_step_changed", kind=after["kind"],
                      done_at=after["done_at"], changes=changes)  # fmt: skip
    return list(changes)


def add_results(
    db: sqlite_utils.Database,
    actor: str,
    step: Row,
    results: list[Row],
    reported_on: str | None,
    shows: str | None = None,
) -> int:
    """A sample's lab results (one row a parameter), and what they show as the step's result
    when `shows` gives one; how many results were added: none when every one is on the
    sample already with the same report day (the form sent again, after Back or a second
    tap: fresh review)."""
    with transaction(db):
        standing = {
            (r["name"], r["value"], r["unit"], r["reported_on"]) for r in results_of(db, step["id"])
        }
        if all((r["name"], r["value"], r["unit"], reported_on) in standing for r in results):
            return 0
        if shows and shows != step["result"]:
            _update(db, "trackdown_steps", ("id", step["id"]), {"result": shows}, actor)
            _log_step(db, actor, step, "trackdown_step_changed", kind=step["kind"],
                      done_at=step["done_at"],
                      changes={"result": {"from": step["result"], "to": shows}})  # fmt: skip
        for result in results:
            insert(
                db,
                "trackdown_results",
                {
                    **result,
                    "step_id": step["id"],
                    "reported_on": reported_on,
                    "recorded_at": local_stamp(),
                    "recorded_by": actor,
                },
            )
        _log_step(db, actor, step, "trackdown_results", count=len(results),
                  reported_on=reported_on, results=[_words(r) for r in results])  # fmt: skip
    return len(results)


def remove_step(db: sqlite_utils.Database, actor: str, step: Row, reason: str) -> None:
    """Take a step recorded in error off its case (with its lab results): the row stays,
    marked removed, and the case's log says what it was and why."""
    with transaction(db):
        db.execute(
            "UPDATE trackdown_steps SET removed_at = ?, removed_by = ?, removed_reason = ?"
            " WHERE id = ? AND removed_at IS NULL",
            [local_stamp(), actor, reason, step["id"]],
        )
        _log_step(db, actor, step, "trackdown_step_removed", kind=step["kind"],
                  done_at=step["done_at"], reason=reason,
                  results=[_words(r) for r in results_of(db, step["id"])])  # fmt: skip


def remove_result(db: sqlite_utils.Database, actor: str, step: Row, result_id: int) -> bool:
    """Take a lab result typed wrong off the sample (the row stays, marked removed); False
    when it is not one of this sample's results standing."""
    with transaction(db):
        result = one(
            db,
            "SELECT * FROM trackdown_results WHERE id = ? AND step_id = ? AND removed_at IS NULL",
            [result_id, step["id"]],
        )
        if result is None:
            return False
        db.execute(
            "UPDATE trackdown_results SET removed_at = ?, removed_by = ? WHERE id = ?",
            [local_stamp(), actor, result_id],
        )
        _log_step(db, actor, step, "trackdown_result_removed", result=_words(result))
    return True


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
        changes = _changes(before, after, SOURCE_COLUMNS)
        if changes:
            changed = {name: after[name] for name in changes}
            _update(db, "discharge_sources", ("case_id", case_id), changed, actor)
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
        changes = _changes(before, values, ELIMINATION_COLUMNS)
        if not changes:
            return False
        changed = {name: values[name] for name in ELIMINATION_COLUMNS}
        _update(db, "discharge_sources", ("case_id", case_id), changed, actor)
        action = (
            "trackdown_elimination_changed" if before["eliminated_on"] else "trackdown_eliminated"
        )
        log(db, case_id, actor, action, **values, changes=changes)
    return True


def elimination_days(db: sqlite_utils.Database) -> dict[int, str]:
    """{case id: the ISO day its discharge was eliminated}: what the annual figures count an
    elimination by, where track-down recorded one (app.extensions["elimination_days"])."""
    return dict(
        db.execute(
            "SELECT case_id, eliminated_on FROM discharge_sources WHERE eliminated_on IS NOT NULL"
        ).fetchall()
    )


# ---------------------------------------------------------------- the staff CSV


def export_values(db: sqlite_utils.Database, case_ids: list[int]) -> dict[int, Row]:
    """For the cases exported: how many investigation steps, and the source and elimination."""
    found: dict[int, Row] = {}
    for case_id, steps in db.execute(
        "SELECT case_id, count(*) FROM trackdown_steps WHERE removed_at IS NULL AND case_id IN"
        " (SELECT value FROM json_each(?)) GROUP BY case_id",
        [json.dumps(case_ids)],
    ):
        found[case_id] = {"trackdown_steps": steps}
    for row in db.query(
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
