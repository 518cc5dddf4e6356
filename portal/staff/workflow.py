"""What staff do to a case: one save of the case form (status, assignment, notes, public
note, follow-up date) is one transaction with one audit-log entry, and, when the public sees
it, one update mail to the person."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import sqlite_utils
from flask import has_request_context, render_template, request
from flask_babel import gettext

from portal.core import kinds
from portal.core.clock import local_stamp
from portal.core.db import insert, one, rows, transaction
from portal.core.display import day
from portal.core.kinds import statuses_for
from portal.core.statuses import STATUSES
from portal.mail import courier
from portal.web.language import in_case_language

# "Confirmed in writing" (release notification section): only with a written confirmation on
# record, a mailed letter (or the filing, where the content accepts it).
CONFIRMED = "confirmed"
CONFIRMED_NEEDS_LETTER = (
    "“Confirmed in writing” needs the written confirmation mailed to the office: record the"
    " letter and its mailing date on the linked notice first (under Notice and written"
    " confirmation)."
)


def log(db: sqlite_utils.Database, case_id: int, actor: str, action: str, **detail: Any) -> int:
    """One audit-log entry (inside the caller's transaction)."""
    now = local_stamp()
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
            # Where the change came from, as the trusted proxies say (portal/web/proxy.py).
            "client": request.remote_addr if has_request_context() else None,
        },
    )


def _tell_the_person(db: sqlite_utils.Database, case_id: int, event_id: int) -> bool:
    """Queue a short update for whoever sent the case, if they gave an e-mail address."""
    case = one(db, "SELECT * FROM cases WHERE id = ?", [case_id])
    if not case["contact_email"]:
        return False
    from portal.mail.compose import queue, status_link_for_case

    with in_case_language(case):  # the person's mail, in the language they filed in
        return queue(
            db,
            "update",
            case=case,
            purpose=f"update-{event_id}",
            recipient=case["contact_email"],
            subject=gettext("Update on %(reference)s", reference=case["reference"]),
            status_link=status_link_for_case(case),
        )


@dataclass
class Changes:
    """What one save of the case form asks for; None: that field was not sent (unchanged)."""

    status: str | None = None
    referred_to: str | None = None
    exempt_reason: str | None = None
    duplicate_of: str | None = None
    assignee: str | None = None
    confirmed: bool | None = None
    follow_up_on: str | None = None
    public_note: str | None = None  # to the person who sent it: status page and mail
    public_update: str | None = None  # published: the Open311 feed, any public view
    note: str | None = None


class WorkflowError(ValueError):
    """A change that cannot be made; str(error) says why, in plain words; `field` names
    the form field the answer belongs next to."""

    def __init__(self, message: str, field: str = "status") -> None:
        super().__init__(message)
        self.field = field


class Conflict(WorkflowError):
    """The case was saved by someone else since the page was opened: nothing was saved."""

    def __init__(self, case: dict[str, Any], last_event: dict[str, Any] | None) -> None:
        who = f" by {last_event['actor']}" if last_event else ""
        super().__init__(
            f"This case was changed{who} after you opened it, so your changes were not saved."
            " Compare the two versions below, then save again.",
            field="revision",
        )
        self.case, self.last_event = case, last_event


@dataclass
class Saved:
    event_id: int | None = None
    changed: list[str] = field(default_factory=list)
    mailed_person: bool = False
    mailed_assignee: bool = False
    duplicates_told: int = 0  # reporters of duplicates mailed the original's new status


def _same(username: str, other: str) -> bool:
    return username.casefold() == other.casefold()  # usernames are unique ignoring case


def _wanted(case: dict[str, Any], changes: Changes, db: sqlite_utils.Database) -> dict[str, Any]:
    """The case's columns as this save would leave them, checked."""
    status = changes.status if changes.status is not None else case["status"]
    if status not in statuses_for(case["kind"]):
        raise WorkflowError("Choose one of the statuses listed.")
    if (
        status == CONFIRMED
        and case["status"] != CONFIRMED
        and not kinds.get(case["kind"]).confirmation_on_record(db, case["id"])
    ):
        raise WorkflowError(CONFIRMED_NEEDS_LETTER)
    wanted: dict[str, Any] = {"status": status}
    referred = _clean(changes.referred_to) if changes.referred_to is not None else None
    exempt = _clean(changes.exempt_reason) if changes.exempt_reason is not None else None
    if status == "referred":
        referred = referred or (case["referred_to"] if changes.referred_to is None else None)
        if not referred:
            raise WorkflowError("Say which agency it was referred to.", "referred_to")
    if status == "exempt":
        exempt = exempt or (case["exempt_reason"] if changes.exempt_reason is None else None)
        if not exempt:
            raise WorkflowError("Say which exempt discharge it was.", "exempt_reason")
    wanted["referred_to"] = referred if status == "referred" else None
    wanted["exempt_reason"] = exempt if status == "exempt" else None
    if status == "duplicate":
        given = _clean(changes.duplicate_of)
        wanted["duplicate_of"] = (
            original_of(db, case, given)
            if given or not case["duplicate_of"]
            else case["duplicate_of"]
        )
    else:
        wanted["duplicate_of"] = None
    for name in ("assignee", "follow_up_on", "public_note", "public_update"):
        value = getattr(changes, name)
        wanted[name] = case[name] if value is None else _clean(value)
    if changes.confirmed is not None:
        wanted["confirmed_illicit"] = int(changes.confirmed)
    else:
        wanted["confirmed_illicit"] = case["confirmed_illicit"]
    return wanted


