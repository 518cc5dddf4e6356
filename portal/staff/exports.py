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
from dataclasses import dataclass
from typing import Any

import sqlite_utils
from flask import current_app, render_template, request

from content_model.translation import IN_ENGLISH
from portal.core import kinds
from portal.core.clock import local_today
from portal.core.columns import time_of, yes_no
from portal.core.db import get_db, rows
from portal.core.statuses import STATUSES
from portal.report.choices import CHOICE_LABELS
from portal.staff.blueprint import bp
from portal.staff.figures_period import reporting_year, window_of
from portal.staff.queue import Filters

# Excel reads a file as UTF-8 only when it starts with this.
BYTE_ORDER_MARK = "\ufeff"

Row = dict[str, Any]


def _label(group: str, value: Any) -> Any:
    return CHOICE_LABELS[group].get(value, value) if value else None


def _status(case: Row) -> str:
    return STATUSES[case["status"]].label if case["status"] in STATUSES else case["status"]


# The staff-only CSV: (heading, how to get the value in words from a case row). Headings are
# the labels people read on the forms and the case page. The case's own columns, then each
# kind's (its descriptor's export_columns: empty for a case of another kind), then what
# staff decided and did.
CASE_COLUMNS: list[tuple[str, Callable[[Row], Any]]] = [
    ("Reference", lambda c: c["reference"]),
    ("Kind", lambda c: kinds.get(c["kind"]).label),
    ("Received", time_of("received_at")),
    ("Status", _status),
    ("Assigned to", lambda c: c["assignee"]),
    # The language they filed in, and are answered in (officer's week F10).
    ("Language", lambda c: IN_ENGLISH.get(c["language"], c["language"])),
    ("Follow up on", lambda c: c["follow_up_on"]),
    ("Street address or landmark", lambda c: c["address"]),
    ("Latitude", lambda c: c["latitude"]),
    ("Longitude", lambda c: c["longitude"]),
    ("In the service area", lambda c: yes_no(c["in_service_area"])),
    ("Name", lambda c: c["contact_name"]),
    ("E-mail", lambda c: c["contact_email"]),
    ("Phone", lambda c: c["contact_phone"]),
    ("Hazard", lambda c: "; ".join(c["hazards"]) or None),
]
STAFF_COLUMNS: list[tuple[str, Callable[[Row], Any]]] = [
    ("Referred to", lambda c: c["referred_to"]),
    ("Which exempt discharge", lambda c: c["exempt_reason"]),
    ("Duplicate of", lambda c: c["original_reference"]),
    ("Confirmed illicit discharge", lambda c: yes_no(c["confirmed_illicit"])),
    ("Site visits", lambda c: c["visits"]),
    ("Public note", lambda c: c["public_note"]),
    ("Internal notes", lambda c: c["internal_notes"]),
]

# The site-visit CSV: one line per visit recorded in the period, with its case.
VISIT_COLUMNS: list[tuple[str, Callable[[Row], Any]]] = [
    ("Case", lambda v: v["reference"]),
    ("Kind", lambda v: kinds.get(v["kind"]).label),
    ("Street address or landmark", lambda v: v["address"]),
    ("Visited", time_of("visited_at")),
    ("Who visited", lambda v: v["inspector"]),
    ("What was found", lambda v: v["findings"]),
    ("Sample taken", lambda v: yes_no(v["sampled"])),
    ("Lab reference", lambda v: v["lab_reference"]),
    ("Photos", lambda v: v["photos"]),
    ("Recorded", time_of("recorded_at")),
    ("Recorded by", lambda v: v["recorded_by"]),
]

# GeoJSON properties: nothing that names, reaches or describes a person, and no free text;
# each code has its words beside it (`status` and `status_label`).
GEOJSON_PROPERTIES = [
    "reference",
    "kind",
    "kind_label",
    "received",
    "status",
    "status_label",
    "service_code",
    "location_type",
    "location_type_label",
    "indicators",
    "indicator_labels",
    "hazardous",
    "hazards",
    "confirmed_illicit",
]
# A spreadsheet runs a cell starting with one of these as a formula.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    """A text cell a spreadsheet shows as text, never runs (CSV formula injection)."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def _own(kind: kinds.Kind, value: Callable[[Row], Any]) -> Callable[[Row], Any]:
    """A kind's column: its value for a case of that kind, empty for any other."""
    return lambda row: value(row) if row["kind"] == kind.key else None


@dataclass(frozen=True)
class ExportPart:
    """A feature's columns in the staff CSV (track-down's source and elimination): `values`
    gives, for the cases exported, {case id: {name: value}}, which `columns` read from a row."""

    columns: tuple[tuple[str, Callable[[Row], Any]], ...]
    values: Callable[[sqlite_utils.Database, list[int]], dict[int, Row]]


