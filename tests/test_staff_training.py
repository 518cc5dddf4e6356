"""The staff training log (officer's week 2026-12-03: "IDDE training of municipal staff",
kept on paper): who was trained, when and on what, added and listed on /staff/training/,
and counted on the annual figures in the permit year of its day."""

from __future__ import annotations

import datetime as dt
import re
from zoneinfo import ZoneInfo

from helpers import csrf_of, sign_in

from portal.core.db import connect

NEW_YORK = ZoneInfo("America/New_York")
YEAR_2026 = {"start": "2026-01-03", "end": "2027-01-02"}
SESSIONS = "Training sessions held in the period"
PEOPLE = "Staff trained in the period (each person once)"


def at(app, moment: dt.datetime) -> None:
    app.config["CLOCK"] = lambda: moment


def log(client, **data):
    page = client.get("/staff/training/").text
    return client.post("/staff/training/", data={"csrf_token": csrf_of(page), **data})


def shown(page: str, label: str) -> str:
    return re.search(rf"{re.escape(label)}</th><td><a [^>]*>([^<]*)<", page).group(1)


def test_the_log_is_for_staff_only(client):
    assert client.get("/staff/training/").status_code == 401


def test_a_training_is_refused_without_its_day_topic_and_people(app, client):
    at(app, dt.datetime(2026, 6, 1, 9, 0, tzinfo=NEW_YORK))
    sign_in(client, app)
    page = client.get("/staff/training/").text
    assert "<h1>Staff training</h1>" in page and "<p>None yet.</p>" in page
    refused = log(client, trained_on="", topic="", trainees=" \n ", given_by="", hours="")
    assert refused.status_code == 422
    for message in (
        "Enter the day of the training.",
        "Say what the training was on, like “Spotting illicit discharges at outfalls”.",
        "Enter who was trained: one name a line.",
    ):
        assert message in refused.text
    later = log(client, trained_on="2026-06-02", topic="Outfalls", trainees="Pat", hours="0")
    assert later.status_code == 422
    assert "Enter a day that has passed (today at the latest)." in later.text
    assert "Enter the hours, like 1.5." in later.text


def test_sessions_are_listed_and_counted_in_their_permit_year(app, client):
    # Logged at 23:30 on January 2, 2027: the last day of 2026's permit year.
    at(app, dt.datetime(2027, 1, 2, 23, 30, tzinfo=NEW_YORK))
    sign_in(client, app)
    first = log(
        client,
        trained_on="2026-03-12",
        topic="Spotting illicit discharges at outfalls",
        trainees="Pat Kowalski\nSam Ortiz",
        given_by="County Soil and Water",
        hours="1.5",
    )
    assert first.status_code == 303 and first.headers["Location"] == "/staff/training/"
    log(
        client,
        trained_on="2027-01-02",
        topic="Spill response for the public works crew",
        trainees="sam ortiz; Lee Brandt",
        given_by="",
        hours="",
    )
    page = client.get("/staff/training/").text
    assert "The training is logged." in page
    cards = re.findall(r'<li class="case-card" id="training-(\d+)">', page)
    assert cards == ["2", "1"]  # latest first
    assert "Trained: Pat Kowalski, Sam Ortiz. Given by County Soil and Water. 1.5 hours." in page
    assert "Trained: sam ortiz, Lee Brandt.</p>" in page
    # 2026's year holds both (the second on its last day); Sam Ortiz counts once.
    report = client.get("/staff/annual-report/", query_string=YEAR_2026).text
    assert "<h2>Staff training</h2>" in report
    assert (shown(report, SESSIONS), shown(report, PEOPLE)) == ("2", "3")
    records = client.get(
        "/staff/annual-report/records/training.people", query_string=YEAR_2026
    ).text
    assert re.findall(
        r'<a href="([^"]+)">([^<]+)</a></th><td><time datetime="([^"]+)"', records
    ) == [
        ("/staff/training/#training-1", "Pat Kowalski", "2026-03-12"),
        ("/staff/training/#training-1", "Sam Ortiz", "2026-03-12"),
        ("/staff/training/#training-2", "Lee Brandt", "2027-01-02"),
    ]
    lines = client.get("/staff/annual-report.csv", query_string=YEAR_2026).text.splitlines()
    assert (
        f"2026-01-03,2027-01-02,Staff training,{SESSIONS},2,2,https://portal.village.test/"
        "staff/annual-report/records/training.sessions?start=2026-01-03&end=2027-01-02"
    ) in lines
    nothing = client.get(
        "/staff/annual-report/", query_string={"start": "2027-01-03", "end": "2028-01-02"}
    ).text
    assert (shown(nothing, SESSIONS), shown(nothing, PEOPLE)) == ("0", "0")


def test_a_database_made_before_the_log_gets_its_table(tmp_path):
    path = tmp_path / "portal.sqlite3"
    db = connect(path)
    db.execute("DROP TABLE staff_training")
    db.execute("DELETE FROM _sqlite_migrations WHERE migration_set = 'training'")
    db.conn.commit()
    db.conn.close()
    db = connect(path)
    assert db["staff_training"].exists()
    assert db.execute(
        "SELECT name FROM _sqlite_migrations WHERE migration_set = 'training'"
    ).fetchall() == [("001_staff_training",)]
    db.conn.close()
