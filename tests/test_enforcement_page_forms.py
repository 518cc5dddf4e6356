"""The forms on a notice's page show what is already recorded, so that saving one again
keeps it: the alternative-remedy conditions ticked with their notes, a payment's correction
form filled with its day and amount, and a remedy's "done" form beside it. The notice is
served Monday 1 March 2027 with a deadline of Wednesday 31 March."""

from __future__ import annotations

import re

import pytest
from enforcement_helpers import issue, ok, post, violation

pytest_plugins = ["enforcement_fixtures"]  # the clock and the signed-in officer
PAGE = "/staff/notices/1/"


@pytest.fixture
def served(officer, clock):
    violation(officer)
    ok(post(officer, "/staff/violations/1/notice", order_1="y", order_2="y", deadline="2027-03-31"))
    issue(officer)
    return officer


def inputs(page: str, name: str) -> list[str]:
    """Each <input> or <textarea> named `name`, as written in the page."""
    return re.findall(rf'<(?:input|textarea)[^>]*name="{re.escape(name)}"[^>]*>(?:[^<]*)', page)


def test_the_conditions_recorded_are_ticked_with_their_notes(served, clock):
    clock.set("2027-03-02")
    ok(
        post(
            served,
            f"{PAGE}steps/conditions",
            PAGE,
            holds_0="y",
            note_0="Paid the fine for 2019.",
            holds_2="y",
        )
    )
    page = served.get(PAGE).text
    ticked = [bool(re.search(r"\bchecked\b", inputs(page, f"holds_{i}")[0])) for i in range(5)]
    assert ticked == [True, False, True, False, False]
    assert 'value="Paid the fine for 2019."' in inputs(page, "note_0")[0]


def test_a_payment_s_correction_form_holds_its_day_and_amount(served, clock):
    clock.set("2027-04-05")
    ok(
        post(
            served,
            f"{PAGE}steps/completion",
            PAGE,
            completed_on="2027-04-05",
            work="1000.00",
            admin="",
        )
    )
    ok(
        post(
            served,
            f"{PAGE}steps/costs",
            PAGE,
            cost_notice_mailed_on="2027-04-05",
            payment_count="3",
        )
    )
    ok(post(served, f"{PAGE}payments", PAGE, paid_on="2027-04-05", amount="120.50"))
    page = served.get(PAGE).text
    assert 'value="2027-04-05"' in inputs(page, "fix-1-paid_on")[0]
    assert 'value="120.50"' in inputs(page, "fix-1-amount")[0]
    assert inputs(page, "void-1-reason")


def test_an_assigned_remedy_has_its_done_form(served, clock):
    clock.set("2027-03-02")
    ok(
        post(
            served,
            f"{PAGE}steps/attorney",
            PAGE,
            attorney_recommendation="A workshop.",
            attorney_recommended_on="2027-03-01",
            smo_concurs="yes",
        )
    )
    ok(post(served, f"{PAGE}steps/conditions", PAGE, **{f"holds_{i}": "y" for i in range(5)}))
    remedy = {"kind": "Attendance at compliance workshops", "due_on": "2027-04-30"}
    ok(post(served, f"{PAGE}remedies", PAGE, **remedy))
    page = served.get(PAGE).text
    assert f'action="{PAGE}remedies/1/done"' in page
    assert inputs(page, "completed_on")
