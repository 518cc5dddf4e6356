"""The table "Every date of this notice, in order" on a notice's page, row by row, as the
officer reads it: each date's name, its day, the section it comes from and its state, with
an appeal heard, decided and its decision filed and mailed. The notice is served Monday
1 March 2027 with a deadline of Wednesday 31 March."""

from __future__ import annotations

import html
import re

import pytest
from enforcement_helpers import issue, ok, post, violation

pytest_plugins = ["enforcement_fixtures"]  # the clock and the signed-in officer
PAGE = "/staff/notices/1/"


def rows(page: str) -> list[str]:
    """The dates table's rows, each as its cells' words joined by " | "."""
    table = page.split('id="dates-caption"', 1)[1].split("</table>", 1)[0]
    found = []
    for row in re.findall(r"<tr>(.*?)</tr>", table, re.S):
        cells = re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)
        words = [
            re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", c))).strip() for c in cells
        ]
        found.append(" | ".join(words))
    return found


@pytest.fixture
def served(officer, clock):
    violation(officer)
    ok(post(officer, "/staff/violations/1/notice", order_1="y", order_2="y", deadline="2027-03-31"))
    issue(officer)
    return officer


def step(officer, name: str, **data):
    ok(post(officer, f"{PAGE}steps/{name}", PAGE, **data))


def test_before_any_step_the_appeal_and_the_correction_are_open(served, clock):
    clock.set("2027-03-16")
    assert rows(served.get(PAGE).text)[1:] == [
        "Tuesday, March 16, 2027 | Appeal window closes | § 216-14 | Open",
        "Wednesday, March 31, 2027 | Correction due | § 216-15 | Open",
    ]


def test_an_appeal_heard_decided_and_its_decision_filed_and_mailed(served, clock):
    clock.set("2027-03-10")
    step(served, "appeal", appeal_filed_on="2027-03-10")
    clock.set("2027-04-06")
    step(served, "decision", hearing_on="2027-04-01", decided_on="2027-04-05", upheld="yes")
    clock.set("2027-04-09")
    step(
        served,
        "filing",
        decision_filed_on="2027-04-08",
        decision_mailed_on="2027-04-09",
        certified_mail_number="9407 1000 0000 0000 0001",
    )
    clock.set("2027-04-20")
    # Heard within 30 days of the filing; the decision filed and mailed within five days of
    # it (Saturday 10 April runs to Monday 12); upheld, so the correction is due five business
    # days after the decision, later than the notice's own 31 March.
    assert rows(served.get(PAGE).text)[1:] == [
        "Tuesday, March 16, 2027 | Appeal window closes | § 216-14 | Done, Wednesday, March 10, 2027",
        "Friday, April 9, 2027 | Hearing due | § 216-14 | Done, Thursday, April 1, 2027",
        "Monday, April 12, 2027 | Decision filed and mailed | § 216-14 | Done, Friday, April 9, 2027",
        "Monday, April 12, 2027 | Correction due | § 216-15 | Overdue",
    ]


@pytest.mark.parametrize(
    "filing",
    [
        {"decision_filed_on": "2027-04-08", "decision_mailed_on": "2027-04-09"},
        {"decision_filed_on": "2027-04-08", "certified_mail_number": "9407 1000 0000 0000 0001"},
        {"decision_mailed_on": "2027-04-09", "certified_mail_number": "9407 1000 0000 0000 0001"},
        {"certified_mail_number": "9407 1000 0000 0000 0001"},
    ],
)
def test_the_decision_is_filed_only_once_filed_mailed_and_its_number_kept(served, clock, filing):
    clock.set("2027-03-10")
    step(served, "appeal", appeal_filed_on="2027-03-10")
    clock.set("2027-04-06")
    step(served, "decision", decided_on="2027-04-05", upheld="no")
    clock.set("2027-04-09")
    step(served, "filing", **filing)
    # No hearing date given: the decision's day is the hearing's. Not upheld: no correction.
    assert rows(served.get(PAGE).text)[1:] == [
        "Tuesday, March 16, 2027 | Appeal window closes | § 216-14 | Done, Wednesday, March 10, 2027",
        "Friday, April 9, 2027 | Hearing due | § 216-14 | Done, Monday, April 5, 2027",
        "Monday, April 12, 2027 | Decision filed and mailed | § 216-14 | Open",
    ]


