"""Respondents and their offense history: contact details kept up to date, duplicate records
merged (both logs kept), earlier offenses entered from the paper files, and which earlier
violations count toward the offense number (the established ones).

Every change is one transaction with its entry in the respondent's own log; a merge also
logs on the case of every violation it moves.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import sqlite_utils
from flask import has_request_context, request

from content_model.enforcement import Terms
from portal.core.clock import local_stamp
from portal.core.db import insert, one, rows, transaction
from portal.core.deadlines import BusinessCalendar
from portal.core.display import date_words
from portal.enforcement import rules
from portal.enforcement.rules import Prior
from portal.staff.workflow import WorkflowError, log

ROLES = {
    "owner": "Owner of the property",
    "operator": "Operator (runs the business or activity)",
    "both": "Owner and operator",
    "other": "Another responsible person",
}
OUTCOMES = {
    "notice": "Notice of violation final (not appealed in time, or upheld)",
    "conviction": "Convicted",
    "overturned": "Notice overturned, or the charge dismissed",
}
# The outcomes that establish an earlier offense (rules.counts says which of them count).
ESTABLISHED = ("notice", "conviction")
# What the offense count weighs a notice by: today, the terms and the business calendar.
Law = tuple[dt.date, Terms, BusinessCalendar]
# What a respondent's record holds that staff can edit.
CONTACT = ("name", "mailing_address", "phone", "email", "role")


def log_respondent(
    db: sqlite_utils.Database, respondent_id: int, actor: str, action: str, **detail: Any
) -> int:
    """One entry in a respondent's log (inside the caller's transaction)."""
    return insert(
        db,
        "respondent_events",
        {
            "respondent_id": respondent_id,
            "at": local_stamp(),
            "actor": actor,
            "action": action,
            "detail": json.dumps(detail, ensure_ascii=False),
            "client": request.remote_addr if has_request_context() else None,
        },
    )


def respondent(db: sqlite_utils.Database, respondent_id: int) -> dict[str, Any] | None:
    return one(db, "SELECT * FROM respondents WHERE id = ?", [respondent_id])


def current(db: sqlite_utils.Database) -> list[dict[str, Any]]:
    """Every respondent record not merged into another, by name."""
    return rows(
        db,
        "SELECT * FROM respondents WHERE merged_into IS NULL ORDER BY name COLLATE NOCASE, id",
    )


def add(db: sqlite_utils.Database, actor: str, details: dict[str, Any]) -> int:
    """A new respondent (inside the caller's transaction)."""
    values = {key: details.get(key) or None for key in CONTACT}
    found = insert(db, "respondents", {**values, "created_at": local_stamp(), "created_by": actor})
    log_respondent(db, found, actor, "respondent_added", name=values["name"])
    return found


def edit(db: sqlite_utils.Database, actor: str, respondent_id: int, details: dict) -> list[str]:
    """Change a respondent's contact details; the log keeps what each changed field was."""
    with transaction(db):
        person = respondent(db, respondent_id)
        if person is None or person["merged_into"]:
            raise WorkflowError("This record was merged into another: change that one.")
        changed = {
            key: {"from": person[key], "to": details.get(key) or None}
            for key in CONTACT
            if (details.get(key) or None) != person[key]
        }
        if changed:
            sets = ", ".join(f"{key} = ?" for key in changed)
            db.execute(
                f"UPDATE respondents SET {sets} WHERE id = ?",
                [*(change["to"] for change in changed.values()), respondent_id],
            )
            log_respondent(db, respondent_id, actor, "respondent_edited", changes=changed)
    return list(changed)


def merge(db: sqlite_utils.Database, actor: str, keep_id: int, other_id: int) -> int:
    """Merge the duplicate record `other_id` into `keep_id`: its violations and earlier offenses
    move over, it is marked merged (never deleted), and both logs say so, as do the cases of the
    violations moved. Returns how many violations moved."""
    with transaction(db):
        keep, other = respondent(db, keep_id), respondent(db, other_id)
        if keep is None or other is None or keep_id == other_id:
            raise WorkflowError("Choose another respondent's record to merge into this one.")
        if keep["merged_into"] or other["merged_into"]:
            raise WorkflowError("That record was merged already.")
        moved = rows(db, "SELECT id, case_id FROM violations WHERE respondent_id = ?", [other_id])
        db.execute(
            "UPDATE violations SET respondent_id = ? WHERE respondent_id = ?", [keep_id, other_id]
        )
        db.execute(
            "UPDATE prior_offenses SET respondent_id = ? WHERE respondent_id = ?",
            [keep_id, other_id],
        )
        db.execute(
            "UPDATE respondents SET merged_into = ?, merged_at = ? WHERE id = ?",
            [keep_id, local_stamp(), other_id],
        )
        their = {key: other[key] for key in CONTACT if other[key]}
        log_respondent(
            db,
            keep_id,
            actor,
            "respondent_merged",
            merged=other_id,
            violations=len(moved),
            record=their,
        )
        log_respondent(
            db,
            other_id,
            actor,
            "respondent_merged_into",
            into=keep_id,
            name=keep["name"],
            violations=len(moved),
        )
        for violation in moved:
            log(
                db,
                violation["case_id"],
                actor,
                "violation_moved",
                violation=violation["id"],
                respondent_from=other["name"],
                respondent_to=keep["name"],
            )
    return len(moved)


def merged_ids(db: sqlite_utils.Database, respondent_id: int) -> list[int]:
    """This record and every record merged into it, directly or through another merge."""
    found, frontier = [respondent_id], [respondent_id]
    while frontier:
        marks = ", ".join("?" for _ in frontier)
        frontier = [
            row["id"]
            for row in rows(
                db, f"SELECT id FROM respondents WHERE merged_into IN ({marks})", frontier
            )
        ]
        found.extend(frontier)
    return found


def events(db: sqlite_utils.Database, respondent_id: int) -> list[dict[str, Any]]:
    """The respondent's log with the logs of every record merged into it, newest first."""
    ids = merged_ids(db, respondent_id)
    marks = ", ".join("?" for _ in ids)
    return rows(
        db,
        f"SELECT e.*, r.name AS respondent_name FROM respondent_events e"
        f" JOIN respondents r ON r.id = e.respondent_id"
        f" WHERE e.respondent_id IN ({marks}) ORDER BY e.id DESC",
        ids,
    )


# ---------------------------------------------------------------- earlier offenses


def prior_offenses(db: sqlite_utils.Database, respondent_id: int) -> list[dict[str, Any]]:
    """The earlier offenses entered from the paper files, removed ones included, newest first."""
    return rows(
        db,
        "SELECT * FROM prior_offenses WHERE respondent_id = ? ORDER BY committed_on DESC, id DESC",
        [respondent_id],
    )


def add_prior(
    db: sqlite_utils.Database, actor: str, respondent_id: int, values: dict[str, Any]
) -> int:
    with transaction(db):
        found = insert(
            db,
            "prior_offenses",
            {
                "respondent_id": respondent_id,
                "committed_on": values["committed_on"].isoformat(),
                "section": values["section"],
                "reference": values["reference"],
                "outcome": values["outcome"],
                "notes": values.get("notes") or None,
                "recorded_at": local_stamp(),
                "recorded_by": actor,
            },
        )
        log_respondent(
            db,
            respondent_id,
            actor,
            "prior_offense_added",
            prior=found,
            committed_on=values["committed_on"].isoformat(),
            section=values["section"],
            reference=values["reference"],
            outcome=values["outcome"],
        )
    return found


def remove_prior(
    db: sqlite_utils.Database, actor: str, respondent_id: int, prior_id: int, reason: str
) -> None:
    """Take an earlier offense out of the count (entered wrongly); the row and the log stay."""
    with transaction(db):
        changed = db.execute(
            "UPDATE prior_offenses SET removed_at = ?, removed_by = ?, removed_reason = ?"
            " WHERE id = ? AND respondent_id = ? AND removed_at IS NULL",
            [local_stamp(), actor, reason, prior_id, respondent_id],
        ).rowcount
        if not changed:
            raise WorkflowError("There is no such earlier offense on this record.")
        log_respondent(
            db, respondent_id, actor, "prior_offense_removed", prior=prior_id, reason=reason
        )


# ---------------------------------------------------------------- the offense history


def history(db: sqlite_utils.Database, respondent_id: int) -> list[dict[str, Any]]:
    """Every violation recorded against a respondent, newest first, with its notice in force
    (the latest issued one not superseded), its appeal and the Board's decision, if any."""
    return rows(
        db,
        "SELECT v.*, c.reference AS case_reference, n.id AS notice_id,"
        " n.number AS notice_number, n.issued_on, s.appeal_filed_on, s.late_appeal_accepted,"
        " s.decided_on, s.upheld, s.convicted_on"
        " FROM violations v JOIN cases c ON c.id = v.case_id"
        " LEFT JOIN notices n ON n.id = (SELECT id FROM notices WHERE violation_id = v.id"
        "  AND issued_on IS NOT NULL AND superseded_by IS NULL ORDER BY id DESC LIMIT 1)"
        " LEFT JOIN notice_steps s ON s.notice_id = n.id"
        " WHERE v.respondent_id = ? ORDER BY v.committed_on DESC, v.id DESC",
        [respondent_id],
    )


def standing(violation: dict[str, Any], law: Law) -> tuple[str, str]:
    """Whether a violation of `history` is "established", "pending" or "not" for the offense
    number, and why, in words (rules.notice_standing)."""
    if not violation["notice_number"]:
        return "not", "no notice of violation issued"
    state, why = rules.notice_standing(
        dt.date.fromisoformat(violation["issued_on"]),
        dt.date.fromisoformat(violation["appeal_filed_on"])
        if violation["appeal_filed_on"]
        else None,
        bool(violation["late_appeal_accepted"]),
        dt.date.fromisoformat(violation["decided_on"]) if violation["decided_on"] else None,
        None if violation["upheld"] is None else bool(violation["upheld"]),
        *law,
    )
    return state, f"{violation['notice_number']} {why}"


def prior_of(violation: dict[str, Any], law: Law) -> Prior:
    """A violation of `history` as the offense number weighs it: established or pending as its
    notice stands, and convicted when a conviction is recorded on the notice's page."""
    state, why = standing(violation, law)
    label = violation["case_reference"] + (
        f" ({violation['notice_number']})" if violation["notice_number"] else ""
    )
    convicted = violation["notice_number"] and violation["convicted_on"]
    if convicted:
        day = dt.date.fromisoformat(convicted)
        why = f"{violation['notice_number']} conviction recorded, {date_words(day)}"
    return Prior(
        dt.date.fromisoformat(violation["committed_on"]),
        label,
        state == "established" or bool(convicted),
        why,
        state == "pending" and not convicted,
        bool(convicted),
    )


def paper_prior(prior: dict[str, Any]) -> Prior:
    """An earlier offense from the paper files as the offense number weighs it: established by
    a final notice or a conviction, as its recorded outcome says."""
    return Prior(
        dt.date.fromisoformat(prior["committed_on"]),
        f"paper file: {prior['reference']}",
        prior["outcome"] in ESTABLISHED,
        OUTCOMES[prior["outcome"]].lower(),
        convicted=prior["outcome"] == "conviction",
    )


def priors(
    db: sqlite_utils.Database, respondent_id: int, law: Law, leave_out: int | None = None
) -> list[Prior]:
    """The earlier violations the offense number weighs: those recorded on cases (but the one
    `leave_out`) and those entered from the paper files and not removed (`law`: today, the
    terms and the business calendar)."""
    found = [
        prior_of(violation, law)
        for violation in history(db, respondent_id)
        if violation["id"] != leave_out
    ]
    found += [paper_prior(p) for p in prior_offenses(db, respondent_id) if not p["removed_at"]]
    return found
