"""The resident's report as a kind of case: what the shared code needs to know of it."""

from __future__ import annotations

import json
from typing import Any

import sqlite_utils
from flask import current_app

from content_model.site import N_
from portal.core import kinds
from portal.core.columns import time_of
from portal.report.choices import CHOICE_LABELS
from portal.report.hazards import report_hazards
from portal.report.mail import queue_report_mail
from portal.report.migrations import migrations
from portal.report.views import status_page


def _label(group: str, value: Any) -> Any:
    return CHOICE_LABELS[group].get(value, value) if value else None


def _seen(row: dict[str, Any]) -> str | None:
    codes = json.loads(row["indicators"] or "[]")
    return "; ".join(_label("indicators", code) for code in codes) or None


def _staff_context(db: sqlite_utils.Database, case: dict, details: dict) -> dict[str, Any]:
    rules = current_app.extensions["content"].settings.hazard_rules
    return {
        "indicators": json.loads(details["indicators"]),
        "hazards": report_hazards(rules, details),
    }


REPORT = kinds.register(
    kinds.Kind(
        key="report",
        prefix="IDR",
        table="reports",
        alias="r",
        label="Resident report",
        plural="Resident reports",
        short="Report",
        statuses=(
            "received",
            "investigating",
            "referred",
            "resolved",
            "no-violation",
            "exempt",
            "duplicate",
        ),
        rank=10,
        queue_mail=queue_report_mail,
        status_page=status_page,
        staff_context=_staff_context,
        hazards=report_hazards,
        # The staff CSV: the report, in the order of its form.
        export_columns=(
            ("What was seen", _seen),
            ("Which color", lambda c: c["color"]),
            ("Smell", lambda c: _label("odor", c["odor"])),
            ("Describe what you saw", lambda c: c["description"]),
            ("Kind of place", lambda c: _label("location_type", c["location_type"])),
            ("First noticed", time_of("observed_at")),
            ("Still happening", lambda c: _label("yes_no", c["still_happening"])),
            ("Happened before", lambda c: _label("yes_no", c["happened_before"])),
            ("Business or property named", lambda c: c["source_description"]),
            ("Vehicle and license plate", lambda c: c["source_vehicle"]),
            ("What they were seen doing", lambda c: c["source_notes"]),
        ),
        search_columns=(
            ("Description", "description"),
            ("Color", "color"),
            ("Business or property named", "source_description"),
            ("Vehicle and license plate", "source_vehicle"),
            ("What they were seen doing", "source_notes"),
        ),
        duplicates=True,
        migrations=migrations,
        counted=kinds.Counted("resident reports", "resolved"),
        public_words=kinds.PublicWords(
            sent=N_("This report was already sent."),
            sent_as=N_("This report was already sent as %(reference)s, on %(when)s"),
            nothing_new=N_("We have not made a second report from it."),
            tell_more=N_(
                "What you changed after sending it is not in it. To tell us more, call"
                " %(office)s at %(number)s and give your reference, or send a new report."
            ),
            follow=N_(
                "See what happens with your report here. Anyone with the link can see the"
                " status, but not your contact details."
            ),
            another=N_("Something else to report?"),
            start=N_("Start a new report"),
            form="report.form",
        ),
    )
)
