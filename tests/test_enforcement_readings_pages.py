"""More of enforcement.yaml's readings, each turned the other way by a throwaway pack (a copy
of the content with one line changed), through the notice page the officer reads and the
notice letter the respondent reads, and the respondent's offense history. Until now these were tested only with replaced Terms."""

from __future__ import annotations

import pytest
from enforcement_helpers import issue, notice_served, ok, post
from throwaway_pack import text, throwaway_pack

pytest_plugins = ["enforcement_fixtures"]  # the clock and the signed-in officer


@pytest.fixture
def content_dir(request, tmp_path):
    """The default pack, or a copy with `request.param`'s (line, replacement) applied."""
    if not getattr(request, "param", None):
        return None
    return throwaway_pack(tmp_path / "content", "enforcement.yaml", *request.param)


def notice_page(officer) -> str:
    return text(officer.get("/staff/notices/1/").text)


BUSINESS = ("day_kind: calendar", "day_kind: business")


@pytest.mark.parametrize(
    ("content_dir", "closes"),
    [(None, "Monday, March 22, 2027"), (BUSINESS, "Friday, March 26, 2027")],
    ids=["calendar-days", "business-days"],
    indirect=["content_dir"],
)
def test_the_appeal_period_counts_calendar_or_business_days_by_the_reading(officer, clock, closes):
    # Served Friday 5 March 2027: 15 calendar days end Saturday 20 March, rolled to Monday 22;
    # 15 business days (no holiday in March) end Friday 26 March.
    notice_served(officer, clock, "2027-03-05")
    assert f"Appeal to the Board of Trustees due by {closes}" in notice_page(officer)


BEGUN = ("week_counting: completed", "week_counting: begun")


@pytest.mark.parametrize(
    ("content_dir", "on_the_eighth"),
    [(None, "1 week"), (BEGUN, "2 weeks")],
    ids=["completed", "begun"],
    indirect=["content_dir"],
)
def test_a_week_of_continued_violation_counts_once_completed_or_once_begun(
    officer, clock, on_the_eighth
):
    # Correction due Wednesday 31 March 2027: the seventh day after it (7 April) ends the
    # first week; the eighth (8 April) begins the second.
    notice_served(officer, clock, "2027-03-01", deadline="2027-03-31")
    since = "from the correction date, Wednesday, March 31, 2027 , to today."
    clock.set("2027-04-07")
    assert f"is a separate violation (reading) : 1 week {since}" in notice_page(officer)
    clock.set("2027-04-08")
    assert f"is a separate violation (reading) : {on_the_eighth} {since}" in notice_page(officer)


POSTMARKED = ("appeal_filed_when: received", "appeal_filed_when: postmarked")


@pytest.mark.parametrize(
    ("content_dir", "postmarked"),
    [(None, False), (POSTMARKED, True)],
    ids=["received", "postmarked"],
    indirect=["content_dir"],
)
def test_an_appeal_is_filed_when_received_or_when_postmarked_by_the_reading(
    officer, clock, postmarked
):
    notice_served(officer, clock, "2027-03-01")
    page = notice_page(officer)
    assert ("Date the appeal was delivered, or its postmark" in page) is postmarked
    assert ("Date the appeal reached the clerk" in page) is not postmarked
    letter = text(officer.get("/staff/notices/1/letter").text)
    by_mail = (
        "Your appeal must reach the Village Clerk by Tuesday, March 16, 2027 : one sent by "
        "mail must arrive by then (our reading: § 216-14 does not say when an appeal is filed)."
    )
    by_postmark = (
        "Your appeal is on time if it is delivered to the Village Clerk, or mailed with a "
        "postmark, by Tuesday, March 16, 2027 (our reading: § 216-14 does not say when an"
        " appeal is filed)."
    )
    assert (by_postmark in letter) is postmarked
    assert (by_mail in letter) is not postmarked


DECISION = ("correction_after_appeal: later", "correction_after_appeal: decision")


