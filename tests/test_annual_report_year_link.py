"""The annual report's link to the reporting year before (officer's week 2026-12-03 P2): it
is the year before the one shown, not before today's, so viewing the 2025 year it opens 2024.
The reporting year starts 3 January (content/site.yaml)."""

from __future__ import annotations

import datetime as dt
import html
import re
from zoneinfo import ZoneInfo

from helpers import sign_in


def link(page: str) -> tuple[str, str]:
    found = re.search(r'<a href="([^"]+)">The reporting year before: (.*?)</a>', page, re.S)
    return html.unescape(found.group(1)), " ".join(re.sub(r"<[^>]+>", "", found.group(2)).split())


def test_p2_the_year_before_is_the_one_before_the_year_shown(app, client):
    sign_in(client, app)
    app.config["CLOCK"] = lambda: dt.datetime(
        2026, 12, 3, 3, 45, tzinfo=ZoneInfo("America/New_York")
    )
    current = client.get("/staff/annual-report/").text
    assert link(current) == (
        "/staff/annual-report/?start=2025-01-03&end=2026-01-02",
        "Friday, January 3, 2025 to Friday, January 2, 2026",
    )
    shown = client.get(link(current)[0]).text
    assert link(shown) == (
        "/staff/annual-report/?start=2024-01-03&end=2025-01-02",
        "Wednesday, January 3, 2024 to Thursday, January 2, 2025",
    )
