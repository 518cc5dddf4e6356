"""Machinery for the crash test: the portal under gunicorn, and resident clients that keep
sending reports over plain HTTP (urllib, redirects not followed) while the server dies."""

from __future__ import annotations

import contextlib
import datetime as dt
import http.client
import http.cookiejar
import io
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from helpers import form_keys, report_data

# One free_port for every test (the gunicorn tests import it from here, beside Gunicorn).
from mailserver import free_port  # noqa: F401
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
# Raised by a request the server never answered: refused, reset, cut off, timed out.
CONNECTION_ERRORS = (urllib.error.URLError, http.client.HTTPException, OSError)


def portal_env(tmp_path: Path) -> dict[str, str]:
    """The environment of a portal under gunicorn: everything it needs, files in tmp_path."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PORTAL_")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env.update(
        PORTAL_DATABASE=str(tmp_path / "portal.sqlite3"),
        # Fixed for the run: both workers, before and after the kill, sign the same
        # sessions and derive the same status tokens.
        PORTAL_SECRET_KEY=secrets.token_hex(32),
        PORTAL_MAIL_FOLDER=str(tmp_path / "mail"),
        PORTAL_SMO_EMAIL="smo@crash.test",
        PORTAL_RATELIMIT_ENABLED="false",
        # Plain http on 127.0.0.1: a Secure session cookie would never come back.
        PORTAL_SESSION_COOKIE_SECURE="false",
        # The portal refuses to start without its public address (links in mail).
        PORTAL_PUBLIC_URL="https://portal.village.test",
    )
    return env


def flask_command(env: dict[str, str], cwd: Path, *args: str) -> subprocess.CompletedProcess:
    """`flask --app portal ARGS` of the virtualenv running the tests, as an admin types it."""
    return subprocess.run(
        [str(Path(sys.executable).parent / "flask"), "--app", "portal", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def gunicorn_binary() -> str:
    """The gunicorn of the virtualenv running the tests."""
    beside = Path(sys.executable).parent / "gunicorn"
    return str(beside if beside.exists() else ROOT / ".venv" / "bin" / "gunicorn")


class Gunicorn:
    """`gunicorn --workers 2 --threads 8 'portal:create_app()'` (as `make run` and the README's
    unit) in its own process group, so a kill -9 reaches the master, every worker and their
    photo decoders at once."""

    def __init__(self, port: int, env: dict[str, str], logs: Path) -> None:
        self.port = port
        self.env = env
        self.logs = logs
        self.process: subprocess.Popen | None = None
        self.starts = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.starts += 1
        log = (self.logs / f"gunicorn-{self.starts}.log").open("wb")
        command = [gunicorn_binary(), "--workers", "2", "--threads", "8"]
        command += ["--bind", f"127.0.0.1:{self.port}"]
        command += ["--graceful-timeout", "5", "portal:create_app()"]
        with log:
            self.process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def wait_ready(self, seconds: float = 20) -> float:
        """Poll GET /report/ until it answers 200; return how long that took."""
        began = time.monotonic()
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        while time.monotonic() - began < seconds:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.process.returncode}\n{self.log()}")
            try:
                with opener.open(f"{self.url}/report/", timeout=2) as response:
                    if response.status == 200:
                        return time.monotonic() - began
            except CONNECTION_ERRORS:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"gunicorn did not answer within {seconds} s\n{self.log()}")

    def refused_start(self, seconds: float = 60) -> str:
        """Start gunicorn expecting it to refuse (a setting or the content is wrong): wait
        for it to exit, assert it failed, and return everything it logged."""
        self.start()
        try:
            self.process.wait(timeout=seconds)
        finally:
            self.stop()
        assert self.process.returncode != 0, self.log()
        return self.log(0)

    def kill(self) -> None:
        """SIGKILL the master and its workers, mid-request."""
        _signal_group(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        _wait_group_gone(self.process.pid, 5)

    def stop(self) -> None:
        """SIGTERM (gunicorn's graceful shutdown), then SIGKILL whatever is left."""
        if self.process is None:
            return
        group = self.process.pid
        if self.process.poll() is None:
            _signal_group(group, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=10)
        if not _wait_group_gone(group, 3):
            _signal_group(group, signal.SIGKILL)
            _wait_group_gone(group, 5)
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=5)

    def log(self, tail: int = 3000) -> str:
        """What each run of gunicorn wrote (the last `tail` characters of each; 0: all)."""
        return "\n".join(
            f"--- {path.name}\n{path.read_text(errors='replace')[-tail:]}"
            for path in sorted(self.logs.glob("gunicorn-*.log"))
        )