def test_a_hearing_not_yet_held_is_open_then_overdue(served, clock):
    clock.set("2027-03-16")
    step(served, "appeal", appeal_filed_on="2027-03-16")
    clock.set("2027-04-15")
    assert rows(served.get(PAGE).text)[1:] == [
        "Tuesday, March 16, 2027 | Appeal window closes | § 216-14 | Done, Tuesday, March 16, 2027",
        "Thursday, April 15, 2027 | Hearing due | § 216-14 | Open",
    ]
    clock.set("2027-04-16")
    assert "Thursday, April 15, 2027 | Hearing due | § 216-14 | Overdue" in rows(
        served.get(PAGE).text
    )


def test_the_abatement_s_cost_notice_protest_and_payments(served, clock):
    clock.set("2027-04-05")
    step(served, "completion", completed_on="2027-04-05", work="1000.00", admin="")
    clock.set("2027-04-12")
    step(served, "costs", cost_notice_mailed_on="2027-04-12", payment_count="3")
    clock.set("2027-05-20")
    # The cost notice within 30 days of the abatement; the protest within 30 days of the
    # receipt presumed 5 days after mailing (17 April); the first payment due when the time
    # to protest ends, the next a month later; the respondent never corrected: the Village
    # abated, which the table says rather than a correction made late (officer's week M6).
    assert rows(served.get(PAGE).text)[1:] == [
        "Tuesday, March 16, 2027 | Appeal window closes | § 216-14 | Passed",
        "Wednesday, March 31, 2027 | Correction due | § 216-15"
        " | Not corrected; abated by the Village, Monday, April 5, 2027",
        "Wednesday, May 5, 2027 | Cost notice due | § 216-16 | Done, Monday, April 12, 2027",
        "Monday, May 17, 2027 | Protest window closes (receipt presumed) | § 216-16 | Passed",
        "Monday, May 17, 2027 | Payment 1 of 3 due | § 216-16 | Overdue",
        "Thursday, June 17, 2027 | Payment 2 of 3 due | § 216-16 | Open",
    ]


def test_a_correction_the_respondent_made_late_is_done_late(served, clock):
    clock.set("2027-04-06")
    step(served, "corrected", corrected_on="2027-04-05", correction_checked_on="2027-04-06")
    assert rows(served.get(PAGE).text)[2:] == [
        "Wednesday, March 31, 2027 | Correction due | § 216-15 | Done late, Monday, April 5, 2027",
    ]


def test_a_protest_in_time_leaves_no_payment_due_until_the_board_decides(served, clock):
    clock.set("2027-04-05")
    step(served, "completion", completed_on="2027-04-05", work="1000.00", admin="25.00")
    clock.set("2027-05-10")
    step(
        served,
        "costs",
        cost_notice_mailed_on="2027-04-12",
        cost_notice_received_on="2027-04-14",
        protest_filed_on="2027-05-10",
        payment_count="3",
    )
    clock.set("2027-05-20")
    # Received 14 April: 30 days later is Friday 14 May, earlier than the Monday 17 May the
    # cost notice printed (from the receipt presumed 5 days after mailing), which stands.
    assert rows(served.get(PAGE).text)[4:] == [
        "Monday, May 17, 2027 | Protest window closes (as the cost notice printed it)"
        " | § 216-16 | Done, Monday, May 10, 2027",
    ]


