"""Portal figures: the report form's weight and the server-side time to accept a report."""

from __future__ import annotations

import io
import random
import re
import statistics
import tempfile
import time
from pathlib import Path

from aiosmtpd.controller import Controller
from PIL import Image
from werkzeug.datastructures import FileStorage, MultiDict
from werkzeug.test import encode_multipart

from bench.load import Inbox, free_port
from bench.weights import FORM_PAGE_BUDGET, OFFLINE_BUDGET, offline_weight, page_weight
from portal import create_app
from portal.core.db import get_db

HIDDEN = re.compile(r'name="(csrf_token|submission_key)" type="hidden" value="([^"]*)"')
REPORT = {
    "indicators": ["suds"],
    "description": "White foam coming out of the pipe under the bridge.",
    "address": "Main Street bridge",
    "observed_at": "2026-11-29T08:15",
}


def phone_photo(target_bytes: int = 4 * 1024 * 1024) -> bytes:
    """A 4032 x 3024 JPEG of noisy pixels, about as heavy as a phone camera's."""
    rng = random.Random(7)
    width, height = 4032, 3024
    image = Image.frombytes("RGB", (width, height), rng.randbytes(width * height * 3))
    image = image.reduce(2).resize((width, height))
    for quality in (95, 90, 85, 80, 75, 70, 60, 50):
        buffer = io.BytesIO()
        image.save(buffer, "JPEG", quality=quality)
        if buffer.tell() <= target_bytes * 1.1:
            break
    return buffer.getvalue()


def _submit(client, photo: bytes | None) -> tuple[float, float]:
    """Wall time and the request thread's CPU time (steadier on a busy machine)."""
    hidden = dict(HIDDEN.findall(client.get("/report/").text))
    data = {**hidden, **REPORT}
    if photo:
        data["photos"] = FileStorage(io.BytesIO(photo), "phone.jpg", content_type="image/jpeg")
    # Encoded before the clock starts: the time is the server's, not the test client's.
    boundary, body = encode_multipart(MultiDict(data))
    started, cpu = time.perf_counter(), time.thread_time()
    response = client.post(
        "/report/", data=body, content_type=f"multipart/form-data; boundary={boundary}"
    )
    elapsed, cpu = time.perf_counter() - started, time.thread_time() - cpu
    assert response.status_code == 303, response.status_code
    return elapsed, cpu


def _drained(app, seconds: float = 30) -> None:
    """Wait for the background courier to send what the run queued."""
    deadline = time.monotonic() + seconds
    with app.app_context():
        db = get_db()
        while time.monotonic() < deadline:
            if not db.execute("SELECT 1 FROM outbox WHERE status != 'sent' LIMIT 1").fetchone():
                return
            time.sleep(0.1)


def run(repeat: int = 20) -> None:
    # Mail goes out over real SMTP in the background, as in production.
    inbox = Inbox()
    mail = Controller(inbox, hostname="127.0.0.1", port=free_port())
    mail.start()
    try:
        _run(repeat, mail.port)
    finally:
        mail.stop()


def _run(repeat: int, mail_port: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "DATABASE": str(Path(folder) / "bench.sqlite3"),
                "MAIL_SERVER": "127.0.0.1",
                "MAIL_PORT": mail_port,
                "SMO_EMAIL": "smo@bench.test",
                "RATELIMIT_ENABLED": False,
            }
        )
        client = app.test_client()
        html = client.get("/report/").data
        html_gz, total = page_weight(html, lambda url: client.get(url).data)
        flag = "ok" if total <= FORM_PAGE_BUDGET else "OVER"
        print(f"Report form page (gzipped bytes; budget {FORM_PAGE_BUDGET} for HTML + CSS + JS)")
        print(f"  {'/report/':<36}{html_gz:>8}{total:>8}  {flag}")
        files, offline = offline_weight(html, lambda url: client.get(url).data)
        flag = "ok" if offline <= OFFLINE_BUDGET else "OVER"
        print(f"Its offline code, loaded once the form is ready (budget {OFFLINE_BUDGET})")
        print(f"  {f'service worker + {files - 1} scripts':<36}{'':>8}{offline:>8}  {flag}")
        photo = phone_photo()
        for label, attachment, count in (
            ("text only", None, repeat),
            ("one phone photo", photo, 5),
        ):
            times, cpu = zip(*(_submit(client, attachment) for _ in range(count)), strict=True)
            size = f" ({len(photo) / 1024 / 1024:.1f} MB)" if attachment else ""
            print(
                f"Accept a report, {label}{size}: median {statistics.median(times) * 1000:.1f} ms,"
                f" max {max(times) * 1000:.1f} ms, CPU median"
                f" {statistics.median(cpu) * 1000:.1f} ms over {count} (server side, in process)"
            )
        # What synchronous = FULL costs here: the same text report on a connection that
        # commits without waiting for the disk (portal/core/db.py explains the choice).
        pool = app.extensions["db_pool"]
        for db in pool.idle:
            db.execute("PRAGMA synchronous = NORMAL")
        times, cpu = zip(*(_submit(client, None) for _ in range(repeat)), strict=True)
        print(
            f"  the same with synchronous = NORMAL: median {statistics.median(times) * 1000:.1f}"
            f" ms, max {max(times) * 1000:.1f} ms, CPU median"
            f" {statistics.median(cpu) * 1000:.1f} ms over {repeat} (for comparison only)"
        )
        _drained(app)
