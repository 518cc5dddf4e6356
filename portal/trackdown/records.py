"""Track-down's records: a case's investigation steps and their lab results. Every change
is one transaction with its entry in the case's audit log (portal/staff/workflow.py `log`),
which keeps what each changed field was. The source found is in source.py."""

from __future__ import annotations

from typing import Any

import sqlite_utils

from portal.core.clock import local_stamp
from portal.core.db import insert, one, rows, transaction
from portal.outfalls import inventory
from portal.staff.workflow import WorkflowError, log
from portal.trackdown.schema import STEP_COLUMNS

Row = dict[str, Any]


def changed_columns(before: Row, after: Row, columns: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    """Each column whose value changes, with what it was and what it becomes."""
    return {
        name: {"from": before[name], "to": after[name]}
        for name in columns
        if before[name] != after[name]
    }


def update_row(
    db: sqlite_utils.Database, table: str, where: tuple[str, int], values: Row, actor: str
) -> None:
    """Write the changed `values` to one row, with who changed it and when."""
    column, key = where
    sets = ", ".join(f"{name} = ?" for name in values)
    db.execute(
        f"UPDATE {table} SET {sets}, updated_at = ?, updated_by = ? WHERE {column} = ?",
        [*values.values(), local_stamp(), actor, key],
    )


def with_place(db: sqlite_utils.Database, values: Row) -> Row:
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
    return log(
        db, step["case_id"], actor, action, step=step["id"], sample=step["sample_id"], **detail
    )


def _words(result: Row) -> str:
    """A lab result in words: "Ammonia 1.2 mg/L"."""
    return f"{result['name']} {result['value']} {result['unit'] or ''}".strip()


def add_step(db: sqlite_utils.Database, case_id: int, actor: str, values: Row) -> int:
    """A new investigation step (`values`: the step form's, its structure as typed)."""
    with transaction(db):
        stored = with_place(db, dict(values))
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
        after = with_place(db, dict(values))
        changes = changed_columns(step, after, STEP_COLUMNS)
        if "kind" in changes and step["kind"] == "sample" and results_of(db, step["id"]):
            raise WorkflowError("This sample has lab results: it stays a sample.", "kind")
        if changes:
            changed = {name: after[name] for name in [*changes, "outfall_id"]}
            update_row(db, "trackdown_steps", ("id", step["id"]), changed, actor)
            _log_step(
                db,
                actor,
                step,
                "trackdown_step_changed",
                kind=after["kind"],
                done_at=after["done_at"],
                changes=changes,
            )
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
    tap)."""
    with transaction(db):
        standing = {
            (r["name"], r["value"], r["unit"], r["reported_on"]) for r in results_of(db, step["id"])
        }
        if all((r["name"], r["value"], r["unit"], reported_on) in standing for r in results):
            return 0
        if shows and shows != step["result"]:
            update_row(db, "trackdown_steps", ("id", step["id"]), {"result": shows}, actor)
            _log_step(
                db,
                actor,
                step,
                "trackdown_step_changed",
                kind=step["kind"],
                done_at=step["done_at"],
                changes={"result": {"from": step["result"], "to": shows}},
            )
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
        _log_step(
            db,
            actor,
            step,
            "trackdown_results",
            count=len(results),
            reported_on=reported_on,
            results=[_words(r) for r in results],
        )
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
        _log_step(
            db,
            actor,
            step,
            "trackdown_step_removed",
            kind=step["kind"],
            done_at=step["done_at"],
            reason=reason,
            results=[_words(r) for r in results_of(db, step["id"])],
        )


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
