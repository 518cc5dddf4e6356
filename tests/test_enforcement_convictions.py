"""§ 216-13 B grades the penalties "for conviction of a second offense" and "upon conviction
for a third or subsequent offense" (seed 173): by default only a recorded conviction counts
toward the offense number; a final notice of violation that was never prosecuted is listed
and not counted, unless the content declares the reading that it counts. The officer's
week (L1) and the legal read (B2) of 3 December 2026, through the pages a person reads: two
earlier offenses, committed 3 December 2021 and 14 November 2023, and a violation committed
2 December 2026."""

from __future__ import annotations

import re

import pytest
import sqlite_utils
from enforcement_helpers import issue, ok, post, violation
from throwaway_pack import text, throwaway_pack

from portal.core import migrations

pytest_plugins = ["enforcement_fixtures"]  # the clock and the signed-in officer
PERSON = "/staff/respondents/1/"
NOTICE = "/staff/notices/1/"
FINAL = ("offense_counts: conviction", "offense_counts: final")


@pytest.fixture
def content_dir(request, tmp_path):
    """The default pack, or a copy with `request.param`'s (line, replacement) applied."""
    if not getattr(request, "param", None):
        return None
    return throwaway_pack(tmp_path / "content", "enforcement.yaml", *request.param)


def the_reviews_case(officer, clock, outcome: str) -> None:
    """The review's respondent: two earlier offenses from the paper files with `outcome`, and
    a violation committed 2 December 2026 whose notice (order (e), a fine) is served on
    3 December 2026."""
    clock.set("2026-12-03")
    violation(officer, committed_on="2026-12-02", found_on="2026-12-03")
    for day, reference in [("2021-12-03", "NOV-2021-0004"), ("2023-11-14", "NOV-2023-0011")]:
        earlier = dict(committed_on=day, section="216-6 A", reference=reference, outcome=outcome)
        ok(post(officer, f"{PERSON}prior", PERSON, **earlier))
    ok(post(officer, "/staff/violations/1/notice", order_4="y", deadline="2027-01-15"))
    issue(officer, served_on="2026-12-03")


def test_final_notices_never_prosecuted_are_listed_but_not_counted(officer, clock):
    the_reviews_case(officer, clock, "notice")
    page = text(officer.get(NOTICE).text)
    assert (
        "Counting only recorded convictions, this would be offense number 1 of Elm Street Auto"
        " LLC (reading) : a fine of $50.00 to $350.00. The court decides" in page
    )
    for reference, day in [
        ("NOV-2023-0011", "Tuesday, November 14, 2023"),
        ("NOV-2021-0004", "Friday, December 3, 2021"),
    ]:
        assert (
            f"paper file: {reference}, {day} : not counted (notice of violation final (not"
            " appealed in time, or upheld); no conviction recorded)" in page
        )
    assert "No conviction of this violation is recorded." in page
    history = text(officer.get(PERSON).text)
    assert "and only when a conviction of it is recorded" in history
    assert "A notice of violation is listed but not counted, even when final" in history
    assert (
        "NOV-2023-0011: Notice of violation final (not appealed in time, or upheld); does not"
        " count" in history
    )
    assert "; counts" not in history


def test_recorded_convictions_make_a_third_offense(officer, clock):
    the_reviews_case(officer, clock, "conviction")
    page = text(officer.get(NOTICE).text)
    assert (
        "Counting only recorded convictions, this would be offense number 3 of Elm Street Auto"
        " LLC (reading) : a fine of $700.00 to $1,000.00, or imprisonment of up to 15 days, or"
        " both." in page
    )
    assert (
        "paper file: NOV-2021-0004, Friday, December 3, 2021 : counted (within 5 years;"
        " convicted)" in page
    )
    assert "NOV-2023-0011: Convicted; counts" in text(officer.get(PERSON).text)