@pytest.mark.parametrize(
    ("content_dir", "correction"),
    [
        (
            None,
            "Correction due by Friday, April 30, 2027 : the later of the notice's deadline and "
            "5 business days after the decision upholding it",
        ),
        (
            DECISION,
            "Correction due by Monday, March 29, 2027 : 5 business days after the decision "
            "upholding it",
        ),
    ],
    ids=["later", "decision"],
    indirect=["content_dir"],
)
def test_after_an_upheld_appeal_the_correction_is_due_by_the_reading(officer, clock, correction):
    # The notice's own deadline is Friday 30 April 2027; the Board upholds it on Monday 22
    # March, five business days before Monday 29 March.
    notice_served(officer, clock, "2027-03-01")
    clock.set("2027-03-10")
    ok(
        post(
            officer,
            "/staff/notices/1/steps/appeal",
            "/staff/notices/1/",
            appeal_filed_on="2027-03-10",
        )
    )
    clock.set("2027-03-22")
    ok(
        post(
            officer,
            "/staff/notices/1/steps/decision",
            "/staff/notices/1/",
            hearing_on="2027-03-22",
            decided_on="2027-03-22",
            upheld="yes",
        )
    )
    assert correction in notice_page(officer)


FINAL = ("offense_counts: conviction", "offense_counts: final")
ISSUED = ("offense_counts: conviction", "offense_counts: issued")


@pytest.mark.parametrize(
    ("content_dir", "counts", "offense", "pending"),
    [
        (
            None,
            "NOV-2027-0001 No: NOV-2027-0001 the appeal period runs until March 16, 2027; no"
            " conviction recorded",
            "Counting only recorded convictions, this would be offense number 1 of Elm Street"
            " Auto LLC (reading) : a fine of $50.00 to $350.00.",
            False,
        ),
        (
            FINAL,
            "NOV-2027-0001 Not yet (pending): NOV-2027-0001 the appeal period runs until "
            "March 16, 2027",
            "Counting recorded convictions and final notices of violation (our reading), this"
            " would be offense number 1 of Elm Street Auto LLC (reading) : a fine of $50.00"
            " to $350.00.",
            True,
        ),
        (
            ISSUED,
            "NOV-2027-0001 Yes: NOV-2027-0001 issued, not overturned",
            "Counting recorded convictions and issued notices of violation the Board did not"
            " overturn (our reading), this would be offense number 2 of Elm Street Auto LLC"
            " (reading) : a fine of $350.00 to $700.00, or imprisonment of up to 15 days, or"
            " both.",
            False,
        ),
    ],
    ids=["conviction", "final", "issued"],
    indirect=["content_dir"],
)
def test_an_earlier_notice_counts_never_once_final_or_once_issued_by_the_reading(
    officer, clock, counts, offense, pending
):
    # The first notice served Monday 1 March 2027 (its appeal period runs to 16 March); on
    # 10 March the same respondent is found violating again, and a second notice is served.
    notice_served(officer, clock, "2027-03-01")
    clock.set("2027-03-10")
    again = {
        "respondent": "1",
        "place": "12 Elm Street",
        "committed_on": "2027-03-09",
        "found_on": "2027-03-10",
        "section": "216-6 A",
        "description": "Wash water again.",
    }
    ok(post(officer, "/staff/cases/1/enforcement", **again))
    history = text(officer.get("/staff/respondents/1/").text)
    assert f"Wash water piped to the storm drain. IDR-2027-0001 {counts}" in history
    ok(post(officer, "/staff/violations/2/notice", order_2="y", deadline="2027-04-30"))
    issue(officer, notice=2, served_on="2027-03-10")
    second = text(officer.get("/staff/notices/2/").text)
    assert offense in second
    not_counted = "Pending, not counted: 1 earlier notice not yet established."
    assert (not_counted in second) is pending


ANY = ("conditions_required: all", "conditions_required: any")


@pytest.mark.parametrize(
    ("content_dir", "state"),
    [
        (None, "Not yet: the conditions do not hold as recorded."),
        (ANY, "All of these are recorded: a remedy can be assigned."),
    ],
    ids=["all", "any"],
    indirect=["content_dir"],
)
def test_one_condition_of_five_opens_the_remedies_only_by_the_reading(officer, clock, state):
    # The Attorney recommends a remedy and the officer concurs; of the five conditions only
    # (1), "the violation was unintentional", is ticked.
    notice_served(officer, clock, "2027-03-01")
    clock.set("2027-03-05")
    ok(
        post(
            officer,
            "/staff/notices/1/steps/attorney",
            "/staff/notices/1/",
            attorney_recommendation="A workshop instead of a fine.",
            attorney_recommended_on="2027-03-05",
            smo_concurs="yes",
        )
    )
    ok(post(officer, "/staff/notices/1/steps/conditions", "/staff/notices/1/", holds_0="y"))
    where = "with the officer's concurrence, where the conditions hold (reading) ."
    assert f"{where} {state}" in notice_page(officer)
