"""Notices of violation and the steps after them.

Each change is one transaction with its entry in the case's audit log (who, when, what).
An issued notice is frozen (the database refuses to change it); a correction is a new
draft that, once issued, supersedes it.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from typing import Any

import sqlite_utils

from content_model.enforcement import Terms
from portal.core.cases import next_reference
from portal.core.clock import local_stamp
from portal.core.db import insert, one, rows, transaction
from portal.core.deadlines import BusinessCalendar
from portal.enforcement import papers
from portal.enforcement.payments import payments
from portal.enforcement.remedies import remedies
from portal.enforcement.timeline import Deadline, timeline
from portal.enforcement.violations import violation
from portal.staff.workflow import WorkflowError, log

NOTICE_PREFIX = "NOV"
# The columns of notice_steps that staff set on the step forms.
STEP_COLUMNS = (
    "attorney_recommendation",
    "attorney_recommended_on",
    "smo_concurs",
    "appeal_filed_on",
    "hearing_on",
    "decided_on",
    "upheld",
    "decision_filed_on",
    "decision_mailed_on",
    "certified_mail_number",
    "access_requested_on",
    "access_answer",
    "access_answer_on",
    "warrant_sought_on",
    "court_order_sought_on",
    "completed_on",
    "work_cents",
    "admin_cents",
    "cost_notice_mailed_on",
    "cost_notice_received_on",
    "protest_filed_on",
    "payment_count",
    "tax_bill_on",
    "conditions",
    "late_appeal_accepted",
    "protest_decided_on",
    "protest_payment_due_on",
    "protest_outcome",
    "protest_decided_cents",
    "protest_mail_number",
    "corrected_on",
    "correction_checked_on",
    "correction_checked_by",
    "convicted_on",
)


def notice(db: sqlite_utils.Database, notice_id: int) -> dict[str, Any] | None:
    found = one(db, "SELECT * FROM notices WHERE id = ?", [notice_id])
    if found:
        found["orders"] = json.loads(found["orders"])
        found["facts"] = json.loads(found["issued_facts"]) if found["issued_facts"] else None
    return found


def notices_of(db: sqlite_utils.Database, violation_id: int) -> list[dict[str, Any]]:
    return rows(db, "SELECT * FROM notices WHERE violation_id = ? ORDER BY id", [violation_id])


def save_draft(
    db: sqlite_utils.Database,
    actor: str,
    violation: dict[str, Any],
    orders: dict[str, str],
    deadline: dt.date | None,
    notice_id: int | None = None,
    supersedes: int | None = None,
) -> int:
    """Write a draft notice (a new one, or changes to a draft): `orders` maps each order's
    label ("(a)") to the officer's specifics."""
    values = {
        "orders": json.dumps(orders, ensure_ascii=False),
        "deadline": deadline.isoformat() if deadline else None,
    }
    with transaction(db):
        if notice_id is None:
            notice_id = insert(
                db,
                "notices",
                {
                    **values,
                    "violation_id": violation["id"],
                    "drafted_at": local_stamp(),
                    "drafted_by": actor,
                    "supersedes": supersedes,
                },
            )
            action = "notice_drafted"
        else:
            changed = db.execute(
                "UPDATE notices SET orders = ?, deadline = ? WHERE id = ? AND issued_on IS NULL",
                [values["orders"], values["deadline"], notice_id],
            ).rowcount
            if not changed:
                raise WorkflowError("This notice is issued: it can no longer change.")
            action = "notice_edited"
        log(db, violation["case_id"], actor, action, notice=notice_id)
    return notice_id


