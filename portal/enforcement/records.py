"""The enforcement records: respondents, violations, notices and the steps after them.

Each change is one transaction with its entry in the case's audit log (who, when, what).
An issued notice is frozen (the database refuses to change it); a correction is a new
draft that, once issued, supersedes it.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import sqlite_utils

from content_model.enforcement import Terms
from portal.core.cases import next_reference
from portal.core.clock import local_stamp
from portal.core.db import insert, one, rows, transaction
from portal.core.deadlines import BusinessCalendar
from portal.enforcement import people
from portal.enforcement.timeline import Deadline, timeline
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
    "corrected_on",
    "correction_checked_on",
    "correction_checked_by",
)


# ---------------------------------------------------------------- violations

# What a violation holds that staff can change (its respondent changes only by a merge).
VIOLATION_FIELDS = (
    "place",
    "owner_name",
    "owner_address",
    "committed_on",
    "found_on",
    "section",
    "description",
)


def _stored(value: Any) -> Any:
    return value.isoformat() if isinstance(value, dt.date) else (value or None)


def record_violation(
    db: sqlite_utils.Database,
    case_id: int,
    actor: str,
    *,
    respondent_id: int | None,
    new_respondent: dict[str, Any] | None,
    values: dict[str, Any],
) -> int:
    """A violation found on a case, against an earlier respondent or a new one; `values` holds
    VIOLATION_FIELDS (its place, owner, dates, section and what was found)."""
    with transaction(db):
        if respondent_id is None:
            assert new_respondent is not None
            respondent_id = people.add(db, actor, new_respondent)
        elif (
            one(
                db,
                "SELECT id FROM respondents WHERE id = ? AND merged_into IS NULL",
                [respondent_id],
            )
            is None
        ):
            raise WorkflowError("Choose a respondent from the list.")
        stored = {key: _stored(values.get(key)) for key in VIOLATION_FIELDS}
        violation = insert(
            db,
            "violations",
            {
                **stored,
                "case_id": case_id,
                "respondent_id": respondent_id,
                "recorded_at": local_stamp(),
                "recorded_by": actor,
            },
        )
        log(
            db,
            case_id,
            actor,
            "violation",
            violation=violation,
            section=stored["section"],
            committed_on=stored["committed_on"],
            place=stored["place"],
        )
    return violation


def edit_violation(
    db: sqlite_utils.Database, actor: str, violation: dict[str, Any], values: dict[str, Any]
) -> list[str]:
    """Change a violation's facts; the case's log keeps what each changed field was. An issued
    notice keeps what it printed (its issued_facts)."""
    stored = {key: _stored(values.get(key)) for key in VIOLATION_FIELDS}
    changed = {
        key: {"from": violation[key], "to": value}
        for key, value in stored.items()
        if value != violation[key]
    }
    if changed:
        with transaction(db):
            sets = ", ".join(f"{key} = ?" for key in changed)
            db.execute(
                f"UPDATE violations SET {sets} WHERE id = ?",
                [*(c["to"] for c in changed.values()), violation["id"]],
            )
            log(
                db,
                violation["case_id"],
                actor,
                "violation_edited",
                violation=violation["id"],
                changes=changed,
            )
    return list(changed)


def violation(db: sqlite_utils.Database, violation_id: int) -> dict[str, Any] | None:
    """A violation with its respondent and case. `place` falls back to the property address
    given with the respondent for a violation recorded before violations had their own place."""
    found = one(
        db,
        "SELECT v.*, r.name AS respondent_name, r.mailing_address, r.property_address,"
        " r.role AS respondent_role, c.reference AS case_reference FROM violations v"
        " JOIN respondents r ON r.id = v.respondent_id JOIN cases c ON c.id = v.case_id"
        " WHERE v.id = ?",
        [violation_id],
    )
    if found:
        found["place_shown"] = found["place"] or found["property_address"]
    return found


def addressee(violation: dict[str, Any]) -> tuple[str, str]:
    """Who the owner's letters (access, cost) go to: the owner recorded with the violation,
    else the respondent."""
    if violation["owner_name"]:
        return violation["owner_name"], violation["owner_address"] or ""
    return violation["respondent_name"], violation["mailing_address"]


def letter_facts(violation: dict[str, Any], signer: dict[str, str]) -> dict[str, Any]:
    """What a notice's letter prints of its violation and signer (kept with the notice once
    issued, so later edits of the records never change an issued letter)."""
    return {
        "respondent_name": violation["respondent_name"],
        "mailing_address": violation["mailing_address"],
        "place": violation["place_shown"],
        "committed_on": violation["committed_on"],
        "found_on": violation["found_on"],
        "section": violation["section"],
        "description": violation["description"],
        "signer_name": signer.get("name") or "",
        "signer_title": signer.get("title") or "",
    }


# ---------------------------------------------------------------- notices


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
) -> str:
    """Number and freeze a draft (NOV-YYYY-NNNN), recording its issuance: the day it is served
    or mailed (`served_on`) and how, and what its letter prints (`facts`). An earlier notice it
    corrects is superseded."""
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
    return number


def steps(db: sqlite_utils.Database, notice_id: int) -> dict[str, Any]:
    found = one(db, "SELECT * FROM notice_steps WHERE notice_id = ?", [notice_id]) or {}
    found["conditions"] = json.loads(found.get("conditions") or "{}")
    return found


def record_step(
    db: sqlite_utils.Database, actor: str, notice: dict[str, Any], step: str, values: dict
) -> None:
    """Set some columns of a notice's steps (one form's worth), logged under `step`."""
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
        )
        found.extend((deadline, notice) for deadline in line.open)
    return sorted(found, key=lambda pair: (pair[0].due, pair[1]["id"]))
