"""What the rotation starts from after a real import (issue 24 point 3, the officer's walk):
a last screening on paper comes in with the file, an outfall never screened is due at once, a
suspect call is screened again within 30 days, a route through the outfalls the officer ticks
or one drainage area, and the GeoJSON's screening dates."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from helpers import rows, sign_in
from test_outfall_import import HORSEHEADS
from test_screening import NY, SHEET, clocked, open_sheet

from portal.core.db import get_db
from portal.outfalls import checking, inventory

CSV = (
    b"Outfall ID,Lat,Long,Drainage Area,Last Screened,Mapped On\n"
    b"HH-001,42.1655,-76.8201,North,2023-06-14,\n"
    b"HH-002,42.1682,-76.8155,North,6/2/2022,\n"
    b"HH-003,42.1601,-76.8302,South,,2019-05-01\n"
    b"HH-004,42.1733,-76.8088,South,someday,\n"
    b"HH-005,42.1700,-76.8100,South,2027-01-05,\n"
)
GEOJSON = (
    b'{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type":'
    b' "Point", "coordinates": [-76.8201, 42.1655]}, "properties": {"id": "HH-001",'
    b' "last_screening": 1686700800000}}]}'
)


def _import(app, name: str, data: bytes):
    with app.app_context():
        return inventory.import_file(
            get_db(), name, data, HORSEHEADS, actor="test", stamp="2026-11-30T09:00:00-05:00"
        )


def test_the_last_screening_on_paper_comes_in_with_the_file(app):
    report = _import(app, "paper.csv", CSV)
    # A bad day leaves out its cell, not the outfall.
    assert report.lines()[1:4] == [
        "added 5, updated 0, unchanged 0, refused 0, cells left out 2",
        "  row 5 (HH-004), Last Screened: 'someday' is not a day (like 2024-05-17 or 5/17/2024)"
        " (left out; the rest of the row is imported)",
        "  row 6 (HH-005), Last Screened: 2027-01-05 is in the future (left out; the rest of"
        " the row is imported)",
    ]
    assert rows(
        app,
        "SELECT code, screened_on, inventoried_on FROM outfalls o LEFT JOIN"
        " outfall_paper_screenings p ON p.outfall_id = o.id ORDER BY code",
    ) == [
        {"code": "HH-001", "screened_on": "2023-06-14", "inventoried_on": None},
        {"code": "HH-002", "screened_on": "2022-06-02", "inventoried_on": None},
        {"code": "HH-003", "screened_on": None, "inventoried_on": "2019-05-01"},
        {"code": "HH-004", "screened_on": None, "inventoried_on": None},
        {"code": "HH-005", "screened_on": None, "inventoried_on": None},
    ]
    # ArcGIS writes dates into GeoJSON as milliseconds since 1970: 14 June 2023 again.
    assert checking.parse_day("1686700800000") == dt.date(2023, 6, 14)
    assert _import(app, "same.geojson", GEOJSON).lines()[1] == (
        "added 0, updated 0, unchanged 1, refused 0"
    )


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("2024-05-17", dt.date(2024, 5, 17)),
        ("2024-05-17T10:30:00", dt.date(2024, 5, 17)),
        ("5/17/2024", dt.date(2024, 5, 17)),
        ("20240229", dt.date(2024, 2, 29)),
    ],
)
def test_days_as_files_give_them(text, day):
    assert checking.parse_day(text) == day


def test_after_an_import_the_never_screened_count_from_their_inventory_day(app, client):
    _import(app, "paper.csv", CSV)
    sign_in(client, app)
    clocked(app, dt.datetime(2026, 11, 30, 10, 0, tzinfo=NY))
    due = client.get("/staff/screenings/due").text
    rest = due.split('id="due-this-month"')[1]
    # HH-002: screened on paper 2 June 2022, due 2 June 2027; HH-001 June 2028: not listed.
    assert "HH-001" not in due and "HH-002" not in due
    # Mapped on 1 May 2019 and never screened: overdue since 1 May 2024. HH-004, entered
    # today without a day of its own, is due in five years, not tomorrow.
    overdue = due.split('id="due-this-month"')[0]
    assert re.search(r'HH-003</a>: due by <time datetime="2024-05-01">[^<]+</time>, never', overdue)
    assert "HH-004" not in due and "HH-005" not in due and "<p>None.</p>" in rest
    outfall = client.get("/staff/outfalls/2/").text
    assert 'last on <time datetime="2022-06-02">' in outfall
    assert 'next due by <time datetime="2027-06-02">' in outfall
    assert 'next due by <time datetime="2031-11-30">' in client.get("/staff/outfalls/4/").text


def test_a_suspect_call_brings_the_outfall_back_within_30_days(app, client):
    _import(app, "paper.csv", CSV)
    sign_in(client, app)
    clocked(app, dt.datetime(2026, 11, 30, 10, 0, tzinfo=NY))
    saved = client.post("/staff/screenings/outfall/2/new", data={**open_sheet(client, 2), **SHEET})
    page = client.get(saved.headers["Location"]).text
    # Screened 20 November: 30 days on is Sunday 20 December, so Friday 18th, the last
    # business day within them (officer's week P1).
    assert 'Next due</dt><dd><time datetime="2026-12-18">' in page
    assert (
        "screened again within 30 days, by the last business day of them (our reading), not a"
        " whole cycle later"
    ) in page
    clocked(app, dt.datetime(2026, 12, 1, 10, 0, tzinfo=NY))
    due = client.get("/staff/screenings/due").text.split('id="follow-up"')[0]
    assert re.search(
        r'HH-002</a>: due by <time datetime="2026-12-18">[^<]+</time>, last screened'
        r' <time datetime="2026-11-20">[^<]+</time> \(screened again after a'
        r" suspect or obvious call\)",
        due,
    )


def test_a_route_through_the_outfalls_ticked_or_one_drainage_area(app, client):
    _import(app, "paper.csv", CSV)
    sign_in(client, app)
    clocked(app, dt.datetime(2026, 11, 30, 10, 0, tzinfo=NY))
    due = client.get("/staff/screenings/due").text
    assert 'name="outfall" value="3" id="pick-3" aria-label="Put HH-003 on the route"' in due
    assert '<select id="d-area" name="area"><option>North</option><option>South</option>' in due
    picked = client.get("/staff/screenings/route", query_string={"outfall": ["2", "1"]}).text
    order = re.findall(r'<th scope="row"><a href="/staff/outfalls/\d+/">(HH-\d+)</a>', picked)
    assert order == ["HH-002", "HH-001"]  # from the soonest due: HH-002 (June 2027)
    assert "2 outfalls picked on the due list" in picked
    assert '<input type="hidden" name="outfall" value="2">' in picked
    north = client.get("/staff/screenings/route", query_string={"area": "North"}).text
    assert "2 outfalls of the drainage area North" in north
    assert re.findall(r'scope="row"><a href="/staff/outfalls/\d+/">(HH-\d+)</a>', north) == [
        "HH-002",
        "HH-001",
    ]
    unknown = client.get("/staff/screenings/route", query_string={"area": "Nowhere"}).text
    assert "1 of 1 outfalls overdue or due this month" in unknown


def test_the_geojson_gives_each_outfalls_screening_dates(app, client):
    _import(app, "paper.csv", CSV)
    sign_in(client, app)
    clocked(app, dt.datetime(2026, 11, 30, 10, 0, tzinfo=NY))
    features = client.get("/staff/outfalls/outfalls.geojson").json["features"]
    dates = {
        f["properties"]["id"]: (
            f["properties"]["last_screened"],
            f["properties"]["next_screening_due"],
        )
        for f in features
    }
    assert dates == {
        "HH-001": ("2023-06-14", "2028-06-14"),
        "HH-002": ("2022-06-02", "2027-06-02"),
        "HH-003": (None, "2024-05-01"),
        "HH-004": (None, "2031-11-30"),
        "HH-005": (None, "2031-11-30"),
    }
