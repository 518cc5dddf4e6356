"""The portal's frame: security headers, error pages and the local copy of the site."""

from __future__ import annotations

import re

import pytest
from werkzeug.routing import AnyConverter

from content_model.theme import fingerprint
from portal import create_app


def _value(converter):
    """A value each kind of URL part takes: a number, one of an any()'s items, a word."""
    if "int" in str(converter).lower():
        return 1
    return min(converter.items) if isinstance(converter, AnyConverter) else "x"


def _urls(app):
    for rule in app.url_map.iter_rules():
        values = {name: _value(rule._converters.get(name)) for name in rule.arguments}
        if rule.endpoint == "assets.asset":
            values = {"digest": fingerprint("css/site.css"), "filename": "css/site.css"}
        with app.test_request_context():
            from flask import url_for

            yield url_for(rule.endpoint, **values)


# Written out, not taken from portal/web/headers.py: a weakened header there must fail here.
POLICY = (
    "default-src 'self'; img-src 'self' data: https://tile.openstreetmap.org{blob};"
    " script-src 'self'; style-src 'self'; object-src 'none'; base-uri 'self';"
    " form-action 'self'; frame-ancestors 'none'"
)
EXPECTED_HEADERS = {
    # Images also from the default map tiles (content/site.yaml), and nothing else.
    "Content-Security-Policy": POLICY.format(blob=""),
    "Strict-Transport-Security": "max-age=31536000; includeSubDomains",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Permissions-Policy": "geolocation=(self), camera=(), microphone=(), payment=(), usb=()",
    "Cross-Origin-Opener-Policy": "same-origin",
}


def test_every_response_carries_the_security_headers(app, client):
    urls = [*_urls(app), "/no/such/page", "/ordinance/"]
    # The photo forms also show previews of the chosen photos (blob:), and only they: the
    # public forms and the screening sheet (its photos shrunk in the browser as the report's).
    previews = POLICY.format(blob=" blob:")
    for url in urls:
        response = client.get(url)
        if url in ("/report/", "/notify/") or re.fullmatch(
            r"/staff/screenings/outfall/\d+/new", url
        ):
            assert response.headers["Content-Security-Policy"] == previews, url
            response.headers["Content-Security-Policy"] = EXPECTED_HEADERS[
                "Content-Security-Policy"
            ]
        for name, value in EXPECTED_HEADERS.items():
            assert response.headers.get(name) == value, (url, name)
        assert "unsafe-inline" not in response.headers["Content-Security-Policy"]


def test_serves_the_frozen_site(client):
    assert "Only rain down the storm drain" in client.get("/").text
    assert client.get("/ordinance/").status_code == 200
    response = client.get("/learn")
    assert response.status_code == 308 and response.headers["Location"] == "/learn/"


@pytest.mark.parametrize(
    "url",
    [
        "/nothing-here/",
        "/../../etc/passwd",
        "/%2e%2e/etc/passwd",
        "/assets/000000000000/css/site.css",
        "/assets/x/../../pyproject.toml",
    ],
)
def test_unknown_paths_get_the_friendly_404(client, url):
    response = client.get(url)
    assert response.status_code == 404
    assert "Page not found" in response.text
    assert "Traceback" not in response.text


def test_assets_are_served_with_a_long_cache(client):
    response = client.get(f"/assets/{fingerprint('css/site.css')}/css/site.css")
    assert response.status_code == 200
    assert "max-age=31536000" in response.headers["Cache-Control"]


def test_without_a_configured_secret_key_each_process_gets_a_random_one(tmp_path):
    first = create_app({"DATABASE": str(tmp_path / "a.sqlite3")})
    second = create_app({"DATABASE": str(tmp_path / "b.sqlite3")})
    assert first.secret_key and first.secret_key != second.secret_key


def test_without_a_tile_source_no_map_is_offered_and_no_tile_host_allowed(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "db.sqlite3"), "MAP_TILE_URL": ""})
    response = app.test_client().get("/report/")
    # blob: only for the previews of photos chosen on this form (portal/web/offline.py).
    assert "img-src 'self' data: blob:;" in response.headers["Content-Security-Policy"]
    assert "Use my location" in response.text
    assert 'id="open-map"' not in response.text and "data-tile-url" not in response.text


def test_the_default_map_is_openstreetmap_with_its_credit(client):
    page = client.get("/report/").text
    assert 'data-tile-url="https://tile.openstreetmap.org/{z}/{x}/{y}.png"' in page
    assert 'data-tile-attribution="© OpenStreetMap contributors"' in page
    assert 'data-tile-attribution-url="https://www.openstreetmap.org/copyright"' in page
    assert 'id="open-map"' in page


def test_a_configured_tile_server_is_the_only_other_image_origin(tmp_path):
    app = create_app(
        {
            "DATABASE": str(tmp_path / "db.sqlite3"),
            "MAP_TILE_URL": "https://tiles.example.org/{z}/{x}/{y}.png",
        }
    )
    policy = app.test_client().get("/report/").headers["Content-Security-Policy"]
    assert "img-src 'self' data: https://tiles.example.org blob:;" in policy
    assert "script-src 'self';" in policy
