"""The annual figures count what happened in the period, by the day it happened (the audit
log, the notices and letters, the enforcement tables), so a closed year never moves."""

from __future__ import annotations

import datetime as dt
import json
import re
from zoneinfo import ZoneInfo

from helpers import sign_in

from bench.seed import case_row, insert_reports, report_row
from portal.core.db import get_db, insert, transaction
from portal.staff import workflow
from portal.staff.reports import annual_counts

NEW_YORK = ZoneInfo("America/New_York")
YEAR_2026 = (dt.date(2026, 1, 3), dt.date(2027, 1, 2))
YEAR_2027 = (dt.date(2027, 1, 3), dt.date(2028, 1, 2))


def moment(day: str) -> dt.datetime:
    return dt.datetime.fromisoformat(f"{day}T10:00").replace(tzinfo=NEW_YORK)


def change(app, db, case_id: int, day: str, **changes) -> None:
    """One save of the case form on `day`, as staff make it."""
    app.config["CLOCK"] = lambda: moment(day)
    (revision,) = db.execute("SELECT revision FROM cases WHERE id = ?", [case_id]).fetchone()
    workflow.save(db, case_id, "smo", workflow.Changes(**changes), revision)


def add_notification(db, number: int, day: str) -> int:
    """A release notification received on `day`, its notice due the next day."""
    with transaction(db):
        case = case_row(number, moment(day), kind="notification", service_code="release")
        case["reference"] = f"REL-{day[:4]}-{number:05d}"
        case_id = insert(db, "cases", case)
        insert(
            db,
            "notifications",
            {
                "case_id": case_id,
                "danger": "no",
                "hazardous": "no",
                "petroleum": "no",
                "facility_name": "Depot",
                "facility_address": "12 Depot",
                "facility_kind": "commercial",
                "permit": "none",
                "discovered_at": f"{day}T09:00:00-05:00",
                "is_over": "yes",
                "materials": "Wash water",
                "reached_drain": "yes",
                "cause": "hose",
                "cleanup": "pads",
                "prevention": "hoses",
                "prior_notice": "none",
                "notice_due": f"{day}T16:00:00-05:00",
                "retain_until": "2030-01-01",
            },
        )
    return case_id


# (received, [(day, changes)...], indicators): counted by hand for 2026's permit year
# (January 3, 2026 to January 2, 2027).
HISTORY = [
    (
        "2026-01-02",
        [("2026-01-02", {"confirmed": True}), ("2026-01-05", {"status": "resolved"})],
        ["suds"],
    ),  # received and confirmed the year before, eliminated in 2026
    ("2026-01-03", [("2026-01-04", {"status": "investigating"})], ["suds", "odor"]),
    (
        "2026-03-10",
        [
            ("2026-03-11", {"status": "investigating"}),
            ("2026-03-12", {"confirmed": True}),
            ("2026-03-20", {"status": "resolved"}),
        ],
        ["sheen"],
    ),
    ("2026-04-01", [("2026-04-02", {"status": "resolved"})], ["trash"]),
    (
        "2026-05-05",
        [("2026-05-06", {"status": "referred", "referred_to": "NYSDEC", "confirmed": True})],
        ["sheen", "odor"],
    ),
    (
        "2026-06-06",
        [("2026-06-07", {"status": "exempt", "exempt_reason": "Lawn watering"})],
        ["suds"],
    ),
    ("2026-07-07", [("2026-07-08", {"status": "no-violation"})], ["cloudy"]),
    (
        "2026-08-08",
        [("2026-08-09", {"status": "duplicate", "duplicate_of": "IDR-2026-00003"})],
        ["sheen"],
    ),
    ("2026-09-09", [], []),
    (
        "2026-12-20",
        [("2026-12-28", {"confirmed": True}), ("2027-01-05", {"status": "resolved"})],
        ["dumping"],
    ),  # confirmed in 2026, eliminated in 2027
    ("2027-01-03", [("2027-01-04", {"status": "resolved", "confirmed": True})], ["suds"]),
]


