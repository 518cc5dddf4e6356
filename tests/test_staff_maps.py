"""Staff maps: vendored assets only, hashed inline code, escaped data, one array for 5,000 cases."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest

from content_model.theme import asset_url
from portal.core.statuses import COLORS as STATUS_COLORS
from portal.core.statuses import STATUSES
from portal.staff.maps import (
    MapPoint,
    RenderedMap,
    case_map,
    cases_map,
    csp_for,
    legend,
)
from portal.web.headers import origin
from portal.web.tiles import TileSource

TILES = "https://tiles.example.org/{z}/{x}/{y}.png"
HOSTILE = "</script><script>alert(1)</script>"
VENDORED = [
    "vendor/leaflet/leaflet.js",
    "vendor/leaflet/leaflet.css",
    "vendor/leaflet.markercluster/leaflet.markercluster.js",
    "vendor/leaflet.markercluster/MarkerCluster.css",
    "vendor/leaflet.markercluster/MarkerCluster.Default.css",
]


@pytest.fixture
def ctx(make_app):
    """A request context: asset_url builds its fingerprinted URLs with url_for."""
    app = make_app()
    with app.test_request_context():
        yield


def point(i: int, **changes) -> MapPoint:
    status = list(STATUS_COLORS)[i % len(STATUS_COLORS)]
    values = {
        "latitude": 42.0 + (i % 100) / 1000,
        "longitude": -76.0 + (i // 100) / 1000,
        "reference": f"IDR-2026-{i:04d}",
        "status": status,
        "label": STATUSES[status][0],
        "url": f"/staff/cases/{i}/",
    }
    return MapPoint(**(values | changes))


def source(tile_url=None, attribution=None) -> TileSource | None:
    return TileSource(tile_url, attribution, None, 19) if tile_url else None


def overview(points, tile_url=None, attribution=None) -> RenderedMap:
    tiles = source(tile_url, attribution)
    return cases_map(points, center=(42.05, -76.0), zoom=13, tiles=tiles)


class InlineBlocks(HTMLParser):
    """The exact text of each inline <script> and <style>, read by a real HTML parser."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.scripts: list[str] = []
        self.styles: list[str] = []
        self.attributes: list[tuple[str, str]] = []
        self._current: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        self.attributes += [(tag, name) for name, _ in attrs]
        if tag == "style" or (tag == "script" and "src" not in dict(attrs)):
            (self.styles if tag == "style" else self.scripts).append("")
            self._current = self.styles if tag == "style" else self.scripts

    def handle_data(self, data):
        if self._current is not None:
            self._current[-1] += data  # raw text elements may arrive in pieces

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._current = None


def blocks(html: str) -> InlineBlocks:
    parser = InlineBlocks()
    parser.feed(html)
    parser.close()
    return parser


def sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def data_rows(html: str) -> list[list]:
    return json.loads(re.search(r"portalMapLayers\.cases\((\[.*?\]), \{\n", html).group(1))


LAYERS_JS = (Path(__file__).parent.parent / "static" / "js" / "map-layers.js").read_text()


def maps(tile_url=None, attribution=None) -> list[RenderedMap]:
    points = [point(i) for i in range(30)]
    return [
        overview(points, tile_url, attribution),
        case_map(points[0], points[1:], tiles=source(tile_url, attribution)),
    ]


@pytest.mark.parametrize("tile_url", [None, TILES])
def test_no_cdn_and_no_external_urls(ctx, tile_url):
    for rendered in maps(tile_url, "© OpenStreetMap contributors" if tile_url else None):
        html = rendered.html
        assert "cdn" not in html.lower()
        for library in ("jquery", "bootstrap", "awesome", "fontawesome", "glyphicons"):
            assert library not in html.lower()
        references = re.findall(r'(?:src|href)="([^"]*)"', html)
        references += re.findall(r"url\(\s*['\"]?([^'\")]*)", "".join(blocks(html).styles))
        assert references and all(ref.startswith("/assets/") for ref in references)
        assert set(re.findall(r"https?://[^\s\"'<>]*", html)) == ({tile_url} if tile_url else set())


def test_vendored_assets_at_fingerprinted_urls(ctx):
    clustered, single = maps()
    for filename in VENDORED:
        attribute = "src" if filename.endswith(".js") else "href"
        assert f'{attribute}="{asset_url(filename)}"' in clustered.html
    # Both load the layers' markers from one script.
    for rendered in (clustered, single):
        assert f'src="{asset_url("js/map-layers.js")}"' in rendered.html
    # The one-case map does not cluster, so it loads Leaflet alone.
    assert "markercluster" not in single.html
    assert asset_url("vendor/leaflet/leaflet.js") in single.html


@pytest.mark.parametrize("tile_url", [None, TILES])
def test_hashes_cover_every_inline_block_and_nothing_unhashable(ctx, tile_url):
    for rendered in maps(tile_url, "Test tiles"):
        found = blocks(rendered.html)
        assert found.scripts and found.styles
        assert set(rendered.script_hashes) == {sha256(s) for s in found.scripts}
        assert set(rendered.style_hashes) == {sha256(s) for s in found.styles}
        # CSP hashes cannot allow style="" or onclick="" attributes: there must be none.
        assert not [a for a in found.attributes if a[1] == "style" or a[1].startswith("on")]

        policy = dict(d.split(" ", 1) for d in csp_for(rendered, origin(tile_url)).split("; "))
        assert "'unsafe-inline'" not in csp_for(rendered, origin(tile_url))
        assert policy["script-src"].split() == ["'self'", *rendered.script_hashes]
        assert policy["style-src"].split() == ["'self'", *rendered.style_hashes]
        assert policy["img-src"].split() == ["'self'", "data:"] + (
            ["https://tiles.example.org"] if tile_url else []
        )
        assert policy["default-src"] == policy["base-uri"] == policy["form-action"] == "'self'"
        assert policy["object-src"] == "'none'" and policy["frame-ancestors"] == "'self'"


