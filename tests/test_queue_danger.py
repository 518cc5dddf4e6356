"""The queue puts danger first: hazardous, then overdue, then the rest, across every page
(sorted in SQL); filters for each; a search says what it matched."""

from __future__ import annotations

import datetime as dt
import json
import re
from zoneinfo import ZoneInfo

import pytest
from helpers import sign_in

from bench.seed import case_row, insert_reports, report_row
from content_model.site import HazardRule
from portal.core.db import get_db
from portal.staff.danger import refresh_hazards, untouched_before
from portal.staff.matches import found_in

NEW_YORK = ZoneInfo("America/New_York")
NOW = dt.datetime(2027, 3, 10, 10, 0, tzinfo=NEW_YORK)  # Wednesday


def moment(day: str, hour: int = 9) -> dt.datetime:
    return dt.datetime.fromisoformat(day).replace(hour=hour, tzinfo=NEW_YORK)


def references(page: str) -> list[str]:
    return re.findall(r'scope="row"><a href="/staff/cases/\d+/">([A-Z]+-\d{4}-\d{5})</a>', page)


@pytest.fixture
def queue(app, client):
    """60 plain reports from the last days, and three older ones that need the officer:
    an oil report, a report whose follow-up date has passed, a closed oil report."""
    app.config["CLOCK"] = lambda: NOW
    cases = [
        (
            case_row(1, moment("2027-02-01"), first_action_at="2027-02-01T10:00:00-05:00"),
            report_row(
                0,
                moment("2027-02-01"),
                indicators=json.dumps(["sheen"]),
                description="Rainbow film by the drain",
            ),
        ),
        (
            case_row(
                2,
                moment("2027-02-02"),
                status="investigating",
                follow_up_on="2027-03-01",
                first_action_at="2027-02-02T10:00:00-05:00",
            ),
            report_row(
                0,
                moment("2027-02-02"),
                description="Grey water",
                source_vehicle="White van, plate ABC 1234",
                indicators=json.dumps(["odor"]),
                odor="rotten-egg",
            ),
        ),
        (
            case_row(
                3,
                moment("2027-02-03"),
                status="resolved",
                first_action_at="2027-02-03T10:00:00-05:00",
            ),
            report_row(0, moment("2027-02-03"), description="Gasoline smell, cleaned up"),
        ),
    ]
    for n in range(4, 64):
        day = moment("2027-03-09", hour=8) + dt.timedelta(minutes=n)
        cases.append(
            (
                case_row(n, day, first_action_at=day.isoformat()),
                report_row(0, day, description=f"Foam number {n}"),
            )
        )
    with app.app_context():
        insert_reports(get_db(), cases)
    sign_in(client, app)
    return client


def test_hazardous_then_overdue_come_first_on_page_one(queue):
    page = queue.get("/staff/").text
    found = references(page)
    assert found[:2] == ["IDR-2027-00001", "IDR-2027-00002"], "oil, then the overdue follow-up"
    assert found[2] == "IDR-2027-00063", "then the newest"
    assert "IDR-2027-00003" not in found, "a closed case is not danger: it keeps its place"
    assert "Hazardous: fuel or oil" in page and "Follow-up overdue" in page
    newest = references(queue.get("/staff/", query_string={"sort": "newest"}).text)
    assert newest[0] == "IDR-2027-00063" and "IDR-2027-00001" not in newest, "page 2 by date"


def test_every_case_is_on_exactly_one_page(queue):
    first = references(queue.get("/staff/").text)
    second = references(queue.get("/staff/", query_string={"page": 2}).text)
    assert len(first) == 50 and len(second) == 13
    assert sorted(first + second) == [f"IDR-2027-{n:05d}" for n in range(1, 64)]
    # Page 2 goes on from the newest where page 1 stopped: 48 foam reports after the two.
    assert second[0] == "IDR-2027-00015" and second[-1] == "IDR-2027-00003"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({"flag": "hazard"}, ["IDR-2027-00001"]),
        ({"flag": "overdue"}, ["IDR-2027-00002"]),
        ({"flag": "hazard", "sort": "newest"}, ["IDR-2027-00001"]),
        ({"flag": "nonsense", "q": "Rainbow"}, ["IDR-2027-00001"]),
    ],
)
def test_the_danger_filters(queue, query, expected):
    assert references(queue.get("/staff/", query_string=query).text) == expected


