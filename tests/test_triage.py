"""Triage as an officer triages (issue 32 item 9; the officer's week of 3 December 2026, M1
and M4): the queue puts the most dangerous first and, among those, the one waiting longest;
the flag follows § 216-4's hazardous materials, not every pollutant; the officer sets or
clears it on the case, and a hazardous case's page prompts the calls and records the
Village's own, with the State's spill number."""

from __future__ import annotations

import datetime as dt
import html
import json
import re
import sqlite3
from zoneinfo import ZoneInfo

import pytest
from helpers import csrf_of, rows, sign_in

from bench.seed import case_row, insert_reports, report_row
from portal.core.db import get_db

NY = ZoneInfo("America/New_York")
NOW = dt.datetime(2026, 12, 3, 4, 10, tzinfo=NY)  # the review's Thursday, 4:10 a.m.

# The review's resident reports, filed in this order from Monday 30 November: IDR-...-00002
# is the dizzying gasoline, the first filed of the hazardous ones and the most dangerous.
REPORTS = [
    ("Rinsing latex paint brushes into the storm drain", "", []),
    (
        "Strong gasoline smell at the storm drain and a rainbow sheen, it is making me dizzy",
        "petroleum",
        ["sheen", "odor"],
    ),
    ("They drained the chlorinated pool into the street", "", []),
    ("Laundromat suds with a chlorine smell in the gutter", "chemical", ["suds", "odor"]),
    ("Someone poured antifreeze in the catch basin", "", []),
    ("Diesel on the road by the garage", "", []),
    ("Raw sewage smell from the pipe", "sewage", ["odor"]),
    ("Smoke and flames coming out of the catch basin", "", []),
    ("Grey water from the car wash", "", []),
]


def references(page: str) -> list[str]:
    return re.findall(r'scope="row"><a href="/staff/cases/\d+/">([A-Z]+-\d{4}-\d+)</a>', page)


def words(page: str) -> str:
    """The page's text as a person reads it, one space between words."""
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())
    return re.sub(r" ([.,:;)])", r"\1", text)


@pytest.fixture
def officer(app, client):
    app.config["CLOCK"] = lambda: NOW
    cases = []
    for n, (description, odor, seen) in enumerate(REPORTS, start=1):
        filed = dt.datetime(2026, 11, 30, 8, 0, tzinfo=NY) + dt.timedelta(hours=5 * n)
        cases.append(
            (
                case_row(n, filed, first_action_at=filed.isoformat()),
                report_row(
                    0, filed, description=description, odor=odor, indicators=json.dumps(seen)
                ),
            )
        )
    with app.app_context():
        insert_reports(get_db(), cases)
    sign_in(client, app)
    return client


def test_the_most_dangerous_first_and_in_each_the_one_waiting_longest(officer):
    page = officer.get("/staff/").text
    assert references(page) == [
        "IDR-2026-00008",  # smoke and flames: a fire or explosion risk, filed last
        "IDR-2026-00002",  # dizzy from gasoline: vapor or someone feeling ill
        "IDR-2026-00006",  # diesel: fuel or petroleum
        "IDR-2026-00005",  # antifreeze: other hazardous materials, filed before...
        "IDR-2026-00007",  # ...the sewage
        "IDR-2026-00009",  # the rest, newest first: grey water, suds, pool, paint
        "IDR-2026-00004",
        "IDR-2026-00003",
        "IDR-2026-00001",
    ]
    said = words(page)
    assert "Hazardous: vapor or someone feeling ill, fuel or oil" in said
    assert (
        "Our reading, where the law sets no order: open hazardous cases first, by how dangerous"
        " (a fire or explosion risk; then vapor, or someone feeling ill; then fuel or petroleum;"
        " then other hazardous materials), then open cases with something overdue; in each, the"
        " one filed first (waiting longest) first. Then every other case, newest first." in said
    )
    hazardous = references(officer.get("/staff/", query_string={"flag": "hazard"}).text)
    assert hazardous == [
        "IDR-2026-00008",
        "IDR-2026-00002",
        "IDR-2026-00006",
        "IDR-2026-00005",
        "IDR-2026-00007",
    ], "5 of 9 are hazardous: paint rinse, pool water, suds and grey water are not"


