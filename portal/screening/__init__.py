"""Dry-weather outfall screening (staff pages at /staff/screenings/): the field sheet, the
rotation every outfall is screened on, and a day's printed route."""

from __future__ import annotations

import datetime as dt
from typing import Any

from flask import Flask, current_app

from portal.core.clock import local_today
from portal.core.db import get_db, rows
from portal.outfalls.rotation import Waiting, waiting
from portal.screening import kind  # noqa: F401  (registers the kind of case)


def outfalls_waiting(today: dt.date | None = None) -> Waiting:
    """The outfalls overdue and due this month: the line the queue page and the morning
    digest show (one call, so they say the same)."""
    rule = current_app.extensions["outfalls"]
    return waiting(get_db(), rule, today or local_today())


def digest_outfalls(today: dt.date) -> dict[str, Any] | None:
    """The morning digest's line on outfall screening: how many are overdue and due this
    month, with a link to the list (None: nothing waiting). Call with an app context."""
    from portal.mail.compose import public_url_for

    found = outfalls_waiting(today)
    if not found:
        return None
    # The first few by name, most overdue first (counts alone say not which).
    first = [
        {
            "code": row["code"],
            "due": row["turn"].due,
            "overdue": row["turn"].state == "overdue",
            "location": row["location"],
        }
        for row in (found.overdue + found.due)[:DIGEST_OUTFALLS]
    ]
    return {
        "overdue": len(found.overdue),
        "due": len(found.due),
        "first": first,
        "more": len(found.overdue) + len(found.due) - len(first),
        "link": public_url_for("screening.due"),
    }


# How many outfalls the morning digest names before "and N more" (the link lists them all).
DIGEST_OUTFALLS = 8


def linked_screenings(case: dict[str, Any]) -> list[dict[str, Any]]:
    """The screenings a case follows up (the case page lists them beside the outfalls)."""
    return rows(
        get_db(),
        "SELECT s.id, s.screened_at, s.overall, s.voided_at, o.code FROM screenings s"
        " JOIN outfalls o ON o.id = s.outfall_id WHERE s.case_id = ? ORDER BY s.screened_at",
        [case["id"]],
    )


def init_screening(app: Flask) -> None:
    from portal.intake.photos import MAX_UPLOAD_BYTES
    from portal.screening import (  # noqa: F401 (they add pages to bp)
        export_views,
        route_views,
        saved_views,
        views,
    )
    from portal.screening.figures import outfall_sections
    from portal.staff.figures import SectionSource, add_section
    from portal.web.errors import body_limit_mb, too_large

    app.register_blueprint(views.bp)
    too_large(
        app,
        "screening.submit",
        lambda: (
            f"Photos can be up to {MAX_UPLOAD_BYTES // 2**20} MB each, and the whole sheet up to"
            f" {body_limit_mb()} MB. Nothing was saved: go back to the sheet, attach fewer or"
            " smaller photos (with JavaScript the phone makes them smaller itself), and save again."
        ),
    )
    # The annual report's outfall figures: after the illicit discharges found (rank 10),
    # before the resident reports (20).
    add_section(app, SectionSource(15, outfall_sections))
    app.jinja_env.globals["outfalls_waiting"] = outfalls_waiting
    app.jinja_env.globals["linked_screenings"] = linked_screenings
