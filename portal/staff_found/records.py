"""Storing a discharge staff found: a case of its kind through the storage every case uses
(one transaction, once per form key), then the officer who recorded it takes it on (its
assignment and, if they said so, the confirmation the annual figures count)."""

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
    """Store the finding (committed before anything else), then take it on. Raises what
    store_case raises (PhotoExpired, DuplicateSubmission), nothing stored. Sent twice, it
    is one case, taken on once."""
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
    take_on(db, stored.case_id, actor, confirmed=bool(details["confirmed_when_found"]))
    # Its mail is nothing (the kind's no_mail): the courier marks it done.
    courier.dispatch()
    return stored


def take_on(db: sqlite_utils.Database, case_id: int, actor: str, *, confirmed: bool) -> bool:
    """The officer who recorded the case takes it on: it is assigned to them and, if they
    said so, marked a confirmed illicit discharge, in one log entry as the case page's save
    writes it (the figures count the confirmation by its day; the queue never calls the case
    untouched). Only while nobody has touched the case: the same form sent again after
    staff changed it changes nothing."""
    with transaction(db):
        done = db.execute(
            "UPDATE cases SET assignee = ?, confirmed_illicit = ?, revision = revision + 1"
            " WHERE id = ? AND NOT EXISTS (SELECT 1 FROM events WHERE case_id = ?)",
            [actor, int(confirmed), case_id, case_id],
        ).rowcount
        if done:
            detail: dict[str, Any] = {"assignee": {"from": None, "to": actor}}
            if confirmed:
                detail["confirmed_illicit"] = {"from": 0, "to": 1}
            log(db, case_id, actor, "update", **detail)
    return bool(done)