def test_assigned_to_me_and_unassigned(app, queue):
    with app.app_context():
        db = get_db()
        db.execute("UPDATE cases SET assignee = 'smo' WHERE id IN (5, 6)")
    page = queue.get("/staff/", query_string={"assignee": "smo"}).text
    assert '<option value="smo" selected>Me (smo)</option>' in page
    assert sorted(references(page)) == ["IDR-2027-00005", "IDR-2027-00006"]
    unassigned = queue.get("/staff/", query_string={"assignee": "-"}).text
    assert "61 cases" in unassigned


def test_what_was_seen_is_said_in_words(queue):
    page = queue.get("/staff/", query_string={"flag": "overdue"}).text
    assert "A smell: rotten egg." in page and "“Grey water”" in page


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("abc1234", "vehicle and license plate: “White van, plate ABC 1234”"),
        ("ABC 1234", "vehicle and license plate: “White van, plate ABC 1234”"),
        ("rainbow", "description: “Rainbow film by the drain”"),
    ],
)
def test_a_search_says_what_it_matched(queue, query, said):
    page = queue.get("/staff/", query_string={"q": query}).text
    assert len(references(page)) == 1
    assert f"Matched {said}." in page


def test_found_in_reads_as_the_search_does():
    assert found_in("5550142", "Call (607) 555-0142 after six") == "Call (607) 555-0142 after six"
    assert found_in("maria", "Maria Lopez") == "Maria Lopez"
    assert found_in("plate zz9", "White van") is None
    long = "x" * 100 + " plate HRT 4455 " + "y" * 100
    assert found_in("hrt4455", long) == "…" + "x" * 33 + " plate HRT 4455 " + "y" * 39 + "…"


def test_hazards_are_worked_out_once_and_again_when_the_rules_change(app, queue):
    oil = (HazardRule("Fuel or oil", ("sheen",), ("petroleum",), ("gasoline",)),)
    foam = (HazardRule("Foam", (), (), ("foam",)),)
    with app.app_context():
        db = get_db()
        assert refresh_hazards(db, oil) == 63, "the content's rules were in use: all again"
        assert refresh_hazards(db, oil) == 0, "nothing new, nothing done"
        hazards = dict(db.execute("SELECT case_id, hazards FROM report_hazards").fetchall())
        assert hazards[1] == '["Fuel or oil"]' and hazards[3] == '["Fuel or oil"]'
        assert hazards[4] == "[]"
        assert refresh_hazards(db, foam) == 63
        assert dict(db.execute("SELECT case_id, hazards FROM report_hazards").fetchall())[4] == (
            '["Foam"]'
        )


@pytest.mark.parametrize(
    ("now", "first_day_not_yet_late"),
    [
        ("2027-03-10T10:00", "2027-03-09"),  # Wednesday: Monday's cases were due by Tuesday night
        ("2027-03-08T10:00", "2027-03-05"),  # Monday: Thursday's were due Friday night
        # Tuesday 00:30: Friday's, Saturday's and Sunday's were all due by Monday night.
        ("2027-03-09T00:30", "2027-03-08"),
    ],
)
def test_a_case_is_untouched_too_long_after_the_next_business_day(app, now, first_day_not_yet_late):
    calendar = app.extensions["calendar"]
    moment = dt.datetime.fromisoformat(now).replace(tzinfo=NEW_YORK)
    assert untouched_before(calendar, moment) == first_day_not_yet_late
