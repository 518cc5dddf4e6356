"""The rotation's and the screening's rules at their edges, through the pages an officer
reads: exactly 72 hours after rain, a paper day on the day of a suspect screening, a route
between two groups of outfalls either side of the start, and a screening voided twice."""

from __future__ import annotations

import datetime as dt
import json
import re
from zoneinfo import ZoneInfo

from helpers import csrf_of, hidden_fields, rows, sign_in
from test_screening_corrections import SHEET, figures, save, setup

from portal.core.db import get_db, insert, transaction
from portal.outfalls.rotation import Waiting

NY = ZoneInfo("America/New_York")
UNLIKELY = {"overall": "unlikely", "odor": "none", "odor_severity": ""}


def test_exactly_72_hours_after_rain_is_dry_weather(app, client):
    setup(app, client)
    page = client.get("/staff/screenings/outfall/1/new")
    fields = {**hidden_fields(page.text), **SHEET, **UNLIKELY, "rain_inches": "0.5"}
    # An hour short of the 72 is wet: the sheet asks before saving.
    asked = client.post(
        "/staff/screenings/outfall/1/new", data={**fields, "hours_since_rain": "71"}
    )
    assert asked.status_code == 422 and 'id="wet_ok-error"' in asked.text
    saved = client.post(
        "/staff/screenings/outfall/1/new", data={**fields, "hours_since_rain": "72"}
    )
    assert saved.status_code == 303
    shown = client.get(saved.headers["Location"]).text
    assert "wet-weather visit" not in shown and "Wet weather:" not in shown
    assert figures(app) == {
        "screenings.made": ["Outfall OF-1: unlikely"],
        "screenings.flagged": [],
        "screenings.wet": [],
        "outfalls.screened": ["OF-1"],
    }
    # Counted in the rotation: OF-1 is next due five years on, so off the due list; OF-2,
    # never screened since 2020, is overdue.
    due = client.get("/staff/screenings/due").text
    assert ">OF-2</a>, Rink: due by" in due and ">OF-1</a>" not in due


def test_a_paper_day_on_the_day_of_a_suspect_screening_keeps_the_30_day_follow_up(app, client):
    setup(app, client)
    save(client)  # suspect, 20 November 2026
    with app.app_context():
        db = get_db()
        with transaction(db):
            insert(
                db,
                "outfall_paper_screenings",
                {
                    "outfall_id": 1,
                    "screened_on": "2026-11-20",
                    "recorded_at": "2026-11-30T09:00:00-05:00",
                    "recorded_by": "test",
                },
            )
    app.config["CLOCK"] = lambda: dt.datetime(2026, 12, 21, 9, 0, tzinfo=NY)
    overdue = client.get("/staff/screenings/due").text.split('id="due-this-month"')[0]
    assert re.search(
        r'>OF-1</a>, Rink: due by <time datetime="2026-12-18">[^<]+</time>, last screened '
        r'<time datetime="2026-11-20">[^<]+</time> \(screened again after a suspect',
        overdue,
    )


def test_the_route_goes_stop_to_stop_not_by_distance_from_the_start(app, client):
    # Two outfalls west of the start and two east, about 500 to 650 m out: by distance from the
    # start alone the walk would cross back and forth (W1, E1, W2, E2).
    with app.app_context():
        db = get_db()
        with transaction(db):
            for code, lon in (
                ("W1", -76.8260),
                ("E1", -76.8134),
                ("W2", -76.8272),
                ("E2", -76.8122),
            ):
                insert(
                    db,
                    "outfalls",
                    {
                        "code": code,
                        "latitude": 42.160,
                        "longitude": lon,
                        "location": f"At {code}",
                        "created_at": "2020-01-10T09:00:00-05:00",
                        "updated_at": "2020-01-10T09:00:00-05:00",
                        "updated_by": "test",
                    },
                )
    sign_in(client, app)
    app.config["CLOCK"] = lambda: dt.datetime(2026, 11, 30, 9, 0, tzinfo=NY)
    page = client.get("/staff/screenings/route?lat=42.160&lon=-76.820").text
    order = re.findall(r'<th scope="row"><a href="/staff/outfalls/\d+/">(\w\d)</a>', page)
    assert order == ["W1", "W2", "E1", "E2"]
    legs = re.findall(r'<td data-label="Walk">(\d+) m</td>', page)
    assert legs == ["495", "99", "1137", "99"]
    assert "Walk in all: about 1.8 km" in page


