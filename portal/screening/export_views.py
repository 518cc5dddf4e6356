"""The screenings as a spreadsheet (the officer's log of the inventory, one line a sheet) and a
saved sheet printed as a record with the municipality's heading: staff pages of the screening
blueprint (views.py). The CSV names no one: no inspector, no account (a staff export like
the cases', without their contact columns)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from flask import current_app, render_template, request

from portal.core.clock import local_now
from portal.core.columns import time_of, yes_no
from portal.core.db import get_db, one, rows
from portal.outfalls.choices import VOCABULARIES, labels
from portal.screening import ori, record, sheet
from portal.screening.views import bp, outfall_of
from portal.staff.exports import date_window, spreadsheet
from portal.staff.figures_period import window_of
from portal.staff.queue import Filters

Row = dict[str, Any]


def _seen(name: str) -> Callable[[Row], Any]:
    """An indicator's kind, in words (empty: not seen)."""
    kinds = dict(ori.INDICATORS[name][1])
    return lambda s: (
        kinds.get(s["observations"][name], s["observations"][name])
        if name in s["observations"]
        else None
    )


def _number(name: str) -> Callable[[Row], Any]:
    return lambda s: s["observations"].get(name)


def _volumetric(index: int) -> Callable[[Row], Any]:
    """Flow #1 computed (0: liters a second, 1: gallons a minute), rounded to 0.001."""

    def value(s: Row) -> Any:
        seen = s["observations"]
        if not all(name in seen for name in ori.METHODS["volumetric"]):
            return None
        return round(ori.volumetric_flow(seen["flow_volume_l"], seen["flow_fill_s"])[index], 3)

    return value


def _velocity(index: int) -> Callable[[Row], Any]:
    """Flow #2 computed (0: feet a second, 1: cubic feet a second, 2: gallons a minute)."""

    def value(s: Row) -> Any:
        seen = s["observations"]
        if not all(name in seen for name in ori.METHODS["velocity"]):
            return None
        found = ori.velocity_flow(*(seen[name] for name in ori.METHODS["velocity"]))
        return round(found[index], 3)

    return value


def _list(name: str) -> Callable[[Row], Any]:
    return lambda s: ori.list_words(name, s[name])


def _choice(pairs: list[tuple[str, str]], column: str) -> Callable[[Row], Any]:
    return lambda s: dict(pairs).get(s[column], s[column]) if s[column] else None


COLUMNS: list[tuple[str, Callable[[Row], Any]]] = [
    ("Outfall", lambda s: s["code"]),
    ("Receiving water", lambda s: s["receiving_water"]),
    ("Sewershed or drainage area", lambda s: s["drainage_area"]),
    ("Screened", time_of("screened_at")),
    ("Wet weather", lambda s: yes_no(s["wet_weather"])),
    ("Hours since the last rain", lambda s: s["hours_since_rain"]),
    ("Rain (inches)", lambda s: s["rain_inches"]),
    ("Air temperature (°F)", lambda s: s["air_temperature_f"]),
    ("Land use", _list("land_use")),
    ("Known industries", lambda s: s["known_industries"]),
    ("Submerged in water", _choice(ori.SUBMERGED, "submerged_water")),
    ("Submerged in sediment", _choice(ori.SUBMERGED, "submerged_sediment")),
    ("Flow", lambda s: dict(sheet.FLOWS)[s["flow"]]),
    ("Flow, estimated (gallons a minute)", _number("flow_gpm")),
    *((ori.MEASURES[name][0], _number(name)) for name in ori.METHODS["volumetric"]),
    ("Flow by volume (liters a second)", _volumetric(0)),
    ("Flow by volume (gallons a minute)", _volumetric(1)),
    *((ori.MEASURES[name][0], _number(name)) for name in ori.METHODS["velocity"]),
    ("Velocity (feet a second)", _velocity(0)),
    ("Flow by velocity (cubic feet a second)", _velocity(1)),
    ("Flow by velocity (gallons a minute)", _velocity(2)),
    *(
        column
        for name, (label, _, graded) in ori.INDICATORS.items()
        for column in [
            (label, _seen(name)),
            *([(f"{label} severity", _number(f"{name}_severity"))] if graded else []),
        ]
    ),
    ("Poor pool quality", _list("pool_quality")),
    ("Pipe benthic growth", _list("benthic_growth")),
    *((label, _number(name)) for name, (label, _, _) in sheet.TESTS.items()),
    ("Intermittent flow trap", _choice(ori.FLOW_TRAPS, "flow_trap")),
    ("Overall call", lambda s: dict(sheet.OVERALL)[s["overall"]].split(" (")[0]),
    ("Call lower than what was seen", lambda s: yes_no(record.call_against_signs(s) is not None)),
    ("Why the call is lower", lambda s: s["call_reason"]),
    ("Hazard", lambda s: "; ".join(record.hazards(s)) or None),
    ("Case", lambda s: s["reference"]),
    ("Notes", lambda s: s["notes"]),
    ("Void", lambda s: yes_no(s["voided_at"] is not None)),
    ("Recorded", time_of("recorded_at")),
]


def screenings_of(start: Any, end: Any) -> list[Row]:
    """The screenings made in the period (by the day screened), oldest first, void ones too."""
    found = rows(
        get_db(),
        "SELECT s.*, o.code, o.receiving_water, o.drainage_area, c.reference"
        " FROM screenings s JOIN outfalls o ON o.id = s.outfall_id"
        " LEFT JOIN cases c ON c.id = s.case_id"
        " WHERE s.screened_at >= ? AND s.screened_at < ? ORDER BY s.screened_at, s.id",
        window_of(start, end),
    )
    for row in found:
        row["observations"] = json.loads(row["observations"])
    return found


@bp.route("/screenings.csv")
def export_csv():
    start, end = date_window(Filters.from_args(request.args))
    body = spreadsheet(COLUMNS, screenings_of(start, end))
    response = current_app.response_class(body, mimetype="text/csv")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="screenings-{start}-to-{end}.csv"'
    )
    return response


@bp.route("/<int:screening_id>/print")
def print_record(screening_id: int):
    """The saved sheet on paper: the municipality's heading, the outfall as the inventory
    describes it, every field of the sheet, the photos; nothing to click or fill in."""
    from portal.screening.saved_views import record_context, screening_of

    screening = screening_of(screening_id)
    db = get_db()
    case = None
    if screening["case_id"]:
        case = one(db, "SELECT reference FROM cases WHERE id = ?", [screening["case_id"]])
    return render_template(
        "staff/outfalls/saved_print.html",
        screening=screening,
        outfall=outfall_of(screening["outfall_id"]),
        case=case,
        labels={name: labels(name) for name in VOCABULARIES},
        flows=dict(sheet.FLOWS),
        overall_words=dict(sheet.OVERALL),
        indicators=sheet.indicator_lines(screening["observations"]),
        tests=sheet.test_lines(screening["observations"]),
        printed=local_now(),
        **record_context(screening),
    )