def build(app) -> None:
    with app.app_context():
        db = get_db()
        insert_reports(
            db,
            [
                (case_row(n, moment(day)), report_row(0, moment(day), indicators=json.dumps(codes)))
                for n, (day, _, codes) in enumerate(HISTORY, 1)
            ],
        )
        for case_id, (_, changes, _) in enumerate(HISTORY, 1):
            for day, change_set in changes:
                change(app, db, case_id, day, **change_set)
        # A release that staff found was an illicit discharge, then closed once dealt with.
        release = add_notification(db, 1, "2026-10-01")
        change(app, db, release, "2026-10-02", confirmed=True)
        change(app, db, release, "2026-10-05", status="closed")


def counts(app, period, now: str = "2027-01-10") -> dict:
    with app.app_context():
        return annual_counts(get_db(), *period, now=moment(now))


def test_the_figures_count_each_event_in_the_year_it_happened(app):
    build(app)
    figures = counts(app, YEAR_2026)
    assert figures["reports"] == 9
    # Investigated: 1 (resolved on Jan 5), 2, 3, 4, 5, 6, 7; never the duplicate or 9.
    assert figures["investigated"] == 7
    # Cases opened from screenings and found by staff are counted on their own lines (none in
    # this year).
    assert figures["discharges"] == [
        ("resident reports", 3, 2),
        ("release notifications", 1, 1),
        ("dry-weather screenings", 0, 0),
        ("staff findings", 0, 0),
    ]
    assert (figures["confirmed"], figures["eliminated"]) == (4, 3)
    assert (figures["referred"], figures["exempt"], figures["duplicates"]) == (1, 1, 1)
    by_indicator = {code: n for code, _, n in figures["by_indicator"]}
    assert by_indicator == {
        "sheen": 3,
        "suds": 2,
        "color": 0,
        "odor": 2,
        "cloudy": 1,
        "trash": 1,
        "dead-animals": 0,
        "dumping": 1,
        "dry-weather-flow": 0,
    }
    later = counts(app, YEAR_2027)
    assert later["discharges"][0] == ("resident reports", 1, 2), "11 confirmed; 10 and 11 gone"


def test_a_closed_year_does_not_move_when_cases_change_later(app):
    build(app)
    before = counts(app, YEAR_2026)
    with app.app_context():
        db = get_db()
        change(app, db, 3, "2027-02-01", confirmed=False)  # the lab said it was not illicit
        change(app, db, 5, "2027-02-02", status="resolved")  # referred, then eliminated
        change(app, db, 7, "2027-02-03", status="investigating")  # reopened
        change(app, db, 8, "2027-02-04", status="received")  # not a duplicate after all
        change(app, db, 12, "2027-02-05", status="received")  # the release reopened
        change(app, db, 2, "2027-02-06", status="resolved", confirmed=True)
        insert_reports(
            db, [(case_row(20, moment("2027-02-07")), report_row(0, moment("2027-02-07")))]
        )
    assert counts(app, YEAR_2026, now="2027-03-01") == before
    after = counts(app, YEAR_2027, now="2027-03-01")
    # 2027: case 11 confirmed and eliminated, 10 and 5 and 2 eliminated, 2 confirmed.
    assert after["discharges"][0] == ("resident reports", 2, 4)
    assert after["reports"] == 2


def test_the_page_says_how_it_counts(app, client):
    build(app)
    sign_in(client, app)
    page = client.get(
        "/staff/annual-report/", query_string={"start": "2026-01-03", "end": "2027-01-02"}
    ).text
    assert re.search(r"Confirmed, found through release notifications</th><td><a [^>]*>1<", page)
    assert re.search(r"Eliminated, found through release notifications</th><td><a [^>]*>1<", page)
    assert re.search(r"Eliminated in all</th><td><a [^>]*>3<", page)
    assert "A status changed later counts in the period of the change" in page
    assert "Fines are set by a court on conviction" in page
    # Where the year comes from, and a link that says which year it opens.
    assert "The reporting year is set in the content to start on January 3" in page
    assert re.search(r"The reporting year before: <time datetime=\"\d{4}-01-03\">", page)