def test_document_is_accessible(ctx):
    for rendered in maps():
        assert '<html lang="en">' in rendered.html
        assert "<title>Map of cases</title>" in rendered.html
        viewports = re.findall(r'<meta name="viewport"[^>]*>', rendered.html)
        assert len(viewports) == 1 and "width=device-width" in viewports[0]
        assert "user-scalable" not in rendered.html and "maximum-scale" not in rendered.html


def test_five_thousand_cases_are_one_data_array(ctx):
    points = [point(i) for i in range(5000)]
    start = time.perf_counter()
    rendered = overview(points)
    elapsed = time.perf_counter() - start
    assert elapsed < 1.0, f"{elapsed:.3f} s"
    html = rendered.html
    # One data array for the markers static/js/map-layers.js makes, not 5,000 blocks of code.
    assert html.count("portalMapLayers.cases(") == 1 and "clustered: true" in html
    assert "L.circleMarker(" not in html
    rows = data_rows(html)
    assert len(rows) == 5000
    assert rows[41] == [
        42.041,
        -76.0,
        "IDR-2026-0041",
        "investigating",
        "Being investigated",
        "/staff/cases/41/",
    ]
    assert ".fitBounds(" in html


def test_no_points_still_renders_a_map(ctx):
    html = overview([]).html
    assert data_rows(html) == [] and ".fitBounds(" not in html
    assert "L.map(" in html


def test_hostile_text_stays_data(ctx):
    nasty = point(1, reference=HOSTILE, label="<img src=x onerror=alert(2)> & \u2028 é")
    for rendered in (overview([nasty]), case_map(nasty, [nasty], tiles=None)):
        html = rendered.html
        assert HOSTILE not in html and "<script>alert" not in html and "<img" not in html
        assert html.count("<script") == len(blocks(html).scripts) + html.count("<script src=")
        assert html.isascii()  # JSON with ensure_ascii: no raw U+2028 or other surprises
        rows = data_rows(html)
        assert rows[0][2] == HOSTILE and rows[0][4] == nasty.label
        # Popups are built with DOM calls, never from HTML strings.
        assert "innerHTML" not in html
        assert "textContent" in LAYERS_JS and "innerHTML" not in LAYERS_JS


def test_case_urls_must_be_site_paths():
    for url in ("javascript:alert(1)", "https://evil.example/", "//evil.example/", ""):
        with pytest.raises(ValueError):
            point(1, url=url)


def test_tile_layer_only_when_configured(ctx):
    for rendered in maps():
        assert "L.tileLayer(" not in rendered.html
    for rendered in maps(TILES, "© <b>Tiles</b> & co"):
        html = rendered.html
        assert html.count("L.tileLayer(") == 1 and json.dumps(TILES) in html
        # Attribution is plain text: Leaflet would insert it as HTML, so it is escaped.
        assert "\\u00a9 \\u0026lt;b\\u0026gt;Tiles\\u0026lt;/b\\u0026gt; \\u0026amp; co" in html
    for rendered in maps(TILES, None):
        assert rendered.html.count("L.tileLayer(") == 1 and '"attribution"' not in rendered.html
    with pytest.raises(ValueError):
        overview([], tile_url="OpenStreetMap")  # a provider name would pull in its CDN


def test_case_map_marks_the_case_and_its_neighbours(ctx):
    case, nearby = point(7), [point(8), point(9)]
    html = case_map(case, nearby, tiles=None).html
    assert [row[2] for row in data_rows(html)] == ["IDR-2026-0008", "IDR-2026-0009"]
    assert 'focus: [42.007,-76.0,"IDR-2026-0007",' in html and "clustered: false" in html
    assert "markercluster" not in html and '"zoom": 17' in html


def contrast_with_white(color: str) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    luminance = 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
    return 1.05 / (luminance + 0.05)


def test_legend_covers_every_status_with_distinct_colours():
    entries = legend()
    assert [status for _, status in entries] == list(STATUSES) == list(STATUS_COLORS)
    colors = [color for color, _ in entries]
    assert len(set(colors)) == len(colors)
    assert all(re.fullmatch(r"#[0-9a-f]{6}", c) and contrast_with_white(c) >= 3 for c in colors)


def test_the_legend_swatches_use_the_marker_colors():
    from pathlib import Path

    css = (Path(__file__).resolve().parent.parent / "static" / "css" / "staff.css").read_text()
    for code, color in STATUS_COLORS.items():
        assert f".swatch-{code} {{ background: {color}; }}" in css, code


def test_tile_servers_on_subdomains_get_a_wildcard_origin():
    from portal.web.headers import origin

    assert origin("https://{s}.tile.example.org/{z}/{x}/{y}.png") == "https://*.tile.example.org"
