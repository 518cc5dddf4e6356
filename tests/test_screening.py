"""Dry-weather screening: the rotation's due dates (literal dates, 29 February, a UTC server
at 00:30 local), the field sheet without JavaScript, the saved sheet's follow-up, the due
list, the queue's and the digest's line, a day's route, and the inventory as GeoJSON."""

from __future__ import annotations

import datetime as dt
import io
import json
import re
from zoneinfo import ZoneInfo

import pytest
from helpers import csrf_of, hidden_fields, jpeg, rows, sign_in

from content_model.outfalls import OutfallSettings
from portal import create_app
from portal.core.db import get_db, insert, transaction
from portal.outfalls.rotation import turn
from portal.screening.route import walking_order

NY = ZoneInfo("America/New_York")
UTC = dt.UTC


@pytest.mark.parametrize(
    ("last", "added", "today", "due", "state"),
    [
        # Five years after the last screening; the month's end bounds "due".
        (
            dt.date(2021, 6, 15),
            dt.date(2020, 1, 1),
            dt.date(2026, 6, 1),
            dt.date(2026, 6, 15),
            "due",
        ),
        (
            dt.date(2021, 6, 15),
            dt.date(2020, 1, 1),
            dt.date(2026, 6, 16),
            dt.date(2026, 6, 15),
            "overdue",
        ),
        (
            dt.date(2021, 7, 1),
            dt.date(2020, 1, 1),
            dt.date(2026, 6, 30),
            dt.date(2026, 7, 1),
            "later",
        ),
        # Screened on 29 February: due 28 February in a year without one, never a day late.
        (
            dt.date(2024, 2, 29),
            dt.date(2020, 1, 1),
            dt.date(2029, 2, 28),
            dt.date(2029, 2, 28),
            "due",
        ),
        (
            dt.date(2024, 2, 29),
            dt.date(2020, 1, 1),
            dt.date(2029, 3, 1),
            dt.date(2029, 2, 28),
            "overdue",
        ),
        # Never screened: due five years after it entered the inventory (the content's reading),
        # so an import is not overdue the next day, and an inventory of 2021 is.
        (None, dt.date(2026, 11, 30), dt.date(2026, 12, 1), dt.date(2031, 11, 30), "later"),
        (None, dt.date(2021, 11, 30), dt.date(2026, 11, 30), dt.date(2026, 11, 30), "due"),
        (None, dt.date(2021, 11, 29), dt.date(2026, 11, 30), dt.date(2026, 11, 29), "overdue"),
        (None, dt.date(2028, 2, 29), dt.date(2033, 3, 1), dt.date(2033, 2, 28), "overdue"),
    ],
)
def test_when_an_outfall_is_next_due(last, added, today, due, state):
    found = turn(last, added, OutfallSettings(), today)
    assert (found.due, found.state) == (due, state)


def test_a_suspect_call_is_screened_again_within_30_days_not_five_years():
    found = turn(
        dt.date(2026, 11, 20),
        dt.date(2020, 1, 1),
        OutfallSettings(),
        dt.date(2026, 11, 30),
        suspect=True,
    )
    assert (found.due, found.state, found.why) == (dt.date(2026, 12, 20), "later", "follow-up")
    later = turn(
        dt.date(2026, 11, 20),
        dt.date(2020, 1, 1),
        OutfallSettings(),
        dt.date(2026, 12, 21),
        suspect=True,
    )
    assert later.state == "overdue"


def test_a_pack_may_give_never_screened_outfalls_time():
    rule = OutfallSettings(first_within_days=90, follow_up_within_days=14)
    assert turn(None, dt.date(2026, 11, 30), rule, dt.date(2026, 12, 1)).due == dt.date(2027, 2, 28)


def test_a_leap_day_plus_four_years_is_a_leap_day():
    every_four = OutfallSettings(every_years=4)
    found = turn(dt.date(2024, 2, 29), dt.date(2020, 1, 1), every_four, dt.date(2028, 2, 1))
    assert found.due == dt.date(2028, 2, 29)
    every_year = OutfallSettings(every_years=1)
    found = turn(dt.date(2024, 2, 29), dt.date(2020, 1, 1), every_year, dt.date(2025, 2, 1))
    assert found.due == dt.date(2025, 2, 28)


