"""The case opened from a dry-weather screening as a kind of case: what the shared code needs
to know of it. Staff open it from a suspect or obvious screening (portal/screening/cases.py);
nobody outside the office files one, so it has no person to mail or to show a status page."""

from __future__ import annotations

import json
from typing import Any

import sqlite_utils
from flask import current_app, render_template

from portal.core import kinds, search_index
from portal.core.columns import time_of
from portal.core.db import one, rows
from portal.screening import sheet
from portal.screening.hazards import screening_hazards
from portal.screening.migrations import migrations

OVERALL_WORDS = dict(sheet.OVERALL)


def no_mail(db: sqlite_utils.Database, case: dict[str, Any], token: str) -> None:
    """Nothing to queue: the officer who opened the case is the one it is for, and no
    member of the public sent it (cases.py marks its mail done as it opens it)."""


def status_page(db: sqlite_utils.Database, case: dict[str, Any], token: str):
    """Its status, in the public's words, should the link ever be given out: no findings."""
    return render_template(
        "portal/staff_opened_status.html",
        case=case,
        lead="Staff opened this case after an inspection of the storm sewer system.",
    )


def _hazards(rules: Any, details: dict[str, Any]) -> list[str]:
    """The case's hazard, by the report's rules, from what its screening saw."""
    return screening_hazards(rules, json.loads(details.get("observations") or "{}"))


def _staff_context(db: sqlite_utils.Database, case: dict, details: dict) -> dict[str, Any]:
    screening = one(
        db,
        "SELECT id, inspector, flow, notes, voided_at, voided_by, void_reason, wet_weather"
        " FROM screenings WHERE id = ?",
        [details["screening_id"]],
    )
    photos = rows(
        db,
        "SELECT id, position, width, height FROM screening_photos WHERE screening_id = ?"
        " ORDER BY position",
        [details["screening_id"]],
    )
    outfall = one(
        db,
        "SELECT id, code, location, receiving_water, drainage_area FROM outfalls WHERE id = ?",
        [details["outfall_id"]],
    )
    return {
        "screening": screening,
        "outfall": outfall,
        "overall_words": OVERALL_WORDS,
        "screening_photos": photos,
        "hazards": _hazards(current_app.extensions["content"].settings.hazard_rules, details),
    }


SCREENING = kinds.register(
    kinds.Kind(
        key="screening",
        prefix="SCR",
        table="screening_cases",
        alias="sc",
        label="Screening finding",
        plural="Screening findings",
        short="Screening",
        # "exempt": a flow a screening or an officer finds may be one the ordinance allows (rising
        # groundwater, a sump pump, springs): the officer records which.
        statuses=("received", "investigating", "referred", "resolved", "exempt", "no-violation"),
        rank=30,
        queue_mail=no_mail,
        status_page=status_page,
        staff_context=_staff_context,
        hazards=_hazards,
        # The staff CSV: the outfall and what the screening saw.
        export_columns=(
            ("Outfall", lambda c: c["outfall_code"]),
            ("Screened", time_of("screened_at")),
            ("Overall call", lambda c: OVERALL_WORDS.get(c["overall"], c["overall"])),
            ("Screening findings", lambda c: c["findings"]),
        ),
        search_columns=(("Outfall", "outfall_code"), ("Screening findings", "findings")),
        migrations=migrations,
        sender=False,  # staff open it: nobody outside to write a note to
        counted=kinds.Counted("dry-weather screenings", "resolved"),
        about=lambda details: f"Outfall {details['outfall_code']}",
    )
)

# The owner of the screened outfall (the inventory's, from the county's GIS file): a private
# outfall's owner is who the officer looks the case up by (officer's week F1).
search_index.add_source(
    search_index.Source(
        "Outfall owner",
        "(SELECT o.owner FROM outfalls o WHERE o.id = sc.outfall_id)",
        (("outfalls", "update", "SELECT case_id FROM screening_cases WHERE outfall_id = NEW.id"),),
    )
)
