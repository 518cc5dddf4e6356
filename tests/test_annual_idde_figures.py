"""The State's IDDE lines the annual figures lacked (officer's week 2026-12-03, the DEC MS4
permit table): outfalls with dry-weather flow found, discharges still being traced at the
year's end and the days each eliminated one took, and "screened in the permit term" from the
pack's permit_term_starts only, never a rolling five years. Read on the page and in the CSV;
each counted by the permit year (January 3 to January 2), a record at 23:30 on January 2 in
the year it ends."""

from __future__ import annotations

import datetime as dt
import re

from helpers import sign_in
from test_annual_figures import NEW_YORK, build, with_term

from bench.seed import case_row, insert_reports, report_row
from portal.core.db import get_db, insert, transaction
from portal.staff import workflow

YEAR_2026 = {"start": "2026-01-03", "end": "2027-01-02"}
YEAR_2027 = {"start": "2027-01-03", "end": "2028-01-02"}
LAST_MINUTES = dt.datetime(2027, 1, 2, 23, 30, tzinfo=NEW_YORK)  # 2026's permit year
TRACED = "Discharges confirmed and still being traced at the end of the period"
TOOK = "Discharges eliminated in the period: the days each took from found to eliminated"
FLOWING = "Outfalls with dry-weather flow found in the period"
IN_TERM = "Outfalls screened in the permit term so far"
NOT_IN_TERM = "Outfalls not yet screened in the permit term"


def shown(page: str, label: str) -> str:
    return re.search(rf"{re.escape(label)}</th><td><a [^>]*>([^<]*)<", page).group(1)


def csv_lines(client, period) -> list[str]:
    return client.get("/staff/annual-report.csv", query_string=period).text.splitlines()


def link(key: str, period) -> str:
    return (
        f"https://portal.village.test/staff/annual-report/records/{key}"
        f"?start={period['start']}&end={period['end']}"
    )


def listed(client, key: str, period) -> list[str]:
    page = client.get(f"/staff/annual-report/records/{key}", query_string=period).text
    return re.findall(
        r'<th scope="row"><a href="[^"]+">([^<]+)</a></th><td><time datetime="([^"]+)"', page
    )


def confirmed_in_the_last_minutes(app) -> None:
    """A report received and confirmed at 23:30 on January 2, 2027 (case 13)."""
    with app.app_context():
        db = get_db()
        (case_id,) = insert_reports(db, [(case_row(13, LAST_MINUTES), report_row(0, LAST_MINUTES))])
        app.config["CLOCK"] = lambda: LAST_MINUTES
        workflow.save(db, case_id, "smo", workflow.Changes(confirmed=True), 0)


def test_still_being_traced_and_the_days_each_elimination_took(app, client):
    build(app)
    confirmed_in_the_last_minutes(app)
    sign_in(client, app)
    page = client.get("/staff/annual-report/", query_string=YEAR_2026).text
    assert "<h3>Discharges still being traced, and the days to eliminate</h3>" in page
    # Counted by hand: case 5 (confirmed May 6, passed to NYSDEC, never eliminated), case 10
    # (confirmed December 28, resolved only on January 5, 2027) and case 13 (confirmed at
    # 23:30 on January 2, 2027, the year's last day).
    assert shown(page, TRACED) == "3"
    assert listed(client, "trackdown.open_at_end", YEAR_2026) == [
        ("IDR-2026-00005", "2026-05-06"),
        ("IDR-2026-00010", "2026-12-28"),
        ("IDR-2027-00013", "2027-01-02"),
    ]
    # Eliminated in 2026: case 1 (received January 2, resolved January 5: 3 days), case 3
    # (March 10 to March 20: 10 days), the release (October 1 to October 5: 4 days).
    assert shown(page, TOOK) == "3: median 4 days (3 to 10)"
    assert listed(client, "trackdown.days_to_eliminate", YEAR_2026) == [
        ("IDR-2026-00001: 3 days", "2026-01-05"),
        ("IDR-2026-00003: 10 days", "2026-03-20"),
        ("REL-2026-00001: 4 days", "2026-10-05"),
    ]
    assert "from the day the discharge was found (the day its case was received;" in page
    lines = csv_lines(client, YEAR_2026)
    section = '"Discharges still being traced, and the days to eliminate"'
    assert (
        f"2026-01-03,2027-01-02,{section},{TRACED},3,3,{link('trackdown.open_at_end', YEAR_2026)}"
        in lines
    )
    assert (
        f"2026-01-03,2027-01-02,{section},{TOOK},3: median 4 days (3 to 10),3,"
        + link("trackdown.days_to_eliminate", YEAR_2026)
    ) in lines
    # 2027: case 10 eliminated on January 5 (16 days from December 20), case 11 the day after
    # it came in (1 day); 5 and 13 still being traced.
    later = client.get("/staff/annual-report/", query_string=YEAR_2027).text
    assert shown(later, TRACED) == "2"
    assert shown(later, TOOK) == "2: median 8.5 days (1 to 16)"
    assert listed(client, "trackdown.days_to_eliminate", YEAR_2027) == [
        ("IDR-2027-00011: 1 day", "2027-01-04"),
        ("IDR-2026-00010: 16 days", "2027-01-05"),
    ]


def test_a_year_with_no_elimination_shows_none(app, client):
    sign_in(client, app)
    page = client.get("/staff/annual-report/", query_string=YEAR_2026).text
    assert (shown(page, TRACED), shown(page, TOOK)) == ("0", "0")