def test_the_route_is_walked_nearest_first():
    stops = [
        {"code": "far", "latitude": 42.180, "longitude": -76.800},
        {"code": "near", "latitude": 42.1601, "longitude": -76.8201},
        {"code": "middle", "latitude": 42.170, "longitude": -76.810},
    ]
    ordered = walking_order(stops, (42.160, -76.820))
    assert [s["code"] for s in ordered] == ["near", "middle", "far"]
    assert round(ordered[0]["leg"]) == 14
    assert round(ordered[-1]["walked"]) == round(sum(s["leg"] for s in ordered))


# ---------------------------------------------------------------- in the portal


def clocked(app, moment: dt.datetime) -> None:
    app.config["CLOCK"] = lambda: moment


def add_outfalls(app, *items) -> None:
    """Outfalls as (code, latitude, longitude, added at, [screened at ...])."""
    with app.app_context():
        db = get_db()
        with transaction(db):
            for code, lat, lon, added, *screened in items:
                row = insert(
                    db,
                    "outfalls",
                    {
                        "code": code,
                        "latitude": lat,
                        "longitude": lon,
                        "location": f"At {code}",
                        "created_at": added,
                        "updated_at": added,
                        "updated_by": "test",
                    },
                )
                for n, when in enumerate(screened):
                    insert(
                        db,
                        "screenings",
                        {
                            "outfall_id": row,
                            "sheet_key": f"{code}-{n}" * 3,
                            "screened_at": when,
                            "inspector": "jo",
                            "flow": "none",
                            "overall": "unlikely",
                            "recorded_at": when,
                            "recorded_by": "jo",
                        },
                    )


INVENTORY = (
    ("OF-A", 42.1655, -76.8201, "2020-01-10T09:00:00-05:00", "2024-02-29T10:00"),
    ("OF-B", 42.1682, -76.8155, "2020-01-10T09:00:00-05:00", "2024-03-15T10:00"),
    ("OF-C", 42.1601, -76.8302, "2024-02-29T09:00:00-05:00"),
    ("OF-D", 42.1733, -76.8088, "2020-01-10T09:00:00-05:00", "2023-11-02T10:00"),
)


def test_the_due_list_on_29_february_of_a_leap_year(app, client):
    add_outfalls(app, *INVENTORY)
    sign_in(client, app)
    # 00:30 on 1 March 2029 in the Village is 05:30 UTC: the server's day is already the 1st
    # too, but at 04:30 UTC (23:30 on 28 February local) the Village's day is still the 28th.
    clocked(app, dt.datetime(2029, 3, 1, 4, 30, tzinfo=UTC))
    page = client.get("/staff/screenings/due").text
    assert '<time datetime="2029-02-28">Wednesday, February 28, 2029</time>' in page
    overdue, rest = page.split('id="due-this-month"')
    assert "OF-D" in overdue and "OF-A" not in overdue  # OF-D was due 2 November 2028
    assert re.search(r"OF-A</a>, At OF-A: due by <time datetime=\"2029-02-28\">", rest)
    # Added on 29 February 2024, never screened: due five years on, 28 February 2029.
    assert "OF-C" not in overdue and "OF-C" in rest
    assert "OF-B" not in page  # due 15 March 2029
    clocked(app, dt.datetime(2029, 3, 1, 5, 30, tzinfo=UTC))
    page = client.get("/staff/screenings/due").text
    overdue = page.split('id="due-this-month"')[0]
    assert all(code in overdue for code in ("OF-A", "OF-C", "OF-D"))  # 28 February has passed
    assert (
        'Due by <time datetime="2029-03-31">' in page and "OF-B" in page.split('id="follow-up"')[0]
    )


def test_never_screened_is_due_five_years_after_it_entered_the_inventory(app, client):
    add_outfalls(app, *INVENTORY)
    sign_in(client, app)
    clocked(app, dt.datetime(2024, 3, 1, 12, 0, tzinfo=NY))
    page = client.get("/staff/screenings/due").text
    assert "one never screened is due 5 years after the day it entered the inventory" in page
    assert "OF-C" not in page  # entered the day before: not due for five years
    clocked(app, dt.datetime(2029, 2, 1, 12, 0, tzinfo=NY))
    rest = client.get("/staff/screenings/due").text.split('id="due-this-month"')[1]
    assert re.search(
        r'OF-C</a>, At OF-C: due by <time datetime="2029-02-28">[^<]+</time>, never screened', rest
    )
    # Its own inventory day (mapped in 2018) makes it overdue on its first day in the portal.
    with app.app_context():
        get_db().execute("UPDATE outfalls SET inventoried_on = '2018-05-02' WHERE code = 'OF-C'")
    clocked(app, dt.datetime(2024, 3, 1, 12, 0, tzinfo=NY))
    overdue = client.get("/staff/screenings/due").text.split('id="due-this-month"')[0]
    assert re.search(r'OF-C</a>, At OF-C: due by <time datetime="2023-05-02">', overdue)


