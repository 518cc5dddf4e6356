"""Exports of the cases in a date range: CSV for staff (with contact details) and GeoJSON
with no personal data at all (for maps and the public)."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from collections.abc import Callable
from typing import Any

from flask import current_app, render_template, request

from portal.db import get_db
from portal.hazards import report_hazards
from portal.notification.choices import LABELS as NOTIFICATION_LABELS
from portal.report.choices import CHOICE_LABELS
from portal.staff import bp
from portal.staff.queue import FROM, Filters
from portal.staff.reports import date_window
from portal.statuses import STATUSES


# The staff-only CSV: (heading, how to get the value in words from a case row). Headings
# are the labels people read on the forms; codes become their labels, 0/1 become yes/no.
def _yes_no(value: Any) -> str | None:
    return None if value is None else ("yes" if value else "no")


def _label(group: str, value: Any) -> Any:
    return CHOICE_LABELS[group].get(value, value) if value else None


def _words(group: str, value: Any) -> Any:
    return NOTIFICATION_LABELS[group].get(value, value) if value else None


def _amount(case: dict[str, Any]) -> str | None:
    if case["quantity"] is None:
        return None
    return f"{case['quantity']:g}"


CSV_COLUMNS: list[tuple[str, Callable[[dict[str, Any]], Any]]] = [
    ("Reference", lambda c: c["reference"]),
    ("Kind", lambda c: "Resident report" if c["kind"] == "report" else "Release notification"),
    ("Received", lambda c: c["received_at"]),
    ("Status", lambda c: STATUSES[c["status"]].label if c["status"] in STATUSES else c["status"]),
    ("Assigned to", lambda c: c["assignee"]),
    ("Follow up on", lambda c: c["follow_up_on"]),
    ("Street address or landmark", lambda c: c["address"]),
    ("Latitude", lambda c: c["latitude"]),
    ("Longitude", lambda c: c["longitude"]),
    ("In the service area", lambda c: _yes_no(c["in_service_area"])),
    ("Name", lambda c: c["contact_name"]),
    ("E-mail", lambda c: c["contact_email"]),
    ("Phone", lambda c: c["contact_phone"]),
    ("What was seen", lambda c: "; ".join(
        _label("indicators", code) for code in json.loads(c["indicators"] or "[]")) or None),
    ("Smell", lambda c: _label("odor", c["odor"])),
    ("Describe what you saw", lambda c: c["description"]),
    ("First noticed", lambda c: c["observed_at"]),
    ("Still happening", lambda c: _label("yes_no", c["still_happening"])),
    ("Vehicle", lambda c: c["source_vehicle"]),
    ("Hazard", lambda c: "; ".join(c["hazards"]) or None),
    ("Business or facility", lambda c: c["facility_name"]),
    ("What was released", lambda c: c["materials"]),
    ("Amount released", _amount),
    ("Unit", lambda c: _words("unit", c["unit"])),
    ("Hazardous substance", lambda c: _words("yes_no", c["hazardous"])),
    ("Notice in time", lambda c: _yes_no(c["notice_met"])),
    ("Written confirmation in time", lambda c: _yes_no(c["confirmation_met"])),
    ("Referred to", lambda c: c["referred_to"]),
    ("Which exempt discharge", lambda c: c["exempt_reason"]),
    ("Duplicate of", lambda c: c["original_reference"]),
    ("Confirmed illicit discharge", lambda c: _yes_no(c["confirmed_illicit"])),
    ("Public note", lambda c: c["public_note"]),
    ("Internal notes", lambda c: c["internal_notes"]),
]  # fmt: skip
# GeoJSON properties: nothing that names, reaches or describes a person, and no free text.
GEOJSON_PROPERTIES = ["reference", "kind", "received", "status", "service_code",
                      "location_type", "indicators", "hazardous"]  # fmt: skip
# A spreadsheet runs a cell starting with one of these as a formula.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    """A text cell a spreadsheet shows as text, never runs (CSV formula injection)."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def _range() -> tuple[dt.date, dt.date]:
    return date_window(Filters.from_args(request.args))


def _cases(start: dt.date, end: dt.date) -> list[dict[str, Any]]:
    where, params = Filters(start=start, end=end).query()  # the queue's own date window
    return list(
        get_db().query(
            "SELECT c.*, r.indicators, r.description, r.observed_at, r.location_type, r.odor,"
            " r.color, r.still_happening, r.source_description, r.source_vehicle, r.source_notes,"
            " n.facility_name, n.materials, n.hazardous, n.notice_met, n.confirmation_met,"
            " n.quantity, n.unit, (SELECT group_concat(at || ' ' || author || ': ' || body,"
            " char(10)) FROM notes WHERE case_id = c.id) AS internal_notes,"
            f" o.reference AS original_reference{FROM}"
            f" LEFT JOIN cases o ON o.id = c.duplicate_of WHERE {where}"
            " ORDER BY c.received_at, c.id",
            params,
        )
    )


@bp.route("/exports/")
def exports():
    start, end = _range()
    return render_template("staff/exports.html", start=start, end=end)


@bp.route("/exports/cases.csv")
def export_csv():
    start, end = _range()
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([heading for heading, _ in CSV_COLUMNS])
    rules = current_app.extensions["content"].settings.hazard_rules
    for case in _cases(start, end):
        case["hazards"] = report_hazards(rules, case) if case["kind"] == "report" else []
        writer.writerow([safe_cell(value(case)) for _, value in CSV_COLUMNS])
    return _download(out.getvalue(), "text/csv", f"cases-{start}-to-{end}.csv")


def geojson(cases: list[dict[str, Any]]) -> dict[str, Any]:
    features = []
    for case in cases:
        if case["latitude"] is None:
            continue
        properties = {
            "reference": case["reference"],
            "kind": case["kind"],
            "received": case["received_at"][:10],
            "status": case["status"],
            "service_code": case["service_code"],
            "location_type": case["location_type"],
            "indicators": json.loads(case["indicators"]) if case["indicators"] else [],
            "hazardous": case["hazardous"],
        }
        features.append({
            "type": "Feature",
            "geometry": {"type": "Point", "coordinates": [case["longitude"], case["latitude"]]},
            "properties": properties,
        })  # fmt: skip
    return {"type": "FeatureCollection", "features": features}


@bp.route("/exports/cases.geojson")
def export_geojson():
    start, end = _range()
    body = json.dumps(geojson(_cases(start, end)), ensure_ascii=False, indent=1)
    return _download(body, "application/geo+json", f"cases-{start}-to-{end}.geojson")


def _download(body: str, mimetype: str, filename: str):
    response = current_app.response_class(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
