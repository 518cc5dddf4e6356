"""Payments on a notice: recorded, corrected or voided, each with its entry in the case's
audit log; a voided payment stays on the record, counting for nothing.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import sqlite_utils

from portal.core.clock import local_stamp
from portal.core.db import insert, rows, transaction
from portal.enforcement.violations import violation
from portal.staff.workflow import WorkflowError, log


def payments(db: sqlite_utils.Database, notice_id: int) -> list[dict[str, Any]]:
    """Every payment recorded on a notice, voided ones included (they count for nothing)."""
    return rows(db, "SELECT * FROM payments WHERE notice_id = ? ORDER BY paid_on, id", [notice_id])


def add_payment(
    db: sqlite_utils.Database,
    actor: str,
    notice: dict[str, Any],
    paid_on: dt.date,
    cents: int,
    corrects: dict[str, Any] | None = None,
    reason: str | None = None,
) -> int:
    """Record a payment; with `corrects`, in the same transaction void that payment (with the
    `reason`) and record this one as its correction."""
    with transaction(db):
        if corrects is not None:
            _void(db, actor, notice, corrects, reason or "")
        found = insert(
            db,
            "payments",
            {
                "notice_id": notice["id"],
                "paid_on": paid_on.isoformat(),
                "cents": cents,
                "recorded_at": local_stamp(),
                "recorded_by": actor,
                "corrects": corrects["id"] if corrects else None,
            },
        )
        case_id = violation(db, notice["violation_id"])["case_id"]
        if corrects is None:
            log(
                db,
                case_id,
                actor,
                "enforcement_payment",
                number=notice["number"],
                paid_on=paid_on.isoformat(),
                cents=cents,
            )
        else:
            log(
                db,
                case_id,
                actor,
                "enforcement_payment_corrected",
                number=notice["number"],
                was_paid_on=corrects["paid_on"],
                was_cents=corrects["cents"],
                paid_on=paid_on.isoformat(),
                cents=cents,
                reason=reason,
            )
    return found


def _void(
    db: sqlite_utils.Database, actor: str, notice: dict[str, Any], payment: dict, reason: str
) -> None:
    changed = db.execute(
        "UPDATE payments SET voided_at = ?, voided_by = ?, void_reason = ?"
        " WHERE id = ? AND notice_id = ? AND voided_at IS NULL",
        [local_stamp(), actor, reason, payment["id"], notice["id"]],
    ).rowcount
    if not changed:
        raise WorkflowError("That payment is voided already, or is not on this notice.")


def void_payment(
    db: sqlite_utils.Database, actor: str, notice: dict[str, Any], payment: dict, reason: str
) -> None:
    """Void a payment recorded in error: it stays on the record, counting for nothing."""
    with transaction(db):
        _void(db, actor, notice, payment, reason)
        case_id = violation(db, notice["violation_id"])["case_id"]
        log(
            db,
            case_id,
            actor,
            "enforcement_payment_voided",
            number=notice["number"],
            paid_on=payment["paid_on"],
            cents=payment["cents"],
            reason=reason,
        )
