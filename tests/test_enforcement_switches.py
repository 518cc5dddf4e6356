"""Enforcement's readings, each turned the other way by a throwaway pack (a copy of the
content with one line of enforcement.yaml changed), through the notice page the officer
reads: the default pack's pages are tested everywhere else, so these are the other sides."""

from __future__ import annotations

import pytest
from enforcement_helpers import notice_served, ok, post
from throwaway_pack import text, throwaway_pack

pytest_plugins = ["enforcement_fixtures"]  # the clock and the signed-in officer


@pytest.fixture
def content_dir(request, tmp_path):
    """The default pack, or a copy with `request.param`'s (line, replacement) applied."""
    if not getattr(request, "param", None):
        return None
    return throwaway_pack(tmp_path / "content", "enforcement.yaml", *request.param)


def step(officer, name: str, **data) -> None:
    """A step of notice 1 recorded through its form."""
    ok(post(officer, f"/staff/notices/1/steps/{name}", "/staff/notices/1/", **data))


ROLL = ("roll_to_business_day: true", "roll_to_business_day: false")


@pytest.mark.parametrize(
    ("content_dir", "closes"),
    [(None, "Monday, March 22, 2027"), (ROLL, "Saturday, March 20, 2027")],
    ids=["rolled", "not-rolled"],
    indirect=["content_dir"],
)
def test_an_appeal_period_ending_on_a_saturday_rolls_to_monday_only_by_the_reading(
    officer, clock, closes
):
    # Served Friday 5 March 2027: 15 days end on Saturday 20 March.
    notice_served(officer, clock, "2027-03-05")
    words = text(officer.get("/staff/notices/1/").text)
    assert f"Appeal to the Board of Trustees due by {closes}" in words


SUSPENDS = ("appeal_suspends_deadline: true", "appeal_suspends_deadline: false")


@pytest.mark.parametrize(
    ("content_dir", "suspended"),
    [(None, True), (SUSPENDS, False)],
    ids=["suspends", "does-not-suspend"],
    indirect=["content_dir"],
)
def test_an_appeal_in_time_holds_the_deadline_only_by_the_reading(officer, clock, suspended):
    notice_served(officer, clock, "2027-03-01", deadline="2027-03-31")
    clock.set("2027-03-10")
    step(officer, "appeal", appeal_filed_on="2027-03-10")
    words = text(officer.get("/staff/notices/1/").text)
    waits = "The correction date waits for the decision of the Board of Trustees"
    assert (waits in words) is suspended
    assert ("Correction due by Wednesday, March 31, 2027" in words) is not suspended


FROM_MAILING = ("protest_runs_from: receipt", "protest_runs_from: mailing")


@pytest.mark.parametrize(
    ("content_dir", "closes"),
    [(None, "Monday, May 10, 2027"), (FROM_MAILING, "Wednesday, May 5, 2027")],
    ids=["from-receipt", "from-mailing"],
    indirect=["content_dir"],
)
def test_the_protest_period_runs_from_receipt_or_mailing_by_the_reading(officer, clock, closes):
    # Abated 1 April 2027, the cost notice mailed Monday 5 April: receipt presumed five days
    # later (Saturday 10 April), then 30 days; or 30 days from the mailing itself.
    notice_served(officer, clock, "2027-03-01", deadline="2027-03-31")
    clock.set("2027-04-01")
    step(officer, "completion", completed_on="2027-04-01", work="900", admin="100")
    clock.set("2027-04-05")
    step(officer, "costs", cost_notice_mailed_on="2027-04-05", payment_count="12")
    words = text(officer.get("/staff/notices/1/").text)
    assert f"Protest due by {closes}" in words
    assert ("receipt presumed" in words) is (closes == "Monday, May 10, 2027")
