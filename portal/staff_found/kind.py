"""A discharge staff found themselves as a kind of case: what the shared code needs to know of
it. An officer records it on the staff page (portal/staff_found/views.py); nobody outside the
office sends one, so it has no person to mail, and its status page says nothing of what was
found."""

from __future__ import annotations

import json
from typing import Any

import sqlite_utils
from flask import current_app, render_template

from portal.core import kinds
from portal.core.columns import time_of, yes_no
from portal.core.db import rows
from portal.report.choices import CHOICE_LABELS
from portal.report.hazards import report_hazards
from portal.staff_found.choices import HOW_FOUND_WORDS
from portal.staff_found.migrations import migrations

KEY = "staff_found"


def no_mail(db: sqlite_utils.Database, case: dict[str, Any], token: str) -> None:
    """Nothing to queue: no member of the public sent it, so nobody is owed a receipt or a
    status link, and the officer who recorded it lands on its case page (the queue and the
    morning digest show it to the others)."""


def status_page(db: sqlite_utils.Database, case: dict[str, Any], token: str):
    """Its status, should its link ever be given out: no finding, place or name."""
    return render_template(
        "portal/staff_opened_status.html",
        case=case,
        lead="Staff opened this case after finding a discharge to the storm sewer system"
        " themselves.",
    )


def found_at(db: sqlite_utils.Database) -> dict[int, str]:
    """When each finding was made: its opening log entry (recorded, perhaps confirmed) stands
    for that moment."""
    found = rows(db, "SELECT case_id, found_at FROM staff_findings")
    return {row["case_id"]: row["found_at"] for row in found}


def indicator_words(details: dict[str, Any]) -> list[str]:
    """The report form's indicators the officer ticked, in words."""
    labels = CHOICE_LABELS["indicators"]
    return [labels.get(code, code) for code in json.loads(details["indicators"] or "[]")]


def _staff_context(db: sqlite_utils.Database, case: dict, details: dict) -> dict[str, Any]:
    rules = current_app.extensions["content"].settings.hazard_rules
    return {
        "seen": indicator_words(details),
        "how_words": HOW_FOUND_WORDS,
        # The resident report's rules read the same indicator codes and words.
        "hazards": report_hazards(rules, details),
    }


STAFF_FOUND = kinds.register(
    kinds.Kind(
        key=KEY,
        prefix="SF",
        table="staff_findings",
        alias="sf",
        label="Discharge found by staff",
        plural="Discharges found by staff",
        short="Staff finding",
        # "exempt": a flow a screening or an officer finds may be one the ordinance allows (rising
        # groundwater, a sump pump, springs): the officer records which.
        statuses=("received", "investigating", "referred", "resolved", "exempt", "no-violation"),
        rank=40,
        queue_mail=no_mail,
        status_page=status_page,
        staff_context=_staff_context,
        hazards=report_hazards,
        # The staff CSV: the finding, in the order of its form.
        export_columns=(
            ("Indicators staff saw", lambda c: "; ".join(indicator_words(c)) or None),
            ("What staff found", lambda c: c["description"]),
            ("When staff found it", time_of("found_at")),
            ("Who found it", lambda c: c["found_by"]),
            ("How staff found it", lambda c: HOW_FOUND_WORDS.get(c["how_found"], c["how_found"])),
            ("Confirmed when staff recorded it", lambda c: yes_no(c["confirmed_when_found"])),
            ("Staff finding recorded by", lambda c: c["recorded_by"]),
        ),
        search_columns=(("What staff found", "description"), ("Who found it", "found_by")),
        migrations=migrations,
        sender=False,  # staff open it: nobody outside to write a note to
        counted=kinds.Counted(
            "staff findings",
            "resolved",
            happened_at=found_at,
            note="A discharge staff confirmed when they recorded it counts on the day they found"
            " it, not the day it was typed (our reading: the figures count the day things"
            " happened), so recording an old finding adds it to the period it was found in.",
        ),
        record_page=("staff_found.new_finding", "Record a discharge staff found"),
    )
)
