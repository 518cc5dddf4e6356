"""A sheet with no flow (officer's week 2026-12-03 M2): the inventory's section 4 indicators,
odor, colour, turbidity and floatables, are "for flowing outfalls only"; at a dry outfall a
standing pool's are section 5's poor pool quality. HH-OF-031 of the review: an odor, no flow,
saved as Potential without a word."""

from __future__ import annotations

import re

import pytest
from helpers import rows
from test_screening_field_sheet import send, setup, text

SHEET = {
    "screened_at": "2026-12-03T03:51",
    "inspector": "Pat Kowalski",
    "hours_since_rain": "96",
    "flow": "none",
    "overall": "potential",
}
REFUSED = (
    "Error: No flow was chosen: the inventory grades this of flowing water only. Tick what a"
    " pool shows under Poor pool quality, or say it in the notes."
)


@pytest.mark.parametrize(
    ("seen", "field"),
    [
        ({"odor": "sewage", "odor_severity": "2"}, "odor"),
        ({"color": "gray", "color_severity": "1"}, "color"),
        ({"turbidity": "cloudy"}, "turbidity"),
        ({"floatables": "suds", "floatables_severity": "1"}, "floatables"),
    ],
)
def test_an_indicator_of_flowing_water_is_refused_with_no_flow(app, client, seen, field):
    setup(app, client)
    answer = send(client, {**SHEET, **seen})
    assert answer.status_code == 422
    error = re.search(rf'<p class="error-message" id="{field}-error">(.*?)</p>', answer.text)
    assert error and text(error.group(1)) == REFUSED
    assert rows(app, "SELECT count(*) AS n FROM screenings")[0]["n"] == 0


def test_a_dry_outfall_s_pool_is_recorded_as_its_pool_quality(app, client):
    setup(app, client)
    saved = send(client, {**SHEET, "pool_quality": ["odors", "sheen"], "staining": "oily"})
    assert saved.status_code == 303
    page = text(client.get(saved.headers["Location"]).text)
    assert "Poor pool quality Odors, oil sheen" in page
    # The same odor with water flowing is an indicator as before.
    flowing = send(client, {**SHEET, "flow": "trickle", "odor": "sewage", "odor_severity": "2"})
    assert flowing.status_code == 303


def test_the_sheet_says_which_indicators_are_of_flowing_water(app, client):
    setup(app, client)
    page = text(client.get("/staff/screenings/outfall/1/new").text)
    assert (
        "Odor, colour, turbidity and floatables are of flowing water only: with no flow, tick"
        " what a pool shows under Poor pool quality." in page
    )
