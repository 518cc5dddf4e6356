"""Storing a discharge staff found: a case of its kind through the storage every case uses
(one transaction, once per form key), then, if the officer confirmed it, the confirmation
the annual figures count (in the case's log, as the case page's save writes it)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import sqlite_utils

from portal.core.cases import Stored
from portal.core.db import transaction
from portal.intake.storage import store_case
from portal.mail import courier
from portal.staff.workflow import log
from portal.staff_found.kind import KEY

# What the Open311 service list calls an illicit discharge (content/open311.yaml): one staff
# found is one, found by staff instead of reported.
SERVICE_CODE = "illicit-discharge"


def store_finding(
    db: sqlite_utils.Database,
    *,
    secret: str,
    submission_key: str,
    case: dict[str, Any],
    details: dict[str, Any],
    photo_ids: list[str],
    actor: str,
    now: dt.datetime,
) -> Stored:
    """Store the finding (committed before anything else), then confirm it if the officer
    said so. Raises what store_case raises (PhotoExpired, DuplicateSubmission), nothing
    stored. Sent twice, it is one case, confirmed once."""
    stored = store_case(
        db,
        kind=KEY,
        secret=secret,
        submission_key=submission_key,
        case=case,
        details=details,
        photo_ids=photo_ids,
        now=now,
    )
    if details["confirmed_when_found"]:
        confirm(db, stored.case_id, actor)
    # Its mail is nothing (the kind's no_mail): the courier marks it done.
    courier.dispatch()
    return stored


def confirm(db: sqlite_utils.Database, case_id: int, actor: str) -> bool:
    """Mark a case just stored a confirmed illicit discharge, with its log entry (the figures
    count the day of it). Only while nobody has touched the case: a second try of the same
    form, after staff changed it, changes nothing."""
    with transaction(db):
        done = db.execute(
            "UPDATE cases SET confirmed_illicit = 1, revision = revision + 1 WHERE id = ?"
            " AND confirmed_illicit = 0 AND NOT EXISTS (SELECT 1 FROM events WHERE case_id = ?)",
            [case_id, case_id],
        ).rowcount
        if done:
            log(db, case_id, actor, "update", confirmed_illicit={"from": 0, "to": 1})
    return bool(done)
