"""The reading that counts a final notice of violation as an offense (`offense_counts: final`,
turned on by a throwaway pack; the default counts only recorded convictions:
tests/test_enforcement_convictions.py): an earlier notice counts once it is not appealed in
time or is upheld by the Board, pending until then, through the notice page and the
respondent's offense history; the last day to appeal (Tuesday 16 March 2027 for a notice
served Monday 1 March) decides which."""

from __future__ import annotations

import pytest
from enforcement_helpers import issue, ok, post, times, violation
from throwaway_pack import text, throwaway_pack

pytest_plugins = ["enforcement_fixtures"]  # the clock and the signed-in officer
FINAL = ("offense_counts: conviction", "offense_counts: final")


@pytest.fixture
def content_dir(tmp_path):
    return throwaway_pack(tmp_path / "content", "enforcement.yaml", *FINAL)


def test_an_earlier_notice_counts_once_final_not_appealed_in_time_or_upheld(officer, clock):
    """216-13 B ranges follow offenses (seed 173), so a notice counts once it is final."""
    violation(officer, committed_on="2022-02-27", found_on="2022-02-27", description="Oil.")
    violation(officer, respondent="1", committed_on="2027-02-26")
    for number in (1, 2):
        ok(post(officer, f"/staff/violations/{3 - number}/notice", order_1="y"))
        issue(officer, number)
    clock.set("2027-03-16")  # the last day to appeal the 1 March notice
    assert "offense number <strong>1</strong>" in officer.get("/staff/notices/1/").text
    clock.set("2027-03-17")
    page = officer.get("/staff/notices/1/").text
    assert "offense number <strong>2</strong>" in page and "$350.00 to $700.00" in page
    assert "NOV-2027-0002 not appealed in time" in page and "Pending, not counted" not in page
    assert "Yes: NOV-2027-0002 not appealed in time" in officer.get("/staff/respondents/1/").text
    # An appeal filed in time holds it pending until the Board upholds the notice.
    ok(
        post(
            officer,
            "/staff/notices/2/steps/appeal",
            "/staff/notices/2/",
            appeal_filed_on="2027-03-10",
        )
    )
    assert "offense number <strong>1</strong>" in officer.get("/staff/notices/1/").text
    ok(
        post(
            officer,
            "/staff/notices/2/steps/decision",
            "/staff/notices/2/",
            decided_on="2027-03-17",
            upheld="yes",
        )
    )
    page = officer.get("/staff/notices/1/").text
    assert (
        "offense number <strong>2</strong>" in page and "NOV-2027-0002 upheld by the Board" in page
    )


def test_offense_history_counts_established_violations_within_five_years(officer, clock):
    violation(officer, committed_on="2022-02-27", found_on="2022-02-27", description="Oil.")
    violation(officer, respondent="1", committed_on="2027-02-26")
    ok(post(officer, "/staff/violations/2/notice", order_1="y"))
    issue(officer)
    page = officer.get("/staff/notices/1/").text
    # The 2022 violation never had a notice: it does not count.
    assert "offense number <strong>1</strong>" in page and "$50.00 to $350.00" in page
    assert "no notice of violation issued" in page
    counting = "Counting recorded convictions and final notices of violation (our reading)"
    assert f"{counting}, this would be offense number <strong>1</strong>" in page
    ok(post(officer, "/staff/violations/1/notice", order_1="y"))
    issue(officer, 2)
    page = officer.get("/staff/notices/1/").text
    # Its appeal period runs (served 1 March, 15 days): pending, shown apart.
    assert "offense number <strong>1</strong>" in page and "$50.00 to $350.00" in page
    assert "Pending, not counted: 1 earlier notice not yet established." in page
    assert "this would be offense number 2: a fine of $350.00 to $700.00" in page
    assert (
        "pending, not counted (not yet established: NOV-2027-0002 the appeal period runs"
        " until March 16, 2027)" in page
    )
    # The Board does not uphold the 2022 notice (finding 5): it stops counting, and says why.
    clock.set("2027-03-05")
    ok(
        post(
            officer,
            "/staff/notices/2/steps/appeal",
            "/staff/notices/2/",
            appeal_filed_on="2027-03-02",
        )
    )
    page = officer.get("/staff/notices/1/").text
    assert "offense number <strong>1</strong>" in page
    assert "NOV-2027-0002 its appeal awaits the Board" in page
    assert (
        "Not yet (pending): NOV-2027-0002 its appeal awaits the Board"
        in officer.get("/staff/respondents/1/").text
    )
    ok(
        post(
            officer,
            "/staff/notices/2/steps/decision",
            "/staff/notices/2/",
            decided_on="2027-03-05",
            upheld="no",
        )
    )
    page = officer.get("/staff/notices/1/").text
    assert "offense number <strong>1</strong>" in page
    assert "NOV-2027-0002 not upheld by the Board" in page
    history = officer.get("/staff/respondents/1/").text
    assert times(history)[:2] == ["2027-02-26", "2022-02-27"]
    assert "No: NOV-2027-0002 not upheld by the Board" in history


def two_notices(officer, clock, appealed: str) -> str:
    """An earlier violation (2022) and this one (26 February 2027) of one respondent, both
    notices served 1 March 2027; the earlier one appealed on `appealed`; this notice's page on
    20 March, once the earlier notice's appeal period has closed."""
    violation(officer, committed_on="2022-02-27", found_on="2022-02-27", description="Oil.")
    violation(officer, respondent="1", committed_on="2027-02-26")
    for number in (1, 2):
        ok(post(officer, f"/staff/violations/{3 - number}/notice", order_1="y"))
        issue(officer, number)
    clock.set(appealed)
    ok(
        post(
            officer, "/staff/notices/2/steps/appeal", "/staff/notices/2/", appeal_filed_on=appealed
        )
    )
    clock.set("2027-03-20")
    return text(officer.get("/staff/notices/1/").text)


def test_an_earlier_notice_appealed_on_the_last_day_is_not_counted(officer, clock):
    words = two_notices(officer, clock, "2027-03-16")
    assert "offense number 1 " in words and "$50.00 to $350.00" in words
    assert "NOV-2027-0002 its appeal awaits the Board" in words
    history = text(officer.get("/staff/respondents/1/").text)
    assert "Not yet (pending): NOV-2027-0002 its appeal awaits the Board" in history


def test_an_earlier_notice_appealed_the_day_after_is_counted(officer, clock):
    words = two_notices(officer, clock, "2027-03-17")
    assert "offense number 2 " in words and "$350.00 to $700.00" in words
    assert "NOV-2027-0002 not appealed in time" in words
