"""Remedies a notice assigns (corrective measures with their due dates) and their
completion, each with its entry in the case's audit log.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import sqlite_utils

from portal.core.clock import local_stamp
from portal.core.db import insert, rows, transaction
from portal.enforcement.violations import violation
from portal.staff.workflow import WorkflowError, log


def remedies(db: sqlite_utils.Database, notice_id: int) -> list[dict[str, Any]]:
    return rows(db, "SELECT * FROM remedies WHERE notice_id = ? ORDER BY due_on, id", [notice_id])


def assign_remedy(
    db: sqlite_utils.Database,
    actor: str,
    notice: dict[str, Any],
    kind: str,
    details: str | None,
    due_on: dt.date,
) -> None:
    with transaction(db):
        insert(
            db,
            "remedies",
            {
                "notice_id": notice["id"],
                "kind": kind,
                "details": details,
                "due_on": due_on.isoformat(),
                "assigned_at": local_stamp(),
                "assigned_by": actor,
            },
        )
        case_id = violation(db, notice["violation_id"])["case_id"]
        log(
            db,
            case_id,
            actor,
            "enforcement_remedy",
            number=notice["number"],
            kind=kind,
            due_on=due_on.isoformat(),
        )


def complete_remedy(
    db: sqlite_utils.Database, actor: str, notice: dict[str, Any], remedy_id: int, on: dt.date
) -> None:
    with transaction(db):
        changed = db.execute(
            "UPDATE remedies SET completed_on = ? WHERE id = ? AND notice_id = ?",
            [on.isoformat(), remedy_id, notice["id"]],
        ).rowcount
        if not changed:
            raise WorkflowError("There is no such remedy on this notice.")
        case_id = violation(db, notice["violation_id"])["case_id"]
        log(
            db,
            case_id,
            actor,
            "enforcement_remedy_done",
            number=notice["number"],
            completed_on=on.isoformat(),
        )