def test_the_queue_and_the_digest_say_the_same(app, client, mail_server):
    from portal.accounts.accounts import set_email
    from portal.digest.morning import queue_digests

    add_outfalls(app, *INVENTORY)
    sign_in(client, app)
    clocked(app, dt.datetime(2029, 2, 20, 9, 0, tzinfo=NY))
    queue = client.get("/staff/").text
    assert '<a href="/staff/screenings/due#overdue">1 overdue</a>' in queue
    assert '<a href="/staff/screenings/due#due-this-month">2 due this month</a>' in queue
    with app.app_context():
        set_email(get_db(), "smo", "smo@village.test")
        assert queue_digests(get_db(), dt.datetime(2029, 2, 20, 9, 0, tzinfo=NY)) == 1
        (mail,) = rows(app, "SELECT subject, body_text FROM outbox WHERE purpose LIKE 'digest-%'")
    assert mail["subject"] == (
        "Morning digest, Tuesday, February 20: 3 outfalls to screen (1 overdue)"
    )
    assert "OUTFALL SCREENING\n1 overdue, 2 due this month:" in mail["body_text"]
    assert "https://portal.village.test/staff/screenings/due" in mail["body_text"]
    # Which ones, not only how many, most overdue first.
    assert "- OF-D, At OF-D: overdue, due by Thursday, November 2, 2028\n" in mail["body_text"]
    assert "- OF-A, At OF-A: due by Wednesday, February 28, 2029\n" in mail["body_text"]


def test_no_outfall_line_while_none_is_waiting(app, client):
    sign_in(client, app)
    assert "Outfall screening:" not in client.get("/staff/").text


def open_sheet(client, outfall_id: int = 1) -> dict[str, str]:
    page = client.get(f"/staff/screenings/outfall/{outfall_id}/new")
    assert page.status_code == 200
    return hidden_fields(page.text)


SHEET = {
    "screened_at": "2026-11-20T10:30",
    "inspector": "Jo Smith",
    "hours_since_rain": "96",
    "rain_inches": "0.4",
    "flow": "moderate",
    "flow_gpm": "3",
    "odor": "sewage",
    "odor_severity": "3",
    "color": "gray",
    "color_severity": "2",
    "turbidity": "cloudy",
    "floatables": "none",
    "floatables_severity": "",
    "deposits": "none",
    "staining": "flow-line",
    "vegetation": "excessive",
    "damage": "none",
    "temperature_f": "61",
    "ph": "7.4",
    "ammonia_mg_l": "1.2",
    "chlorine_mg_l": "",
    "detergents_mg_l": "0.5",
    "notes": "Grey flow, sewage smell",
    "overall": "suspect",
}