def test_an_alternative_remedy_is_a_date_of_the_notice_until_done(served, clock):
    clock.set("2027-03-02")
    step(
        served,
        "attorney",
        attorney_recommendation="A workshop.",
        attorney_recommended_on="2027-03-01",
        smo_concurs="yes",
    )
    step(served, "conditions", **{f"holds_{i}": "y" for i in range(5)})
    remedy = {"kind": "Attendance at compliance workshops", "due_on": "2027-04-30"}
    ok(post(served, f"{PAGE}remedies", PAGE, **remedy))
    clock.set("2027-05-03")
    assert rows(served.get(PAGE).text)[3:] == [
        "Friday, April 30, 2027 | Alternative remedy due: Attendance at compliance workshops"
        " | § 216-13 | Overdue",
    ]
    ok(post(served, f"{PAGE}remedies/1/done", PAGE, completed_on="2027-04-29"))
    assert rows(served.get(PAGE).text)[3:] == [
        "Friday, April 30, 2027 | Alternative remedy due: Attendance at compliance workshops"
        " | § 216-13 | Done, Thursday, April 29, 2027",
    ]


def next_payment(page: str) -> str:
    found = re.search(r"<dt>Next payment</dt><dd>(.*?)</dd>", page, re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", found.group(1))).strip() if found else ""


@pytest.mark.parametrize(
    ("paid", "left"),
    [
        # Paid in full: its row goes, the next payment is the one to come.
        (
            "333.34",
            [
                "Thursday, June 17, 2027 | Payment 2 of 3 due | § 216-16 | Open",
                "$333.33, payment 2 of 3, due Thursday, June 17, 2027 (reading)",
                False,
            ],
        ),
        # A cent short: it stays, overdue the day after, a special assessment.
        (
            "333.33",
            [
                "Monday, May 17, 2027 | Payment 1 of 3 due | § 216-16 | Overdue",
                "Thursday, June 17, 2027 | Payment 2 of 3 due | § 216-16 | Open",
                "$0.01 still to pay of $333.34, payment 1 of 3, due Monday, May 17, 2027 (reading)",
                True,
            ],
        ),
    ],
)
def test_a_payment_short_by_a_cent_keeps_its_row_and_a_paid_one_goes(served, clock, paid, left):
    clock.set("2027-04-05")
    step(served, "completion", completed_on="2027-04-05", work="1000.00", admin="")
    clock.set("2027-04-12")
    step(served, "costs", cost_notice_mailed_on="2027-04-12", payment_count="3")
    clock.set("2027-05-17")
    page = served.get(PAGE).text
    # $1,000.00 in three: the odd cent on the first, due when the time to protest ends.
    assert rows(page)[5:] == ["Monday, May 17, 2027 | Payment 1 of 3 due | § 216-16 | Open"]
    assert next_payment(page) == "$333.34, payment 1 of 3, due Monday, May 17, 2027 (reading)"
    ok(post(served, f"{PAGE}payments", PAGE, paid_on="2027-05-17", amount=paid))
    clock.set("2027-05-18")
    page = served.get(PAGE).text
    assert [*rows(page)[5:], next_payment(page), "<dt>Tax bill</dt>" in page] == left


def test_a_superseded_notice_has_no_dates_and_its_correction_names_it(served, clock):
    clock.set("2027-03-05")
    correct = "/staff/violations/1/notice?supersedes=1"
    ok(post(served, correct, correct, order_1="y", specifics_1="Stop now.", deadline="2027-04-30"))
    issue(served, 2, served_on="2027-03-05")
    clock.set("2027-03-08")
    old, new = served.get(PAGE).text, served.get("/staff/notices/2/").text
    assert "Superseded by NOV-2027-0002: its dates no longer run." in words(old)
    assert 'id="dates-caption"' not in old
    assert "Corrects NOV-2027-0001" in words(new)
    assert rows(new)[1:] == [
        "Monday, March 22, 2027 | Appeal window closes | § 216-14 | Open",
        "Friday, April 30, 2027 | Correction due | § 216-15 | Open",
    ]


def words(page: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page))).replace(" :", ":")
