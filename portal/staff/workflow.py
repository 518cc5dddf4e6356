"""What staff do to a case: status, assignment, notes. Each change is one transaction with
its audit-log entry, and, when the public sees it, the update mail to the person."""

from __future__ import annotations

import json
from typing import Any

import sqlite_utils
from flask import has_request_context, render_template, request

from portal.clock import local_now
from portal.db import insert, transaction
from portal.mail import courier
from portal.statuses import statuses_for


class WorkflowError(ValueError):
    """A change that cannot be made; str(error) says why, in plain words."""


def _now() -> str:
    return local_now().isoformat(timespec="seconds")


def log(db: sqlite_utils.Database, case_id: int, actor: str, action: str, **detail: Any) -> int:
    """One audit-log entry (inside the caller's transaction)."""
    now = _now()
    db.execute(
        "UPDATE cases SET updated_at = ?, first_action_at = coalesce(first_action_at, ?)"
        " WHERE id = ?",
        [now, now, case_id],
    )
    return insert(
        db,
        "events",
        {
            "case_id": case_id,
            "at": now,
            "actor": actor,
            "action": action,
            "detail": json.dumps(detail, ensure_ascii=False),
            # Where the change came from, as the trusted proxies say (portal/proxy.py).
            "client": request.remote_addr if has_request_context() else None,
        },
    )


def _tell_the_person(db: sqlite_utils.Database, case_id: int, event_id: int) -> None:
    """Queue a short update for whoever sent the case, if they gave an e-mail address."""
    case = db["cases"].get(case_id)
    if not case["contact_email"]:
        return
    from portal.mail.compose import queue, status_link_for_case

    queue(
        db,
        "update",
        case=case,
        purpose=f"update-{event_id}",
        recipient=case["contact_email"],
        subject=f"Update on {case['reference']}",
        status_link=status_link_for_case(case),
    )


def change_status(
    db: sqlite_utils.Database,
    case_id: int,
    actor: str,
    status: str,
    *,
    referred_to: str | None = None,
    exempt_reason: str | None = None,
    duplicate_of: str | None = None,
) -> None:
    """Set a case's status, with what the status needs: the agency, the exemption, the original."""
    case = db["cases"].get(case_id)
    if status not in statuses_for(case["kind"]):
        raise WorkflowError("Choose one of the statuses listed.")
    original_id = None
    if status == "referred" and not referred_to:
        raise WorkflowError("Say which agency it was referred to.")
    if status == "exempt" and not exempt_reason:
        raise WorkflowError("Say which exempt discharge it was.")
    if status == "duplicate":
        original_id = _original(db, case, duplicate_of)
    with transaction(db):
        db.execute(
            "UPDATE cases SET status = ?, referred_to = ?, exempt_reason = ?, duplicate_of = ?"
            " WHERE id = ?",
            [
                status,
                referred_to if status == "referred" else None,
                exempt_reason if status == "exempt" else None,
                original_id,
                case_id,
            ],
        )
        detail = {"from": case["status"], "to": status}
        given = {
            "referred_to": referred_to,
            "exempt_reason": exempt_reason,
            "duplicate_of": duplicate_of,
        }
        if status in ("referred", "exempt", "duplicate"):
            detail |= {key: value for key, value in given.items() if value}
        event = log(db, case_id, actor, "status", **detail)
        if status != case["status"]:
            _tell_the_person(db, case_id, event)
    courier.dispatch()


def _original(db: sqlite_utils.Database, case: dict[str, Any], reference: str | None) -> int:
    """The case this one duplicates, by reference: another case, itself not a duplicate."""
    if not reference:
        raise WorkflowError("Give the reference of the case this one duplicates.")
    row = db.execute(
        "SELECT id, status FROM cases WHERE reference = ?", [reference.strip().upper()]
    ).fetchone()
    if row is None:
        raise WorkflowError(f"There is no case {reference}.")
    if row[0] == case["id"]:
        raise WorkflowError("A case cannot duplicate itself.")
    if row[1] == "duplicate":
        raise WorkflowError(f"{reference} is itself a duplicate: link to its original instead.")
    return row[0]


def assign(db: sqlite_utils.Database, case_id: int, actor: str, assignee: str | None) -> None:
    case = db["cases"].get(case_id)
    with transaction(db):
        db.execute("UPDATE cases SET assignee = ? WHERE id = ?", [assignee, case_id])
        log(db, case_id, actor, "assign", **{"from": case["assignee"], "to": assignee})


def set_public_note(db: sqlite_utils.Database, case_id: int, actor: str, note: str | None) -> None:
    """The note shown on the person's status page (and mailed to them)."""
    case = db["cases"].get(case_id)
    note = (note or "").strip() or None
    if note == case["public_note"]:
        return
    with transaction(db):
        db.execute("UPDATE cases SET public_note = ? WHERE id = ?", [note, case_id])
        event = log(db, case_id, actor, "public_note", text=note)
        if note:
            _tell_the_person(db, case_id, event)
    courier.dispatch()


def add_note(db: sqlite_utils.Database, case_id: int, actor: str, body: str) -> None:
    """An internal note: staff only."""
    with transaction(db):
        insert(db, "notes", {"case_id": case_id, "at": _now(), "author": actor, "body": body})
        log(db, case_id, actor, "note")


def set_confirmed(db: sqlite_utils.Database, case_id: int, actor: str, confirmed: bool) -> None:
    """Whether investigation confirmed an illicit discharge (for the annual MS4 figures)."""
    with transaction(db):
        db.execute("UPDATE cases SET confirmed_illicit = ? WHERE id = ?", [int(confirmed), case_id])
        log(db, case_id, actor, "confirmed", confirmed=confirmed)


def describe(event: dict[str, Any]) -> str:
    """An audit-log entry in words."""
    return render_template("staff/_event.txt", event=event, detail=json.loads(event["detail"]))
