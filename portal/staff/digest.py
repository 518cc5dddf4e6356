"""The morning digest: once a day, from the hour the municipal office opens (office.opens in
the content), each officer with an e-mail address gets one mail listing the open cases
assigned to them whose follow-up date has come or passed. Queued by the courier's sweep."""

from __future__ import annotations

import datetime as dt
from typing import Any

import sqlite_utils
from flask import current_app, render_template

from portal.db import transaction
from portal.mail import outbox
from portal.statuses import CLOSED


def due_follow_ups(
    db: sqlite_utils.Database, assignee: str, today: dt.date
) -> list[dict[str, Any]]:
    """An officer's open cases with a follow-up date today or earlier, oldest date first."""
    closed = sorted(CLOSED)
    marks = ", ".join("?" for _ in closed)
    return list(db.query(
        "SELECT id, reference, kind, status, address, follow_up_on FROM cases"
        f" WHERE assignee = ? AND follow_up_on <= ? AND status NOT IN ({marks})"
        " ORDER BY follow_up_on, id",
        [assignee, today.isoformat(), *closed]))  # fmt: skip


def queue_digests(db: sqlite_utils.Database, now: dt.datetime) -> int:
    """Queue today's digest for each officer who has something in it, once a day, not before
    the office opens; return how many were queued now."""
    opens = current_app.extensions["content"].settings.office.opens
    if now.time() < opens:
        return 0
    from portal.mail.compose import public_url_for

    today = now.date()
    purpose = f"digest-{today.isoformat()}"
    queued = 0
    officers = db.execute(
        "SELECT username, email FROM staff WHERE disabled = 0 AND email IS NOT NULL"
        " AND NOT EXISTS (SELECT 1 FROM outbox WHERE purpose = ? AND recipient = staff.email)",
        [purpose],
    ).fetchall()
    for username, email in officers:
        cases = due_follow_ups(db, username, today)
        if not cases:
            continue
        for case in cases:
            case["link"] = public_url_for("staff.case", case_id=case["id"])
        context = {"username": username, "today": today, "cases": cases}
        with transaction(db):
            queued += outbox.enqueue(
                db,
                case_id=None,
                purpose=purpose,
                recipient=email,
                subject=f"Your follow-ups for {today:%B} {today.day}: {len(cases)}",
                text=render_template("mail/digest.txt", **context),
                html=render_template("mail/digest.html", **context),
            )
    return queued
