"""Violation records: what was found, where and against whom, and what a notice's letter
prints of it. Each change is one transaction with its entry in the case's audit log.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import sqlite_utils

from portal.core.clock import local_stamp
from portal.core.db import insert, one, transaction
from portal.enforcement import people
from portal.staff.workflow import WorkflowError, log

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
