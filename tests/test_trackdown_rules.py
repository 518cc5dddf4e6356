"""Track-down's checks on their own (a sample's hand-overs in time order, a lab value as the
lab writes it, the days a source was found and its discharge eliminated) and its storage:
the tables the annual figures read, a structure matched to the inventory, every change in the
case's log, a merged respondent followed to its record, the local clock on a UTC server."""

from __future__ import annotations

import datetime as dt
import json
import sqlite3

import pytest
from helpers import open_form, report_data, rows
from test_screening import INVENTORY, add_outfalls

from portal.core.db import get_db, transaction
from portal.enforcement import people
from portal.trackdown import records, rules, source_found

T = dt.datetime.fromisoformat


@pytest.mark.parametrize(
    ("custody", "expected"),
    [
        # collected, handed to, handed at, received by, received at
        (("2027-02-28T14:05", "Courier", "2027-02-28T16:00", "R. Patel", "2027-03-01T08:15"), {}),
        (("2027-02-28T14:05", None, None, None, None), {}),
        (
            ("2027-02-28T14:05", "Courier", None, None, None),
            {"relinquished_at": "Enter when it was handed over."},
        ),
        (
            ("2027-02-28T14:05", None, "2027-02-28T16:00", None, None),
            {"relinquished_to": "Say whom it was handed to (the courier or the lab)."},
        ),
        (
            ("2027-02-28T14:05", None, None, "R. Patel", None),
            {"received_at": "Enter when the lab received it."},
        ),
        (
            ("2027-02-28T14:05", None, None, None, "2027-03-01T08:15"),
            {"received_by": "Say who at the lab received it."},
        ),
        (
            ("2027-02-28T14:05", "Courier", "2027-02-28T14:00", None, None),
            {
                "relinquished_at": "It cannot be handed over before it was collected (February 28, 2027"
                " at 2:05 p.m.)."
            },
        ),
        (
            ("2027-02-28T14:05", "Courier", "2027-02-28T16:00", "R. Patel", "2027-02-28T15:59"),
            {
                "received_at": "The lab cannot receive it before it was handed over (February 28, 2027"
                " at 4:00 p.m.)."
            },
        ),
        # Straight to the lab, no courier: received after it was collected.
        (
            ("2027-02-28T14:05", None, None, "R. Patel", "2027-02-28T12:00"),
            {
                "received_at": "The lab cannot receive it before it was collected (February 28, 2027"
                " at 2:05 p.m.)."
            },
        ),
        # The same minute is in order.
        (("2027-02-28T14:05", "Lab", "2027-02-28T14:05", "R. Patel", "2027-02-28T14:05"), {}),
    ],
)
def test_a_samples_chain_of_custody(custody, expected):
    collected, to, handed, by, received = custody
    found = rules.custody_problems(
        T(collected), to, handed and T(handed), by, received and T(received)
    )
    assert found == expected


@pytest.mark.parametrize(
    ("parameter", "typed", "stored"),
    [
        ("ammonia", "0.25", "0.25"),
        ("ammonia", "< 0.1", "<0.1"),
        ("e_coli", ">2,419.6", ">2419.6"),
        ("e_coli", "1,200", "1200"),
        ("detergents", "≤0.05", "<=0.05"),
        ("ph", "7", "7"),
        ("ph", "14", "14"),
        ("temperature", "-0.5", "-0.5"),
        ("other", ".5", ".5"),
        ("ammonia", "ND", "ND"),
        ("ammonia", "n.d.", "ND"),
        ("detergents", "Not detected", "ND"),
        ("e_coli", "present", "Present"),
        ("e_coli", "Absent", "Absent"),
        ("fecal_coliform", "TNTC", "TNTC"),
    ],
)
def test_a_lab_value_as_the_lab_wrote_it(parameter, typed, stored):
    assert rules.lab_value(parameter, typed) == stored


