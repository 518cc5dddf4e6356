"""The field sheet whole (issue 32, item 6; the officer's week of 3 December 2026, F2 and M2):
every field of the Outfall Reconnaissance Inventory the sheet lacked, the flow computed from
its measurements, the overall call checked against what was seen, and a top-severity fuel
odor or sheen flagged hazardous as a resident's report of it is."""

from __future__ import annotations

import datetime as dt
import html
import re
from zoneinfo import ZoneInfo

import pytest
from helpers import csrf_of, hidden_fields, rows, sign_in

from portal.core.db import get_db, insert, transaction
from portal.screening.ori import velocity_flow, volumetric_flow

NY = ZoneInfo("America/New_York")
URL = "/staff/screenings/outfall/1/new"
# The review's case M2: a trickle with a sewage odor and sewage floatables, both at 3.
SEWAGE = {
    "screened_at": "2026-12-03T03:51",
    "inspector": "Pat Kowalski",
    "hours_since_rain": "96",
    "flow": "trickle",
    "odor": "sewage",
    "odor_severity": "3",
    "floatables": "sewage",
    "floatables_severity": "3",
    "notes": "Toilet paper at the outlet",
    "overall": "unlikely",
}
WHOLE = {
    "screened_at": "2026-12-03T03:51",
    "inspector": "Pat Kowalski",
    "hours_since_rain": "96",
    "air_temperature_f": "41",
    "land_use": ["suburban", "commercial"],
    "known_industries": "Grand Central Quick Lube",
    "submerged_water": "partly",
    "submerged_sediment": "no",
    "flow": "moderate",
    "flow_volume_l": "2",
    "flow_fill_s": "4",
    "flow_depth_in": "3",
    "flow_width_ft": "2",
    "flow_length_ft": "10",
    "flow_travel_s": "4",
    "pool_quality": ["suds", "sheen"],
    "benthic_growth": ["orange"],
    "flow_trap": "caulk-dam",
    "overall": "potential",
}


def setup(app, client) -> None:
    with app.app_context():
        db = get_db()
        with transaction(db):
            insert(
                db,
                "outfalls",
                {
                    "code": "HH-OF-012",
                    "latitude": 42.165,
                    "longitude": -76.82,
                    "location": "Grand Central Avenue",
                    "receiving_water": "Newtown Creek",
                    "material": "rcp",
                    "size_in": 24,
                    "created_at": "2020-01-10T09:00:00-05:00",
                    "updated_at": "2020-01-10T09:00:00-05:00",
                    "updated_by": "test",
                },
            )
    sign_in(client, app)
    app.config["CLOCK"] = lambda: dt.datetime(2026, 12, 3, 4, 10, tzinfo=NY)


def send(client, sheet: dict):
    fields = hidden_fields(client.get(URL).text)
    return client.post(URL, data={**fields, **sheet})


