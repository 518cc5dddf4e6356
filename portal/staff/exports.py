"""Exports of the cases in a date range: CSV for staff (with contact details) and GeoJSON
with no personal data at all (for maps and the public)."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from typing import Any

from flask import current_app, render_template, request

from portal.db import get_db
from portal.staff import bp
from portal.staff.queue import FROM, Filters
from portal.staff.reports import date_window

CSV_COLUMNS = [
    "reference", "kind", "received_at", "status", "assignee", "address", "latitude",
    "longitude", "in_service_area", "contact_name", "contact_email", "contact_phone",
    "indicators", "description", "observed_at", "facility_name", "materials", "hazardous",
    "notice_met", "confirmation_met", "referred_to", "exempt_reason", "duplicate_of",
    "confirmed_illicit", "public_note",
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
            "SELECT c.*, r.indicators, r.description, r.observed_at, r.location_type,"
            " n.facility_name, n.materials, n.hazardous, n.notice_met, n.confirmation_met,"
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
    writer.writerow(CSV_COLUMNS)
    for case in _cases(start, end):
        case["indicators"] = (
            " ".join(json.loads(case["indicators"])) if case["indicators"] else None
        )
        case["duplicate_of"] = case["original_reference"]
        writer.writerow([safe_cell(case[name]) for name in CSV_COLUMNS])
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
