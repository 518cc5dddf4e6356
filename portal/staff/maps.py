"""Maps of reported cases for staff: folium documents for an <iframe>, strict-CSP ready.

Folium's defaults load Leaflet, jQuery, Bootstrap and Font Awesome from CDNs and put
every marker in the page as its own block of code. Here every asset is the vendored copy
(served by `content_model.theme.asset_url`), the cases travel as ONE escaped JSON array
turned into markers by a single JavaScript function, and the few inline <script> and
<style> blocks folium writes are allowed by their sha256 hashes, never 'unsafe-inline'.
Call the functions inside a Flask request or app context (`asset_url` needs one).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import folium
from branca.element import MacroElement
from folium.map import FitBounds, Layer, LayerControl
from folium.plugins import FastMarkerCluster
from folium.template import Template

from content_model.theme import asset_url
from portal.core.statuses import COLORS
from portal.web.headers import content_security_policy
from portal.web.tiles import TileSource

# The portal's report form map goes to 19 too; markercluster refuses a map without maxZoom,
# and a map without tiles has none unless we set it.
MAX_ZOOM = 19
MAP_TITLE = "Map of cases"


@dataclass(frozen=True)
class MoreLayers:
    """What another feature adds to the staff maps (the outfall inventory): its layers for
    the map of open cases, those for one case's map, and how many things it holds. Features
    register one (`add_layers`), so the workspace imports none of them."""

    overview: Callable[[Any], list[Layer]]
    near_case: Callable[[Any, dict[str, Any]], list[Layer]]
    count: Callable[[Any], int]


def add_layers(app: Any, more: MoreLayers) -> None:
    app.extensions.setdefault("staff_map_layers", []).append(more)


def registered_layers(app: Any) -> list[MoreLayers]:
    return app.extensions.get("staff_map_layers", [])


@dataclass(frozen=True)
class MapPoint:
    latitude: float
    longitude: float
    reference: str  # e.g. "IDR-2026-0042", shown in the popup as text
    status: str  # a key of portal.core.statuses.STATUSES
    label: str  # human status label, e.g. "Being investigated"
    url: str  # link to the case page, e.g. "/staff/cases/42/"

    def __post_init__(self) -> None:
        # Only same-site paths: a "javascript:" or off-site link has no business in a popup.
        if not self.url.startswith("/") or self.url.startswith("//"):
            raise ValueError(f"case URL must be a path on this site: {self.url!r}")


@dataclass(frozen=True)
class RenderedMap:
    html: str  # a complete HTML document for an <iframe>
    script_hashes: tuple[str, ...]  # "'sha256-...'" for every inline <script> in html
    style_hashes: tuple[str, ...]  # "'sha256-...'" for every inline <style> in html


# The rows and the layer's settings for static/js/map-layers.js, which makes the markers.
# The cases' clusters: white circles ringed in black with their count, never a status colour
# (markercluster's own green, yellow and orange read as "resolved" and the like).
_LAYER_TEMPLATE = Template(
    """
    {% macro header(this, kwargs) %}
    {%- if this.clustered %}
    <style>.marker-cluster-small, .marker-cluster-medium, .marker-cluster-large {
        background-color: rgba(255, 255, 255, 0.7); }
    .marker-cluster-small div, .marker-cluster-medium div, .marker-cluster-large div {
        background-color: #ffffff; color: #000000; border: 2px solid #000000;
        font-weight: 700; line-height: 26px; }</style>
    {%- endif %}
    {% endmacro %}
    {% macro script(this, kwargs) %}
        var {{ this.get_name() }} = portalMapLayers.cases({{ this.data_json }}, {
            colors: {{ this.colors_json }}, focus: {{ this.focus_json or "null" }},
            clustered: {{ "true" if this.clustered else "false" }},
            options: {{ this.options|tojavascript if this.clustered else "{}" }}});
    {% endmacro %}
    """
)


def script_json(value: Any) -> str:
    """JSON safe inside <script>: ASCII only, and no "<", ">" or "&" to end the element."""
    text = json.dumps(value, ensure_ascii=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _row(point: MapPoint) -> list[Any]:
    # Six decimals is about 10 cm: plenty, and it keeps 5,000 rows small.
    return [
        round(point.latitude, 6),
        round(point.longitude, 6),
        point.reference,
        point.status,
        point.label,
        point.url,
    ]


def _prepare(layer: Any, rows: list[MapPoint], focus: MapPoint | None, clustered: bool) -> None:
    layer.clustered = clustered
    layer.colors_json = script_json(COLORS)
    layer.data_json = script_json([_row(p) for p in rows])
    # In the one-case map the other cases are the "small" ones; in the overview all are equal.
    layer.focus_json = script_json(_row(focus)) if focus else ""


class _StatusClusters(FastMarkerCluster):
    """Client-side clustering of all rows; no per-point Python objects."""

    _template = _LAYER_TEMPLATE

    def __init__(self, points: list[MapPoint], control: bool = False) -> None:
        # Data is kept out of folium (its FastMarkerCluster would validate and re-serialise
        # every row); chunkedLoading keeps the page responsive while 5,000+ markers are added.
        # `control`: named in a layer control, beside other layers (the outfalls).
        super().__init__([], chunked_loading=True, control=control, name="Open cases")
        _prepare(self, points, None, clustered=True)
        # Instance attributes, never the class lists folium's add_js_link would mutate.
        self.default_js = [
            ("markerclusterjs", asset_url("vendor/leaflet.markercluster/leaflet.markercluster.js"))
        ]
        self.default_css = [
            ("markerclustercss", asset_url("vendor/leaflet.markercluster/MarkerCluster.css")),
            (
                "markerclusterdefaultcss",
                asset_url("vendor/leaflet.markercluster/MarkerCluster.Default.css"),
            ),
        ]


class _StatusMarkers(Layer):
    """One focused case and its neighbours, unclustered."""

    _template = _LAYER_TEMPLATE

    def __init__(self, point: MapPoint, nearby: list[MapPoint], control: bool = False) -> None:
        super().__init__(control=control, name="Cases")
        self._name = "StatusMarkers"
        _prepare(self, nearby, point, clustered=False)


def _base_map(center: tuple[float, float], zoom: int, tiles: TileSource | None) -> folium.Map:
    max_zoom = tiles.max_zoom if tiles else MAX_ZOOM
    fmap = folium.Map(location=center, zoom_start=zoom, tiles=None, max_zoom=max_zoom)
    # Map(max_zoom=...) only reaches a tile layer folium creates itself; set it on the map.
    fmap.options["max_zoom"] = max_zoom
    # Only Leaflet itself: no jQuery, Bootstrap, awesome-markers or Font Awesome, no CDN.
    fmap.default_js = [
        ("leaflet", asset_url("vendor/leaflet/leaflet.js")),
        ("map_layers", asset_url("js/map-layers.js")),  # the markers of every layer
    ]
    fmap.default_css = [("leaflet_css", asset_url("vendor/leaflet/leaflet.css"))]
    fmap.get_root().title = MAP_TITLE
    return fmap


# Said on the map when its tiles cannot be fetched (no network, a blocked tile host):
# the markers still show, so the map stays useful, but grey must not look like a bug.
_TILE_ERROR = Template(
    """
    {% macro header(this, kwargs) %}
    <style>.tile-notice { background: #fff; color: #1a1a1a; padding: 4px 8px; margin: 0;
        max-width: min(18rem, calc(100vw - 80px)); border: 1px solid #6e6e6e;
        font: 14px/1.4 sans-serif; }
    .leaflet-control-attribution a { text-decoration: underline; }</style>
    {% endmacro %}
    {% macro script(this, kwargs) %}
        {{ this.tiles }}.once("tileerror", function () {
            var notice = L.control({position: "topright"});
            notice.onAdd = function () {
                var p = L.DomUtil.create("p", "tile-notice");
                p.setAttribute("role", "status");
                p.textContent = {{ this.text }};
                return p;
            };
            notice.addTo({{ this.map }});
        });
    {% endmacro %}
    """
)
TILE_ERROR_TEXT = (
    "The map background could not be loaded (the map server cannot be reached). "
    "The markers still show where the cases are."
)


def _add_tiles(fmap: folium.Map, tiles: TileSource | None) -> None:
    # Added last, after any fitBounds, so tiles are only fetched for the final view.
    if not tiles:
        return
    # A name folium's xyzservices lookup recognised would swap in a CDN tile server.
    if "{z}" not in tiles.url:
        raise ValueError(f"tile URL needs {{z}}/{{x}}/{{y}} placeholders: {tiles.url!r}")
    # The attribution is plain text, linked if its provider asks (portal/web/tiles.py).
    layer = folium.TileLayer(
        tiles.url, attr=str(tiles.attribution_html) or "-", max_zoom=tiles.max_zoom, control=False
    )
    if not tiles.attribution:
        # TileLayer refuses an empty attribution; drop the placeholder afterwards.
        layer.options.pop("attribution")
    layer.add_to(fmap)
    notice = MacroElement()
    notice._template = _TILE_ERROR
    notice.tiles, notice.map = layer.get_name(), fmap.get_name()
    notice.text = script_json(TILE_ERROR_TEXT)
    fmap.add_child(notice)


def cases_map(
    points: list[MapPoint],
    *,
    center: tuple[float, float],
    zoom: int,
    tiles: TileSource | None,
    layers: Sequence[Layer] = (),
) -> RenderedMap:
    """All cases on one map, clustered in the browser; fitted to the cases if there are any.
    `layers`: more to show beside them (the outfalls), each with a box to hide it."""
    fmap = _base_map(center, zoom, tiles)
    if points:
        lats = [p.latitude for p in points]
        lons = [p.longitude for p in points]
        fit = FitBounds(
            [[min(lats), min(lons)], [max(lats), max(lons)]], padding=(24, 24), max_zoom=17
        )
        # No zoom animation: tiles are then fetched for the fitted view only, not the first.
        fit.options["animate"] = False
        fit.add_to(fmap)
    _StatusClusters(points, control=bool(layers)).add_to(fmap)
    _add_layers(fmap, layers)
    _add_tiles(fmap, tiles)
    return _finish(fmap)


def _add_layers(fmap: folium.Map, layers: Sequence[Layer]) -> None:
    if not layers:
        return
    for layer in layers:
        layer.add_to(fmap)
    # Always open: a collapsed control opens on hover only.
    LayerControl(position="topright", collapsed=False).add_to(fmap)


def case_map(
    point: MapPoint,
    nearby: list[MapPoint],
    *,
    tiles: TileSource | None,
    zoom: int = 17,
    layers: Sequence[Layer] = (),
) -> RenderedMap:
    """One case, as a larger outlined marker, and the cases near it as smaller ones;
    `layers`: more beside them (the outfalls nearest the case)."""
    fmap = _base_map((point.latitude, point.longitude), zoom, tiles)
    _StatusMarkers(point, nearby, control=bool(layers)).add_to(fmap)
    _add_layers(fmap, layers)
    _add_tiles(fmap, tiles)
    return _finish(fmap)


_VIEWPORT = re.compile(r'<meta name="viewport"[^>]*>')
_INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.DOTALL)
_ANY_SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script>", re.DOTALL)
_STYLE = re.compile(r"<style\b[^>]*>(.*?)</style>", re.DOTALL)
# Attributes CSP hashes cannot cover: inline styles and event handlers.
_UNHASHABLE_ATTRIBUTE = re.compile(r"<[a-zA-Z][^>]*\s(?:style|on[a-z]+)\s*=", re.IGNORECASE)


def _csp_hash(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def _replace_once(
    pattern: re.Pattern[str] | str, new: str | Callable[[re.Match[str]], str], html: str
) -> str:
    # Each fix must apply exactly once: a folium upgrade that changes its output fails loudly.
    regex = pattern if isinstance(pattern, re.Pattern) else re.compile(re.escape(pattern))
    replacement = new if callable(new) else new.replace("\\", "\\\\")
    html, count = regex.subn(replacement, html, count=1)
    if count != 1:
        raise RuntimeError(f"folium output changed: {regex.pattern!r} not found")
    return html


def _finish(fmap: folium.Map) -> RenderedMap:
    # Browsers hash the text after turning CRLF into LF; make the string match that.
    html = fmap.get_root().render().replace("\r\n", "\n")
    html = _replace_once("<html>", '<html lang="en">', html)
    # folium puts its main script after </body>, which is not valid HTML: move it inside.
    html = _replace_once(
        re.compile(r"</body>\s*(<script>.*?</script>)\s*</html>", re.DOTALL),
        lambda match: f"{match.group(1)}\n</body>\n</html>",
        html,
    )
    # WCAG 1.4.4: folium's "maximum-scale=1.0, user-scalable=no" blocks pinch zoom.
    html = _replace_once(
        _VIEWPORT, '<meta name="viewport" content="width=device-width, initial-scale=1.0">', html
    )
    for attributes, _ in _ANY_SCRIPT.findall(html):
        if attributes.strip() and "src=" not in attributes:
            raise RuntimeError(f"unexpected inline <script{attributes}>: hash format unknown")
    markup = _STYLE.sub("", _ANY_SCRIPT.sub("", html))
    if _UNHASHABLE_ATTRIBUTE.search(markup):
        raise RuntimeError("folium emitted a style or on* attribute, which CSP would block")
    return RenderedMap(
        html=html,
        script_hashes=tuple(dict.fromkeys(_csp_hash(s) for s in _INLINE_SCRIPT.findall(html))),
        style_hashes=tuple(dict.fromkeys(_csp_hash(s) for s in _STYLE.findall(html))),
    )


def csp_for(rendered: RenderedMap, tile_origin: str | None) -> str:
    """The Content-Security-Policy header for the map document (framed by the portal only)."""
    return content_security_policy(
        (tile_origin,) if tile_origin else (),
        scripts=rendered.script_hashes,
        styles=rendered.style_hashes,
        framed_by="'self'",
    )


def legend() -> list[tuple[str, str]]:
    """(colour, status code) pairs, in workflow order, for a legend beside the map."""
    return [(color, status) for status, color in COLORS.items()]