HELP = (
    "Enter the lab's value as a number, like 0.25, or as it wrote it, like <0.1, ND (not"
    " detected), Present or Absent."
)


@pytest.mark.parametrize(
    ("parameter", "typed", "message"),
    [
        ("ammonia", "about 2", HELP),
        ("ammonia", "NDX", HELP),
        ("ammonia", "", HELP),
        ("ammonia", "1e3", HELP),
        ("ammonia", "-1", "Only a temperature can be below zero."),
        ("ph", "14.1", "A pH is between 0 and 14."),
    ],
)
def test_a_lab_value_refused(parameter, typed, message):
    with pytest.raises(ValueError) as refused:
        rules.lab_value(parameter, typed)
    assert str(refused.value) == message


D = dt.date.fromisoformat


@pytest.mark.parametrize(
    ("eliminated", "found", "today", "message"),
    [
        ("2027-03-08", "2027-03-01", "2027-03-09", None),
        # Found and eliminated the same day, today: 29 February of a leap year.
        ("2028-02-29", "2028-02-29", "2028-02-29", None),
        (
            "2028-03-01",
            "2028-02-29",
            "2028-02-29",
            "Enter a date that has passed (today at the latest).",
        ),
        (
            "2027-02-28",
            "2027-03-01",
            "2027-03-09",
            "It cannot be eliminated before the source was found (Monday, March 1, 2027).",
        ),
    ],
)
def test_the_day_a_discharge_was_eliminated(eliminated, found, today, message):
    assert rules.elimination_problem(D(eliminated), D(found), D(today)) == message


@pytest.mark.parametrize(
    ("found", "today", "eliminated", "message"),
    [
        ("2027-03-01", "2027-03-01", None, None),
        ("2027-03-02", "2027-03-01", None, "Enter a date that has passed (today at the latest)."),
        ("2027-03-01", "2027-03-09", "2027-03-01", None),
        (
            "2027-03-02",
            "2027-03-09",
            "2027-03-01",
            "The discharge is recorded as eliminated on Monday, March 1, 2027: the source cannot have"
            " been found after that.",
        ),
    ],
)
def test_the_day_a_source_was_found(found, today, eliminated, message):
    assert rules.found_problem(D(found), D(today), eliminated and D(eliminated)) == message


# ---------------------------------------------------------------- storage


@pytest.fixture
def case(app, client):
    """One resident report: case 1."""
    sent = client.post("/report/", data={**open_form(client), **report_data()})
    assert sent.status_code in (302, 303)
    return 1


def test_the_tables_the_annual_figures_read(app, case):
    """discharge_sources has the columns the figures are written against, named so."""
    with app.app_context():
        columns = get_db()["discharge_sources"].columns_dict
    assert {
        "case_id": int,
        "found_on": str,
        "eliminated_on": str,
        "elimination_method": str,
    }.items() <= columns.items()
    with app.app_context():
        (key,) = [c for c in get_db()["discharge_sources"].columns if c.is_pk]
        (foreign,) = [
            f for f in get_db()["discharge_sources"].foreign_keys if f.column == "case_id"
        ]
    assert key.name == "case_id" and foreign.other_table == "cases"
    # The file itself refuses an elimination before the source was found, or without its way.
    conn = sqlite3.connect(app.config["DATABASE"])
    insert = (
        "INSERT INTO discharge_sources (case_id, found_on, description, address,"
        " eliminated_on, elimination_method, recorded_at, recorded_by)"
        " VALUES (1, '2027-03-01', 'x', 'y', ?, ?, 'now', 'smo')"
    )
    for eliminated, method in (
        ("2027-02-28", "repaired"),
        ("2027-03-02", None),
        ("2027-03-02", "magic"),
    ):
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute(insert, [eliminated, method])
    conn.close()


