"""A load run against the portal under gunicorn on 127.0.0.1: text-only report
submissions per second, latency percentiles, errors and the server's peak memory.

The load generator is plain Python threads on loopback (no third-party tool needed);
each client gets its CSRF token and cookie once, then sends reports with fresh
submission keys, as many phones sending their first report would.
"""

from __future__ import annotations

import http.client
import os
import re
import secrets
import signal
import socket
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
    port: int, folder: Path, workers: int, mail_port: int, app: str = APPS["portal"]
) -> subprocess.Popen:
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
    def __init__(self, port: int, stop: threading.Event, latencies: list, errors: list) -> None:
        super().__init__(daemon=True)
        self.port, self.stop, self.latencies, self.errors = port, stop, latencies, errors

    def run(self) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        connection.request("GET", "/report/")
        response = connection.getresponse()
        page = response.read().decode()
        cookie = response.getheader("Set-Cookie").split(";")[0]
        token = HIDDEN.search(page).group(1)
        while not self.stop.is_set():
            body = urllib.parse.urlencode({
                "csrf_token": token, "submission_key": secrets.token_urlsafe(18),
                "description": "Suds in the creek by the bridge", "address": "Main Street bridge",
                "observed_at": "2026-11-29T08:15", "indicators": "suds",
            })  # fmt: skip
            headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie}
            started = time.perf_counter()
            try:
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


def run(seconds: float = 10, clients: int = 16, workers: int = 2) -> dict:
    """Load the portal and the bare baseline one after the other, in the same run."""
    figures = {name: load(app, seconds, clients, workers) for name, app in APPS.items()}
    portal, baseline = figures["portal"]["per_second"], figures["bare Flask + SQLite"]["per_second"]
    print(f"  portal / bare baseline throughput: {portal / baseline:.2f}" if baseline else "")
    return figures


def load(app: str, seconds: float, clients: int, workers: int) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        # Mail goes out over real SMTP, as in production (to a local recording server).
        inbox = Inbox()
        mail = Controller(inbox, hostname="127.0.0.1", port=free_port())
        mail.start()
        server = start_server(port, Path(folder), workers, mail.port, app)
        stop, latencies, errors = threading.Event(), [], []
        peak = 0
        try:
            threads = [Client(port, stop, latencies, errors) for _ in range(clients)]
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
        "mail_delivered": inbox.count,
    }
    name = next(name for name, spec in APPS.items() if spec == app)
    print(
        f"Load, {name}: {clients} clients, {workers} gunicorn workers, {elapsed:.0f} s on"
        f" 127.0.0.1: {figures['submissions']} text-only reports stored,"
        f" {figures['per_second']:.0f}/s,"
        f" p50 {figures['p50_ms']:.1f} ms, p99 {figures['p99_ms']:.1f} ms,"
        f" errors {figures['errors']}, server peak memory {figures['peak_rss_mb']:.0f} MB,"
        f" {inbox.count} mails delivered over SMTP during the run"
    )
    return figures


if __name__ == "__main__":
    run()
