"""The security review of round 3 (../shared/reviews, security.md): each finding, held."""

from __future__ import annotations

import dataclasses
import io
import threading
import time

import pytest
from helpers import (
    DATA,
    PASSWORD,
    add_enrolled_account,
    enter_code,
    from_address,
    hidden_fields,
    jpeg,
    open_form,
    report_data,
    rows,
    sign_in,
    try_password,
)
from mailserver import wait_for

from content_model.loader import load_content
from portal import create_app
from portal.accounts import devices
from portal.core.db import get_db
from portal.intake import pending
from portal.intake.decoder import BUSY, Decoder, DecoderBusy
from portal.intake.photos import Photo, PhotoError
from portal.outfalls import inventory


def _parallel(count: int, send) -> list[int]:
    """`send(n)` from `count` threads released at the same moment: their status codes."""
    start = threading.Barrier(count)
    codes: list[int] = [0] * count

    def one(n: int) -> None:
        start.wait()
        codes[n] = send(n)

    threads = [threading.Thread(target=one, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sorted(codes)


def test_parallel_reports_from_one_address_store_no_more_than_the_limit(tmp_path):
    """Eight valid reports sent at once against "2 per minute": two stored, six refused
    with the 429 page (the limit was only tested before the view and counted after it)."""
    app = create_app(
        {
            "DATABASE": str(tmp_path / "db.sqlite3"),
            "REPORT_RATE_LIMIT": "2 per minute",
            "MAIL_FOLDER": str(tmp_path / "mail"),
        }
    )
    clients = [app.test_client() for _ in range(8)]
    forms = [
        {**open_form(c), **report_data(description=f"Foam {n}")} for n, c in enumerate(clients)
    ]

    codes = _parallel(8, lambda n: clients[n].post("/report/send/", data=forms[n]).status_code)

    assert codes == [303, 303, 429, 429, 429, 429, 429, 429]
    assert rows(app, "SELECT count(*) AS n FROM cases") == [{"n": 2}]


def test_a_refused_report_says_when_to_send_it_again(tmp_path):
    app = create_app(
        {
            "DATABASE": str(tmp_path / "db.sqlite3"),
            "REPORT_RATE_LIMIT": "1 per minute",
            "MAIL_FOLDER": str(tmp_path / "mail"),
        }
    )
    client = app.test_client()
    assert (
        client.post("/report/send/", data={**open_form(client), **report_data()}).status_code == 303
    )
    refused = client.post(
        "/report/send/", data={**open_form(client), **report_data(description="More")}
    )
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert "Too many reports have come from this connection in a short time." in refused.text
    assert rows(app, "SELECT count(*) AS n FROM cases") == [{"n": 1}]


def _holding(mine: Decoder, waiting: int) -> tuple[threading.Event, list[threading.Thread]]:
    """A decoder busy with one photo and `waiting` more requests queued for it."""
    release = threading.Event()
    mine._decode = lambda data: release.wait(30) and Photo(b"", "image/jpeg", 1, 1, "")
    threads = [threading.Thread(target=mine.clean, args=(b"x",)) for _ in range(1 + waiting)]
    for thread in threads:
        thread.start()
    # Until every thread holds its place (of 6: one decoding, five waiting) and one decodes.
    wait_for(lambda: mine.lock.locked() and mine.places._value == 6 - (1 + waiting))
    return release, threads


def test_a_seventh_request_for_the_decoder_is_answered_busy_at_once():
    """One photo decoding and five waiting per worker (of its 8 threads); the next is
    refused at once, so two threads stay free for pages (it waited 30 s, holding one)."""
    mine = Decoder()
    release, threads = _holding(mine, waiting=5)
    began = time.monotonic()
    with pytest.raises(PhotoError) as refused:
        mine.clean(b"x")
    took = time.monotonic() - began
    release.set()
    for thread in threads:
        thread.join(10)
    assert str(refused.value) == BUSY
    assert took < 0.5, f"waited {took:.2f} s"


def test_a_request_waits_for_the_decoder_ten_seconds_at_most():
    mine = Decoder()
    release, threads = _holding(mine, waiting=0)
    began = time.monotonic()
    with pytest.raises(PhotoError) as refused:
        mine.clean(b"x")
    took = time.monotonic() - began
    release.set()
    threads[0].join(10)
    assert str(refused.value) == BUSY
    assert 9.5 <= took < 12, f"waited {took:.2f} s"


def test_a_busy_decoder_is_asked_once_per_request_and_the_form_comes_back(app, client, monkeypatch):
    asked = []

    def busy(data: bytes):
        asked.append(len(data))
        raise DecoderBusy

    monkeypatch.setattr(pending, "clean_photo", busy)
    photos = [(io.BytesIO(jpeg((400, 300))), f"p{n}.jpg") for n in range(3)]
    page = client.post(
        "/report/send/",
        data={**open_form(client), **report_data(), "photos": photos},
        content_type="multipart/form-data",
    )
    assert page.status_code == 422
    assert len(asked) == 1
    for name in ("p0.jpg", "p1.jpg", "p2.jpg"):
        assert f"{name}: Many photos are being processed right now" in page.text
    assert "White foam" in page.text, "what was typed is kept"
    assert rows(app, "SELECT count(*) AS n FROM cases") == [{"n": 0}]


def make_smo_wait(app) -> None:
    for n in range(10):
        try_password(from_address(app, f"203.0.113.{n}"), "smo", f"guess number {n}")


def test_the_officers_own_device_is_not_held_by_the_names_wait(guarded):
    """Strangers' wrong tries make the name wait everywhere but on a device the officer
    signed in on before (its signed cookie); a forged cookie changes nothing."""
    own = from_address(guarded, "198.51.100.7")
    assert try_password(own, "smo", PASSWORD).headers["Location"] == "/staff/second-factor"
    signed_in = enter_code(own, guarded, "smo")
    assert signed_in.status_code == 303
    cookie = next(
        h for h in signed_in.headers.getlist("Set-Cookie") if h.startswith("staff_device=")
    )
    assert "Max-Age=31536000" in cookie and "HttpOnly" in cookie
    assert "Path=/staff/" in cookie and "SameSite=Strict" in cookie
    own.delete_cookie("session")  # signed out; the device cookie stays

    make_smo_wait(guarded)
    stranger = from_address(guarded, "198.51.100.8")
    assert try_password(stranger, "smo", PASSWORD).status_code == 429
    forged = from_address(guarded, "198.51.100.9")
    forged.set_cookie("staff_device", cookie.split(";")[0].split("=", 1)[1] + "x", path="/staff/")
    assert try_password(forged, "smo", PASSWORD).status_code == 429
    assert try_password(own, "smo", "a wrong one").status_code == 401, "checked, not held"
    assert try_password(own, "smo", PASSWORD).headers["Location"] == "/staff/second-factor"
    assert enter_code(own, guarded, "smo").status_code == 303
    assert own.get("/staff/").status_code == 200


def test_the_device_cookie_is_secure_on_an_https_portal(tmp_path):
    app = create_app(
        {
            "DATABASE": str(tmp_path / "p.sqlite3"),
            "MAIL_FOLDER": str(tmp_path / "m"),
            "PUBLIC_URL": "https://portal.village.test",
        }
    )
    add_enrolled_account(app, "smo")
    with app.test_request_context("/staff/second-factor"):
        devices.remember(get_db(), "smo")
        header = app.process_response(app.response_class("")).headers["Set-Cookie"]
    assert header.startswith("staff_device=") and "; Secure" in header


def test_staff_unlock_ends_the_wait(guarded):
    make_smo_wait(guarded)
    client = from_address(guarded, "198.51.100.8")
    assert try_password(client, "smo", PASSWORD).status_code == 429
    result = guarded.test_cli_runner().invoke(args=["staff", "unlock", "smo"])
    assert result.exit_code == 0
    assert result.output == "sign-in of smo no longer waits; its count of wrong tries is cleared\n"
    assert try_password(client, "smo", PASSWORD).headers["Location"] == "/staff/second-factor"
    assert rows(guarded, "SELECT * FROM sign_in_failures") == []


def test_a_form_without_its_csrf_token_stores_no_new_photo_but_keeps_the_earlier_ones(app, client):
    """Any web page could make a visitor's browser post the form without a token; its
    uploads are named, not decoded or stored. Photos kept by an earlier try stay."""
    first = client.post(
        "/report/send/",
        data={
            **open_form(client),
            **report_data(description=""),
            "photos": [(io.BytesIO(jpeg((400, 300))), "before.jpg")],
        },
        content_type="multipart/form-data",
    )
    assert first.status_code == 422
    fields = {k: v for k, v in hidden_fields(first.text).items() if k != "csrf_token"}
    photos = [(io.BytesIO(jpeg((400, 300))), f"p{n}.jpg") for n in range(2)]
    page = client.post(
        "/report/send/",
        data={**fields, **report_data(), "photos": photos},
        content_type="multipart/form-data",
    )
    assert page.status_code == 400
    for name in ("p0.jpg", "p1.jpg"):
        assert f"{name}: this photo was not kept because the form had expired." in page.text
    assert "before.jpg" in page.text and "White foam" in page.text
    assert rows(app, "SELECT filename FROM pending_photos") == [{"filename": "before.jpg"}]


def test_an_expired_sheet_for_an_outfall_that_does_not_exist_is_a_404(app, client):
    """The CSRF handler's own abort(404) was answered 500."""
    sign_in(client, app)
    response = client.post("/staff/screenings/outfall/999/new", data={"notes": "x"})
    assert response.status_code == 404
    assert "Page not found" in response.text


def test_the_notify_start_page_is_kept_only_by_the_filers_own_browser(client):
    """Like the report form, `private, no-cache` (it had no Cache-Control at all)."""
    page = client.get("/notify/")
    assert page.status_code == 200
    assert page.headers["Cache-Control"] == "private, no-cache"
    assert client.get("/report/").headers["Cache-Control"] == "private, no-cache"


def test_the_open_data_file_leaves_out_free_text_and_is_rate_limited(tmp_path):
    """`location` (free text: "behind Jane Doe's house") is not published, as `notes`
    was not; the file has a rate limit of its own."""
    app = create_app(
        {
            "DATABASE": str(tmp_path / "p.sqlite3"),
            "MAIL_FOLDER": str(tmp_path / "m"),
            "OPEN_DATA_RATE_LIMIT": "2 per minute",
        }
    )
    app.extensions["outfalls"] = dataclasses.replace(app.extensions["outfalls"], public=True)
    name = "horseheads-outfalls.geojson"
    with app.app_context():
        inventory.import_file(
            get_db(),
            name,
            (DATA / "outfalls" / name).read_bytes(),
            load_content().settings.service_area,
            actor="test",
            stamp="2026-11-30T09:00:00-05:00",
        )
        get_db().execute(
            "UPDATE outfalls SET location = ?, notes = ?, owner = ?",
            ["behind Jane Doe's house, 12 Elm", "Jane says hi", "Jane Doe (private)"],
        )
    client = app.test_client()
    answer = client.get("/open-data/outfalls.geojson")
    assert answer.status_code == 200
    features = answer.get_json()["features"]
    assert len(features) == 6
    private = {"location", "notes", "owner"}
    assert [f["properties"].keys() & private for f in features] == [set()] * 6
    assert "Jane" not in answer.text
    assert client.get("/open-data/outfalls.geojson").status_code == 200
    assert client.get("/open-data/outfalls.geojson").status_code == 429
