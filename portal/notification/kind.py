"""The release notification as a kind of case: what the shared code needs to know of it."""

from __future__ import annotations

from typing import Any

import sqlite_utils

from portal.core import kinds
from portal.core.clock import local_now
from portal.core.columns import time_of, yes_no
from portal.notification.choices import LABELS
from portal.notification.compliance import confirmation_recorded, release_record
from portal.notification.deadlines import online_filing, stored_deadlines
from portal.notification.mail import queue_notification_mail
from portal.notification.migrations import migrations
from portal.notification.records import record
from portal.notification.views import receipt

# A filing is flagged when the facility answered "yes" to "Is the material hazardous?";
# "not sure" is not a flag (the staff queue has always read it so).
HAZARDOUS_FILING = "Hazardous material"


def _words(group: str, value: Any) -> Any:
    return LABELS[group].get(value, value) if value else None


def _amount(row: dict[str, Any]) -> str | None:
    return None if row["quantity"] is None else f"{row['quantity']:g}"


def _hazards(rules: Any, details: dict[str, Any]) -> list[str]:
    return [HAZARDOUS_FILING] if details.get("hazardous") == "yes" else []


def _staff_context(db: sqlite_utils.Database, case: dict, details: dict) -> dict[str, Any]:
    return {
        "sections": record(case, details),
        "release": release_record(db, case, details, local_now()),
        "deadlines": stored_deadlines(case, details, online_filing(), db),
        "labels_prior_notice": LABELS["prior_notice"],
    }


NOTIFICATION = kinds.register(
    kinds.Kind(
        key="notification",
        prefix="REL",
        table="notifications",
        alias="n",
        label="Release notification",
        plural="Release notifications",
        short="Notification",
        statuses=("received", "confirmed", "follow-up", "closed"),
        confirmation_on_record=confirmation_recorded,
        rank=20,
        queue_mail=queue_notification_mail,
        status_page=receipt,
        staff_context=_staff_context,
        hazards=_hazards,
        # The staff CSV: the release notification, in the order of its form.
        export_columns=(
            ("Anyone hurt or in danger", lambda c: _words("yes_no", c["danger"])),
            ("Hazardous substance", lambda c: _words("yes_no", c["hazardous"])),
            ("Petroleum product", lambda c: _words("yes_no", c["petroleum"])),
            ("Called 911", lambda c: _words("yes_no", c["emergency_called"])),
            ("Called 911 at", time_of("emergency_called_at")),
            ("Called the NYSDEC Spill Hotline", lambda c: _words("dec_called", c["dec_called"])),
            ("Called the NYSDEC Spill Hotline at", time_of("dec_called_at")),
            ("NYSDEC spill number", lambda c: c["dec_spill_number"]),
            ("Business or facility", lambda c: c["facility_name"]),
            ("Facility address", lambda c: c["facility_address"]),
            ("Kind of facility", lambda c: _words("facility_kind", c["facility_kind"])),
            ("SPDES stormwater permit", lambda c: _words("permit", c["permit"])),
            ("Permit number", lambda c: c["permit_number"]),
            ("Responsible person's job title", lambda c: c["responsible_title"]),
            ("Discovered", time_of("discovered_at")),
            ("Began", time_of("began_at")),
            ("Stopped", lambda c: _words("yes_no", c["is_over"])),
            ("Stopped at", time_of("ended_at")),
            ("What was released", lambda c: c["materials"]),
            ("Amount released", _amount),
            ("Unit", lambda c: _words("unit", c["unit"])),
            (
                "Entered or may enter a drain, ditch or stream",
                lambda c: _words("reached_drain", c["reached_drain"]),
            ),
            ("How much went in", lambda c: c["amount_reached"]),
            ("Cause", lambda c: c["cause"]),
            ("Containment and cleanup", lambda c: c["cleanup"]),
            ("To prevent it happening again", lambda c: c["prevention"]),
            ("Earlier notice", lambda c: _words("prior_notice", c["prior_notice"])),
            ("Earlier notice at", time_of("prior_notice_at")),
            ("Earlier notice to", lambda c: c["prior_notice_to"]),
            ("Notice in time", lambda c: yes_no(c["notice_met"])),
            ("Written confirmation in time", lambda c: yes_no(c["confirmation_met"])),
        ),
        search_columns=(
            ("Facility", "facility_name"),
            ("Facility address", "facility_address"),
            ("Material released", "materials"),
            ("Permit number", "permit_number"),
            ("NYSDEC spill number", "dec_spill_number"),
            ("Job title", "responsible_title"),
            ("Cause", "cause"),
            ("Cleanup", "cleanup"),
        ),
        migrations=migrations,
        counted=kinds.Counted("release notifications", "closed"),
        about=lambda details: details["facility_name"],
    )
)
