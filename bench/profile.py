"""Where a text report's time goes: cProfile over a resident's round (GET the form, POST
it), through the test client in this process, and in a gunicorn worker under load.

`python -m bench profile` prints the top ten functions by their own time for each. Both
profile the requests alone: the mail is written and sent by the courier, a thread of its
own that cProfile does not follow.
"""

from __future__ import annotations

import cProfile
import io
import os
import pstats
import signal
import tempfile
import threading
import time
from pathlib import Path

from aiosmtpd.controller import Controller

from bench.load import ROOT, Client, Inbox, free_port, start_server
from bench.portal import HIDDEN, REPORT

TOP = 10


def top_lines(stats: pstats.Stats, count: int = TOP) -> list[str]:
    """The `count` functions with the most time of their own, one line each."""
    stats.sort_stats("tottime")
    rows = []
    for func in stats.fcn_list[:count]:  # type: ignore[attr-defined]
        calls, _, own, total, _ = stats.stats[func]  # type: ignore[attr-defined]
        file, line, name = func
        where = f"{_short(file)}:{line}({name})" if line else name
        rows.append(f"  {own:7.3f} s own {total:7.3f} s with callees {calls:>7} calls  {where}")
    return rows


def _short(path: str) -> str:
    for marker in ("site-packages/", "/lib/python3", str(ROOT) + "/"):
        if marker in path:
            return path.split(marker, 1)[1]
    return path


def in_process(rounds: int = 200) -> None:
    from portal import create_app
    from portal.mail.courier import Courier

    (ROOT / "instance").mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="bench-", dir=ROOT / "instance") as folder:
        # Mail is written into a folder by the courier's thread, beside the requests.
        app = create_app(
            {
                "DATABASE": str(Path(folder) / "profile.sqlite3"),
                "MAIL_FOLDER": str(Path(folder) / "mail"),
                "SMO_EMAIL": "smo@bench.test",
                "RATELIMIT_ENABLED": False,
            }
        )
        app.logger.disabled = True  # one line per message written
        client = app.test_client()

        def visit() -> None:
            hidden = dict(HIDDEN.findall(client.get("/report/").text))
            response = client.post("/report/", data={**hidden, **REPORT})
            assert response.status_code == 303, response.status_code

        for _ in range(20):  # caches
            visit()
        profile = cProfile.Profile()
        started = time.perf_counter()
        profile.enable()
        for _ in range(rounds):
            visit()
        profile.disable()
        elapsed = time.perf_counter() - started
        Courier.stop_all()
    print(
        f"Profile, test client: {rounds} rounds (GET /report/ and its POST), {elapsed:.1f} s"
        f" under cProfile; top {TOP} by own time:"
    )
    print("\n".join(top_lines(pstats.Stats(profile))))


def under_gunicorn(seconds: float = 8, clients: int = 16) -> None:
    """One gunicorn worker profiling itself (bench/profiled.py) while clients make visits."""
    with tempfile.TemporaryDirectory(prefix="bench-", dir=ROOT / "instance") as folder:
        stats_file = Path(folder) / "worker.prof"
        inbox = Inbox()
        mail = Controller(inbox, hostname="127.0.0.1", port=free_port())
        mail.start()
        port = free_port()
        env = {"BENCH_PROFILE": str(stats_file)}
        server = start_server(port, Path(folder), 1, mail.port, "bench.profiled:create_app()", env)
        stop, latencies, errors = threading.Event(), [], []
        try:
            threads = [Client(port, stop, latencies, errors, True) for _ in range(clients)]
            for thread in threads:
                thread.start()
            time.sleep(seconds)
            stop.set()
            for thread in threads:
                thread.join(timeout=15)
        finally:
            os.killpg(server.pid, signal.SIGTERM)  # the worker writes its stats as it exits
            server.wait(timeout=30)
            mail.stop()
        if not stats_file.exists():
            print("Profile, gunicorn: the worker left no stats")
            return
        stats = pstats.Stats(str(stats_file), stream=io.StringIO())
    print(
        f"Profile, one gunicorn worker: {len(latencies)} visits by {clients} clients in"
        f" {seconds:.0f} s ({len(errors)} errors); top {TOP} by own time:"
    )
    print("\n".join(top_lines(stats)))


def run() -> None:
    in_process()
    under_gunicorn()


if __name__ == "__main__":
    run()