def test_a_sheet_saved_without_javascript(app, client):
    add_outfalls(app, *INVENTORY)
    sign_in(client, app)
    clocked(app, dt.datetime(2026, 11, 30, 9, 0, tzinfo=NY))
    fields = open_sheet(client)
    payload = {**fields, **SHEET, "photos": [(io.BytesIO(jpeg((1200, 900))), "outfall.jpg")]}
    saved = client.post(
        "/staff/screenings/outfall/1/new", data=payload, content_type="multipart/form-data"
    )
    assert saved.status_code == 303
    page = client.get(saved.headers["Location"]).text
    for words in (
        "Needs follow-up",
        "The call was suspect",
        "Odor: sewage (severity 3)",
        "Colour: gray (severity 2)",
        "Turbidity: cloudy (severity 2)",
        "Staining: flow line",
        "Vegetation: excessive growth",
        "Moderate, about 3 gallons a minute",
        "96 hours since the last rain, which brought 0.4 in",
        "Water temperature (°F): 61",
        "pH (standard units): 7.4",
        "Ammonia (mg/L as N): 1.2",
        "Detergents, as surfactants (mg/L as MBAS): 0.5",
        'Next due</dt><dd><time datetime="2026-12-18">',
    ):
        assert words in page, words
    assert "Total chlorine" not in page  # not taken, not shown
    (row,) = rows(
        app,
        "SELECT overall, flow, observations, case_id FROM screenings WHERE outfall_id = 1 AND inspector = 'Jo Smith'",
    )
    assert (row["overall"], row["flow"], row["case_id"]) == ("suspect", "moderate", None)
    assert json.loads(row["observations"])["odor_severity"] == 3
    assert rows(app, "SELECT count(*) AS n FROM screening_photos")[0]["n"] == 1
    # The same sheet sent again (a retry on a weak signal) is one screening.
    again = client.post(
        "/staff/screenings/outfall/1/new",
        data={**fields, **SHEET},
        content_type="multipart/form-data",
    )
    assert again.headers["Location"] == saved.headers["Location"].split("?")[0]
    assert (
        rows(app, "SELECT count(*) AS n FROM screenings WHERE inspector = 'Jo Smith'")[0]["n"] == 1
    )
    # Back after Save brings the sheet back under a new key: the same sheet is still one.
    back = client.post(
        "/staff/screenings/outfall/1/new",
        data={**open_sheet(client), **SHEET},
        content_type="multipart/form-data",
    )
    assert back.headers["Location"] == saved.headers["Location"].split("?")[0]
    assert (
        "This screening was saved already: nothing new was stored."
        in client.get(back.headers["Location"]).text
    )
    due = client.get("/staff/screenings/due").text
    assert "Screenings that need follow-up: 1" in due and "suspect, no case linked yet" in due
    # A sheet that differs in anything (here its notes) is a screening of its own.
    other = client.post(
        "/staff/screenings/outfall/1/new",
        data={**open_sheet(client), **SHEET, "notes": "Second visit"},
        content_type="multipart/form-data",
    )
    assert other.status_code == 303 and other.headers["Location"] != back.headers["Location"]
    assert (
        rows(app, "SELECT count(*) AS n FROM screenings WHERE inspector = 'Jo Smith'")[0]["n"] == 2
    )


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"flow": ""}, "flow", "Say whether water was flowing."),
        ({"overall": ""}, "overall", "Choose the overall call."),
        ({"odor_severity": ""}, "odor_severity", "Grade the odor from 1 to 3."),
        (
            {"floatables_severity": "2"},
            "floatables_severity",
            "No floatables was chosen: leave this at —.",
        ),
        ({"ph": "15"}, "ph", "Enter a number from 0 to 14, or leave it empty."),
        ({"ph": "sNaN"}, "ph", "Enter a number from 0 to 14, or leave it empty."),
        ({"rain_inches": "NaN"}, "rain_inches", "Enter a number from 0 to 50, or leave it empty."),
        (
            {"hours_since_rain": "lots"},
            "hours_since_rain",
            "Enter a number from 0 to 100000, or leave it empty.",
        ),
        (
            {"screened_at": "2026-12-01T10:00"},
            "screened_at",
            "The screening cannot be in the future.",
        ),
        ({"flow": "none"}, "flow_gpm", "No flow was chosen: leave the estimate empty."),
    ],
)
def test_a_sheet_refused_keeps_what_was_typed(app, client, change, field, message):
    add_outfalls(app, *INVENTORY)
    sign_in(client, app)
    clocked(app, dt.datetime(2026, 11, 30, 9, 0, tzinfo=NY))
    answer = client.post(
        "/staff/screenings/outfall/1/new", data={**open_sheet(client), **SHEET, **change}
    )
    assert answer.status_code == 422
    assert re.search(
        rf'id="{field}-error"><span class="visually-hidden">Error: </span>{re.escape(message)}',
        answer.text,
    )
    assert "Grey flow, sewage smell</textarea>" in answer.text
    assert (
        rows(app, "SELECT count(*) AS n FROM screenings WHERE inspector = 'Jo Smith'")[0]["n"] == 0
    )


