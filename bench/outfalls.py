"""The outfall inventory's figures: the staff map with 2,000 outfalls beside 10,000 cases
(time and weight), the inventory's pages, and the screening sheet's weight against the
report form's budget (a phone at an outfall has the signal a resident's phone has)."""

from __future__ import annotations

import logging
import random
import re
import statistics
import tempfile
import time
from pathlib import Path

from bench.seed import seed_reports
from bench.weights import FORM_PAGE_BUDGET, gzipped, page_weight
from portal import create_app
from portal.accounts.accounts import add_account
from portal.core.db import get_db, insert, transaction

CASES = 10_000
OUTFALLS = 2_000
PASSWORD = "a long officer password"
CENTER = (42.167, -76.821)
PAGES = {
    "map page": "/staff/map/",
    "map frame (open cases + outfalls)": "/staff/map/frame",
    "case page (nearest outfalls)": "/staff/cases/5000/",
    "case map frame": "/staff/cases/5000/map",
    "inventory, first page": "/staff/outfalls/",
    "inventory, search": "/staff/outfalls/?q=OF-1",
    "one outfall": "/staff/outfalls/1000/",
    "due for screening": "/staff/screenings/due",
    "route, 30 stops": "/staff/screenings/route?stops=30",
    "nearest outfalls to a place": "/staff/screenings/?lat=42.167&lon=-76.821",
    "inventory GeoJSON": "/staff/outfalls/outfalls.geojson",
}


def seed_outfalls(db, count: int, seed: int = 7) -> None:
    """`count` outfalls and catch basins around the Village, a third of them screened."""
    rng = random.Random(seed)
    kinds = ["outfall"] * 3 + ["catch-basin"]
    with transaction(db):
        for n in range(1, count + 1):
            added = f"20{rng.randint(15, 25)}-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}"
            row = insert(
                db,
                "outfalls",
                {
                    "code": f"OF-{n:04d}",
                    "structure_type": rng.choice(kinds),
                    "latitude": round(CENTER[0] + rng.uniform(-0.017, 0.017), 6),
                    "longitude": round(CENTER[1] + rng.uniform(-0.026, 0.026), 6),
                    "location": f"Seeded street {n % 97}",
                    "receiving_water": rng.choice(["Test Creek", "Example Brook"]),
                    "material": "rcp",
                    "size_in": 24,
                    "created_at": f"{added}T09:00:00-05:00",
                    "updated_at": f"{added}T09:00:00-05:00",
                    "updated_by": "bench",
                },
            )
            if n % 3 == 0:
                insert(
                    db,
                    "screenings",
                    {
                        "outfall_id": row,
                        "sheet_key": f"bench-sheet-{n:06d}",
                        "screened_at": f"2023-0{rng.randint(1, 9)}-15T10:00",
                        "inspector": "bench",
                        "flow": "none",
                        "overall": "unlikely",
                        "recorded_at": "2023-09-15T10:00:00-04:00",
                        "recorded_by": "bench",
                    },
                )


def _time(client, url: str, repeat: int) -> tuple[float, bytes]:
    times, data = [], b""
    for _ in range(repeat):
        started = time.perf_counter()
        response = client.get(url)
        times.append(time.perf_counter() - started)
        assert response.status_code == 200, (url, response.status_code)
        data = response.data
    return statistics.median(times), data


def run(repeat: int = 7) -> None:
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "DATABASE": str(Path(folder) / "bench.sqlite3"),
                "RATELIMIT_ENABLED": False,
                "STAFF_TOTP": False,
            }
        )
        app.logger.setLevel(logging.ERROR)
        with app.app_context():
            seed_reports(get_db(), CASES)
            add_account(get_db(), "bench", PASSWORD)
        client = app.test_client()
        page = client.get("/staff/login").text
        token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
        client.post(
            "/staff/login", data={"csrf_token": token, "username": "bench", "password": PASSWORD}
        )
        # The same frame before the inventory is there: what the outfalls add to it.
        before, data = _time(client, "/staff/map/frame", repeat)
        with app.app_context():
            started = time.perf_counter()
            seed_outfalls(get_db(), OUTFALLS)
            seeded = time.perf_counter() - started

        def fetch(url: str) -> bytes:
            return client.get(url).data

        print(
            f"Outfalls: {OUTFALLS:,} structures beside {CASES:,} cases (seeded in {seeded:.1f} s)"
        )
        print(f"  (median of {repeat} requests each, in process; sizes as sent and gzipped)")
        label = "map frame, open cases only"
        print(
            f"  {label:<36}{before * 1000:>8.1f} ms {len(data) / 1024:>8.1f} KB"
            f" {gzipped(data) / 1024:>7.1f} KB gz"
        )
        for label, url in PAGES.items():
            median, data = _time(client, url, repeat)
            print(
                f"  {label:<36}{median * 1000:>8.1f} ms {len(data) / 1024:>8.1f} KB"
                f" {gzipped(data) / 1024:>7.1f} KB gz"
            )
        _, frame_total = page_weight(fetch("/staff/map/frame"), fetch)
        _, page_total = page_weight(fetch("/staff/map/"), fetch)
        print(
            f"  staff map in all (page + CSS, frame + Leaflet + clusters):"
            f" {(page_total + frame_total) / 1024:.1f} KB gz"
        )
        sheet_html = fetch("/staff/screenings/outfall/1/new")
        sheet_gz, sheet_total = page_weight(sheet_html, fetch)
        report_gz, report_total = page_weight(fetch("/report/"), fetch)
        flag = "ok" if sheet_total <= FORM_PAGE_BUDGET else "OVER"
        print(f"Screening sheet (gzipped bytes; the report form's budget {FORM_PAGE_BUDGET})")
        print(f"  {'/staff/screenings/outfall/1/new':<36}{sheet_gz:>8}{sheet_total:>8}  {flag}")
        print(f"  {'/report/ (for comparison)':<36}{report_gz:>8}{report_total:>8}")
