"""The morning mail of open enforcement dates: once a day, from the time the office opens,
the courier queues it for the Stormwater Management Officer (PORTAL_SMO_EMAIL)."""

from __future__ import annotations

import sqlite_utils
from flask import current_app, render_template

from portal.clock import local_now
from portal.db import transaction
from portal.enforcement.records import open_dates
from portal.mail import outbox

PURPOSE = "enforcement-digest"


def queue_digest(db: sqlite_utils.Database) -> bool:
    """Queue today's digest if it is morning, there are open dates, and it is not queued yet
    (the check and the queueing in one transaction: two workers queue it once)."""
    recipient = current_app.config["SMO_EMAIL"]
    settings = current_app.extensions["content"].settings
    now = local_now()
    if not recipient or now.time() < settings.office.opens:
        return False
    purpose = f"{PURPOSE}-{now.date().isoformat()}"
    with transaction(db):
        if db.execute("SELECT 1 FROM outbox WHERE purpose = ?", [purpose]).fetchone():
            return False
        dates = open_dates(
            db, current_app.extensions["enforcement"].terms,
            current_app.extensions["calendar"], now.date(),
        )  # fmt: skip
        if not dates:
            return False
        overdue = sum(d.overdue for d, _ in dates)
        return outbox.enqueue(
            db,
            case_id=None,
            purpose=purpose,
            recipient=recipient,
            subject=f"Enforcement dates: {len(dates)} open"
            + (f", {overdue} overdue" if overdue else ""),
            text=render_template("staff/enforcement/digest.txt", dates=dates, today=now.date()),
        )