def _step(**overrides) -> dict:
    return {
        "kind": "structure",
        "done_at": "2027-03-01T09:30",
        "done_by": "Jo Smith",
        "structure": "of-b",
        "location": None,
        "findings": "Flow, sewage odor.",
        "result": "seen",
        "sample_id": None,
        "collected_by": None,
        "collected_at": None,
        "relinquished_to": None,
        "relinquished_at": None,
        "received_by": None,
        "received_at": None,
        "lab_name": None,
        "lab_reference": None,
        "access": None,
        "access_notes": None,
        "dye_notice_at": None,
        "dye_notice_by": None,
        **overrides,
    }


def test_a_step_at_a_structure_of_the_inventory_and_its_changes(app, case):
    add_outfalls(app, *INVENTORY)
    with app.test_request_context():
        db = get_db()
        step = records.add_step(db, case, "smo", _step())
        assert records.step_of(db, case, step)["outfall_id"] == 2
        assert records.step_of(db, 99, step) is None
        # Another id than the inventory's: kept as typed, linked to nothing.
        changed = records.change_step(
            db, "ann", records.step_of(db, case, step), _step(structure="MH-7", result="not_seen")
        )
        assert changed == ["structure_code", "result"]
        assert (
            records.change_step(
                db,
                "ann",
                records.step_of(db, case, step),
                _step(structure="MH-7", result="not_seen"),
            )
            == []
        )
    (stored,) = rows(app, "SELECT structure_code, outfall_id, updated_by FROM trackdown_steps")
    assert stored == {"structure_code": "MH-7", "outfall_id": None, "updated_by": "ann"}
    log = rows(
        app, "SELECT actor, action, detail FROM events WHERE action LIKE 'trackdown%' ORDER BY id"
    )
    assert [(e["actor"], e["action"]) for e in log] == [
        ("smo", "trackdown_step"),
        ("ann", "trackdown_step_changed"),
    ]
    assert json.loads(log[0]["detail"])["where"] == "OF-B"
    assert json.loads(log[1]["detail"])["changes"] == {
        "structure_code": {"from": "OF-B", "to": "MH-7"},
        "result": {"from": "seen", "to": "not_seen"},
    }


def test_the_source_follows_a_merged_respondent_and_starts_enforcement(app, case):
    with app.test_request_context():
        db = get_db()
        with transaction(db):
            first = people.add(db, "smo", {"name": "Ada Owner", "mailing_address": "1 Oak St"})
            kept = people.add(db, "smo", {"name": "Ada Owner LLC", "mailing_address": "1 Oak St"})
        values = {
            "found_on": "2027-03-01",
            "description": "Sump pump hose to the street",
            "address": "1 Oak St",
            "latitude": None,
            "longitude": None,
            "parcel_id": None,
        }
        assert source_found.save_source(db, case, "smo", values, first, None)[0] == "found_on"
        people.merge(db, "smo", kept, first)
        source = source_found.source_of(db, case)
        assert source["respondent_id"] == first and source["respondent"]["id"] == kept
        assert source_found.enforcement_args(source) == {
            "place": "1 Oak St",
            "found_on": "2027-03-01",
            "description": "Sump pump hose to the street",
            "respondent": str(kept),
        }
        from portal.staff.workflow import WorkflowError

        with pytest.raises(WorkflowError):
            source_found.record_elimination(
                db,
                case,
                "smo",
                {
                    "eliminated_on": "2027-02-28",
                    "elimination_method": "other",
                    "elimination_notes": "x",
                },
            )
        assert source_found.record_elimination(
            db,
            case,
            "smo",
            {
                "eliminated_on": "2027-03-02",
                "elimination_method": "practice_stopped",
                "elimination_notes": None,
            },
        )
        assert not source_found.record_elimination(
            db,
            case,
            "smo",
            {
                "eliminated_on": "2027-03-02",
                "elimination_method": "practice_stopped",
                "elimination_notes": None,
            },
        )
        assert app.extensions["elimination_days"](db) == {1: "2027-03-02"}
    assert rows(
        app, "SELECT found_on, eliminated_on, elimination_method FROM discharge_sources"
    ) == [
        {
            "found_on": "2027-03-01",
            "eliminated_on": "2027-03-02",
            "elimination_method": "practice_stopped",
        }
    ]