def test_newest_first_is_still_there_when_asked_for(officer):
    page = officer.get("/staff/", query_string={"sort": "newest"}).text
    assert references(page)[:3] == ["IDR-2026-00009", "IDR-2026-00008", "IDR-2026-00007"]


def hazard_form(page: str, case_id: int, **fields) -> dict:
    return {"csrf_token": csrf_of(page), **{f"hazard-{k}": v for k, v in fields.items()}}


def test_the_officer_sets_and_clears_the_flag_and_the_log_keeps_who_and_why(app, officer):
    page = officer.get("/staff/cases/1/").text
    assert "Not flagged hazardous by the rules." in words(page)
    sent = officer.post(
        "/staff/cases/1/hazard",
        data=hazard_form(page, 1, hazard_call="set", reason="Oil-based paint, by the can"),
    )
    assert sent.status_code == 303 and sent.headers["Location"].endswith("/staff/cases/1/#hazard")
    case = words(officer.get("/staff/cases/1/").text)
    assert "Hazardous: flagged by staff (the officer’s decision)" in case
    assert (
        "smo (from 127.0.0.1): Hazard flag set: hazardous (“Oil-based paint, by the can”)" in case
    )
    hazardous = references(officer.get("/staff/", query_string={"flag": "hazard"}).text)
    assert hazardous[3:] == ["IDR-2026-00001", "IDR-2026-00005", "IDR-2026-00007"], (
        "other hazardous materials, and filed first of them"
    )

    # The dizzying gasoline cleared (say it proved to be a puddle of water): out of the flag.
    page = officer.get("/staff/cases/2/").text
    officer.post("/staff/cases/2/hazard", data=hazard_form(page, 2, hazard_call="cleared"))
    case = words(officer.get("/staff/cases/2/").text)
    assert "Not hazardous: the flag was cleared by staff" in case
    assert "smo (from 127.0.0.1): Hazard flag cleared: not hazardous" in case
    assert "Calls to make" not in case
    queue = references(officer.get("/staff/").text)
    assert queue.index("IDR-2026-00002") > queue.index("IDR-2026-00007")
    assert rows(app, "SELECT hazard_call FROM cases WHERE id IN (1, 2) ORDER BY id") == [
        {"hazard_call": "set"},
        {"hazard_call": "cleared"},
    ]
    # Given back to the rules, it is hazardous again.
    page = officer.get("/staff/cases/2/").text
    officer.post("/staff/cases/2/hazard", data=hazard_form(page, 2, hazard_call=""))
    assert references(officer.get("/staff/").text)[1] == "IDR-2026-00002"
    assert "Hazard flag given back to the rules" in words(officer.get("/staff/cases/2/").text)


def test_a_hazardous_case_prompts_the_calls_with_the_contents_numbers(officer):
    case = words(officer.get("/staff/cases/2/").text)
    assert (
        "Calls to make while it is happening: A fire or explosion risk, vapor, anyone feeling"
        " ill or in danger: Emergency (police, fire, ambulance), 911." in case
    )
    assert (
        "Fuel, oil or another hazardous substance: the NYSDEC Spill Hotline (24 hours),"
        " 1-800-457-7362. The State requires these to be reported to it within two hours of"
        " discovery:" in case
    )
    assert 'href="tel:911"' in officer.get("/staff/cases/2/").text
    assert "Calls the Village made None recorded yet." in case
    assert "Calls to make" not in words(officer.get("/staff/cases/9/").text), "grey water"


def call(page: str, **fields) -> dict:
    return {"csrf_token": csrf_of(page), **{f"call-{k}": v for k, v in fields.items()}}