def add_outfall(db, code: str, entered: str) -> int:
    stamp = f"{entered}T09:00:00-05:00"
    return insert(
        db,
        "outfalls",
        {
            "code": code,
            "latitude": 42.16,
            "longitude": -76.82,
            "created_at": stamp,
            "updated_at": stamp,
            "updated_by": "test",
        },
    )


def screen(db, outfall: int, at: str, flow: str, *, wet: int = 0, void: bool = False) -> None:
    insert(
        db,
        "screenings",
        {
            "outfall_id": outfall,
            "sheet_key": f"{outfall}-{at}",
            "flow": flow,
            "screened_at": at,
            "inspector": "jo",
            "overall": "unlikely",
            "recorded_at": at,
            "recorded_by": "jo",
            "wet_weather": wet,
            "voided_at": "2027-02-01T10:00:00-05:00" if void else None,
        },
    )


def inventory(app) -> None:
    """Five outfalls, each screened as its comment says."""
    with app.app_context():
        db = get_db()
        with transaction(db):
            first, second, third, fourth, fifth = (
                add_outfall(db, f"OF-{n}", "2020-05-01") for n in range(1, 6)
            )
            screen(db, first, "2026-05-01T10:00:00-04:00", "none")
            screen(db, first, "2026-07-01T10:00:00-04:00", "trickle")  # flowing
            screen(db, second, LAST_MINUTES.isoformat(), "moderate")  # 23:30 on January 2
            screen(db, third, "2026-06-01T10:00:00-04:00", "substantial", wet=1)  # after rain
            screen(db, fourth, "2026-06-02T10:00:00-04:00", "trickle", void=True)
            screen(db, fifth, "2023-06-02T10:00:00-04:00", "none")  # under the last permit
            screen(db, fifth, "2027-01-03T00:10:00-05:00", "trickle")  # 2027's


def test_outfalls_with_dry_weather_flow_are_counted_once_in_their_year(app, client):
    inventory(app)
    sign_in(client, app)
    page = client.get("/staff/annual-report/", query_string=YEAR_2026).text
    # OF-1 (a trickle on July 1) and OF-2 (at 23:30 on January 2, 2027); not OF-3's wet visit,
    # OF-4's void sheet, or OF-5's sheet ten minutes into 2027's year.
    assert shown(page, FLOWING) == "2"
    assert listed(client, "outfalls.dry_weather_flow", YEAR_2026) == [
        ("OF-1", "2026-07-01"),
        ("OF-2", "2027-01-02"),
    ]
    assert (
        f"2026-01-03,2027-01-02,Outfalls and dry-weather screening,{FLOWING},2,2,"
        + link("outfalls.dry_weather_flow", YEAR_2026)
    ) in csv_lines(client, YEAR_2026)
    assert listed(client, "outfalls.dry_weather_flow", YEAR_2027) == [("OF-5", "2027-01-03")]


def test_the_permit_term_not_set_cannot_be_computed_and_the_page_asks_for_it(app, client):
    with_term(app, None)  # a pack that leaves permit_term_starts out
    inventory(app)
    sign_in(client, app)
    page = client.get("/staff/annual-report/", query_string=YEAR_2026).text
    words = "Cannot be computed: the permit term&#39;s start is not set"
    assert (shown(page, IN_TERM), shown(page, NOT_IN_TERM)) == (words, words)
    assert (
        "The permit term&#39;s first day is not set: the lines for the permit term cannot be"
        " computed. Set permit_term_starts in content/outfalls.yaml to the effective date of"
        " the current MS4 permit."
    ) in page
    lines = csv_lines(client, YEAR_2026)
    assert (
        "2026-01-03,2027-01-02,Outfalls and dry-weather screening,"
        f"{IN_TERM},Cannot be computed: the permit term's start is not set,0,"
        + link("outfalls.screened_term", YEAR_2026)
    ) in lines


def test_the_permit_term_counts_from_the_day_the_pack_sets(app, client):
    inventory(app)
    with_term(app, dt.date(2024, 1, 3))
    sign_in(client, app)
    page = client.get("/staff/annual-report/", query_string=YEAR_2026).text
    # From January 3, 2024: OF-1, OF-2 (23:30 on January 2, 2027); OF-5's 2023 sheet was the
    # last permit's, OF-3's visit was wet, OF-4's sheet void.
    assert (shown(page, IN_TERM), shown(page, NOT_IN_TERM)) == ("2", "3")
    assert listed(client, "outfalls.screened_term", YEAR_2026) == [
        ("OF-1", "2026-05-01"),
        ("OF-2", "2027-01-02"),
    ]
    assert "The permit term counted from January 3, 2024 (content/outfalls.yaml" in page
    assert (
        f"2026-01-03,2027-01-02,Outfalls and dry-weather screening,{IN_TERM},2,2,"
        + link("outfalls.screened_term", YEAR_2026)
    ) in csv_lines(client, YEAR_2026)
    # A year that ends before the term began cannot be counted in it.
    before = client.get(
        "/staff/annual-report/", query_string={"start": "2023-01-03", "end": "2024-01-02"}
    ).text
    assert shown(before, IN_TERM) == "Cannot be computed: the period is before the permit term"
    assert (
        "The period ends before the permit term set in the content starts (January 3, 2024)"
        in before
    )