def issue(
    db: sqlite_utils.Database,
    actor: str,
    notice_id: int,
    today: dt.date,
    served_on: dt.date,
    method: str,
    facts: dict[str, Any],
    keep: Callable[[], None] | None = None,
) -> str:
    """Number and freeze a draft (NOV-YYYY-NNNN), recording its issuance: the day it is served
    or mailed (`served_on`) and how, and what its letter prints (`facts`). An earlier notice it
    corrects is superseded. `keep` keeps the letter as printed (papers.py), in the same
    transaction, once the notice is numbered."""
    with transaction(db):
        draft = notice(db, notice_id)
        if draft is None or draft["issued_on"]:
            raise WorkflowError("This notice is already issued.")
        number = next_reference(db, NOTICE_PREFIX, today.year)
        db.execute(
            "UPDATE notices SET number = ?, issued_on = ?, issued_at = ?, issued_by = ?,"
            " service_method = ?, issued_facts = ? WHERE id = ?",
            [
                number,
                served_on.isoformat(),
                local_stamp(),
                actor,
                method,
                json.dumps(facts, ensure_ascii=False),
                notice_id,
            ],
        )
        insert(db, "notice_steps", {"notice_id": notice_id})
        if draft["supersedes"]:
            db.execute(
                "UPDATE notices SET superseded_by = ? WHERE id = ? AND superseded_by IS NULL",
                [notice_id, draft["supersedes"]],
            )
        case_id = violation(db, draft["violation_id"])["case_id"]
        log(
            db,
            case_id,
            actor,
            "notice_issued",
            notice=notice_id,
            number=number,
            served_on=served_on.isoformat(),
            method=method,
            supersedes=draft["supersedes"],
        )
        if keep:
            keep()
    return number


def steps(db: sqlite_utils.Database, notice_id: int) -> dict[str, Any]:
    found = one(db, "SELECT * FROM notice_steps WHERE notice_id = ?", [notice_id]) or {}
    found["conditions"] = json.loads(found.get("conditions") or "{}")
    return found


def record_step(
    db: sqlite_utils.Database,
    actor: str,
    notice: dict[str, Any],
    step: str,
    values: dict,
    keep: Callable[[], None] | None = None,
) -> None:
    """Set some columns of a notice's steps (one form's worth), logged under `step`; `keep`
    then keeps the papers the step sends (papers.py), in the same transaction."""
    unknown = set(values) - set(STEP_COLUMNS)
    if unknown:
        raise KeyError(f"not step columns: {sorted(unknown)}")
    stored = {
        key: (
            json.dumps(value)
            if key == "conditions"
            else value.isoformat()
            if isinstance(value, dt.date)
            else value
        )
        for key, value in values.items()
    }
    with transaction(db):
        sets = ", ".join(f"{key} = ?" for key in stored)
        db.execute(
            f"UPDATE notice_steps SET {sets} WHERE notice_id = ?", [*stored.values(), notice["id"]]
        )
        case_id = violation(db, notice["violation_id"])["case_id"]
        detail = {k: v for k, v in stored.items() if k != "conditions" and v not in (None, "")}
        log(db, case_id, actor, f"enforcement_{step}", number=notice["number"], **detail)
        if keep:
            keep()


def printed_facts(db: sqlite_utils.Database, notice_id: int) -> dict[str, Any] | None:
    """What the notice's cost notice printed, as kept when mailed (None: none kept)."""
    kept = papers.latest(db, notice_id, "cost-notice")
    return kept["facts"] if kept else None


def issued_notices(db: sqlite_utils.Database) -> list[dict[str, Any]]:
    """Every issued notice still in force, with its case and respondent (for the deadlines)."""
    return rows(
        db,
        "SELECT n.*, v.case_id, c.reference AS case_reference, r.name AS respondent_name"
        " FROM notices n JOIN violations v ON v.id = n.violation_id"
        " JOIN cases c ON c.id = v.case_id JOIN respondents r ON r.id = v.respondent_id"
        " WHERE n.issued_on IS NOT NULL AND n.superseded_by IS NULL ORDER BY n.id",
    )


def open_dates(
    db: sqlite_utils.Database, terms: Terms, calendar: BusinessCalendar, today: dt.date
) -> list[tuple[Deadline, dict[str, Any]]]:
    """Every open enforcement date of every notice in force, with its notice, soonest first."""
    found = []
    for notice in issued_notices(db):
        line = timeline(
            notice,
            steps(db, notice["id"]),
            payments(db, notice["id"]),
            remedies(db, notice["id"]),
            terms,
            calendar,
            today,
            printed_facts(db, notice["id"]),
        )
        found.extend((deadline, notice) for deadline in line.open)
    return sorted(found, key=lambda pair: (pair[0].due, pair[1]["id"]))
