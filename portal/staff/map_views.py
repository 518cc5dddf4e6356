"""The staff maps: all open cases, and one case with its neighbours. Each map is a folium
document in an iframe whose own CSP allows exactly its inline code (by hash)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from flask import current_app, render_template, request, url_for

from portal.core.db import get_db, rows
from portal.core.statuses import STATUSES
from portal.staff.blueprint import bp
from portal.staff.cases import get_case
from portal.staff.maps import (
    MapPoint,
    RenderedMap,
    case_map,
    cases_map,
    csp_for,
    legend,
    registered_layers,
)
from portal.staff.queue import Filters, cases_from, nearby
from portal.web.headers import origin


def _point(case: dict[str, Any]) -> MapPoint:
    return MapPoint(
        latitude=case["latitude"],
        longitude=case["longitude"],
        reference=case["reference"],
        status=case["status"],
        label=STATUSES[case["status"]].label if case["status"] in STATUSES else case["status"],
        url=url_for("staff.case", case_id=case["id"]),
    )


def _open_cases(filters: Filters) -> tuple[list[dict[str, Any]], int]:
    """Open cases in the period: those with coordinates, and how many lack them."""
    where, params = replace(filters, status="open", q="", kind="", assignee="").query()
    found = rows(
        get_db(),
        f"SELECT c.id, c.reference, c.status, c.latitude, c.longitude{cases_from()} WHERE {where}",
        params,
    )
    located = [r for r in found if r["latitude"] is not None]
    return located, len(found) - len(located)


def _frame(rendered: RenderedMap):
    response = current_app.response_class(rendered.html, mimetype="text/html")
    response.headers["Content-Security-Policy"] = csp_for(
        rendered, origin(tiles.url) if (tiles := current_app.extensions["map_tiles"]) else None
    )
    # Shown inside the workspace's own pages only.
    response.headers["X-Frame-Options"] = "SAMEORIGIN"
    return response


@bp.route("/map/")
def cases_map_page():
    filters = Filters.from_args(request.args)
    located, missing = _open_cases(filters)
    structures = sum(more.count(get_db()) for more in registered_layers(current_app))
    return render_template(
        "staff/map.html",
        filters=filters,
        count=len(located),
        missing=missing,
        legend=legend(),
        structures=structures,
    )


@bp.route("/map/frame")
def cases_map_frame():
    settings = current_app.extensions["content"].settings
    located, _ = _open_cases(Filters.from_args(request.args))
    rendered = cases_map(
        [_point(case) for case in located],
        center=(settings.service_area.center_latitude, settings.service_area.center_longitude),
        zoom=settings.service_area.zoom,
        tiles=current_app.extensions["map_tiles"],
        layers=[
            layer for more in registered_layers(current_app) for layer in more.overview(get_db())
        ],
    )
    return _frame(rendered)


@bp.route("/cases/<int:case_id>/map")
def case_map_frame(case_id: int):
    case = get_case(case_id)
    others = [_point(other) for other in nearby(get_db(), case)]
    rendered = case_map(
        _point(case),
        others,
        tiles=current_app.extensions["map_tiles"],
        layers=[
            layer
            for more in registered_layers(current_app)
            for layer in more.near_case(get_db(), case)
        ],
    )
    return _frame(rendered)