def test_a_sheet_with_an_expired_token_comes_back_filled(app, client):
    add_outfalls(app, *INVENTORY)
    sign_in(client, app)
    fields = open_sheet(client)
    answer = client.post(
        "/staff/screenings/outfall/1/new", data={**fields, **SHEET, "csrf_token": "stale"}
    )
    assert answer.status_code == 400
    assert "everything you typed is kept below" in answer.text
    assert "Grey flow, sewage smell</textarea>" in answer.text
    assert f'value="{fields["sheet_key"]}"' in answer.text


def test_picking_the_outfall_by_id_or_place(app, client):
    add_outfalls(app, *INVENTORY)
    sign_in(client, app)
    typed = client.get("/staff/screenings/?q=of-b")
    assert (
        typed.status_code == 302 and typed.headers["Location"] == "/staff/screenings/outfall/2/new"
    )
    some = client.get("/staff/screenings/?q=OF").text
    assert all(f">{code}</a>" in some for code in ("OF-A", "OF-B", "OF-C", "OF-D"))
    near = client.get("/staff/screenings/?lat=42.1656&lon=-76.8200").text
    listed = re.findall(r'new">(OF-\w)</a>, (\d+) m', near)
    assert listed[:2] == [("OF-A", "14"), ("OF-B", "470")]
    bad = client.get("/staff/screenings/?lat=91&lon=-76.82").text
    assert "Give a latitude from -90 to 90" in bad


def test_the_route_starts_where_asked(app, client):
    add_outfalls(app, *INVENTORY)
    sign_in(client, app)
    clocked(app, dt.datetime(2029, 3, 20, 9, 0, tzinfo=NY))
    page = client.get("/staff/screenings/route?from=OF-C").text
    order = re.findall(r'<th scope="row"><a href="/staff/outfalls/\d+/">(OF-\w)</a>', page)
    assert order == ["OF-C", "OF-A", "OF-B", "OF-D"]
    assert "Screening route from OF-C" in page
    missing = client.get("/staff/screenings/route?from=XX-9").text
    assert "No structure has the id XX-9" in missing


def test_the_inventory_as_geojson(app, client):
    add_outfalls(app, *INVENTORY)
    with app.app_context():
        db = get_db()
        db.execute("UPDATE outfalls SET notes = 'Owner Pat Doe says it floods' WHERE code = 'OF-A'")
    assert client.get("/staff/outfalls/outfalls.geojson").status_code == 401
    assert client.get("/open-data/outfalls.geojson").status_code == 404  # off by default
    sign_in(client, app)
    staff = client.get("/staff/outfalls/outfalls.geojson")
    assert staff.mimetype == "application/geo+json"
    first = staff.json["features"][0]
    assert first["geometry"] == {"type": "Point", "coordinates": [-76.8201, 42.1655]}
    assert first["properties"]["id"] == "OF-A" and "updated_by" not in first["properties"]
    assert first["properties"]["notes"] == "Owner Pat Doe says it floods"


def test_a_pack_may_publish_its_inventory(tmp_path, build):
    from helpers import DATA
    from pack_traces import PACK, traces

    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "db.sqlite3"),
            "CONTENT_DIR": str(PACK),
            "SITE_DIR": str(build),
            "SESSION_COOKIE_SECURE": False,
        }
    )
    # The Town's own file, checked against the Town's service area.
    result = app.test_cli_runner().invoke(
        args=["outfalls", "import", str(DATA / "outfalls" / "wrenfield-outfalls.geojson")]
    )
    assert result.output.splitlines()[:4] == [
        "wrenfield-outfalls.geojson: 5 features read",
        "added 3, updated 0, unchanged 0, refused 2",
        "  feature 4 (WF-3), geometry: 42.93000, -76.50000 is outside the service area (the"
        " Town of Wrenfield: latitude 42.9 to 42.98, longitude -76.1 to -75.98)",
        "  feature 5, outfall_id: missing: every structure needs its id",
    ]
    with app.app_context():
        # Mapped in 2015 and never screened: overdue (the pack screens every 3 years).
        get_db().execute(
            "UPDATE outfalls SET notes = 'Owner Pat Doe says it floods' WHERE code != 'WF-1'"
        )
        get_db().execute("UPDATE outfalls SET inventoried_on = '2015-04-01'")
    client = app.test_client()
    sign_in(client, app)
    for url in (
        "/staff/outfalls/",
        "/staff/outfalls/1/",
        "/staff/screenings/outfall/1/new",
        "/staff/screenings/due",
        "/staff/screenings/route",
        "/staff/outfalls/import",
        "/staff/screenings/?lat=42.94&lon=-76.04",
    ):
        page = client.get(url)
        assert page.status_code == 200, url
        assert not traces(page.text), (url, traces(page.text))
    route = client.get("/staff/screenings/route").text
    # The pack's own start (outfalls.yaml, route_start); never screened since 2015, both
    # outfalls (the third structure is a catch basin) are due.
    assert "Screening route from Wrenfield Town Hall" in route
    assert "2 of 2 outfalls overdue or due this month" in route
    assert (
        "every outfall is screened in dry weather at least once in 3 years"
        in client.get("/staff/screenings/due").text.lower()
    )
    with app.app_context():
        get_db().execute(
            "DELETE FROM outfall_changes WHERE outfall_id IN (SELECT id FROM"
            " outfalls WHERE code != 'WF-1')"
        )
        get_db().execute("DELETE FROM outfalls WHERE code != 'WF-1'")
    public = app.test_client().get("/open-data/outfalls.geojson")
    assert public.status_code == 200
    assert public.headers["Access-Control-Allow-Origin"] == "*"
    (feature,) = public.json["features"]
    assert feature["properties"]["id"] == "WF-1"
    assert "notes" not in feature["properties"]  # free text may name a person
    assert app.extensions["outfalls"].every_years == 3


