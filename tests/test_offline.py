"""What the report form's offline code is served: the service worker, the manifest and its
icons, "My reports", the status figures it refreshes; and the photo previews' CSP."""

from __future__ import annotations

import io
import re

import pytest
from helpers import report_data
from PIL import Image
from test_report import jpeg, post


def test_the_manifest_names_the_municipality_and_starts_at_the_form(client, content):
    manifest = client.get("/report/manifest.webmanifest")
    assert manifest.mimetype == "application/manifest+json"
    body = manifest.json
    assert body["name"].startswith(content.settings.name)
    assert body["short_name"] == content.settings.short_name
    assert body["start_url"] == body["scope"] == "/report/"
    assert body["theme_color"] == content.settings.colours.brand
    assert body["background_color"] == content.settings.colours.background
    for icon in body["icons"]:
        response = client.get(icon["src"])
        assert response.status_code == 200 and response.mimetype == "image/png"
        with Image.open(io.BytesIO(response.data)) as image:
            assert f"{image.width}x{image.height}" == icon["sizes"]
            # Our drop in the brand colour, on the background colour.
            colours = {colour for _, colour in image.convert("RGB").getcolors(1 << 20)}
            brand = tuple(int(content.settings.colours.brand[i : i + 2], 16) for i in (1, 3, 5))
            assert brand in colours and (255, 255, 255) in colours
    assert client.get("/report/icon-64.png").status_code == 404


def test_the_form_pages_link_the_manifest(client):
    for path in ("/report/", "/report/mine/"):
        page = client.get(path).text
        assert '<link rel="manifest" href="/report/manifest.webmanifest">' in page


def test_the_service_worker_covers_the_report_pages_and_caches_no_private_page(client):
    worker = client.get("/report/sw.js")
    assert worker.mimetype == "text/javascript"
    assert worker.headers["Service-Worker-Allowed"] == "/report/"
    assert worker.headers["Cache-Control"] == "no-cache"
    cached = re.search(r"self\.PRECACHE = (\[.*?\]);", worker.text).group(1)
    assert '"/report/"' in cached and '"/report/mine/"' in cached
    assert "/status/" not in cached and "/staff/" not in cached and "/report/sent/" not in cached
    for url in re.findall(r'"(/assets/[^"]+)"', cached):
        assert client.get(url).status_code == 200, url


def test_only_the_photo_forms_allow_blob_previews(client):
    def images(path: str) -> str:
        policy = client.get(path).headers["Content-Security-Policy"]
        return next(part for part in policy.split("; ") if part.startswith("img-src"))

    assert "blob:" in images("/report/")
    assert "blob:" in images("/notify/")
    for path in ("/report/mine/", "/report/manifest.webmanifest", "/status/nothing/"):
        assert "blob:" not in images(path), path


def test_status_figures_for_my_reports_say_nothing_personal(client):
    sent = post(
        client,
        report_data(contact_name="Pat Doe", contact_email="pat@example.org"),
        photos=[("a.jpg", jpeg())],
    )
    token = sent.headers["Location"].rstrip("/").rsplit("/", 1)[1]
    figures = client.get(f"/status/{token}/status.json")
    assert figures.status_code == 200
    assert figures.json["status"] == "Received"
    assert re.fullmatch(r"IDR-\d{4}-\d{4}", figures.json["reference"])
    assert "Pat" not in figures.text and "example.org" not in figures.text
    assert figures.headers["Cache-Control"] == "no-store"
    assert client.get("/status/not-a-token/status.json").status_code == 404


def test_the_status_page_says_what_and_where_in_plain_words(client):
    sent = post(
        client,
        report_data(indicators=["suds", "sheen"], address="Main Street bridge"),
    )
    page = client.get(sent.headers["Location"].replace("/report/sent/", "/status/")).text
    text = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    assert (
        "You reported suds or foam and oily sheen or rainbow film, at Main Street bridge," in text
    )
    assert "seen on Sunday, November 29, 2026" in text
    assert "Report of an illicit discharge" not in page
    assert not re.search(r"[ap]\.m\.\.", text)
    assert '<span class="reference-inline">IDR-' in page


def test_a_point_without_an_address_is_given_as_its_coordinates(client):
    sent = post(
        client,
        report_data(address="", latitude="42.167", longitude="-76.821", indicators=["suds"]),
    )
    page = client.get(sent.headers["Location"].replace("/report/sent/", "/status/")).text
    text = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    # It may have come from the phone's location or been typed: never "a spot on the map".
    assert "You reported suds or foam, at 42.16700, -76.82100, seen on" in text
    assert "spot on the map" not in text


@pytest.mark.parametrize(
    ("ticked", "said"),
    [
        ([], "something going into the storm drains"),
        (["odor"], "a smell"),
        (
            ["sheen", "suds", "trash"],
            "oily sheen or rainbow film, suds or foam and trash or debris",
        ),
    ],
)
def test_what_was_seen_is_said_as_a_sentence(client, ticked, said):
    sent = post(client, report_data(indicators=ticked or None, odor="", address="Elm Street"))
    page = client.get(sent.headers["Location"].replace("/report/sent/", "/status/")).text
    assert f"You reported {said}, at Elm Street," in " ".join(re.sub(r"<[^>]+>", " ", page).split())


def test_two_problems_are_two_things_to_fix(client):
    broken = [("a.jpg", b"not a photo"), ("b.jpg", b"nor this")]
    page = post(client, report_data(), photos=broken).text
    assert "Please fix these 2 things" in page
    assert page.count('<li><a href="#photos">') == 2


def test_the_empty_hint_box_has_nothing_in_it(client):
    page = client.get("/report/").text
    assert '<div id="exempt-hint" class="hint-box" aria-live="polite"></div>' in page


def test_my_reports_needs_no_account_and_keeps_nothing_on_the_server(client):
    page = client.get("/report/mine/")
    assert page.status_code == 200
    assert "never on our side" in page.text
    assert 'id="forget-all"' in page.text
