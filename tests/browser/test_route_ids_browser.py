"""The printed route keeps each outfall's id on one line (officer's week 2026-12-03 P4: the
printout wrapped "HH-OF-" above "011"), on Letter paper and on a 360 px phone."""

from __future__ import annotations

import pytest
from test_case_desk_browser import signed_in
from test_screening_browser import field  # noqa: F401  (the fixture: the inventory imported)

from portal.core.db import get_db, insert, transaction

pytestmark = pytest.mark.browser


def add_long_places(app) -> None:
    with app.app_context():
        db = get_db()
        with transaction(db):
            for n in range(12):  # never screened, added long ago: all overdue
                insert(
                    db,
                    "outfalls",
                    {
                        "code": f"HH-OF-{n + 101:03d}",
                        "latitude": 42.152 + n * 0.002,
                        "longitude": -76.848,
                        "location": f"Behind {1400 + n} Fictional Westinghouse Road, past the"
                        " public works salt barn, at the concrete headwall by the footbridge",
                        "receiving_water": "Newtown Creek tributary",
                        "created_at": "2015-01-01T09:00:00-05:00",
                        "updated_at": "2015-01-01T09:00:00-05:00",
                        "updated_by": "test",
                    },
                )


def lines_of_ids(page) -> dict[str, int]:
    """Each id on the route, and the lines its link takes."""
    return page.locator("table.route tbody th a").evaluate_all(
        "links => Object.fromEntries(links.map(a => [a.textContent,"
        " new Set([...a.getClientRects()].map(r => Math.round(r.top))).size]))"
    )


def test_p4_each_id_on_one_line_on_paper_and_on_a_phone(open_tab, field):  # noqa: F811
    app, url = field
    add_long_places(app)
    page = signed_in(open_tab, app, url, "officer").page
    page.goto(f"{url}/staff/screenings/route?stops=12")
    # Letter paper at 96 px an inch, less half-inch margins.
    page.set_viewport_size({"width": 720, "height": 900})
    page.emulate_media(media="print")
    found = lines_of_ids(page)
    assert "HH-OF-101" in found
    assert set(found.values()) == {1}, found
    page.emulate_media(media="screen")
    page.set_viewport_size({"width": 360, "height": 740})
    found = lines_of_ids(page)
    assert set(found.values()) == {1}, found