def test_edit_one_structure(app, client):
    sign_in(client, app)
    page = client.get("/staff/outfalls/new").text
    form = {
        "csrf_token": csrf_of(page),
        "code": "OF-77",
        "structure_type": "outfall",
        "latitude": "42.17",
        "longitude": "-76.81",
        "location": "Behind the rink",
        "conveyance": "closed-pipe",
        "material": "pvc",
        "shape": "circular",
        "size_in": "600 mm",
        "height_in": "",
        "receiving_water": "Test Creek",
        "drainage_area": "East",
        "condition": "fair",
        "notes": "",
    }
    made = client.post("/staff/outfalls/new", data=form)
    assert made.status_code == 303
    (row,) = rows(app, "SELECT * FROM outfalls")
    assert (row["size_in"], row["height_in"], row["updated_by"]) == (23.62, None, "smo")
    twice = client.post("/staff/outfalls/new", data=form)
    assert twice.status_code == 422 and "OF-77 is already in the inventory." in twice.text
    bad = client.post("/staff/outfalls/1/edit", data={**form, "latitude": "", "size_in": "big"})
    assert bad.status_code == 422
    assert "Enter the latitude (in degrees" in bad.text and "Enter the size in inches" in bad.text
    assert 'value="Behind the rink"' in bad.text
    far = client.post("/staff/outfalls/1/edit", data={**form, "latitude": "42.30"})
    assert far.status_code == 422 and (
        "42.30000, -76.81000 is outside the service area (the Village of Horseheads: latitude"
        " 42.15 to 42.185, longitude -76.85 to -76.795)." in far.text
    )
    moved = client.post("/staff/outfalls/1/edit", data={**form, "latitude": "42.171"})
    assert moved.status_code == 303
    assert rows(app, "SELECT latitude FROM outfalls")[0]["latitude"] == 42.171
    photo = client.post(
        "/staff/outfalls/1/photos",
        data={"csrf_token": csrf_of(page), "photos": [(io.BytesIO(jpeg((800, 600))), "pipe.jpg")]},
        content_type="multipart/form-data",
    )
    assert photo.status_code == 303
    detail = client.get("/staff/outfalls/1/").text
    assert 'alt="OF-77, photo 1, added' in detail
    listing = client.get("/staff/outfalls/?q=rink").text
    assert "1 structure matches." in listing and ">OF-77</a>" in listing
    assert "0 structures match." in client.get("/staff/outfalls/?type=manhole").text


def test_the_sheet_weighs_no_more_than_the_report_form(app, client):
    from bench.weights import page_weight

    add_outfalls(app, *INVENTORY)
    sign_in(client, app)
    html = client.get("/staff/screenings/outfall/1/new").data
    _, total = page_weight(html, lambda url: client.get(url).data)
    assert total <= 20 * 1024  # gzipped HTML, CSS and scripts: the report form's budget