def test_enforcement_is_counted_from_its_own_tables(app):
    with app.app_context():
        db = get_db()
        insert_reports(
            db, [(case_row(1, moment("2026-02-01")), report_row(0, moment("2026-02-01")))]
        )
        with transaction(db):
            db.execute(
                "INSERT INTO respondents (id, name, mailing_address, created_at, created_by)"
                " VALUES (1, 'Elm Auto', 'PO Box 1', '2026-02-01', 'smo')"
            )
            db.execute(
                "INSERT INTO violations (id, case_id, respondent_id, committed_on, section,"
                " description, recorded_at, recorded_by) VALUES (1, 1, 1, '2026-01-30',"
                " '216-6 A', 'Wash water', '2026-02-01', 'smo')"
            )
            # Issued in 2026; a correction issued in 2026; one issued in 2027; a draft.
            for notice_id, number, issued, supersedes in [
                (1, "NOV-2026-0001", "2026-02-02", None),
                (2, "NOV-2026-0002", "2026-02-10", 1),
                (3, "NOV-2027-0001", "2027-01-05", None),
                (4, None, None, None),
            ]:
                db.execute(
                    "INSERT INTO notices (id, violation_id, number, drafted_at, drafted_by,"
                    " issued_on, supersedes) VALUES (?, 1, ?, '2026-02-01', 'smo', ?, ?)",
                    [notice_id, number, issued, supersedes],
                )
            db.execute(
                "INSERT INTO notice_steps (notice_id, appeal_filed_on, decided_on, upheld,"
                " completed_on, work_cents, admin_cents, cost_notice_mailed_on) VALUES"
                " (2, '2026-02-20', '2026-03-10', 1, '2026-04-01', 100000, 10000, '2026-04-15'),"
                " (3, '2027-01-10', '2027-02-01', 0, NULL, NULL, NULL, NULL)"
            )
            # A payment voided as typed twice counts for nothing.
            for paid_on, cents, voided in [
                ("2026-05-01", 9250, None),
                ("2026-06-01", 19000, "2026-06-02T09:00:00-04:00"),
                ("2026-12-31", 9250, None),
                ("2027-01-31", 9250, None),
            ]:
                db.execute(
                    "INSERT INTO payments (notice_id, paid_on, cents, recorded_at, recorded_by,"
                    " voided_at) VALUES (2, ?, ?, ?, 'smo', ?)",
                    [paid_on, cents, paid_on, voided],
                )
            db.execute(
                "INSERT INTO remedies (notice_id, kind, due_on, completed_on, assigned_at,"
                " assigned_by) VALUES (2, 'Storm drain stenciling', '2026-06-01', '2026-05-20',"
                " '2026-03-12T09:00:00-05:00', 'smo')"
            )
    figures = counts(app, YEAR_2026)
    assert {
        key: figures[key]
        for key in (
            "notices_issued",
            "corrections_issued",
            "appeals_filed",
            "appeals_upheld",
            "appeals_overturned",
            "remedies_assigned",
            "remedies_completed",
            "abatements_completed",
            "costs_charged_cents",
            "costs_recovered_cents",
        )
    } == {
        "notices_issued": 1,
        "corrections_issued": 1,
        "appeals_filed": 1,
        "appeals_upheld": 1,
        "appeals_overturned": 0,
        "remedies_assigned": 1,
        "remedies_completed": 1,
        "abatements_completed": 1,
        "costs_charged_cents": 110000,
        "costs_recovered_cents": 18500,
    }
    later = counts(app, YEAR_2027, now="2027-03-01")
    assert (later["notices_issued"], later["appeals_filed"], later["appeals_overturned"]) == (
        1,
        1,
        1,
    )
    assert later["costs_recovered_cents"] == 9250


# ---------------------------------------------------------------- outfalls and screening