def add_export_part(app: Any, part: ExportPart) -> None:
    app.extensions.setdefault("export_parts", []).append(part)


def _parts() -> list[ExportPart]:
    return current_app.extensions.get("export_parts", [])


def csv_columns() -> list[tuple[str, Callable[[Row], Any]]]:
    """Every column of the staff CSV, the registered kinds' own and the features' included."""
    own = [
        (heading, _own(k, value)) for k in kinds.all_kinds() for heading, value in k.export_columns
    ]
    features = [column for part in _parts() for column in part.columns]
    return [*CASE_COLUMNS, *own, *STAFF_COLUMNS, *features]


def date_window(filters: Filters) -> tuple[dt.date, dt.date]:
    """The dates asked for, each defaulting to the current reporting year's."""
    default_start, default_end = reporting_year(local_today())
    return filters.start or default_start, filters.end or default_end


def _range() -> tuple[dt.date, dt.date]:
    return date_window(Filters.from_args(request.args))


def _cases(start: dt.date, end: dt.date) -> list[Row]:
    """The cases received in the period, each with its report or notification and the
    hazards the queue would flag."""
    where, params = Filters(start=start, end=end).query()  # the queue's own date window
    db = get_db()
    cases = kinds.attach_details(
        db,
        rows(
            db,
            "SELECT c.*, (SELECT group_concat(at || ' ' || author || ': ' || body,"
            " char(10)) FROM notes WHERE case_id = c.id) AS internal_notes,"
            " (SELECT count(*) FROM inspections WHERE case_id = c.id) AS visits,"
            " o.reference AS original_reference FROM cases c"
            f" LEFT JOIN cases o ON o.id = c.duplicate_of WHERE {where}"
            " ORDER BY c.received_at, c.id",
            params,
        ),
    )
    rules = current_app.extensions["content"].settings.hazard_rules
    ids = [case["id"] for case in cases]
    extra: dict[int, Row] = {}
    for part in _parts():
        for case_id, values in part.values(db, ids).items():
            extra.setdefault(case_id, {}).update(values)
    # Each row is the case with its details beside its own columns (the case's win a clash).
    return [
        {
            **extra.get(case["id"], {}),
            **case["details"],
            **case,
            "hazards": kinds.hazards_of(rules, case),
        }
        for case in cases
    ]


def _visits(start: dt.date, end: dt.date) -> list[Row]:
    """The site visits made in the period (by the day of the visit), oldest first."""
    return rows(
        get_db(),
        "SELECT v.*, c.reference, c.kind, c.address, (SELECT count(*) FROM"
        " inspection_photos WHERE inspection_id = v.id) AS photos FROM inspections v"
        " JOIN cases c ON c.id = v.case_id WHERE v.visited_at >= ? AND v.visited_at < ?"
        " ORDER BY v.visited_at, v.id",
        window_of(start, end),
    )


def spreadsheet(columns: list[tuple[str, Callable[[Row], Any]]], lines: Iterable[Row]) -> str:
    """A CSV file as Excel opens it: byte-order mark, headings, then one line per row."""
    out = io.StringIO()
    out.write(BYTE_ORDER_MARK)
    writer = csv.writer(out)
    writer.writerow([heading for heading, _ in columns])
    for row in lines:
        writer.writerow([safe_cell(value(row)) for _, value in columns])
    return out.getvalue()


@bp.route("/exports/")
def exports():
    start, end = _range()
    return render_template("staff/exports.html", start=start, end=end)


@bp.route("/exports/cases.csv")
def export_csv():
    start, end = _range()
    body = spreadsheet(csv_columns(), _cases(start, end))
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
        indicators = json.loads(case["indicators"]) if case.get("indicators") else []
        properties = {
            "reference": case["reference"],
            "kind": case["kind"],
            "kind_label": kinds.get(case["kind"]).label,
            "received": case["received_at"][:10],
            "status": case["status"],
            "status_label": _status(case),
            "service_code": case["service_code"],
            "location_type": case.get("location_type"),
            "location_type_label": _label("location_type", case.get("location_type")),
            "indicators": indicators,
            "indicator_labels": [_label("indicators", code) for code in indicators],
            "hazardous": bool(case["hazards"]),
            "hazards": case["hazards"],
            "confirmed_illicit": bool(case["confirmed_illicit"]),
        }
        features.append(
            {
                "type": "Feature",
                "geometry": {"type": "Point", "coordinates": [case["longitude"], case["latitude"]]},
                "properties": properties,
            }
        )
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