def test_the_villages_own_call_and_the_states_spill_number_are_kept(app, officer):
    page = officer.get("/staff/cases/2/").text
    assert 'value="2026-12-03T04:10"' in page, "the call form comes filled with now"
    sent = officer.post(
        "/staff/cases/2/calls",
        data=call(
            page,
            called="spill_hotline",
            called_at="2026-12-03T04:02",
            called_by="Pat Kowalski",
            spill_number="2608123",
        ),
    )
    assert sent.status_code == 303
    officer.post(
        "/staff/cases/2/calls",
        data=call(page, called="emergency", called_at="2026-12-03T03:58", called_by="Pat Kowalski"),
    )
    case = words(officer.get("/staff/cases/2/").text)
    assert (
        "December 3, 2026 at 3:58 a.m.: Emergency (police, fire, ambulance): 911,"
        " called by Pat Kowalski (recorded by smo)" in case
    )
    assert (
        "4:02 a.m.: NYSDEC Spill Hotline (24 hours): 1-800-457-7362, called by Pat Kowalski;"
        " the State's spill number 2608123 (recorded by smo)" in case
    )
    assert (
        "smo (from 127.0.0.1): Call recorded: NYSDEC Spill Hotline (24 hours): 1-800-457-7362, at"
        in case
    )
    printed = words(officer.get("/staff/cases/2/print").text)
    assert (
        "Calls the Village made December 3, 2026 at 3:58 a.m.: Emergency (police, fire,"
        " ambulance): 911, by Pat Kowalski; December 3, 2026 at 4:02 a.m.: NYSDEC Spill Hotline"
        " (24 hours): 1-800-457-7362, by Pat Kowalski; the State's spill number 2608123" in printed
    )
    assert rows(app, "SELECT called, called_by, spill_number FROM village_calls ORDER BY id") == [
        {"called": "spill_hotline", "called_by": "Pat Kowalski", "spill_number": "2608123"},
        {"called": "emergency", "called_by": "Pat Kowalski", "spill_number": None},
    ]


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"called": "other", "called_at": "2026-12-03T04:00"}, "Name the agency called."),
        ({"called": "nobody", "called_at": "2026-12-03T04:00"}, "Choose who was called."),
        ({"called": "emergency", "called_at": "2026-12-03T05:00"}, "The call cannot be in the"),
        ({"called": "emergency", "called_at": ""}, "Enter when the call was made."),
    ],
)
def test_a_call_with_a_mistake_is_explained_and_nothing_kept(app, officer, fields, said):
    page = officer.get("/staff/cases/2/").text
    sent = officer.post("/staff/cases/2/calls", data=call(page, called_by="Pat", **fields))
    assert sent.status_code == 422 and said in sent.text
    assert rows(app, "SELECT count(*) AS n FROM village_calls") == [{"n": 0}]