def add_structures(db, items) -> None:
    """Structures as (code, type, entered on, last screened on paper, [(screened, call)...])."""
    with transaction(db):
        for code, kind, entered, paper, screenings in items:
            stamp = f"{entered}T09:00:00-05:00"
            outfall = insert(
                db,
                "outfalls",
                {
                    "code": code,
                    "structure_type": kind,
                    "latitude": 42.16,
                    "longitude": -76.82,
                    "created_at": stamp,
                    "updated_at": stamp,
                    "updated_by": "test",
                },
            )
            if paper:
                insert(
                    db,
                    "outfall_paper_screenings",
                    {
                        "outfall_id": outfall,
                        "screened_on": paper,
                        "recorded_at": stamp,
                        "recorded_by": "test",
                    },
                )
            for n, (day, call) in enumerate(screenings):
                insert(
                    db,
                    "screenings",
                    {
                        "outfall_id": outfall,
                        "sheet_key": f"{code}-sheet-{n}",
                        "flow": "none",
                        "screened_at": f"{day}T10:00:00-05:00",
                        "inspector": "jo",
                        "overall": call,
                        "recorded_at": f"{day}T10:00:00-05:00",
                        "recorded_by": "jo",
                    },
                )


# Counted by hand for 2026's permit year (January 3, 2026 to January 2, 2027), with the
# permit term set to start on January 3, 2022 (`with_term`).
STRUCTURES = [
    (
        "OF-1",
        "outfall",
        "2020-05-01",
        None,
        [("2026-06-01", "unlikely"), ("2026-08-01", "suspect")],
    ),
    ("OF-2", "outfall", "2020-05-01", "2023-04-04", []),  # on paper, in the term only
    ("OF-3", "outfall", "2020-05-01", "2021-09-09", [("2027-01-05", "unlikely")]),  # 2027's
    ("OF-4", "outfall", "2026-03-03", None, [("2026-03-04", "obvious")]),  # entered in 2026
    ("OF-5", "outfall", "2027-02-02", None, [("2027-02-03", "unlikely")]),  # entered in 2027
    ("OF-6", "outfall", "2019-01-01", None, [("2021-12-31", "potential")]),  # before the term
    ("CB-1", "catch-basin", "2020-05-01", None, []),
]


def outfall_figures(app, period) -> dict:
    with app.app_context():
        from portal.staff.annual_figures import annual_report

        report = annual_report(get_db(), *period, moment("2027-03-01"))
        return {
            key: [r.words for r in f.records]
            for key, f in report.by_key.items()
            if key.startswith(("outfalls.", "screenings."))
        }


def with_term(app, day: dt.date) -> None:
    """The pack's permit_term_starts set to `day`."""
    from dataclasses import replace

    app.extensions["outfalls"] = replace(app.extensions["outfalls"], permit_term_starts=day)


def test_the_outfall_figures_count_the_inventory_and_its_screenings(app):
    with app.app_context():
        add_structures(get_db(), STRUCTURES)
    with_term(app, dt.date(2022, 1, 3))
    assert outfall_figures(app, YEAR_2026) == {
        "outfalls.inventory": ["OF-6", "OF-1", "OF-2", "OF-3", "OF-4"],
        "outfalls.mapped": ["OF-6", "OF-1", "OF-2", "OF-3", "OF-4"],
        "outfalls.impaired": [],
        "outfalls.impaired_unknown": ["OF-6", "OF-1", "OF-2", "OF-3", "OF-4"],
        "outfalls.others": ["CB-1"],
        "outfalls.screened": ["OF-4", "OF-1"],
        "outfalls.dry_weather_flow": [],
        "outfalls.screened_term": ["OF-2", "OF-4", "OF-1"],
        "outfalls.not_screened_term": ["OF-6", "OF-3"],
        "screenings.made": [
            "Outfall OF-4: obvious",
            "Outfall OF-1: unlikely",
            "Outfall OF-1: suspect",
        ],
        "screenings.flagged": ["Outfall OF-4: obvious", "Outfall OF-1: suspect"],
        "screenings.wet": [],
    }


