"""Photos cannot stall the portal: the pixel count is refused from the header,
every decode runs in a worker's one child process with a deadline, and while photos are
decoded the portal still answers other requests at once (gunicorn, as deployed)."""

from __future__ import annotations

import functools
import io
import threading
import time

import pytest
import requests
from crashload import Gunicorn, portal_env
from helpers import form_keys, jpeg, open_form, report_data, rows
from mailserver import free_port
from PIL import Image

from portal.intake import decoder
from portal.intake.decoder import BUSY, TOO_SLOW, Decoder
from portal.intake.photos import PhotoError

TOO_MANY_PIXELS = "This image is too big for us to process."


@functools.cache
def png(side: int) -> bytes:
    """A square RGBA PNG that compresses to a few hundred KB whatever its pixel count."""
    buffer = io.BytesIO()
    Image.new("RGBA", (side, side), (10, 200, 30, 128)).save(buffer, "PNG")
    return buffer.getvalue()


# 36 megapixels: under the 40 MP budget, so really decoded (seconds of CPU each).
UNDER_BUDGET = 6000
# 49 megapixels (7000x7000): the review's file, refused from its header.
OVER_BUDGET = 7000


def test_a_slow_decode_is_ended_at_its_deadline_and_the_next_photo_works(monkeypatch):
    mine, photo = Decoder(), png(UNDER_BUDGET)
    monkeypatch.setattr(decoder, "DEADLINE_SECONDS", 0.2)
    began = time.monotonic()
    with pytest.raises(PhotoError) as refused:
        mine.clean(photo)
    assert str(refused.value) == TOO_SLOW
    assert time.monotonic() - began < 5, "the deadline, not the decode, decided"
    assert mine.child is None and mine.started == 1, "the child was ended"
    monkeypatch.setattr(decoder, "DEADLINE_SECONDS", 30.0)
    photo = mine.clean(jpeg((800, 600)))
    assert (photo.width, photo.height) == (800, 600) and mine.started == 2
    mine.stop()


def test_one_photo_at_a_time_per_worker(monkeypatch):
    """While a photo is in the worker's decoder (its lock held), the next waits WAIT_SECONDS
    and is refused as busy, without a second child; once it is free, the next is decoded.
    The test holds the lock itself: two racing uploads depend on the machine's speed."""
    mine = Decoder()
    monkeypatch.setattr(decoder, "WAIT_SECONDS", 0.1)
    with mine.lock, pytest.raises(PhotoError) as refused:
        mine.clean(jpeg((400, 300)))
    assert str(refused.value) == BUSY
    assert mine.started == 0
    assert mine.clean(jpeg((400, 300))).width == 400
    assert mine.started == 1
    mine.stop()


def test_the_pixel_budget_is_read_from_the_header_in_the_child():
    mine, bomb = Decoder(), png(OVER_BUDGET)
    mine.clean(jpeg((40, 30)))  # the child started
    began = time.monotonic()
    with pytest.raises(PhotoError) as refused:
        mine.clean(bomb)
    assert str(refused.value).startswith(TOO_MANY_PIXELS)
    assert time.monotonic() - began < 1
    mine.stop()


def test_unsent_photos_are_capped_per_address_and_hour(app):
    def from_address(address: str):
        client = app.test_client()
        client.environ_base["REMOTE_ADDR"] = address
        return client

    busy = from_address("203.0.113.20")
    small = [(io.BytesIO(jpeg((400, 300))), f"p{n}.jpg") for n in range(3)]
    for form in range(10):  # ten forms with an error (no description), three photos each
        photos = [(io.BytesIO(jpeg((400, 300))), f"p{form}-{n}.jpg") for n in range(3)]
        page = busy.post(
            "/report/",
            data={**open_form(busy), **report_data(description=""), "photos": photos},
            content_type="multipart/form-data",
        )
        assert page.status_code == 422 and "for forms not yet sent" not in page.text
    refused = busy.post(
        "/report/",
        data={**open_form(busy), **report_data(description=""), "photos": small[:1]},
        content_type="multipart/form-data",
    )
    assert refused.status_code == 422 and "for forms not yet sent" in refused.text
    assert len(rows(app, "SELECT id FROM pending_photos WHERE client = '203.0.113.20'")) == 30
    other = from_address("203.0.113.21")
    fine = other.post(
        "/report/",
        data={**open_form(other), **report_data(), "photos": small[1:2]},
        content_type="multipart/form-data",
    )
    assert fine.status_code == 303, "another address is not held back"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    folder = tmp_path_factory.mktemp("stall")
    env = portal_env(folder) | {"PORTAL_REPORT_RATE_LIMIT": "1000 per minute"}
    server = Gunicorn(free_port(), env, folder)
    try:
        server.start()
        server.wait_ready()
        yield server
    finally:
        server.stop()
    assert "Traceback" not in server.log(tail=0), server.log()


def upload(base: str, photo: bytes, results: list, valid: bool) -> None:
    """One resident: open the form, send it with one photo; record (status, seconds, end)."""
    with requests.Session() as session:
        session.trust_env = False
        keys = form_keys(session.get(f"{base}/report/", timeout=30).text)
        data = {**keys, **report_data(**({} if valid else {"description": ""}))}
        began = time.monotonic()
        answer = session.post(
            f"{base}/report/",
            data=data,
            files=[("photos", ("big.png", photo, "image/png"))],
            allow_redirects=False,
            timeout=120,
        )
        results.append((answer.status_code, time.monotonic() - began, time.monotonic()))


@pytest.mark.parametrize(
    "side",
    [OVER_BUDGET, UNDER_BUDGET],
    ids=["three-7000x7000-refused-from-the-header", "three-6000x6000-decoded"],
)
def test_a_page_answers_within_a_second_while_three_big_pngs_arrive(served, side):
    photo = png(side)
    results: list = []
    senders = [
        threading.Thread(target=upload, args=(served.url, photo, results, True)) for _ in range(3)
    ]
    for sender in senders:
        sender.start()
    time.sleep(0.5)
    began = time.monotonic()
    answer = requests.get(
        f"{served.url}/open311/v2/services.json", timeout=30, proxies={"http": "", "https": ""}
    )
    took, answered = time.monotonic() - began, time.monotonic()
    for sender in senders:
        sender.join(180)
    print(f"{side}x{side}: GET {took:.3f} s; uploads {[round(r[1], 2) for r in results]} s")
    assert answer.status_code == 200
    assert took < 1.0, f"an unrelated GET waited {took:.2f} s"
    if side == OVER_BUDGET:
        assert [r[0] for r in results] == [422] * 3, results
    else:  # stored, or (on a machine too busy for the deadline) refused as too slow
        assert {r[0] for r in results} <= {303, 422} and 303 in {r[0] for r in results}, results
        assert max(r[2] for r in results) > answered, "the GET was answered mid-decode"
