"""The rotation's due list (overdue, due this month, screenings waiting for follow-up) and
a day's route through the outfalls, in walking order from a start: staff pages of the
screening blueprint (views.py)."""

from __future__ import annotations

from typing import Any

from flask import current_app, render_template, request

from portal.core.clock import local_now, local_today
from portal.core.db import get_db, rows
from portal.outfalls import inventory, rotation
from portal.screening import sheet
from portal.screening.route import MAX_STOPS, walking_order
from portal.screening.views import bp, place_asked, rotation_rule


def needing_follow_up(db) -> list[dict[str, Any]]:
    """Suspect and obvious screenings no case follows up yet (opened or linked from each)."""
    return rows(
        db,
        "SELECT s.id, s.screened_at, s.overall, o.id AS outfall_id, o.code FROM screenings s"
        " JOIN outfalls o ON o.id = s.outfall_id WHERE s.overall IN ('suspect', 'obvious')"
        " AND s.case_id IS NULL AND s.voided_at IS NULL ORDER BY s.screened_at DESC",
    )


@bp.route("/due")
def due():
    db = get_db()
    today = local_today()
    return render_template(
        "staff/outfalls/due.html",
        waiting=rotation.waiting(db, rotation_rule(), today),
        today=today,
        month_end=rotation.month_end(today),
        rule=rotation_rule(),
        follow_ups=needing_follow_up(db),
        areas=drainage_areas(db),
        overall_words=dict(sheet.OVERALL),
        max_stops=MAX_STOPS,
    )


def _picked_ids(args: Any) -> list[int]:
    """The outfalls ticked on the due list (their row ids), at most a route's worth."""
    ids = [int(value) for value in args.getlist("outfall") if value.isdigit()]
    return list(dict.fromkeys(ids))[:MAX_STOPS]


def drainage_areas(db) -> list[str]:
    """The drainage areas the outfalls are in (the route's filter)."""
    return [
        r["drainage_area"]
        for r in rows(
            db,
            "SELECT DISTINCT drainage_area FROM outfalls WHERE structure_type = 'outfall'"
            " AND drainage_area IS NOT NULL ORDER BY drainage_area COLLATE NOCASE",
        )
    ]


@bp.route("/route")
def route():
    """A day's route in walking order from a start (the place given, an outfall's id, or the
    content's): through the outfalls ticked on the due list, or every outfall of a drainage
    area, or else the outfalls overdue and due this month, the most overdue first."""
    db = get_db()
    settings = current_app.extensions["outfalls"]
    try:
        count = max(1, min(int(request.args.get("stops", "20")), MAX_STOPS))
    except ValueError:
        count = 20
    waiting = rotation.waiting(db, rotation_rule(), local_today())
    picked = _picked_ids(request.args)
    areas = drainage_areas(db)
    area = request.args.get("area", "")
    area = area if area in areas else ""
    if picked:
        marks = ", ".join("?" for _ in picked)
        stops = rotation.turns(
            db, rotation_rule(), local_today(), f"o.id IN ({marks})", tuple(picked)
        )
        chosen = "picked"
    elif area:
        stops = rotation.turns(db, rotation_rule(), local_today(), "o.drainage_area = ?", (area,))
        stops, chosen = stops[:count], "area"
    else:
        stops, chosen = (waiting.overdue + waiting.due)[:count], "due"
    start_code = " ".join(request.args.get("from", "").split())[:40]
    start, start_name, problem = place_asked(request.args), None, None
    if start:
        start_name = f"{start[0]:.5f}, {start[1]:.5f}"
    elif start_code:
        found = inventory.by_code(db, start_code)
        if found:
            start, start_name = (found["latitude"], found["longitude"]), found["code"]
        else:
            problem = f"No structure has the id {start_code}: the route starts at the first due."
    if start is None and settings.route_start:
        start, start_name = settings.route_start, settings.route_start_name
    if start is None and stops:
        start, start_name = (stops[0]["latitude"], stops[0]["longitude"]), stops[0]["code"]
    ordered = walking_order(stops, start) if start else []
    return render_template(
        "staff/outfalls/route.html",
        stops=ordered,
        start_name=start_name,
        start_code=start_code,
        count=count,
        problem=problem,
        printed=local_now(),
        waiting_total=len(waiting.overdue) + len(waiting.due),
        max_stops=MAX_STOPS,
        chosen=chosen,
        picked=picked,
        area=area,
        areas=areas,
    )
