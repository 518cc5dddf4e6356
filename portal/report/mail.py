"""The mail a new report sends: the officer's copy with every detail and the photos, and the
reporter's acknowledgement with their status link."""

from __future__ import annotations

from typing import Any

import sqlite_utils
from flask import current_app
from flask_babel import gettext as _

from portal.core.db import one
from portal.mail.compose import map_link, photo_ids, queue, queue_smo_copy, status_link
from portal.report.hazards import report_hazards
from portal.web.language import in_case_language


def queue_report_mail(db: sqlite_utils.Database, case: dict[str, Any], token: str) -> None:
    """The SMO's copy with every detail and the photos; the reporter's acknowledgement."""
    case_id = case["id"]
    photos = photo_ids(db, case_id)
    report = one(db, "SELECT * FROM reports WHERE case_id = ?", [case_id])
    rules = current_app.extensions["content"].settings.hazard_rules
    hazards = report_hazards(rules, report)
    flag = f" (HAZARD: {', '.join(hazards).lower()})" if hazards else ""
    queue_smo_copy(
        db,
        "report_smo",
        case=case,
        report=report,
        hazards=hazards,
        subject=f"New illicit discharge report {case['reference']}{flag}",
        attachments=photos,
        map_link=map_link(case),
        photo_count=len(photos),
    )
    if case["contact_email"]:
        with in_case_language(case):
            queue(
                db,
                "report_ack",
                case=case,
                purpose="ack",
                recipient=case["contact_email"],
                subject=_("We received your report %(reference)s", reference=case["reference"]),
                status_link=status_link(token),
            )
