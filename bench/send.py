"""Sending a report from a phone on a weak signal: in Chromium on a 360 x 740 phone profile,
with the network slowed to 400 kbps up and down and 400 ms latency (CDP
Network.emulateNetworkConditions), the time from tapping Send with a 4032 x 3024 photo to
the thanks page; the bytes that travel for that photo and for a 3000 x 2250 noise image;
and the form's height from its heading to Send, with its optional groups closed."""

from __future__ import annotations

import io
import logging
import random
import re
import statistics
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
from PIL import Image
from werkzeug.serving import make_server

from portal import create_app

CHROMIUM = "/usr/bin/chromium"
PHONE = {
    "viewport": {"width": 360, "height": 740},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}
KBPS = 400
# CDP takes bytes per second; latency is added to each request's round trip.
SLOW = {
    "offline": False,
    "latency": 400,
    "downloadThroughput": KBPS * 1000 / 8,
    "uploadThroughput": KBPS * 1000 / 8,
}
TARGET_SECONDS = 8
HEIGHT_TARGET_SCREENS = 4
SENT_PAGE = re.compile(r"/report/sent/[\w-]+/$")


def typical_photo(width: int = 4032, height: int = 3024) -> bytes:
    """A 12-megapixel phone photo as heavy as a real one (about 3 MB): detail at every
    scale, fading as it gets finer (as in natural scenes), colour that drifts slowly, and
    the camera's grain. Pure noise would be far heavier than any photo of a creek."""
    rng = np.random.default_rng(7)
    half = (width // 2, height // 2)
    light = np.zeros(half[::-1], np.float32)
    for scale in (1, 2, 4, 8, 16, 32, 64, 128, 256):
        coarse = rng.normal(size=(half[1] // scale + 2, half[0] // scale + 2)) * scale**0.5
        light += _resized(coarse, half)
    light = (light - light.mean()) / light.std() * 40 + 120
    colour = np.stack(
        [
            _resized(rng.normal(size=(height // 64 + 2, width // 64 + 2)), (width, height))
            for _ in range(3)
        ],
        axis=2,
    )
    grain = rng.normal(size=(height, width, 3)).astype(np.float32) * 5
    pixels = _resized(light, (width, height))[..., None] + colour * 25 + grain
    buffer = io.BytesIO()
    Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8)).save(buffer, "JPEG", quality=92)
    return buffer.getvalue()


def _resized(values, size: tuple[int, int]):
    image = Image.fromarray(values.astype(np.float32), mode="F")
    return np.asarray(image.resize(size, Image.Resampling.BICUBIC))


def noise_image(width: int = 3000, height: int = 2250) -> bytes:
    """Random pixels, the hardest content for JPEG: a photo of gravel or leaves, at worst."""
    rng = random.Random(11)
    image = Image.frombytes("RGB", (width, height), rng.randbytes(width * height * 3))
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=90)
    return buffer.getvalue()


def photo_bytes(body: bytes, name: str) -> int:
    """The size of the file part `name` in a multipart body, as it travelled."""
    part = body.split(f'filename="{name}'.encode(), 1)[1].split(b"\r\n\r\n", 1)[1]
    return part.index(b"\r\n--")


def run(repeat: int = 3) -> None:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        print(f"Sending on a weak signal: skipped ({CHROMIUM} is not installed)")
        return
    photo, noise = typical_photo(), noise_image()
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "DATABASE": str(Path(folder) / "bench.sqlite3"),
                "MAIL_FOLDER": str(Path(folder) / "mail"),
                "MAP_TILE_URL": "",
                "SMO_EMAIL": "smo@bench.test",
                "RATELIMIT_ENABLED": False,
            }
        )
        app.wsgi_app = recording(app.wsgi_app)
        server = make_server("127.0.0.1", 0, app, threaded=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        url = f"http://127.0.0.1:{server.server_port}"
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
                )
                screens = _form_height(browser, url)
                sends = [_send(browser, url, photo, "phone.jpg", SLOW) for _ in range(repeat)]
                _, noise_sent = _send(browser, url, noise, "noise.jpg", None)
                browser.close()
        finally:
            server.shutdown()
            thread.join()
    times, sizes = zip(*sends, strict=True)
    flag = "ok" if statistics.median(times) <= TARGET_SECONDS else "OVER"
    print(
        f"Send a report with a 4032 x 3024 photo ({len(photo) / 1024 / 1024:.1f} MB) at"
        f" {KBPS} kbps up/down, {SLOW['latency']} ms latency, 360 px phone: tap Send to thanks"
        f" page median {statistics.median(times):.1f} s, max {max(times):.1f} s over {repeat}"
        f" (target {TARGET_SECONDS} s)  {flag}"
    )
    print(
        f"  bytes sent for that photo: {statistics.median(sizes) / 1024:.0f} KB;"
        f" for a 3000 x 2250 noise image ({len(noise) / 1024 / 1024:.1f} MB):"
        f" {noise_sent / 1024:.0f} KB (at most 1024 KB)"
    )
    flag = "ok" if screens <= HEIGHT_TARGET_SCREENS else "OVER"
    print(
        f"  the form from its heading to Send, optional groups closed, at 360 x 740:"
        f" {screens:.1f} screens (target {HEIGHT_TARGET_SCREENS})  {flag}"
    )


def _form_height(browser, url: str) -> float:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{url}/report/")
    height = page.evaluate(
        """() => document.querySelector('form button[type=submit]').getBoundingClientRect().bottom
                 - document.querySelector('h1').getBoundingClientRect().top"""
    )
    context.close()
    return height / PHONE["viewport"]["height"]


# Every POST body the server received, as it arrived (Playwright does not always keep a
# request's body once the page has moved on).
bodies: list[bytes] = []


def recording(wsgi_app):
    def app(environ, start_response):
        if environ["REQUEST_METHOD"] == "POST":
            body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
            bodies.append(body)
            environ["wsgi.input"] = io.BytesIO(body)
        return wsgi_app(environ, start_response)

    return app


def _send(browser, url: str, photo: bytes, name: str, network: dict | None) -> tuple[float, int]:
    """(seconds from tapping Send to the thanks page loaded, bytes of the photo sent)."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    if network:
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", network)
    page.goto(f"{url}/report/")
    page.get_by_label("Describe what you saw").fill("Foam on the creek under the bridge.")
    page.locator("#address").fill("Main Street bridge")
    page.set_input_files(
        "#photos", files=[{"name": name, "mimeType": "image/jpeg", "buffer": photo}]
    )
    page.wait_for_selector(".photo-list li")
    # The offline code and the service worker load after the page: let them finish first.
    page.wait_for_load_state("networkidle")
    bodies.clear()
    started = time.perf_counter()
    page.get_by_role("button", name="Send report").click()
    page.wait_for_url(SENT_PAGE, wait_until="load", timeout=120_000)
    elapsed = time.perf_counter() - started
    size = photo_bytes(bodies[0], name.removesuffix(".jpg"))
    context.close()
    return elapsed, size