def text(html_page: str) -> str:
    """The words of a page or part of one, as a person reads them."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", html_page)).split())


def test_the_flow_is_volume_over_time_and_width_by_depth_by_velocity():
    # 2 liters in 4 seconds: 0.5 L/s, which is 7.925 gallons a minute (3.785 L a gallon).
    per_second, per_minute = volumetric_flow(2, 4)
    assert per_second == 0.5 and round(per_minute, 3) == 7.925
    # 2 ft wide, 3 in deep, a float over 10 ft in 4 s (2.5 ft/s): 2 × 0.25 × 2.5 = 1.25 cubic
    # feet a second, 561.039 gallons a minute (7.4805 gallons a cubic foot).
    speed, cfs, gpm = velocity_flow(3, 2, 10, 4)
    assert (speed, cfs, round(gpm, 3)) == (2.5, 1.25, 561.039)


def test_every_field_the_sheet_lacked_is_recorded_and_shown(app, client):
    setup(app, client)
    blank = client.get(URL).text
    for label in (
        "Air temperature (°F)",
        "Land use in the drainage area",
        "Submerged in water",
        "Submerged in sediment",
        "Flow measured by volume",
        "Flow measured by velocity",
        "Poor pool quality",
        "Pipe benthic growth",
        "Intermittent flow trap",
    ):
        assert label in blank, label
    saved = send(client, WHOLE)
    assert saved.status_code == 303, saved.text
    page = text(client.get(saved.headers["Location"]).text)
    for words in (
        "Air temperature 41 °F",
        "Land use in the drainage area Suburban residential, commercial."
        " Known industries: Grand Central Quick Lube",
        "Submerged In water: partly; in sediment: no",
        "Flow measured By volume: 2 L in 4 s = 0.5 liters a second (7.93 gallons a minute);"
        " By velocity: 2 ft wide × 3 in deep × 2.5 ft a second (10 ft in 4 s)"
        " = 1.25 cubic feet a second (561 gallons a minute)",
        "Poor pool quality Oil sheen, suds",
        "Pipe benthic growth Orange",
        "Intermittent flow trap Caulk dam",
    ):
        assert words in page, words
    (row,) = rows(
        app,
        "SELECT air_temperature_f, land_use, submerged_water, pool_quality, flow_trap"
        " FROM screenings",
    )
    assert row == {
        "air_temperature_f": 41.0,
        "land_use": '["suburban", "commercial"]',
        "submerged_water": "partly",
        "pool_quality": '["sheen", "suds"]',
        "flow_trap": "caulk-dam",
    }


def test_a_screening_saved_before_shows_the_new_fields_as_not_recorded(app, client):
    setup(app, client)
    with app.app_context():
        insert(
            get_db(),
            "screenings",
            {
                "outfall_id": 1,
                "sheet_key": "paper-2025-k" * 3,
                "screened_at": "2025-06-02T10:00",
                "inspector": "Jo",
                "flow": "none",
                "overall": "unlikely",
                "recorded_at": "2025-06-02T10:00",
                "recorded_by": "jo",
            },
        )
    page = text(client.get("/staff/screenings/1/").text)
    for label in (
        "Air temperature",
        "Land use in the drainage area",
        "Submerged",
        "Flow measured",
        "Poor pool quality",
        "Pipe benthic growth",
        "Intermittent flow trap",
    ):
        assert f"{label} Not recorded" in page, label
    # Its correction form starts from it, the new fields empty.
    form = client.get("/staff/screenings/1/correct").text
    assert 'name="air_temperature_f" step="any" type="number" value=""' in form
    # Corrected for its notes alone, the lists it never had stay not recorded.
    fields = {
        **hidden_fields(form),
        "screened_at": "2025-06-02T10:00",
        "inspector": "Jo",
        "flow": "none",
        "overall": "unlikely",
        "notes": "Dry, clean",
        "reason": "Notes left out",
    }
    assert client.post("/staff/screenings/1/correct", data=fields).status_code == 303
    (change,) = rows(app, "SELECT old, new FROM screening_changes")
    assert (change["old"], change["new"]) == ('{"notes": null}', '{"notes": "Dry, clean"}')
    assert "Poor pool quality Not recorded" in text(client.get("/staff/screenings/1/").text)


@pytest.mark.parametrize(
    ("sheet", "field", "message"),
    [
        (
            {"flow_volume_l": "2"},
            "flow_fill_s",
            "Enter this as well to compute the flow, or clear the others.",
        ),
        (
            {"flow_depth_in": "3", "flow_width_ft": "2", "flow_length_ft": "10"},
            "flow_travel_s",
            "Enter this as well to compute the flow, or clear the others.",
        ),
        (
            {"flow": "none", "flow_volume_l": "2", "flow_fill_s": "4"},
            "flow_volume_l",
            "No flow was chosen: leave this empty.",
        ),
        ({"flow_fill_s": "0", "flow_volume_l": "2"}, "flow_fill_s", "from 0.1 to 3600"),
        ({"air_temperature_f": "451"}, "air_temperature_f", "from -40 to 120"),
    ],
)
def test_a_measurement_refused_says_why_next_to_it(app, client, sheet, field, message):
    setup(app, client)
    answer = send(client, {**WHOLE, **{k: "" for k in WHOLE if k.startswith("flow_")}, **sheet})
    assert answer.status_code == 422
    error = re.search(rf'<p class="error-message" id="{field}-error">(.*?)</p>', answer.text)
    assert error and message in error.group(1)
    assert f'aria-describedby="{field}-error"' in answer.text


def test_sewage_3_and_floatables_3_saved_unlikely_asks_for_a_reason(app, client):
    setup(app, client)
    asked = send(client, SEWAGE)
    assert asked.status_code == 422
    error = re.search(r'<p class="error-message" id="overall-error">(.*?)</p>', asked.text)
    assert error and (
        "Error: What you saw (floatables: sewage (toilet paper and the like) at severity 3) reads as"
        " obvious on the inventory's scale: choose that call, or say below why it is unlikely."
    ) in text(error.group(1))
    # Inside the call's own fieldset, and what was typed is kept.
    fieldset = asked.text.split("<legend>Overall call</legend>")[1].split("</fieldset>")[0]
    assert 'id="overall-error"' in fieldset
    assert '<option selected value="sewage">Sewage (toilet paper and the like)</option>' in (
        asked.text
    )
    assert 'value="unlikely" checked' in asked.text or 'checked id="overall-0"' in asked.text
    assert "Toilet paper at the outlet" in asked.text
    assert rows(app, "SELECT count(*) AS n FROM screenings")[0]["n"] == 0
    # With the reason, it is saved; the page says the call is lower, and why.
    reason = "Dye test last week traced it to a private lateral, already under a case"
    saved = send(client, {**SEWAGE, "call_reason": reason})
    assert saved.status_code == 303
    page = text(client.get(saved.headers["Location"]).text)
    assert f"Overall call Unlikely Lower than what was seen, because: {reason}" in page


@pytest.mark.parametrize(
    ("sheet", "asked"),
    [
        # One indicator at 3 is suspect: potential is lower.
        ({"odor": "sewage", "odor_severity": "3", "overall": "potential"}, "suspect"),
        # Two indicators are potential; opaque turbidity is a 3.
        ({"color": "gray", "color_severity": "1", "staining": "oily"}, "potential"),
        ({"turbidity": "opaque"}, "suspect"),
        # Poor pool quality and benthic growth are indicators too.
        ({"pool_quality": ["algae"], "benthic_growth": ["green"]}, "potential"),
        # Damage and one faint sign are not: nothing asked.
        ({"damage": "cracking", "odor": "sulfide", "odor_severity": "1"}, None),
        # A call higher than the signs is the officer's to make.
        ({"overall": "suspect"}, None),
    ],
)
def test_the_call_is_asked_for_a_reason_only_when_lower_than_the_signs(app, client, sheet, asked):
    setup(app, client)
    base = {**SEWAGE, "odor": "none", "odor_severity": "", "floatables": "none"}
    answer = send(client, {**base, "floatables_severity": "", **sheet})
    if asked is None:
        assert answer.status_code == 303, answer.text
    else:
        assert answer.status_code == 422
        assert f"reads as {asked} on the inventory's scale" in text(answer.text)


def test_a_screening_saved_before_with_a_call_too_low_says_so(app, client):
    setup(app, client)
    with app.app_context():
        insert(
            get_db(),
            "screenings",
            {
                "outfall_id": 1,
                "sheet_key": "old-sheet-key" * 3,
                "screened_at": "2026-11-02T10:00",
                "inspector": "Jo",
                "flow": "trickle",
                "observations": '{"odor": "sewage", "odor_severity": 3}',
                "overall": "unlikely",
                "recorded_at": "2026-11-02T10:00",
                "recorded_by": "jo",
            },
        )
    page = text(client.get("/staff/screenings/1/").text)
    assert (
        "The call (unlikely) is lower than what was seen: odor: sewage at severity 3 reads as"
        " suspect on the inventory's scale, and no reason was given."
    ) in page


@pytest.mark.parametrize(
    ("sheet", "hazard"),
    [
        ({"odor": "petroleum", "odor_severity": "3"}, "Hazardous: fuel or oil"),
        ({"floatables": "petroleum", "floatables_severity": "3"}, "Hazardous: fuel or oil"),
        ({"odor": "petroleum", "odor_severity": "2"}, None),
        ({"floatables": "petroleum", "floatables_severity": "1"}, None),
    ],
)
def test_a_top_severity_fuel_odor_or_sheen_is_hazardous_as_a_report_is(app, client, sheet, hazard):
    setup(app, client)
    base = {**SEWAGE, "odor": "none", "odor_severity": "", "floatables": "none"}
    saved = send(client, {**base, "floatables_severity": "", "overall": "suspect", **sheet})
    assert saved.status_code == 303, saved.text
    screening = saved.headers["Location"].split("?")[0]
    page = client.get(screening).text
    opened = client.post(f"{screening}case", data={"csrf_token": csrf_of(page)})
    case = client.get(opened.headers["Location"]).text
    queue = client.get("/staff/?flag=hazard").text
    if hazard:
        assert hazard in page and hazard in case
        assert "SCR-2026-0001" in queue
    else:
        # The case page offers to set the flag ("Hazardous" is one of its choices).
        assert "Hazardous" not in page and "Hazardous:" not in case
        assert "SCR-2026-0001" not in queue


def test_a_correction_to_fuel_at_3_flags_the_case_it_opened(app, client):
    setup(app, client)
    base = {**SEWAGE, "odor": "petroleum", "odor_severity": "2", "floatables": "none"}
    saved = send(client, {**base, "floatables_severity": "", "overall": "suspect"})
    screening = saved.headers["Location"].split("?")[0]
    opened = client.post(
        f"{screening}case", data={"csrf_token": csrf_of(client.get(screening).text)}
    )
    client.get(opened.headers["Location"])  # its page, and the flash saying it was opened
    assert "SCR-2026-0001" not in client.get("/staff/?flag=hazard").text
    form = client.get(f"{screening}correct").text
    fixed = {**hidden_fields(form), **base, "floatables_severity": "", "overall": "suspect"}
    answer = client.post(
        f"{screening}correct", data={**fixed, "odor_severity": "3", "reason": "Misgraded"}
    )
    assert answer.status_code == 303
    assert "SCR-2026-0001" in client.get("/staff/?flag=hazard").text
    case = text(client.get(opened.headers["Location"]).text)
    assert "Odor: petroleum or gas (severity 3)" in case