def test_the_outfall_figures_of_a_closed_year_do_not_move(app):
    with app.app_context():
        add_structures(get_db(), STRUCTURES)
    before = outfall_figures(app, YEAR_2026)
    with app.app_context():
        db = get_db()
        # Later: an outfall edited, another screened, a new one entered, a paper date fixed.
        with transaction(db):
            db.execute(
                "UPDATE outfalls SET condition = 'poor', updated_at = '2027-02-10'"
                " WHERE code = 'OF-6'"
            )
        add_structures(db, [("OF-7", "outfall", "2027-02-11", None, [("2027-02-12", "unlikely")])])
    assert outfall_figures(app, YEAR_2026) == before
    later = outfall_figures(app, YEAR_2027)
    assert later["outfalls.screened"] == ["OF-3", "OF-5", "OF-7"]
    assert len(later["outfalls.inventory"]) == 7


def test_a_pack_may_set_its_permit_term(app):
    with app.app_context():
        add_structures(get_db(), STRUCTURES)
    with_term(app, dt.date(2021, 1, 1))
    figures = outfall_figures(app, YEAR_2026)
    # From January 1, 2021: OF-3's paper day (September 9, 2021) and OF-6's screening count.
    assert figures["outfalls.screened_term"] == ["OF-3", "OF-6", "OF-2", "OF-4", "OF-1"]
    assert figures["outfalls.not_screened_term"] == []


def test_each_figure_links_to_its_records_and_the_csv_has_them(app, client):
    build(app)
    with app.app_context():
        add_structures(get_db(), STRUCTURES)
    sign_in(client, app)
    span = {"start": "2026-01-03", "end": "2027-01-02"}
    page = client.get("/staff/annual-report/", query_string=span).text
    assert (
        page.index("<h2>Illicit discharges</h2>")
        < page.index("<h2>Outfalls and dry-weather screening</h2>")
        < page.index("<h2>Resident reports</h2>")
    )
    link = re.search(
        r'Outfalls screened in dry weather in the period</th><td><a href="([^"]+)">2<', page
    ).group(1)
    assert (
        link == "/staff/annual-report/records/outfalls.screened?start=2026-01-03&amp;end=2027-01-02"
    )
    records = client.get(link.replace("&amp;", "&")).text
    assert re.search(
        r'<a href="/staff/outfalls/\d+/">OF-4</a></th><td><time datetime="2026-03-04">', records
    )
    assert re.search(
        r'<a href="/staff/outfalls/\d+/">OF-1</a></th><td><time datetime="2026-06-01">', records
    )
    assert "OF-3" not in records
    eliminated = client.get(
        "/staff/annual-report/records/discharges.report.eliminated", query_string=span
    ).text
    assert re.findall(r'<a href="/staff/cases/(\d+)/">', eliminated) == ["1", "3"]
    assert client.get("/staff/annual-report/records/no.such.figure").status_code == 404
    sheet = client.get("/staff/annual-report.csv", query_string=span)
    assert sheet.headers["Content-Disposition"] == (
        'attachment; filename="annual-report-2026-01-03-to-2027-01-02.csv"'
    )
    lines = sheet.text.lstrip("\ufeff").splitlines()
    assert lines[0] == "Period from,Period to,Section,Figure,Value,Records,Records behind it"
    assert (
        "2026-01-03,2027-01-02,Illicit discharges,Eliminated in all,3,3,"
        "https://portal.village.test/staff/annual-report/records/discharges.eliminated"
        "?start=2026-01-03&end=2027-01-02"
    ) in lines
    assert any(
        line.startswith(
            "2026-01-03,2027-01-02,Enforcement,Abatement costs charged "
            "(cost notices mailed),$0.00,0,"
        )
        for line in lines
    )


# ---------------------------------------------------------------- eliminated, by track-down


