"""The screenings as a CSV (the officer's ORI log; the officer's week F5) and a saved sheet
printed with the municipality's heading (F9); a file of the version before the sheet was
whole upgrades, its screenings kept and the new fields not recorded."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from zoneinfo import ZoneInfo

import sqlite_utils
from helpers import hidden_fields, sign_in
from test_screening_field_sheet import SEWAGE, URL, WHOLE, setup, text

from portal.core import migrations

NY = ZoneInfo("America/New_York")


def read_csv(body: str) -> list[dict[str, str]]:
    assert body.startswith("\ufeff")
    return list(csv.DictReader(io.StringIO(body[1:])))


def save(client, sheet: dict) -> str:
    fields = hidden_fields(client.get(URL).text)
    answer = client.post(URL, data={**fields, **sheet})
    assert answer.status_code == 303, answer.text
    return answer.headers["Location"].split("?")[0]


def test_the_screenings_csv_has_every_field_and_the_flow_computed(app, client):
    setup(app, client)
    save(client, {**WHOLE, "notes": "Suds at the outlet"})
    fuel = {**SEWAGE, "screened_at": "2026-12-03T04:00", "floatables": "petroleum"}
    save(client, {**fuel, "odor": "petroleum", "overall": "suspect"})
    answer = client.get("/staff/screenings/screenings.csv?start=2026-12-01&end=2026-12-31")
    assert answer.headers["Content-Disposition"] == (
        'attachment; filename="screenings-2026-12-01-to-2026-12-31.csv"'
    )
    first, second = read_csv(answer.text)
    assert {key: first[key] for key in list(first)[:12]} == {
        "Outfall": "HH-OF-012",
        "Receiving water": "Newtown Creek",
        "Sewershed or drainage area": "",
        "Screened": "2026-12-03 03:51",
        "Wet weather": "no",
        "Hours since the last rain": "96.0",
        "Rain (inches)": "",
        "Air temperature (°F)": "41.0",
        "Land use": "Suburban residential, commercial",
        "Known industries": "Grand Central Quick Lube",
        "Submerged in water": "Partly",
        "Submerged in sediment": "No",
    }
    assert {
        key: first[key]
        for key in (
            "Volume collected (liters)",
            "Time to fill (seconds)",
            "Flow by volume (liters a second)",
            "Flow by volume (gallons a minute)",
            "Depth of the flow (inches)",
            "Width of the flow (feet)",
            "Length measured (feet)",
            "Time of travel over that length (seconds)",
            "Velocity (feet a second)",
            "Flow by velocity (cubic feet a second)",
            "Flow by velocity (gallons a minute)",
            "Poor pool quality",
            "Pipe benthic growth",
            "Intermittent flow trap",
            "Overall call",
            "Call lower than what was seen",
            "Hazard",
            "Notes",
        )
    } == {
        "Volume collected (liters)": "2.0",
        "Time to fill (seconds)": "4.0",
        "Flow by volume (liters a second)": "0.5",
        "Flow by volume (gallons a minute)": "7.925",
        "Depth of the flow (inches)": "3.0",
        "Width of the flow (feet)": "2.0",
        "Length measured (feet)": "10.0",
        "Time of travel over that length (seconds)": "4.0",
        "Velocity (feet a second)": "2.5",
        "Flow by velocity (cubic feet a second)": "1.25",
        "Flow by velocity (gallons a minute)": "561.039",
        "Poor pool quality": "Oil sheen, suds",
        "Pipe benthic growth": "Orange",
        "Intermittent flow trap": "Caulk dam",
        "Overall call": "Potential",
        "Call lower than what was seen": "no",
        "Hazard": "",
        "Notes": "Suds at the outlet",
    }
    assert (second["Odor"], second["Odor severity"]) == ("Petroleum or gas", "3")
    assert (second["Floatables"], second["Floatables severity"]) == (
        "Petroleum (oil sheen)",
        "3",
    )
    assert (second["Hazard"], second["Overall call"]) == ("Fuel or oil", "Suspect")
    assert second["Air temperature (°F)"] == "" and second["Flow by volume (liters a second)"] == ""
    # No one's name: not the inspector's, not an account's.
    assert "Pat Kowalski" not in answer.text and "smo" not in answer.text
    outside = client.get("/staff/screenings/screenings.csv?start=2026-11-01&end=2026-11-30")
    assert read_csv(outside.text) == []


def test_the_screenings_csv_is_for_staff_only(app, client):
    answer = client.get("/staff/screenings/screenings.csv")
    assert answer.status_code == 401 and "Outfall" not in answer.text
    sign_in(client, app)
    exports = client.get("/staff/exports/").text
    assert 'formaction="/staff/screenings/screenings.csv"' in exports
    assert "Download screenings (CSV)" in exports


def test_a_screening_prints_with_the_municipality_s_heading(app, client):
    setup(app, client)
    screening = save(client, {**WHOLE, "notes": "Suds at the outlet"})
    assert f'href="{screening}print"' in client.get(screening).text
    app.config["CLOCK"] = lambda: dt.datetime(2026, 12, 4, 8, 15, tzinfo=NY)
    page = client.get(f"{screening}print").text
    heading = text(page.split('<header class="letterhead">')[1].split("</header>")[0])
    assert heading.startswith(
        "Village of Horseheads Stormwater Management Officer Horseheads Village Hall,"
        " 202 South Main Street, Horseheads, New York 14845"
    )
    words = text(page)
    for expected in (
        "Outfall screening record printed December 4, 2026 at 8:15 a.m. · a staff record",
        "Screening of HH-OF-012, December 3, 2026 at 3:51 a.m.",
        "Where Grand Central Avenue",
        "Material Reinforced concrete pipe (RCP)",
        "Size 24 in",
        "Receiving water Newtown Creek",
        "Air temperature 41 °F",
        "Flow measured By volume: 2 L in 4 s = 0.5 liters a second (7.93 gallons a minute)",
        "Intermittent flow trap Caulk dam",
        "Overall call Potential (two or more indicators)",
        "Notes Suds at the outlet",
    ):
        assert expected in words, expected
    # Nothing to click or fill in: no void or correction form, no outfall pages' links.
    assert "Void this screening" not in page and "<form" not in page.split("<main")[1]
    assert "Route for a day" not in page


def test_a_file_of_the_version_before_upgrades_and_keeps_its_screenings(tmp_path):
    """Migrations 006 (outfalls) and 002 (screening_case) on a file whose screenings and
    screening case were stored before them."""
    db = sqlite_utils.Database(tmp_path / "portal.sqlite3")
    migrations.apply(db)
    new = ("air_temperature_f", "land_use", "known_industries", "submerged_water")
    new += ("submerged_sediment", "pool_quality", "benthic_growth", "flow_trap", "call_reason")
    for column in new:
        db.execute(f"ALTER TABLE screenings DROP COLUMN {column}")
    db.execute("ALTER TABLE screening_cases DROP COLUMN observations")
    db.execute(
        "DELETE FROM _sqlite_migrations WHERE name IN"
        " ('006_the_field_sheet_whole', '002_what_the_screening_saw')"
    )
    db.execute(
        "INSERT INTO outfalls (id, code, latitude, longitude, created_at, updated_at,"
        " updated_by) VALUES (1, 'HH-OF-012', 42.165, -76.82, 'x', 'x', 'x')"
    )
    seen = '{"odor": "petroleum", "odor_severity": 3}'
    db.execute(
        "INSERT INTO screenings (id, outfall_id, sheet_key, screened_at, inspector, flow,"
        " observations, overall, recorded_at, recorded_by) VALUES (1, 1,"
        " 'k-k-k-k-k-k-k-k-k-k', '2026-11-02T10:00', 'Jo', 'trickle', ?, 'suspect', 'x', 'jo')",
        [seen],
    )
    db.execute(
        "INSERT INTO cases (id, reference, kind, service_code, received_at, status,"
        " token_hash, submission_key, submission_digest, updated_at, address) VALUES (1,"
        " 'SCR-2026-0001', 'screening', 'illicit-discharge', 'x', 'received', 'h',"
        " 'screening-k', 'd', 'x', 'Outfall HH-OF-012')"
    )
    db.execute(
        "INSERT INTO screening_cases (case_id, screening_id, outfall_id, outfall_code,"
        " overall, screened_at, findings) VALUES (1, 1, 1, 'HH-OF-012', 'suspect',"
        " '2026-11-02T10:00', 'Overall call: Suspect')"
    )
    assert migrations.pending(db)
    migrations.apply(db)
    assert not migrations.pending(db)
    row = db.execute(f"SELECT {', '.join(new)} FROM screenings").fetchall()
    assert row == [(None,) * 9]
    (copied,) = db.execute("SELECT observations FROM screening_cases").fetchone()
    assert json.loads(copied) == {"odor": "petroleum", "odor_severity": 3}