def test_a_file_from_before_upgrades_and_its_hazards_are_worked_out_again(make_app):
    """A file the portal made before the officer's flag and the danger rank: its cases
    keep their hazards as then worked out (paint was "chemicals" then), until the queue works
    them out again with their rank, and the officer can flag them."""
    app = make_app()
    with app.app_context():
        db = get_db()
        filed = [
            dt.datetime(2026, 11, 30, 9, 0, tzinfo=NY),
            dt.datetime(2026, 12, 1, 9, 0, tzinfo=NY),
        ]
        insert_reports(
            db,
            [
                (
                    case_row(1, filed[0], first_action_at=filed[0].isoformat()),
                    report_row(0, filed[0], description="Gasoline, and I feel dizzy"),
                ),
                (
                    case_row(2, filed[1], first_action_at=filed[1].isoformat()),
                    report_row(0, filed[1], description="Rinsing latex paint"),
                ),
            ],
        )
    path = app.config["DATABASE"]
    old = sqlite3.connect(path)
    with old:
        old.execute("DROP INDEX report_hazards_danger")
        old.execute("ALTER TABLE report_hazards DROP COLUMN danger")
        old.execute("ALTER TABLE cases DROP COLUMN hazard_call")
        old.execute("DROP TABLE village_calls")
        old.execute("DELETE FROM _sqlite_migrations WHERE migration_set = 'triage'")
        old.execute(
            "INSERT INTO report_hazards (case_id, hazards, rules) VALUES"
            " (1, '[\"Fuel or oil\"]', 'old'), (2, '[\"Chemicals\"]', 'old')"
        )
    old.close()
    app = make_app(DATABASE=path)  # the portal started again on the file: it upgrades
    app.config["CLOCK"] = lambda: NOW
    client = app.test_client()
    sign_in(client, app)
    assert references(client.get("/staff/", query_string={"flag": "hazard"}).text) == [
        "IDR-2026-00001"
    ]
    assert rows(app, "SELECT case_id, hazards, danger FROM report_hazards ORDER BY case_id") == [
        {"case_id": 1, "hazards": '["Vapor or someone feeling ill", "Fuel or oil"]', "danger": 1},
        {"case_id": 2, "hazards": "[]", "danger": None},
    ]
    page = client.get("/staff/cases/2/").text
    client.post("/staff/cases/2/hazard", data=hazard_form(page, 2, hazard_call="set"))
    assert references(client.get("/staff/", query_string={"flag": "hazard"}).text) == [
        "IDR-2026-00001",
        "IDR-2026-00002",
    ]


def test_the_reviews_screening_with_fuel_at_3_is_hazardous_after_the_dizzy_report(app, client):
    """SCR-2026-0001: petroleum odor 3 and oil sheen 3 at an outfall into Newtown Creek, the
    review's screening that sat last in the queue with no flag."""
    from test_screening_field_sheet import SEWAGE, send, setup

    setup(app, client)
    dizzy = dt.datetime(2026, 12, 3, 3, 30, tzinfo=NY)  # filed before the screening's case
    with app.app_context():
        insert_reports(
            get_db(),
            [
                (
                    case_row(2, dizzy, first_action_at=dizzy.isoformat()),
                    report_row(0, dizzy, description=REPORTS[1][0], odor="petroleum"),
                )
            ],
        )
    fuel = {"odor": "petroleum", "floatables": "petroleum", "overall": "suspect"}
    saved = send(client, {**SEWAGE, **fuel})
    screening = saved.headers["Location"].split("?")[0]
    opened = client.post(
        f"{screening}case", data={"csrf_token": csrf_of(client.get(screening).text)}
    )
    case = words(client.get(opened.headers["Location"]).text)
    assert "Hazardous: fuel or oil" in case and "Calls to make while it is happening" in case
    assert references(client.get("/staff/").text) == ["IDR-2026-00002", "SCR-2026-0001"]


def test_the_csv_carries_the_flag_the_calls_and_the_spill_number(officer):
    from test_staff_work import csv_rows, export

    page = officer.get("/staff/cases/2/").text
    officer.post(
        "/staff/cases/2/calls",
        data=call(
            page,
            called="spill_hotline",
            called_at="2026-12-03T04:02",
            called_by="Pat Kowalski",
            spill_number="2608123",
        ),
    )
    page = officer.get("/staff/cases/3/").text
    officer.post("/staff/cases/3/hazard", data=hazard_form(page, 3, hazard_call="set"))
    found = {row["Reference"]: row for row in csv_rows(export(officer, "cases.csv"))}
    two, three = found["IDR-2026-00002"], found["IDR-2026-00003"]
    assert two["Hazard"] == "Vapor or someone feeling ill; Fuel or oil"
    assert two["Calls made by staff"] == (
        "2026-12-03 04:02 NYSDEC Spill Hotline (24 hours): 1-800-457-7362, by Pat Kowalski"
    )
    assert two["Spill number the State gave staff"] == "2608123"
    assert (three["Hazard"], three["Hazard flag set by staff"]) == ("Flagged by staff", "Hazardous")
    assert (
        found["IDR-2026-00001"]["Hazard"] == ""
        and found["IDR-2026-00001"]["Calls made by staff"] == ""
    )
