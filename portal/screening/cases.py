"""A case from a screening: one tap opens one (of the screening kind, at the outfall), or the
screening is linked to a case there already (a resident's report of the same pipe). Either
way `screenings.case_id` says which case follows the screening up, and the case's log says so."""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import Any

import sqlite_utils

from portal.core.cases import Stored
from portal.core.clock import local_stamp
from portal.core.db import one, transaction, value
from portal.intake.storage import store_case
from portal.screening import sheet
from portal.staff.workflow import log

# What the Open311 service list calls an illicit discharge (content/open311.yaml): a case from
# a screening is one, found by staff instead of reported.
SERVICE_CODE = "illicit-discharge"
INVESTIGATING = {"from": "received", "to": "investigating"}
REFERENCE = re.compile(r"^[A-Z]{2,5}-\d{4}-\d{4,}$")


class LinkError(ValueError):
    """A reference that names no case, or a screening that follows another case already."""


def findings(screening: dict[str, Any]) -> str:
    """What the sheet saw, in words: the call, the flow, the indicators, the tests, the notes."""
    parts = [
        f"Overall call: {dict(sheet.OVERALL)[screening['overall']]}",
        f"Flow: {dict(sheet.FLOWS)[screening['flow']]}",
        *sheet.indicator_lines(screening["observations"]),
        *sheet.test_lines(screening["observations"]),
    ]
    if screening["notes"]:
        parts.append(f"Notes: {screening['notes']}")
    return ". ".join(parts)


def open_case(
    db: sqlite_utils.Database,
    screening: dict[str, Any],
    outfall: dict[str, Any],
    *,
    actor: str,
    secret: str,
    now: dt.datetime,
) -> Stored:
    """The case following this screening up: the one linked already, or a new one at the
    outfall (so a second tap, or two officers at once, find the same case)."""
    if screening["case_id"]:
        return _linked(db, screening["case_id"])
    # One submission key per screening: store_case gives the case stored with it already,
    # should a second tap have got in between.
    stored = store_case(
        db,
        kind="screening",
        secret=secret,
        submission_key=f"screening-{screening['sheet_key']}",
        case={
            "service_code": SERVICE_CODE,
            "latitude": outfall["latitude"],
            "longitude": outfall["longitude"],
            "address": outfall["location"] or f"Outfall {outfall['code']}",
            "in_service_area": 1,
        },
        details={
            "screening_id": screening["id"],
            "outfall_id": outfall["id"],
            "outfall_code": outfall["code"],
            "overall": screening["overall"],
            "screened_at": screening["screened_at"],
            "findings": findings(screening),
            "observations": json.dumps(screening["observations"], sort_keys=True),
        },
        photo_ids=[],
        now=now,
    )
    with transaction(db):
        done = db.execute(
            "UPDATE screenings SET case_id = ? WHERE id = ? AND case_id IS NULL",
            [stored.case_id, screening["id"]],
        ).rowcount
        if done:
            log(
                db,
                stored.case_id,
                actor,
                "screening_opened",
                screening=screening["id"],
                outfall=outfall["code"],
            )
            # The officer opened it and is looking at it: its own mail would tell nobody new,
            # and it is being investigated, not "Received" as though someone had sent it in
            # (officer's week 2026-12-03 P6), logged as a save of the case form logs it (the
            # annual figures replay the log).
            db.execute(
                "UPDATE cases SET mail_queued_at = received_at, status = 'investigating',"
                " public_changed_at = ?, revision = revision + 1 WHERE id = ?",
                [local_stamp(), stored.case_id],
            )
            log(db, stored.case_id, actor, "update", status=INVESTIGATING)
            return stored
        # Linked to another case in the meantime (a colleague typed its reference): that one.
        linked = value(db, "SELECT case_id FROM screenings WHERE id = ?", [screening["id"]])
    return _linked(db, linked)


def _linked(db: sqlite_utils.Database, case_id: int) -> Stored:
    reference = value(db, "SELECT reference FROM cases WHERE id = ?", [case_id])
    return Stored(case_id, reference, token="", created=False)


def link_case(
    db: sqlite_utils.Database,
    screening: dict[str, Any],
    outfall: dict[str, Any],
    typed: str,
    *,
    actor: str,
) -> dict[str, Any]:
    """Link the screening to the case with this reference (e.g. IDR-2026-0004); the case.
    Raises LinkError in words for the officer."""
    reference = " ".join(typed.split()).upper()
    if not REFERENCE.match(reference):
        raise LinkError("Type a case reference such as IDR-2026-0004.")
    with transaction(db):
        case = one(db, "SELECT id, reference FROM cases WHERE reference = ?", [reference])
        if case is None:
            raise LinkError(f"No case has the reference {reference}.")
        linked = value(db, "SELECT case_id FROM screenings WHERE id = ?", [screening["id"]])
        if linked == case["id"]:
            return case
        if linked is not None:
            other = value(db, "SELECT reference FROM cases WHERE id = ?", [linked])
            raise LinkError(f"This screening follows {other} up already.")
        db.execute("UPDATE screenings SET case_id = ? WHERE id = ?", [case["id"], screening["id"]])
        log(
            db,
            case["id"],
            actor,
            "screening_linked",
            screening=screening["id"],
            outfall=outfall["code"],
        )
    return case
