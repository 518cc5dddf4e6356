"""The morning digest: one mail a day per officer, from the hour the municipal office opens
(office.opens in the content), queued by the courier's sweep. It lists the officer's open
cases whose follow-up date has come or passed, and the open enforcement dates (notices of
violation) of their cases and of cases assigned to nobody, so no date goes unseen.

Officers are the enabled staff accounts with an e-mail address. While no account has one,
the digest goes to PORTAL_SMO_EMAIL (the office's mailbox) with every date in it."""

from __future__ import annotations

import datetime as dt
from typing import Any

import sqlite_utils
from flask import current_app, render_template

from portal.db import transaction
from portal.enforcement.records import open_dates
from portal.mail import outbox
from portal.statuses import CLOSED

PURPOSE = "digest"


def due_follow_ups(
    db: sqlite_utils.Database, assignee: str | None, today: dt.date
) -> list[dict[str, Any]]:
    """Open cases with a follow-up date today or earlier, oldest date first: an officer's,
    or (assignee None) everyone's."""
    closed = sorted(CLOSED)
    marks = ", ".join("?" for _ in closed)
    mine = "assignee = ? AND " if assignee else ""
    return list(db.query(
        "SELECT id, reference, kind, status, address, assignee, follow_up_on FROM cases"
        f" WHERE {mine}follow_up_on <= ? AND status NOT IN ({marks}) ORDER BY follow_up_on, id",
        [*([assignee] if assignee else []), today.isoformat(), *closed]))  # fmt: skip


def _recipients(db: sqlite_utils.Database) -> list[tuple[str | None, str]]:
    """(username, address) of each officer; (None, the office mailbox) while there is none."""
    officers = db.execute(
        "SELECT username, email FROM staff WHERE disabled = 0 AND email IS NOT NULL"
        " ORDER BY username"
    ).fetchall()
    office = current_app.config["SMO_EMAIL"]
    return [(name, email) for name, email in officers] or ([(None, office)] if office else [])


def _enforcement_dates(db: sqlite_utils.Database, username: str | None, today: dt.date) -> list:
    """Open enforcement dates of the officer's cases and of cases assigned to nobody."""
    terms = current_app.extensions["enforcement"].terms
    dates = open_dates(db, terms, current_app.extensions["calendar"], today)
    if username is None:
        return dates
    assignees = dict(db.execute("SELECT id, assignee FROM cases").fetchall()) if dates else {}
    return [(d, n) for d, n in dates if assignees.get(n["case_id"]) in (None, username)]


def queue_digests(db: sqlite_utils.Database, now: dt.datetime) -> int:
    """Queue today's digest for each officer with something in it, once a day, not before the
    office opens; return how many were queued now (check and queue in one transaction each,
    so two workers queue it once)."""
    settings = current_app.extensions["content"].settings
    if now.time() < settings.office.opens:
        return 0
    from portal.mail.compose import public_url_for

    today = now.date()
    purpose = f"{PURPOSE}-{today.isoformat()}"
    queued = 0
    for username, address in _recipients(db):
        with transaction(db):
            sent = "SELECT 1 FROM outbox WHERE purpose = ? AND recipient = ?"
            if db.execute(sent, [purpose, address]).fetchone():
                continue
            follow_ups = due_follow_ups(db, username, today)
            dates = _enforcement_dates(db, username, today)
            if not follow_ups and not dates:
                continue
            for case in follow_ups:
                case["link"] = public_url_for("staff.case", case_id=case["id"])
            links = {
                notice["id"]: public_url_for("staff.notice_page", notice_id=notice["id"])
                for _, notice in dates
            }
            context = {"username": username, "today": today, "follow_ups": follow_ups,
                       "dates": dates, "notice_links": links,
                       "all_dates": public_url_for("staff.enforcement_deadlines")}  # fmt: skip
            queued += outbox.enqueue(
                db,
                case_id=None,
                purpose=purpose,
                recipient=address,
                subject=_subject(follow_ups, dates),
                text=render_template("mail/digest.txt", **context),
                html=render_template("mail/digest.html", **context),
            )
    return queued


def _subject(follow_ups: list, dates: list) -> str:
    parts = []
    if follow_ups:
        parts.append(f"{len(follow_ups)} follow-up{'s' if len(follow_ups) != 1 else ''} due")
    if dates:
        overdue = sum(d.overdue for d, _ in dates)
        parts.append(
            f"Enforcement dates: {len(dates)} open" + (f", {overdue} overdue" if overdue else "")
        )
    return "Morning digest: " + "; ".join(parts)
