"""The queue's search finds what the officer looks a case up by (officer's week F1): the
respondent of a track-down's source or of a violation, the owner a notice names and the
outfall's owner, the tax parcel, a sample's id and the lab's work order; with or without
accents ("Pena" finds "Peña", "lavanderia" finds "lavandería"); and follows a change."""

from __future__ import annotations

import datetime as dt
import re
from zoneinfo import ZoneInfo

import pytest
from helpers import sign_in

from bench.seed import case_row, insert_reports, report_row
from portal.core.db import get_db, insert, transaction

NY = ZoneInfo("America/New_York")
AT = "2026-12-03T04:00:00-05:00"


def references(page: str) -> list[str]:
    return re.findall(r'scope="row"><a href="/staff/cases/\d+/">([A-Z]+-\d{4}-\d+)</a>', page)


def found(client, query: str) -> list[str]:
    return sorted(references(client.get("/staff/", query_string={"q": query}).text))


@pytest.fixture
def officer(app, client):
    """Three reports: the first traced to a quick lube (its sample, lab and parcel), the
    second a notice's against José Peña on Hanover Realty's land, the third in Spanish; and
    a case opened from a screening of an outfall Hanover Realty owns."""
    filed = dt.datetime(2026, 12, 1, 9, 0, tzinfo=NY)
    texts = ["Oil at the drain", "Grey water from a pipe", "Espuma de la lavandería"]
    with app.app_context():
        db = get_db()
        insert_reports(
            db,
            [
                (case_row(n, filed), report_row(0, filed, description=t))
                for n, t in enumerate(texts, 1)
            ],
        )
        with transaction(db):
            lube = insert(
                db,
                "respondents",
                {
                    "name": "Grand Central Quick Lube",
                    "mailing_address": "PO Box 4",
                    "created_at": AT,
                    "created_by": "smo",
                },
            )
            pena = insert(
                db,
                "respondents",
                {
                    "name": "José Peña",
                    "mailing_address": "PO Box 9",
                    "created_at": AT,
                    "created_by": "smo",
                },
            )
            insert(
                db,
                "trackdown_steps",
                {
                    "case_id": 1,
                    "kind": "sample",
                    "done_at": "2026-12-02T10:00",
                    "done_by": "Pat Kowalski",
                    "location": "Manhole MH-7",
                    "findings": "Sheen in the flow",
                    "result": "upstream",
                    "sample_id": "HH-2026-118",
                    "lab_name": "Chemung Labs",
                    "lab_reference": "WO-26-44871",
                    "recorded_at": AT,
                    "recorded_by": "smo",
                },
            )
            insert(
                db,
                "discharge_sources",
                {
                    "case_id": 1,
                    "found_on": "2026-12-02",
                    "description": "Floor drain to the storm sewer",
                    "address": "410 Grand Central Avenue",
                    "parcel_id": "69.12-1-23",
                    "respondent_id": lube,
                    "recorded_at": AT,
                    "recorded_by": "smo",
                },
            )
            insert(
                db,
                "violations",
                {
                    "case_id": 2,
                    "respondent_id": pena,
                    "committed_on": "2026-12-01",
                    "section": "216-6 A",
                    "description": "Wash water to the drain",
                    "owner_name": "Hanover Realty LLC",
                    "recorded_at": AT,
                    "recorded_by": "smo",
                },
            )
    sign_in(client, app)
    return client


@pytest.mark.parametrize(
    ("query", "expected", "said"),
    [
        ("Grand Central Quick Lube", ["IDR-2026-00001"], "respondent: “Grand Central Quick Lube”"),
        ("69.12-1-23", ["IDR-2026-00001"], "tax parcel: “69.12-1-23”"),
        ("HH-2026-118", ["IDR-2026-00001"], "sample id: “HH-2026-118”"),
        ("WO-26-44871", ["IDR-2026-00001"], "lab reference: “Chemung Labs WO-26-44871”"),
        ("wo2644871", ["IDR-2026-00001"], "lab reference: “Chemung Labs WO-26-44871”"),
        ("Hanover Realty", ["IDR-2026-00002"], "owner: “Hanover Realty LLC”"),
        ("Pena", ["IDR-2026-00002"], "respondent: “José Peña”"),
        ("Peña", ["IDR-2026-00002"], "respondent: “José Peña”"),
        ("JOSE PENA", ["IDR-2026-00002"], "respondent: “José Peña”"),
        ("lavanderia", ["IDR-2026-00003"], "description: “Espuma de la lavandería”"),
        ("lavandería", ["IDR-2026-00003"], "description: “Espuma de la lavandería”"),
    ],
)
def test_the_search_finds_what_the_officer_looks_a_case_up_by(officer, query, expected, said):
    page = officer.get("/staff/", query_string={"q": query}).text
    assert sorted(references(page)) == expected
    assert said in page


def test_the_search_follows_a_renamed_respondent_and_a_removed_step(app, officer):
    with app.app_context():
        db = get_db()
        with transaction(db):
            db.execute("UPDATE respondents SET name = 'Nuñez Motors' WHERE id = 1")
            db.execute("UPDATE trackdown_steps SET removed_at = ?, removed_by = 'smo'", [AT])
    assert found(officer, "Quick Lube") == []
    assert found(officer, "Nunez Motors") == ["IDR-2026-00001"]
    assert found(officer, "HH-2026-118") == [], "a step taken off the case is not its sample"
    assert found(officer, "69.12-1-23") == ["IDR-2026-00001"]


def test_the_search_finds_a_screenings_case_by_its_outfalls_owner(app, client):
    """The county's file names the owner (outfalls.owner); the case opened from its
    screening is found by it, and by the new owner once the inventory says so."""
    from helpers import csrf_of
    from test_screening_field_sheet import SEWAGE, send, setup

    setup(app, client)
    with app.app_context():
        get_db().execute("UPDATE outfalls SET owner = 'Hanover Realty'")
    saved = send(client, {**SEWAGE, "overall": "obvious"})
    screening = saved.headers["Location"].split("?")[0]
    client.post(f"{screening}case", data={"csrf_token": csrf_of(client.get(screening).text)})
    page = client.get("/staff/", query_string={"q": "Hanover Realty"}).text
    assert references(page) == ["SCR-2026-0001"]
    assert "outfall owner: “Hanover Realty”" in page
    with app.app_context():
        get_db().execute("UPDATE outfalls SET owner = 'Peña Holdings'")
    assert found(client, "Pena Holdings") == ["SCR-2026-0001"]
    assert found(client, "Hanover") == []
