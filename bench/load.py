"""A load run under gunicorn on 127.0.0.1: the portal and a bare Flask + SQLite app
(bench/baseline.py) side by side in one run, driven by the same clients: text-only
reports stored per second, latency percentiles, errors and the server's peak memory.

Two kinds of round: "reports" (each client opens the form once, then sends reports with
fresh submission keys, as the earlier benches did) and "visits" (each report is a GET of
the form and its POST, as a resident's visit is: the form's render counts too).

The load generator is plain Python threads on loopback (no third-party tool needed). The
databases are written on the project's own disk (instance/), not /tmp, which may be a
RAM disk where an fsync costs nothing.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import secrets
import signal
import socket
import sqlite3
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

from aiosmtpd.controller import Controller

ROOT = Path(__file__).resolve().parent.parent
HIDDEN = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# The two apps under load: the portal as in production, and the bare yardstick.
APPS = {
    "portal": "portal:create_app()",
    "bare Flask + SQLite": "bench.baseline:create_app()",
}


def start_server(
    port: int,
    folder: Path,
    workers: int,
    mail_port: int,
    app: str = APPS["portal"],
    extra_env: dict[str, str] | None = None,
) -> subprocess.Popen:
    extra_env = extra_env or {}
    env = {
        **os.environ,
        "PORTAL_DATABASE": str(folder / "load.sqlite3"),
        "PORTAL_SECRET_KEY": secrets.token_hex(32),
        "PORTAL_PUBLIC_URL": f"http://127.0.0.1:{port}",
        "PORTAL_MAIL_SERVER": "127.0.0.1",
        "PORTAL_MAIL_PORT": str(mail_port),
        "PORTAL_SMO_EMAIL": "smo@load.test",
        "PORTAL_RATELIMIT_ENABLED": "false",
        "BASELINE_DATABASE": str(folder / "baseline.sqlite3"),
        **extra_env,
    }
    gunicorn = Path(os.sys.executable).parent / "gunicorn"
    command = [str(gunicorn), "--workers", str(workers), "--bind", f"127.0.0.1:{port}"]
    command += ["--log-level", "warning", app]
    process = subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/report/")
            if connection.getresponse().status == 200:
                return process
        except OSError:
            time.sleep(0.2)
    os.killpg(process.pid, signal.SIGKILL)
    raise RuntimeError("gunicorn did not start")


def rss_kb(pid: int) -> int:
    """Resident memory of a process and its children, from /proc."""
    total = 0
    pids = [pid]
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        pids += [int(child) for child in children]
        for one in pids:
            for line in Path(f"/proc/{one}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError):
        pass
    return total


class Inbox:
    """aiosmtpd handler that only counts."""

    def __init__(self) -> None:
        self.count = 0

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        return "250 OK"


class Client(threading.Thread):
    def __init__(
        self, port: int, stop: threading.Event, latencies: list, errors: list, visits: bool
    ) -> None:
        super().__init__(daemon=True)
        self.port, self.stop, self.latencies, self.errors = port, stop, latencies, errors
        self.visits = visits

    def open_form(self) -> tuple[str, str]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        connection.request("GET", "/report/")
        response = connection.getresponse()
        page = response.read().decode()
        if response.status != 200:
            raise OSError(f"GET /report/ answered {response.status}")
        return response.getheader("Set-Cookie").split(";")[0], HIDDEN.search(page).group(1)

    def run(self) -> None:
        cookie, token = self.open_form()
        while not self.stop.is_set():
            started = time.perf_counter()
            try:
                if self.visits:
                    cookie, token = self.open_form()
                body = urllib.parse.urlencode(
                    {
                        "csrf_token": token,
                        "submission_key": secrets.token_urlsafe(18),
                        "description": "Suds in the creek by the bridge",
                        "address": "Main Street bridge",
                        "observed_at": "2026-11-29T08:15",
                        "indicators": "suds",
                    }
                )
                headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie}
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
                connection.request("POST", "/report/", body=body, headers=headers)
                status = connection.getresponse().status
            except OSError as error:
                self.errors.append(type(error).__name__)
                continue
            elapsed = time.perf_counter() - started
            if status == 303:
                self.latencies.append(elapsed)
            else:
                self.errors.append(status)


# The runs of one bench, in this order: (label, app, kind of round, extra environment).
RUNS = [
    ("portal", APPS["portal"], "reports", {}),
    ("bare Flask + SQLite", APPS["bare Flask + SQLite"], "reports", {}),
    ("portal", APPS["portal"], "visits", {}),
    ("bare Flask + SQLite", APPS["bare Flask + SQLite"], "visits", {}),
    # What synchronous = FULL costs the bare app (the portal's cost: bench/portal.py).
    (
        "bare, synchronous=NORMAL",
        APPS["bare Flask + SQLite"],
        "reports",
        {"BASELINE_SYNCHRONOUS": "NORMAL"},
    ),
]


def run(seconds: float = 10, clients: int = 16, workers: int = 2) -> dict:
    """Load the portal and the bare baseline one after the other, in the same run."""
    print(f"Machine load before the runs (1, 5, 15 min): {_loadavg()}")
    figures = {}
    for label, app, rounds, env in RUNS:
        figures[label, rounds] = load(label, app, seconds, clients, workers, rounds, env)
    for rounds in ("reports", "visits"):
        portal = figures["portal", rounds]["per_second"]
        baseline = figures["bare Flask + SQLite", rounds]["per_second"]
        if baseline:
            print(f"  portal / bare baseline throughput, {rounds}: {portal / baseline:.2f}")
    full = figures["bare Flask + SQLite", "reports"]["per_second"]
    normal = figures["bare, synchronous=NORMAL", "reports"]["per_second"]
    if normal:
        print(f"  bare app, synchronous FULL / NORMAL throughput: {full / normal:.2f}")
    print(f"Machine load after the runs (1, 5, 15 min): {_loadavg()}")
    return figures


def _loadavg() -> str:
    return ", ".join(f"{value:.1f}" for value in os.getloadavg())


def load(
    label: str,
    app: str,
    seconds: float,
    clients: int,
    workers: int,
    rounds: str = "reports",
    env: dict[str, str] | None = None,
) -> dict:
    (ROOT / "instance").mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="bench-", dir=ROOT / "instance") as folder:
        port = free_port()
        # Mail goes out over real SMTP, as in production (to a local recording server).
        inbox = Inbox()
        mail = Controller(inbox, hostname="127.0.0.1", port=free_port())
        mail.start()
        server = start_server(port, Path(folder), workers, mail.port, app, env)
        stop, latencies, errors = threading.Event(), [], []
        peak = 0
        try:
            threads = [
                Client(port, stop, latencies, errors, rounds == "visits") for _ in range(clients)
            ]
            started = time.perf_counter()
            for thread in threads:
                thread.start()
            while time.perf_counter() - started < seconds:
                peak = max(peak, rss_kb(server.pid))
                time.sleep(0.2)
            stop.set()
            for thread in threads:
                thread.join(timeout=15)
            elapsed = time.perf_counter() - started
            delivered = inbox.count
            drained = _drain(inbox, app, Path(folder))
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=15)
            mail.stop()
    ordered = sorted(latencies)
    figures = {
        "submissions": len(latencies),
        "per_second": len(latencies) / elapsed,
        "p50_ms": statistics.median(ordered) * 1000 if ordered else 0,
        "p99_ms": ordered[int(len(ordered) * 0.99) - 1] * 1000 if ordered else 0,
        "errors": len(errors),
        "peak_rss_mb": peak / 1024,
        "mail_delivered": delivered,
    }
    mails = ""
    if app == APPS["portal"]:
        mails = f", {delivered} mails delivered over SMTP during the run"
        mails += f" ({drained})" if drained else ""
    print(
        f"Load, {label}, {rounds}: {clients} clients, {workers} gunicorn workers,"
        f" {elapsed:.0f} s: {figures['submissions']} text-only reports stored,"
        f" {figures['per_second']:.0f}/s, p50 {figures['p50_ms']:.1f} ms,"
        f" p99 {figures['p99_ms']:.1f} ms, errors {figures['errors']},"
        f" server peak memory {figures['peak_rss_mb']:.0f} MB{mails}"
    )
    return figures


def _drain(inbox: Inbox, app: str, folder: Path, seconds: float = 60) -> str:
    """After the run, how long the portal's couriers take to send what is still queued."""
    if app != APPS["portal"]:
        return ""
    path = folder / "load.sqlite3"
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        with contextlib.closing(sqlite3.connect(path, timeout=30)) as db:
            (waiting,) = db.execute(
                "SELECT (SELECT count(*) FROM outbox WHERE status IN ('queued', 'sending'))"
                " + (SELECT count(*) FROM cases WHERE mail_queued_at IS NULL)"
            ).fetchone()
        if not waiting:
            return f"all {inbox.count} sent {time.monotonic() - started:.1f} s after it"
        time.sleep(0.2)
    return f"{inbox.count} sent; some still waiting {seconds:.0f} s after it"


if __name__ == "__main__":
    run()
