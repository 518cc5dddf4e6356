"""Workspace figures: queue and map page times with 10,000 cases in the database."""

from __future__ import annotations

import logging
import re
import statistics
import tempfile
import time
from pathlib import Path

from bench.seed import seed_reports
from portal import create_app
from portal.accounts.accounts import add_account
from portal.core import search_index
from portal.core.db import get_db, transaction

CASES = 10_000
PASSWORD = "a long officer password"
PAGES = {
    "queue, first page": ("/staff/", {}),
    "queue, last page": ("/staff/", {"page": CASES // 50}),
    "queue, open cases": ("/staff/", {"status": "open"}),
    "queue, text search": ("/staff/", {"q": "Seeded 4242"}),
    "search, plate typed 'hrt4242'": ("/staff/", {"q": "hrt4242"}),
    "search, part of a name 'mari'": ("/staff/", {"q": "mari"}),
    "search, phone digits '5554242'": ("/staff/", {"q": "5554242"}),
    "queue, date range": ("/staff/", {"start": "2026-01-01", "end": "2026-03-31"}),
    "case page": ("/staff/cases/5000/", {}),
    "map page": ("/staff/map/", {}),
    "map frame (all open cases)": ("/staff/map/frame", {}),
    "annual report": ("/staff/annual-report/", {}),
}


def _add_people(db) -> None:
    """Names, phones and plates on every seeded case, as officers search for them."""
    with transaction(db):
        db.execute("UPDATE reports SET source_vehicle = 'Pickup, plate HRT ' || case_id")
        db.execute(
            "UPDATE cases SET contact_name = (CASE id % 4 WHEN 0 THEN 'Maria Lopez'"
            " WHEN 1 THEN 'Pat Doe' WHEN 2 THEN 'Sam Lee' ELSE 'Jo Smith' END),"
            " contact_phone = '(607) 555-' || printf('%04d', id)"
        )


def _time_sql(db, query: str, repeat: int) -> tuple[float, int]:
    """The search alone: how long counting the matches takes, in SQLite."""
    where, params = search_index.condition(query)
    times, found = [], 0
    for _ in range(repeat):
        started = time.perf_counter()
        found = db.execute(f"SELECT count(*) FROM cases c WHERE {where}", params).fetchone()[0]
        times.append(time.perf_counter() - started)
    return statistics.median(times), found


def _time(client, url: str, query: dict, repeat: int) -> tuple[float, int]:
    times, size = [], 0
    for _ in range(repeat):
        started = time.perf_counter()
        response = client.get(url, query_string=query)
        times.append(time.perf_counter() - started)
        assert response.status_code == 200, (url, response.status_code)
        size = len(response.data)
    return statistics.median(times), size


def run(repeat: int = 7) -> None:
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "DATABASE": str(Path(folder) / "bench.sqlite3"),
                "RATELIMIT_ENABLED": False,
                # Timing the pages, not the sign-in: password only, as a training install.
                "STAFF_TOTP": False,
            }
        )
        app.logger.setLevel(logging.ERROR)
        with app.app_context():
            started = time.perf_counter()
            seed_reports(get_db(), CASES)
            _add_people(get_db())
            seeded = time.perf_counter() - started
            add_account(get_db(), "bench", PASSWORD)
        client = app.test_client()
        page = client.get("/staff/login").text
        token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
        client.post(
            "/staff/login", data={"csrf_token": token, "username": "bench", "password": PASSWORD}
        )
        print(f"Staff workspace with {CASES:,} cases (seeded in {seeded:.1f} s)")
        print(f"  (median of {repeat} requests each, in process)")
        for label, (url, query) in PAGES.items():
            median, size = _time(client, url, query, repeat)
            print(f"  {label:<30}{median * 1000:>8.1f} ms {size / 1024:>8.1f} KB")
        print("  The search alone (FTS5, count of all matches):")
        with app.app_context():
            for query in ("hrt4242", "HRT 4242", "mari", "5554242", "Seeded 4242", "zz"):
                median, found = _time_sql(get_db(), query, repeat)
                print(f"  {query!r:<30}{median * 1000:>8.2f} ms {found:>8} found")