def test_a_second_void_keeps_who_voided_it_when_and_why(app, client):
    setup(app, client)
    first = save(client)
    page = client.get(first).text  # a second tap, or a colleague's page open since before
    client.post(f"{first}void", data={"csrf_token": csrf_of(page), "reason": "Wrong outfall"})
    app.config["CLOCK"] = lambda: dt.datetime(2026, 12, 1, 9, 0, tzinfo=NY)
    again = client.post(f"{first}void", data={"csrf_token": csrf_of(page), "reason": "Duplicate"})
    assert again.status_code == 303
    shown = client.get(first).text
    assert '<p class="flash-success">This screening was voided already.</p>' in shown
    assert 'Voided <time datetime="2026-11-30">' in shown and "Wrong outfall" in shown
    assert "Duplicate" not in shown
    (screening,) = rows(app, "SELECT voided_at, void_reason FROM screenings")
    assert screening["voided_at"].startswith("2026-11-30")
    assert screening["void_reason"] == "Wrong outfall"
    assert len(rows(app, "SELECT id FROM screening_changes")) == 1


def test_a_void_and_a_correction_are_told_in_the_case_they_led_to(app, client):
    setup(app, client)
    first = save(client)
    opened = client.post(f"{first}case", data={"csrf_token": csrf_of(client.get(first).text)})
    case_page = opened.headers["Location"]
    form = client.get(f"{first}correct").text
    fields = {
        **hidden_fields(form),
        **SHEET,
        "screened_at": "2026-11-19T10:30",
        "notes": "Grey flow, café-au-lait",
        "overall": "potential",
        "call_reason": "Sewer works upstream",
        "reason": "Misread",
    }
    assert client.post(f"{first}correct", data=fields).status_code == 303
    page = client.get(first).text
    client.post(f"{first}void", data={"csrf_token": csrf_of(page), "reason": "Wrong outfall"})
    case = client.get(case_page).text
    assert "The screening this case follows up was corrected: Misread" in case
    assert "The screening this case follows up was voided (the case stays): Wrong outfall" in case
    events = rows(
        app, "SELECT action, detail FROM events WHERE action LIKE 'screening_%' ORDER BY id"
    )
    assert [(e["action"], json.loads(e["detail"])) for e in events] == [
        ("screening_opened", {"screening": 1, "outfall": "OF-1"}),
        ("screening_corrected", {"screening": 1, "reason": "Misread"}),
        ("screening_voided", {"screening": 1, "reason": "Wrong outfall"}),
    ]
    # The screening's own history, as stored: fields in name order, words as written; the
    # void keeps no values (it changes none).
    changes = rows(app, "SELECT action, old, new FROM screening_changes ORDER BY id")
    assert [(c["action"], c["old"], c["new"]) for c in changes] == [
        (
            "corrected",
            '{"call_reason": null, "notes": "Grey flow", "overall": "suspect",'
            ' "screened_at": "2026-11-20T10:30"}',
            '{"call_reason": "Sewer works upstream", "notes": "Grey flow, café-au-lait",'
            ' "overall": "potential", "screened_at": "2026-11-19T10:30"}',
        ),
        ("voided", "{}", "{}"),
    ]


def test_a_catch_basin_and_a_retired_outfall_are_off_the_rotation(app, client):
    setup(app, client)
    with app.app_context():
        db = get_db()
        with transaction(db):
            db.execute("UPDATE outfalls SET structure_type = 'catch-basin' WHERE code = 'OF-1'")
            db.execute(
                "UPDATE outfalls SET retired_on = '2026-06-01',"
                " retired_reason = 'removed' WHERE code = 'OF-2'"
            )
    basin = client.get("/staff/outfalls/1/")
    assert basin.status_code == 200
    assert "Not on the screening rotation (only outfalls are)." in basin.text
    retired = client.get("/staff/outfalls/2/")
    assert retired.status_code == 200 and "It is off the screening rotation" in retired.text
    # Their sheets say nothing of a next turn either.
    first = save(client)
    assert client.get(first).status_code == 200


def test_an_obvious_call_is_screened_again_within_30_days_like_a_suspect_one(app, client):
    setup(app, client)
    save(client, overall="obvious")  # 20 November 2026: due Friday 18 December (P1)
    app.config["CLOCK"] = lambda: dt.datetime(2026, 12, 21, 9, 0, tzinfo=NY)
    overdue = client.get("/staff/screenings/due").text.split('id="due-this-month"')[0]
    assert '>OF-1</a>, Rink: due by <time datetime="2026-12-18">' in overdue


def test_outfalls_only_due_this_month_are_still_waiting():
    assert Waiting(overdue=[], due=[{"code": "OF-1"}])
    assert Waiting(overdue=[{"code": "OF-1"}], due=[])
    assert not Waiting(overdue=[], due=[])
