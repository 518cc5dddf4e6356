"""The inventory on the staff maps: one layer of structures, clustered on the map of open
cases and plain on a case's own map. Built like the cases' layer (portal/staff/maps.py):
the structures travel as ONE escaped JSON array, turned into markers by
static/js/map-layers.js, whose popups are made with DOM calls, so an id is always plain
text."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlite_utils
from flask import current_app, url_for
from folium.map import Layer
from folium.template import Template

from content_model.theme import asset_url
from portal.core.clock import local_today
from portal.core.db import rows
from portal.outfalls.choices import labels
from portal.outfalls.inventory import nearest
from portal.outfalls.rotation import Turn, turns
from portal.staff.maps import script_json

LAYER_NAME = "Outfalls and structures"


@dataclass(frozen=True)
class StructurePoint:
    latitude: float
    longitude: float
    code: str  # the inventory's id, e.g. "OF-012"
    label: str  # its kind, e.g. "Outfall"
    url: str  # its page, e.g. "/staff/outfalls/3/"
    # Its place in the screening rotation ("overdue", "due", "later"; "" off the rotation)
    # and its words, e.g. "Overdue, last screened 2024-05-01".
    state: str = ""
    screening: str = ""

    def __post_init__(self) -> None:
        if not self.url.startswith("/") or self.url.startswith("//"):
            raise ValueError(f"structure URL must be a path on this site: {self.url!r}")


# Each structure is a hollow dark ring (static/js/map-layers.js): thicker and dark red when
# overdue, dark amber when due this month (the popup says which in words). Clusters of
# structures are white squares with a double black border and their count in black: no
# status colour (nor the near-black of "closed"), and square where the cases' are round.
_TEMPLATE = Template(
    """
    {% macro header(this, kwargs) %}
    {%- if this.clustered %}
    <style>.structure-cluster { background: #ffffff; color: #000000; border: 4px double #000000;
        border-radius: 0; font: 700 13px/26px sans-serif; text-align: center; }</style>
    {%- endif %}
    {% endmacro %}
    {% macro script(this, kwargs) %}
        var {{ this.get_name() }} = portalMapLayers.structures({{ this.data_json }}, {
            clustered: {{ "true" if this.clustered else "false" }}});
    {% endmacro %}
    """
)


class StructureLayer(Layer):
    """The structures as a layer the map's layer control can hide and show."""

    _template = _TEMPLATE

    def __init__(self, points: list[StructurePoint], *, clustered: bool) -> None:
        super().__init__(name=LAYER_NAME, overlay=True, control=True)
        self._name = "StructureLayer"
        self.clustered = clustered
        self.data_json = script_json([_row(point) for point in points])
        if clustered:
            self.default_js = [
                (
                    "markerclusterjs",
                    asset_url("vendor/leaflet.markercluster/leaflet.markercluster.js"),
                ),
            ]
            self.default_css = [
                ("markerclustercss", asset_url("vendor/leaflet.markercluster/MarkerCluster.css")),
            ]


def _row(point: StructurePoint) -> list[Any]:
    return [
        round(point.latitude, 6),
        round(point.longitude, 6),
        point.code,
        point.label,
        point.url,
        point.state,
        point.screening,
    ]


def screening_words(turn: Turn) -> str:
    """A structure's place in the rotation for its popup, e.g. "Overdue (due 2024-05-01),
    never screened"."""
    last = f"last screened {turn.last.isoformat()}" if turn.last else "never screened"
    return f"{turn.words} (due {turn.due.isoformat()}), {last}"


# The outfalls shown with a case: the nearest few, as far as a flow may plausibly be traced.
NEAR_CASE = 5
NEAR_CASE_METERS = 500


def _pages() -> Callable[[int], str]:
    # One url_for, then the id put in: thousands of markers, one route lookup.
    first = url_for("outfalls.detail", outfall_id=0)
    head, tail = first.rsplit("/0/", 1)
    return lambda row_id: f"{head}/{row_id}/{tail}"


def inventory_layers(db: sqlite_utils.Database) -> list[Layer]:
    """Every structure, clustered (none: no layer, and the map stays as it was)."""
    page, words = _pages(), labels("structure_type")
    rotation = {
        row["id"]: row["turn"]
        for row in turns(db, current_app.extensions["outfalls"], local_today())
    }
    points = []
    for row in rows(
        db,
        "SELECT id, code, structure_type, latitude, longitude FROM outfalls"
        " WHERE retired_on IS NULL",
    ):
        turn, kind = rotation.get(row["id"]), row["structure_type"]
        points.append(
            StructurePoint(
                row["latitude"],
                row["longitude"],
                row["code"],
                words.get(kind, kind),
                page(row["id"]),
                turn.state if turn else "",
                screening_words(turn) if turn else "",
            )
        )
    return [StructureLayer(points, clustered=True)] if points else []


def nearest_to(db: sqlite_utils.Database, case: dict[str, Any]) -> list[dict[str, Any]]:
    """The structures nearest a case's place, nearest first (none without coordinates)."""
    if case.get("latitude") is None:
        return []
    return nearest(
        db, case["latitude"], case["longitude"], limit=NEAR_CASE, within_m=NEAR_CASE_METERS
    )


def case_layers(db: sqlite_utils.Database, case: dict[str, Any]) -> list[Layer]:
    """The structures nearest a case, for its map (none: no layer)."""
    page, words = _pages(), labels("structure_type")
    points = [
        StructurePoint(
            row["latitude"],
            row["longitude"],
            row["code"],
            words.get(row["structure_type"], row["structure_type"]),
            page(row["id"]),
        )
        for row in nearest_to(db, case)
    ]
    return [StructureLayer(points, clustered=False)] if points else []
