"""Exports of a period: the cases and the site visits as CSV for staff (every answer, the
contact details, the findings), and the cases as GeoJSON with no personal data at all (for
maps and the public).

The CSV files open as they are in a spreadsheet: UTF-8 with a byte-order mark (so Excel
does not read "José" as "JosÃ©"), times as "2026-11-30 13:06" in local time (a form Excel
reads as a date and time; with an offset it would be text), codes in words, 0/1 as yes/no.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from collections.abc import Callable, Iterable
from typing import Any

from flask import current_app, render_template, request

from portal.core.db import get_db
from portal.core.statuses import STATUSES
from portal.notification.choices import LABELS as NOTIFICATION_LABELS
from portal.report.choices import CHOICE_LABELS
from portal.report.hazards import case_hazards
from portal.staff import bp
from portal.staff.queue import FROM, Filters
from portal.staff.reports import date_window

# Excel reads a file as UTF-8 only when it starts with this.
BYTE_ORDER_MARK = "\ufeff"
KIND_LABELS = {"report": "Resident report", "notification": "Release notification"}

Row = dict[str, Any]


def spreadsheet_time(value: str | None) -> str | None:
    """A stored local time ("2026-11-30T13:06:18-05:00") as a spreadsheet reads a date and
    time: "2026-11-30 13:06" (the offset dropped: every time here is the municipality's)."""
    return f"{dt.datetime.fromisoformat(value):%Y-%m-%d %H:%M}" if value else None


def _yes_no(value: Any) -> str | None:
    return None if value is None else ("yes" if value else "no")


def _label(group: str, value: Any) -> Any:
    return CHOICE_LABELS[group].get(value, value) if value else None


def _words(group: str, value: Any) -> Any:
    return NOTIFICATION_LABELS[group].get(value, value) if value else None


def _amount(case: Row) -> str | None:
    return None if case["quantity"] is None else f"{case['quantity']:g}"


def _status(case: Row) -> str:
    return STATUSES[case["status"]].label if case["status"] in STATUSES else case["status"]


def _time(name: str) -> Callable[[Row], str | None]:
    return lambda c: spreadsheet_time(c[name])


# The staff-only CSV: (heading, how to get the value in words from a case row). Headings are
# the labels people read on the forms and the case page; a report's columns are empty for a
# notification and the other way round.
CSV_COLUMNS: list[tuple[str, Callable[[Row], Any]]] = [
    ("Reference", lambda c: c["reference"]),
    ("Kind", lambda c: KIND_LABELS.get(c["kind"], c["kind"])),
    ("Received", _time("received_at")),
    ("Status", _status),
    ("Assigned to", lambda c: c["assignee"]),
    ("Follow up on", lambda c: c["follow_up_on"]),
    ("Street address or landmark", lambda c: c["address"]),
    ("Latitude", lambda c: c["latitude"]),
    ("Longitude", lambda c: c["longitude"]),
    ("In the service area", lambda c: _yes_no(c["in_service_area"])),
    ("Name", lambda c: c["contact_name"]),
    ("E-mail", lambda c: c["contact_email"]),
    ("Phone", lambda c: c["contact_phone"]),
    ("Hazard", lambda c: "; ".join(c["hazards"]) or None),
    # The resident's report, in the order of its form.
    ("What was seen", lambda c: "; ".join(
        _label("indicators", code) for code in json.loads(c["indicators"] or "[]")) or None),
    ("Which color", lambda c: c["color"]),
    ("Smell", lambda c: _label("odor", c["odor"])),
    ("Describe what you saw", lambda c: c["description"]),
    ("Kind of place", lambda c: _label("location_type", c["location_type"])),
    ("First noticed", _time("observed_at")),
    ("Still happening", lambda c: _label("yes_no", c["still_happening"])),
    ("Happened before", lambda c: _label("yes_no", c["happened_before"])),
    ("Business or property named", lambda c: c["source_description"]),
    ("Vehicle and license plate", lambda c: c["source_vehicle"]),
    ("What they were seen doing", lambda c: c["source_notes"]),
    # The release notification, in the order of its form.
    ("Anyone hurt or in danger", lambda c: _words("yes_no", c["danger"])),
    ("Hazardous substance", lambda c: _words("yes_no", c["hazardous"])),
    ("Petroleum product", lambda c: _words("yes_no", c["petroleum"])),
    ("Called 911", lambda c: _words("yes_no", c["emergency_called"])),
    ("Called 911 at", _time("emergency_called_at")),
    ("Called the NYSDEC Spill Hotline", lambda c: _words("dec_called", c["dec_called"])),
    ("Called the NYSDEC Spill Hotline at", _time("dec_called_at")),
    ("NYSDEC spill number", lambda c: c["dec_spill_number"]),
    ("Business or facility", lambda c: c["facility_name"]),
    ("Facility address", lambda c: c["facility_address"]),
    ("Kind of facility", lambda c: _words("facility_kind", c["facility_kind"])),
    ("SPDES stormwater permit", lambda c: _words("permit", c["permit"])),
    ("Permit number", lambda c: c["permit_number"]),
    ("Responsible person's job title", lambda c: c["responsible_title"]),
    ("Discovered", _time("discovered_at")),
    ("Began", _time("began_at")),
    ("Stopped", lambda c: _words("yes_no", c["is_over"])),
    ("Stopped at", _time("ended_at")),
    ("What was released", lambda c: c["materials"]),
    ("Amount released", _amount),
    ("Unit", lambda c: _words("unit", c["unit"])),
    ("Entered or may enter a drain, ditch or stream",
     lambda c: _words("reached_drain", c["reached_drain"])),
    ("How much went in", lambda c: c["amount_reached"]),
    ("Cause", lambda c: c["cause"]),
    ("Containment and cleanup", lambda c: c["cleanup"]),
    ("To prevent it happening again", lambda c: c["prevention"]),
    ("Earlier notice", lambda c: _words("prior_notice", c["prior_notice"])),
    ("Earlier notice at", _time("prior_notice_at")),
    ("Earlier notice to", lambda c: c["prior_notice_to"]),
    ("Notice in time", lambda c: _yes_no(c["notice_met"])),
    ("Written confirmation in time", lambda c: _yes_no(c["confirmation_met"])),
    # What staff decided and did.
    ("Referred to", lambda c: c["referred_to"]),
    ("Which exempt discharge", lambda c: c["exempt_reason"]),
    ("Duplicate of", lambda c: c["original_reference"]),
    ("Confirmed illicit discharge", lambda c: _yes_no(c["confirmed_illicit"])),
    ("Site visits", lambda c: c["visits"]),
    ("Public note", lambda c: c["public_note"]),
    ("Internal notes", lambda c: c["internal_notes"]),
]  # fmt: skip

# The site-visit CSV: one line per visit recorded in the period, with its case.
VISIT_COLUMNS: list[tuple[str, Callable[[Row], Any]]] = [
    ("Case", lambda v: v["reference"]),
    ("Kind", lambda v: KIND_LABELS.get(v["kind"], v["kind"])),
    ("Street address or landmark", lambda v: v["address"]),
    ("Visited", _time("visited_at")),
    ("Who visited", lambda v: v["inspector"]),
    ("What was found", lambda v: v["findings"]),
    ("Sample taken", lambda v: _yes_no(v["sampled"])),
    ("Lab reference", lambda v: v["lab_reference"]),
    ("Photos", lambda v: v["photos"]),
    ("Recorded", _time("recorded_at")),
    ("Recorded by", lambda v: v["recorded_by"]),
]

# GeoJSON properties: nothing that names, reaches or describes a person, and no free text;
# each code has its words beside it (`status` and `status_label`).
GEOJSON_PROPERTIES = ["reference", "kind", "kind_label", "received", "status", "status_label",
                      "service_code", "location_type", "location_type_label", "indicators",
                      "indicator_labels", "hazardous", "hazards", "confirmed_illicit"]  # fmt: skip
# A spreadsheet runs a cell starting with one of these as a formula.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    """A text cell a spreadsheet shows as text, never runs (CSV formula injection)."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def _range() -> tuple[dt.date, dt.date]:
    return date_window(Filters.from_args(request.args))


def _cases(start: dt.date, end: dt.date) -> list[Row]:
    """The cases received in the period, each with its report or notification and the
    hazards the queue would flag."""
    where, params = Filters(start=start, end=end).query()  # the queue's own date window
    cases = list(
        get_db().query(
            "SELECT r.*, n.*, c.*, (SELECT group_concat(at || ' ' || author || ': ' || body,"
            " char(10)) FROM notes WHERE case_id = c.id) AS internal_notes,"
            " (SELECT count(*) FROM inspections WHERE case_id = c.id) AS visits,"
            f" o.reference AS original_reference{FROM}"
            f" LEFT JOIN cases o ON o.id = c.duplicate_of WHERE {where}"
            " ORDER BY c.received_at, c.id",
            params,
        )
    )
    rules = current_app.extensions["content"].settings.hazard_rules
    for case in cases:
        case["hazards"] = case_hazards(rules, case)
    return cases


def _visits(start: dt.date, end: dt.date) -> list[Row]:
    """The site visits made in the period (by the day of the visit), oldest first."""
    return list(
        get_db().query(
            "SELECT v.*, c.reference, c.kind, c.address, (SELECT count(*) FROM"
            " inspection_photos WHERE inspection_id = v.id) AS photos FROM inspections v"
            " JOIN cases c ON c.id = v.case_id WHERE v.visited_at >= ? AND v.visited_at < ?"
            " ORDER BY v.visited_at, v.id",
            [start.isoformat(), (end + dt.timedelta(days=1)).isoformat()],
        )
    )


def spreadsheet(columns: list[tuple[str, Callable[[Row], Any]]], rows: Iterable[Row]) -> str:
    """A CSV file as Excel opens it: byte-order mark, headings, then one line per row."""
    out = io.StringIO()
    out.write(BYTE_ORDER_MARK)
    writer = csv.writer(out)
    writer.writerow([heading for heading, _ in columns])
    for row in rows:
        writer.writerow([safe_cell(value(row)) for _, value in columns])
    return out.getvalue()


@bp.route("/exports/")
def exports():
    start, end = _range()
    return render_template("staff/exports.html", start=start, end=end)


@bp.route("/exports/cases.csv")
def export_csv():
    start, end = _range()
    body = spreadsheet(CSV_COLUMNS, _cases(start, end))
    return _download(body, "text/csv", f"cases-{start}-to-{end}.csv")


@bp.route("/exports/site-visits.csv")
def export_visits_csv():
    start, end = _range()
    body = spreadsheet(VISIT_COLUMNS, _visits(start, end))
    return _download(body, "text/csv", f"site-visits-{start}-to-{end}.csv")


def geojson(cases: list[Row]) -> dict[str, Any]:
    features = []
    for case in cases:
        if case["latitude"] is None:
            continue
        indicators = json.loads(case["indicators"]) if case["indicators"] else []
        properties = {
            "reference": case["reference"],
            "kind": case["kind"],
            "kind_label": KIND_LABELS.get(case["kind"], case["kind"]),
            "received": case["received_at"][:10],
            "status": case["status"],
            "status_label": _status(case),
            "service_code": case["service_code"],
            "location_type": case["location_type"],
            "location_type_label": _label("location_type", case["location_type"]),
            "indicators": indicators,
            "indicator_labels": [_label("indicators", code) for code in indicators],
            "hazardous": bool(case["hazards"]),
            "hazards": case["hazards"],
            "confirmed_illicit": bool(case["confirmed_illicit"]),
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