def _signal_group(group: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(group, sig)


def _running_in_group(group: int) -> list[int]:
    """Processes of the group that still run; zombies (orphaned workers not yet reaped by
    init, which here may take seconds) hold no socket and run no code, so they don't count."""
    running = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group and fields[0] not in "ZX":
            running.append(int(stat.parent.name))
    return running


def _wait_group_gone(group: int, seconds: float) -> bool:
    """Whether every process of the group has stopped running, within `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not _running_in_group(group):
            return True
        time.sleep(0.02)
    return False


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Leave redirects to the caller: a 303 arrives as an HTTPError to read."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


def multipart(fields: list[tuple[str, str]], files: list[tuple[str, str, bytes]]):
    """(body, content type) of a multipart/form-data form, as a browser sends it."""
    boundary = f"----crash{secrets.token_hex(12)}"
    out = io.BytesIO()
    for name, value in fields:
        out.write(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode())
        out.write(value.encode() + b"\r\n")
    for name, filename, data in files:
        out.write(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}";'
            f' filename="{filename}"\r\nContent-Type: image/jpeg\r\n\r\n'.encode()
        )
        out.write(data + b"\r\n")
    out.write(f"--{boundary}--\r\n".encode())
    return out.getvalue(), f"multipart/form-data; boundary={boundary}"


PHOTO_SIZE = (200, 150)


def small_jpeg(seed: int) -> bytes:
    """A few KB of JPEG: a gradient tinted per client."""
    gradient = Image.linear_gradient("L").resize(PHOTO_SIZE)
    tint = Image.new("L", PHOTO_SIZE, (seed * 37) % 256)
    image = Image.merge("RGB", (gradient, tint, gradient.transpose(Image.Transpose.ROTATE_180)))
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=85)
    return buffer.getvalue()


@dataclass(frozen=True)
class Success:
    """A report the portal answered with 303 to its confirmation page."""

    client: int
    submission_key: str
    token: str
    photo: bool
    description: str
    at: float  # time.monotonic() of the answer
    retried: bool  # sent again after its first try died with the server


@dataclass
class Tally:
    """What every client saw, shared (each update under the lock)."""

    successes: list[Success] = field(default_factory=list)
    connection_errors: int = 0
    retried_posts: int = 0  # POSTs sent again after the connection died under them
    abandoned_posts: int = 0  # POSTs whose retry never got an answer before time ran out
    # Photos sent back with the form because the worker's decoder was full (the product's
    # answer to a burst of photos): a person sends it again.
    decoder_busy: int = 0
    statuses: dict[str, int] = field(default_factory=dict)  # unexpected answers, with a sample
    samples: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def unexpected(self, what: str, body: str) -> None:
        with self.lock:
            self.statuses[what] = self.statuses.get(what, 0) + 1
            if len(self.samples) < 5:
                self.samples.append(f"{what}: {body[:400]}")


class Resident(threading.Thread):
    """One browser: its own cookies; loops GET the form, POST a report, until told to stop.

    A POST whose connection dies is sent again, byte for byte, once the server answers:
    a double tap across the crash, which must still end in one stored report.
    """

    def __init__(self, number: int, base: str, tally: Tally, stop: threading.Event, limit: int):
        super().__init__(name=f"resident-{number}", daemon=True)
        self.number = number
        self.base = base
        self.tally = tally
        self.stop = stop
        self.limit = limit
        self.photo = small_jpeg(number)
        self.opener = urllib.request.build_opener(
            urllib.request.ProxyHandler({}),
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()),
            _NoRedirect,
        )
        self.headers: dict[str, str] = {}  # sent with every request (X-Forwarded-For, say)

    def run(self) -> None:
        sent = 0
        while not self.stop.is_set() and sent < self.limit:
            hidden = self._form()
            if hidden is None:
                continue
            sent += 1
            self._submit(hidden, sent)

    def _request(self, path: str, body: bytes | None = None, content_type: str = ""):
        """(status, headers, text); connection errors propagate."""
        request = urllib.request.Request(self.base + path, data=body, headers=self.headers)
        if body is not None:
            request.add_header("Content-Type", content_type)
        try:
            with self.opener.open(request, timeout=15) as response:
                return response.status, response.headers, response.read().decode()
        except urllib.error.HTTPError as answer:
            with answer:
                return answer.code, answer.headers, answer.read().decode(errors="replace")

    def _pause(self) -> None:
        with self.tally.lock:
            self.tally.connection_errors += 1
        self.stop.wait(0.05)

    def _form(self) -> dict[str, str] | None:
        try:
            status, _, page = self._request("/report/")
        except CONNECTION_ERRORS:
            self._pause()
            return None
        hidden = form_keys(page)
        if status != 200 or set(hidden) != {"csrf_token", "submission_key"}:
            self.tally.unexpected(f"GET /report/ {status}", page)
            self.stop.wait(0.2)
            return None
        return hidden

    def report_body(self, hidden: dict[str, str], description: str, photo: bool):
        """(body, content type) of a complete report on the form whose hidden fields these are."""
        yesterday = dt.datetime.now() - dt.timedelta(days=1)
        data = report_data(description=description, observed_at=f"{yesterday:%Y-%m-%dT%H:%M}")
        fields = list(hidden.items())
        for name, value in data.items():
            values = value if isinstance(value, list) else [value]
            fields += [(name, v) for v in values]
        files = [("photos", f"site-{self.number}-{description}.jpg", self.photo)] if photo else []
        return multipart(fields, files)

    def _submit(self, hidden: dict[str, str], n: int) -> None:
        description = f"crash test {self.number}-{n}"
        photo = n % 3 == self.number % 3  # about a third, spread over clients
        body, content_type = self.report_body(hidden, description, photo)
        retried = False
        while True:
            try:
                status, headers, page = self._request("/report/", body, content_type)
                break
            except CONNECTION_ERRORS:
                self._pause()
                if self.stop.is_set():
                    with self.tally.lock:
                        self.tally.abandoned_posts += 1
                    return
                if not retried:
                    retried = True
                    with self.tally.lock:
                        self.tally.retried_posts += 1
        at = time.monotonic()
        location = headers.get("Location", "")
        prefix = "/report/sent/"
        if status == 303 and prefix in location:
            token = location.split(prefix, 1)[1].strip("/")
            success = Success(
                self.number, hidden["submission_key"], token, photo, description, at, retried
            )
            with self.tally.lock:
                self.tally.successes.append(success)
        elif status == 422 and photo and "Many photos are being processed right now" in page:
            with self.tally.lock:
                self.tally.decoder_busy += 1
        else:
            what = (
                f"POST /report/ {status}{' (retry)' if retried else ''}{' +photo' if photo else ''}"
            )
            self.tally.unexpected(what, page)