@pytest.mark.parametrize("content_dir", [FINAL], indirect=True)
def test_by_the_reading_final_notices_count_and_the_pages_say_it_is_a_reading(officer, clock):
    the_reviews_case(officer, clock, "notice")
    page = text(officer.get(NOTICE).text)
    assert (
        "Counting recorded convictions and final notices of violation (our reading), this would"
        " be offense number 3 of Elm Street Auto LLC (reading) : a fine of $700.00 to"
        " $1,000.00, or imprisonment of up to 15 days, or both." in page
    )
    footnote = (
        "when a conviction of it is recorded, and also (our reading, though the law sets the"
        " higher ranges for conviction of a second or later offense) when its notice of"
        " violation is final"
    )
    assert footnote in page
    history = text(officer.get(PERSON).text)
    assert footnote in history
    assert "NOV-2023-0011: Notice of violation final (not appealed in time, or upheld); counts" in (
        history
    )


def test_the_letter_says_a_court_sets_the_fine_and_names_no_tier(officer, clock):
    the_reviews_case(officer, clock, "conviction")
    letter = text(officer.get(f"{NOTICE}letter").text)
    assert (
        "(e) Payment of a fine. The fine is set by a court, on conviction (§ 216-13 B): the"
        " ranges are under “Penalties” below." in letter
    )
    assert "for this offense" not in letter
    # The Penalties list every range, the third among them, as the law sets them.
    assert "a third or later offense, all committed within 5 years, a fine of $700.00" in letter


def test_a_conviction_recorded_on_a_notice_counts_toward_the_next_violation(officer, clock):
    # A 2025 violation with its notice, final and unprosecuted; the 2026 one with its own.
    clock.set("2025-06-02")
    violation(officer, committed_on="2025-06-01", found_on="2025-06-02", description="Oil.")
    ok(post(officer, "/staff/violations/1/notice", order_1="y"))
    issue(officer, served_on="2025-06-02")
    clock.set("2026-12-03")
    violation(officer, respondent="1", committed_on="2026-12-02", found_on="2026-12-03")
    ok(post(officer, "/staff/violations/2/notice", order_1="y"))
    issue(officer, notice=2, served_on="2026-12-03")
    second = "/staff/notices/2/"
    page = text(officer.get(second).text)
    assert "this would be offense number 1 " in page
    assert "not counted (NOV-2025-0001 not appealed in time; no conviction recorded)" in page
    # The court convicts on the 2025 notice: recorded on its page, never before its issuance.
    early = post(officer, f"{NOTICE}steps/court", NOTICE, convicted_on="2025-05-30")
    assert early.status_code == 422 and "Enter a date on or after June 2, 2025." in (
        text(early.text)
    )
    missing = post(officer, f"{NOTICE}steps/court", NOTICE, convicted_on="")
    assert missing.status_code == 422 and "Enter the date of the conviction." in missing.text
    ok(post(officer, f"{NOTICE}steps/court", NOTICE, convicted_on="2025-09-15"))
    first = text(officer.get(NOTICE).text)
    assert "A conviction of this violation is recorded, Monday, September 15, 2025" in first
    page = text(officer.get(second).text)
    assert (
        "this would be offense number 2 of Elm Street Auto LLC (reading) : a fine of $350.00 to"
        " $700.00, or imprisonment of up to 15 days, or both." in page
    )
    assert "counted (within 5 years; NOV-2025-0001 conviction recorded, September 15, 2025)" in page
    history = text(officer.get(PERSON).text)
    assert "Yes: NOV-2025-0001 conviction recorded, September 15, 2025" in history
    assert "No: NOV-2026-0001 the appeal period runs until" in history
    assert "Conviction recorded" in text(officer.get("/staff/cases/1/").text)


def test_a_file_of_the_version_before_upgrades_with_no_conviction_recorded(tmp_path):
    """Migration 008 adds the conviction to a file whose notices were stored before it: their
    steps are kept, none convicted."""
    db = sqlite_utils.Database(tmp_path / "portal.sqlite3")
    migrations.apply(db)
    db.execute("INSERT INTO notice_steps (notice_id, appeal_filed_on) VALUES (7, '2026-01-05')")
    db.execute("ALTER TABLE notice_steps DROP COLUMN convicted_on")
    db.execute("DELETE FROM _sqlite_migrations WHERE name = '008_convictions_recorded'")
    assert migrations.pending(db)
    migrations.apply(db)
    row = db.execute("SELECT appeal_filed_on, convicted_on FROM notice_steps").fetchall()
    assert row == [("2026-01-05", None)]
    assert not migrations.pending(db)
    assert re.search(r"\bconvicted_on TEXT\b", db["notice_steps"].schema)