def test_now_is_the_local_clock_on_a_utc_server(app, client, case):
    """At 23:30 on 28 February in the Village (04:30 on 1 March UTC), 1 March is tomorrow; at
    00:30 local on 1 March, a step done at 00:20 has happened."""
    from helpers import csrf_of, sign_in

    sign_in(client, app)
    app.config["CLOCK"] = lambda: dt.datetime(2027, 3, 1, 4, 30, tzinfo=dt.UTC)
    token = csrf_of(client.get("/staff/cases/1/").text)
    source = {
        "csrf_token": token,
        "found_on": "2027-03-01",
        "description": "Hose",
        "address": "1 Oak St",
    }
    refused = client.post("/staff/cases/1/trackdown/source", data=source)
    assert refused.status_code == 422 and "Enter a date that has passed" in refused.text
    assert (
        client.post(
            "/staff/cases/1/trackdown/source", data={**source, "found_on": "2027-02-28"}
        ).status_code
        == 303
    )
    app.config["CLOCK"] = lambda: dt.datetime(2027, 3, 1, 5, 30, tzinfo=dt.UTC)
    step = {
        "csrf_token": token,
        "kind": "smoke",
        "done_at": "2027-03-01T00:20",
        "done_by": "Jo",
        "location": "Oak St",
        "findings": "Smoke at the sink vent.",
        "result": "confirmed",
    }
    assert client.post("/staff/cases/1/trackdown/steps/new", data=step).status_code == 303
    late = client.post(
        "/staff/cases/1/trackdown/steps/new", data={**step, "done_at": "2027-03-01T01:00"}
    )
    assert late.status_code == 422 and "It cannot be in the future." in late.text


@pytest.mark.parametrize(
    ("access", "notes", "expected"),
    [
        (None, None, {}),
        ("public", None, {}),
        ("consent", "Owner, in person", {}),
        (
            "consent",
            " ",
            {"access_notes": "Say who consented, and how (in person, by phone, in writing)."},
        ),
        ("warrant", None, {"access_notes": "Give the court and the date of the warrant."}),
        ("refused", "", {"access_notes": "Say who refused, and when."}),
        (
            None,
            "Owner said yes",
            {"access": "Choose how the officer got onto the property, or clear the details."},
        ),
    ],
)
def test_access_names_who_or_which_court(access, notes, expected):
    assert rules.access_problems(access, notes) == expected


@pytest.mark.parametrize(
    ("kind", "notice_at", "by", "expected"),
    [
        ("dye", None, None, {}),
        ("dye", "2027-03-01T09:00", "Ace Plumbing", {}),
        ("dye", "2027-03-01T09:30", "Ace Plumbing", {}),  # at the time of the test: not after it
        (
            "dye",
            "2027-03-01T09:31",
            "Ace Plumbing",
            {
                "dye_notice_at": "The notice must come before the test (March 1, 2027 at 9:30 a.m.),"
                " not after it."
            },
        ),
        ("dye", None, "Ace Plumbing", {"dye_notice_at": "Enter when the notice was given."}),
        (
            "dye",
            "2027-03-01T09:00",
            None,
            {"dye_notice_by": "Say who gave the notice (the person running the test)."},
        ),
        (
            "smoke",
            None,
            "Ace Plumbing",
            {"dye_notice_at": "Only a dye test has a notice before it: clear this."},
        ),
    ],
)
def test_the_notice_before_a_dye_test(kind, notice_at, by, expected):
    done = dt.datetime(2027, 3, 1, 9, 30)
    notice = dt.datetime.fromisoformat(notice_at) if notice_at else None
    assert rules.dye_notice_problems(kind, done, notice, by) == expected