# Control characters a browser can send (a pasted Word line break is \v) that no page,
# mail or XML answer should carry; a vertical tab or form feed becomes a line break.
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f-\x9f]")


def _clean(text: str | None) -> str | None:
    text = (text or "").replace("\x0b", "\n").replace("\x0c", "\n")
    return _CONTROL.sub("", text).strip() or None


def _public_times(case: dict[str, Any], wanted: dict[str, Any], changed: list[str]) -> dict:
    """When the public saw a change, and when the case closed (Open311's updated_datetime):
    only a status or the public update moves them, never a note or a site visit."""
    now = local_stamp()
    times: dict[str, Any] = {}
    if {"status", "public_update"} & set(changed):
        times["public_changed_at"] = now
    if "status" in changed:
        was, now_closed = STATUSES[case["status"]].closed, STATUSES[wanted["status"]].closed
        if now_closed and not was:
            times["closed_at"] = now
        elif was and not now_closed:
            times["closed_at"] = None
    return times


def save(
    db: sqlite_utils.Database, case_id: int, actor: str, changes: Changes, revision: int
) -> Saved:
    """Everything the case form changed, in one transaction with one audit entry; refused
    (Conflict) when the case was saved since revision `revision` was shown.

    The person who sent the case gets one e-mail, only when the status or the public note
    changed; a new assignee with an e-mail address gets one too.
    """
    with transaction(db):
        case = one(db, "SELECT * FROM cases WHERE id = ?", [case_id])
        if case["revision"] != revision:
            last = one(
                db, "SELECT * FROM events WHERE case_id = ? ORDER BY id DESC LIMIT 1", [case_id]
            )
            raise Conflict(case, last)
        wanted = _wanted(case, changes, db)
        changed = [name for name, value in wanted.items() if value != case[name]]
        note = _clean(changes.note)
        if not changed and not note:
            return Saved()
        if changed:
            values = {name: wanted[name] for name in changed} | _public_times(case, wanted, changed)
            assignments = ", ".join(f"{name} = ?" for name in values)
            db.execute(
                f"UPDATE cases SET {assignments}, revision = revision + 1 WHERE id = ?",
                [*values.values(), case_id],
            )
        else:
            db.execute("UPDATE cases SET revision = revision + 1 WHERE id = ?", [case_id])
        if note:
            insert(
                db,
                "notes",
                {"case_id": case_id, "at": local_stamp(), "author": actor, "body": note},
            )
        detail = {name: {"from": case[name], "to": wanted[name]} for name in changed}
        if "duplicate_of" in detail and changes.duplicate_of:
            detail["duplicate_of"]["reference"] = changes.duplicate_of.strip().upper()
        if note:
            detail["note"] = True
        event = log(db, case_id, actor, "update", **detail)
        result = Saved(event, changed + (["note"] if note else []))
        public = {"status", "public_note"} & set(changed)
        if public and (wanted["public_note"] or "status" in changed):
            result.mailed_person = _tell_the_person(db, case_id, event)
        if "status" in changed:
            result.duplicates_told = _follow_the_original(db, case_id, actor, wanted)
        # Nobody is mailed about a case they assigned to themselves.
        if "assignee" in changed and wanted["assignee"] and not _same(wanted["assignee"], actor):
            result.mailed_assignee = _tell_the_assignee(db, case_id, event, wanted["assignee"])
    courier.dispatch()
    return result


def tell_the_person(db: sqlite_utils.Database, case_id: int, event_id: int) -> bool:
    """The update mail to whoever sent the case, for a change saved outside the case form
    (inside the caller's transaction)."""
    return _tell_the_person(db, case_id, event_id)


