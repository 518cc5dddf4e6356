"""Changes to a year already filed with the State (officer's week 2026-12-03 F11). The records
stay correctable (a lock would leave a known error standing), but nothing is silent: an
"in the inventory since" later than the outfall's first screening is refused with the day
(the figures would count it from the screening anyway), and a retirement, a paper screening
day or an inventory day dated inside a filed period says, on saving, which filed figures it
changes. The 2025 reporting year runs 3 January 2025 to 2 January 2026."""

from __future__ import annotations

import html
import re

from helpers import sign_in
from test_inventory_history import BLANKS, CSV, _at, _import, _post

HH_001 = {
    "code": "HH-001",
    "structure_type": "outfall",
    "latitude": "42.1655",
    "longitude": "-76.8201",
}
FILED_2025 = (
    " This changes figures already filed with the State: Friday, January 3, 2025 to Friday,"
    " January 2, 2026 (filed Thursday, December 3, 2026). The annual report shows each changed"
    " figure with what was filed."
)


def flash(page: str) -> str:
    found = re.search(r'<div class="flash[^"]*"[^>]*>(.*?)</div>', page, re.S) or re.search(
        r'class="flash-success"[^>]*>(.*?)</', page, re.S
    )
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split())


def filed_2025(app, client) -> None:
    _import(app, CSV, "2024-03-01T09:00:00-05:00")
    sign_in(client, app)
    _at(app, "2024-05-14")
    _post(client, "/staff/outfalls/1/paper", {"screened_on": "2024-05-14"}, "/staff/outfalls/1/")
    _at(app, "2026-12-03")
    page = "/staff/annual-report/?start=2025-01-03&end=2026-01-02"
    filed = _post(client, "/staff/annual-report/filed?start=2025-01-03&end=2026-01-02", {}, page)
    assert filed.status_code in (302, 303)


def test_f11_in_the_inventory_since_after_its_first_screening_is_refused(app, client):
    filed_2025(app, client)
    refused = _post(
        client,
        "/staff/outfalls/1/edit",
        {**HH_001, **BLANKS, "inventoried_on": "2026-03-01"},
        "/staff/outfalls/1/edit",
    )
    assert refused.status_code == 422
    error = re.search(r'<p class="error-message" id="inventoried_on-error">(.*?)</p>', refused.text)
    assert error and " ".join(re.sub(r"<[^>]+>", " ", error.group(1)).split()) == (
        "Error: It was screened on Tuesday, May 14, 2024, so it has been in the inventory since"
        " that day at the latest: enter that day or an earlier one."
    )
    # The day of the screening itself, or earlier, is taken, and said to change 2025's filing.
    saved = _post(
        client,
        "/staff/outfalls/1/edit",
        {**HH_001, **BLANKS, "inventoried_on": "2024-05-14"},
        "/staff/outfalls/1/edit",
    )
    assert saved.status_code == 303
    assert flash(client.get(saved.headers["Location"]).text) == f"HH-001 saved.{FILED_2025}"


def test_f11_a_retirement_inside_a_filed_year_says_so(app, client):
    filed_2025(app, client)
    retired = _post(
        client,
        "/staff/outfalls/2/retire",
        {"retired_on": "2025-06-01", "retired_reason": "pipe removed in the road work"},
        "/staff/outfalls/2/",
    )
    assert retired.status_code == 303
    assert flash(client.get(retired.headers["Location"]).text) == f"HH-002 retired.{FILED_2025}"


def test_f11_changes_after_the_filed_year_say_nothing_of_it(app, client):
    filed_2025(app, client)
    retired = _post(
        client,
        "/staff/outfalls/2/retire",
        {"retired_on": "2026-06-01", "retired_reason": "pipe removed in the road work"},
        "/staff/outfalls/2/",
    )
    assert flash(client.get(retired.headers["Location"]).text) == "HH-002 retired."
    paper = _post(
        client, "/staff/outfalls/2/paper", {"screened_on": "2026-06-01"}, "/staff/outfalls/2/"
    )
    assert flash(client.get(paper.headers["Location"]).text) == "Paper screening day added."


def test_f11_a_paper_day_inside_a_filed_year_says_so(app, client):
    filed_2025(app, client)
    paper = _post(
        client, "/staff/outfalls/2/paper", {"screened_on": "2025-06-10"}, "/staff/outfalls/2/"
    )
    assert flash(client.get(paper.headers["Location"]).text) == (
        f"Paper screening day added.{FILED_2025}"
    )