def eliminate(db, case_id: int, found: str, eliminated: str) -> None:
    with transaction(db):
        insert(
            db,
            "discharge_sources",
            {
                "case_id": case_id,
                "found_on": found,
                "description": "Laundry drain on the storm line",
                "address": "12 Elm Street",
                "eliminated_on": eliminated,
                "elimination_method": "connection_removed",
                "recorded_at": f"{eliminated}T10:00",
                "recorded_by": "smo",
            },
        )


def test_an_elimination_counts_by_the_day_track_down_recorded(app):
    build(app)
    with app.app_context():
        db = get_db()
        # Case 5 (confirmed May 6, 2026, referred): its source removed on December 1, 2026,
        # its status never set to resolved. Case 10 (confirmed December 28, 2026, resolved
        # January 5, 2027): track-down says the discharge stopped on December 30, 2026.
        eliminate(db, 5, "2026-11-20", "2026-12-01")
        eliminate(db, 10, "2026-12-29", "2026-12-30")
        # Case 2 was never confirmed: a source eliminated is no illicit discharge eliminated.
        eliminate(db, 2, "2026-02-01", "2026-02-02")
    year = counts(app, YEAR_2026)
    # Before: cases 1 and 3 (resolved in 2026); now 5 and 10 as well.
    assert year["discharges"][0] == ("resident reports", 3, 4)
    # 2027 loses case 10 (counted on December 30, 2026), keeps 11.
    assert counts(app, YEAR_2027)["discharges"][0] == ("resident reports", 1, 1)


def test_an_elimination_before_the_confirmation_counts_when_confirmed(app):
    build(app)
    with app.app_context():
        db = get_db()
        # Case 9 (received September 9, 2026): its source gone on December 20, 2026, but the
        # lab confirmed the discharge only on January 8, 2027: it counts in 2027.
        eliminate(db, 9, "2026-12-19", "2026-12-20")
        change(app, db, 9, "2027-01-08", confirmed=True)
    assert counts(app, YEAR_2026)["discharges"][0] == ("resident reports", 3, 2)
    assert counts(app, YEAR_2027)["discharges"][0] == ("resident reports", 2, 3)


def test_a_confirmation_taken_back_in_the_period_is_not_counted(app):
    build(app)
    with app.app_context():
        # Case 5 (confirmed May 6, 2026): the lab says otherwise on June 1, 2026.
        change(app, get_db(), 5, "2026-06-01", confirmed=False)
    # 2026: confirmed 3 and 10 (and the release's 12); case 5 no longer.
    assert counts(app, YEAR_2026)["discharges"][0] == ("resident reports", 2, 2)


def test_figures_recorded_as_filed_show_what_changed_since(app, client):
    """Fresh review: a void or a late entry about a closed period moved it, and nothing said
    what had been filed. The officer records the figures filed; later changes show beside."""
    build(app)
    sign_in(client, app)
    span = {"start": "2026-01-03", "end": "2027-01-02"}
    page = client.get("/staff/annual-report/", query_string=span).text
    assert "Recorded as filed" not in page
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    assert client.post("/staff/annual-report/filed", query_string=span).status_code == 400
    filed = client.post("/staff/annual-report/filed", query_string=span, data={"csrf_token": token})
    assert filed.status_code == 303
    page = client.get("/staff/annual-report/", query_string=span).text
    assert "These figures are recorded as filed" in page
    assert "No figure has changed since." in page and "(filed: " not in page
    # Later, a 2026 discharge is confirmed with a back-dated lab result: "confirmed" moves.
    with app.app_context():
        change(app, get_db(), 9, "2026-12-01", confirmed=True)
    page = client.get("/staff/annual-report/", query_string=span).text
    assert re.search(
        r"Confirmed in all</th><td><a [^>]*>5<.*?</a> <span class=\"filed\">"
        r"\(filed: 4\)</span>",
        page,
    )
    # Confirmed in all, through resident reports, and still being traced at the year's end.
    assert "3 figures changed since" in page
    # Another period has no filing.
    other = client.get(
        "/staff/annual-report/", query_string={"start": "2025-01-03", "end": "2026-01-02"}
    ).text
    assert "Recorded as filed" not in other