def _follow_the_original(
    db: sqlite_utils.Database, case_id: int, actor: str, wanted: dict[str, Any]
) -> int:
    """The duplicates of a case whose status changed follow it: each one's reporter hears the
    new status (through the outbox) and each one's log says so. When the case itself becomes
    a duplicate, its duplicates move to its original, so no chain forms. Returns how many
    reporters were mailed."""
    duplicates = rows(db, "SELECT * FROM cases WHERE duplicate_of = ? ORDER BY id", [case_id])
    if not duplicates:
        return 0
    reference = one(db, "SELECT reference FROM cases WHERE id = ?", [case_id])["reference"]
    if wanted["status"] == "duplicate":
        original = one(db, "SELECT * FROM cases WHERE id = ?", [wanted["duplicate_of"]])
        db.execute(
            "UPDATE cases SET duplicate_of = ?, revision = revision + 1 WHERE duplicate_of = ?",
            [original["id"], case_id],
        )
        for duplicate in duplicates:
            log(
                db,
                duplicate["id"],
                actor,
                "original",
                original=original["reference"],
                moved_from=reference,
            )
        return 0
    from portal.mail.compose import queue, status_link_for_case

    original = one(db, "SELECT * FROM cases WHERE id = ?", [case_id])
    told = 0
    for duplicate in duplicates:
        mailed = bool(duplicate["contact_email"])
        event = log(
            db,
            duplicate["id"],
            actor,
            "original",
            original=reference,
            status=wanted["status"],
            mailed=mailed,
        )
        if mailed:
            with in_case_language(duplicate):
                told += queue(
                    db,
                    "original_update",
                    case=duplicate,
                    original=original,
                    purpose=f"original-{event}",
                    recipient=duplicate["contact_email"],
                    subject=gettext("Update on %(reference)s", reference=duplicate["reference"]),
                    status_link=status_link_for_case(duplicate),
                )
    return told


def _tell_the_assignee(
    db: sqlite_utils.Database, case_id: int, event_id: int, assignee: str
) -> bool:
    """Mail the staff member a case was assigned to, if they have an e-mail address."""
    staff = one(db, "SELECT email FROM staff WHERE username = ?", [assignee])
    if not staff or not staff["email"]:
        return False
    from portal.mail.compose import public_url_for, queue

    case = one(db, "SELECT * FROM cases WHERE id = ?", [case_id])
    return queue(
        db,
        "assigned",
        case=case,
        purpose=f"assigned-{event_id}",
        recipient=staff["email"],
        subject=f"Assigned to you: {case['reference']}",
        assignee=assignee,
        case_link=public_url_for("staff.case", case_id=case_id),
    )


def original_of(db: sqlite_utils.Database, case: dict[str, Any], reference: str | None) -> int:
    """The case this one duplicates, by reference: another case, itself not a duplicate."""
    if not reference:
        raise WorkflowError("Give the reference of the case this one duplicates.", "duplicate_of")
    row = one(db, "SELECT id, status FROM cases WHERE reference = ?", [reference.strip().upper()])
    if row is None:
        raise WorkflowError(f"There is no case {reference}.", "duplicate_of")
    if row["id"] == case["id"]:
        raise WorkflowError("A case cannot duplicate itself.", "duplicate_of")
    if row["status"] == "duplicate":
        raise WorkflowError(
            f"{reference} is itself a duplicate: link to its original instead.", "duplicate_of"
        )
    return row["id"]


def describe(event: dict[str, Any]) -> str:
    """An audit-log entry in words."""
    detail = json.loads(event["detail"])
    if event["action"] == "update":
        return "; ".join(_update_words(detail))
    return render_template("staff/_event.txt", event=event, detail=detail)


def _update_words(detail: dict[str, Any]) -> list[str]:
    """One save of the case form, a phrase per thing it changed."""

    def status(code: str | None) -> str:
        return STATUSES[code].label if code in STATUSES else str(code)

    def to(name: str) -> Any:
        return detail[name]["to"] if name in detail else None

    words = []
    if "status" in detail:
        words.append(f"Status {status(detail['status']['from'])} → {status(to('status'))}")
    for name, phrase in (("referred_to", "referred to {}"), ("exempt_reason", "exempt: {}")):
        if to(name):
            words.append(phrase.format(to(name)))
    if to("duplicate_of"):
        words.append(f"a duplicate of {detail['duplicate_of'].get('reference', '')}".strip())
    if "assignee" in detail:
        was = detail["assignee"]["from"]
        words.append(f"Assigned to {to('assignee') or 'nobody'}" + (f" (was {was})" if was else ""))
    if "confirmed_illicit" in detail:
        marked = "Marked" if to("confirmed_illicit") else "Unmarked"
        words.append(f"{marked} as a confirmed illicit discharge")
    if "follow_up_on" in detail:
        date = to("follow_up_on")
        words.append(f"Follow-up on {day(date)}" if date else "Follow-up date removed")
    if "public_note" in detail:
        note = to("public_note")
        words.append(f"Note to the sender set: “{note}”" if note else "Note to the sender removed")
    if "public_update" in detail:
        update = to("public_update")
        words.append(f"Public update set: “{update}”" if update else "Public update removed")
    if detail.get("note"):
        words.append("Internal note added")
    return words
