"""Enforcement in the workspace: from a confirmed violation to a notice, an appeal, corrective
work and cost recovery, with every date on the page, every step in the audit log, issued
notices frozen, and nothing of it on a public page, status page or export."""

from __future__ import annotations

import datetime as dt
import re
import sqlite3
from zoneinfo import ZoneInfo

import pytest
from enforcement_helpers import issue, issue_notice, ok, post, times, violation
from helpers import open_form, report_data, sign_in
from mailserver import body

from portal.core.db import get_db

pytest_plugins = ["enforcement_fixtures"]  # the clock and the signed-in officer
TZ = ZoneInfo("America/New_York")


def test_the_whole_path_with_its_dates(officer, clock, app):
    violation(officer)
    page = officer.get("/staff/cases/1/enforcement").text
    assert "Elm Street Auto LLC" in page and "Draft a notice of violation" in page
    # No order: the draft is refused, with the choices kept.
    refused = post(officer, "/staff/violations/1/notice", deadline="2027-03-31")
    assert refused.status_code == 422 and "Choose at least one order." in refused.text
    # Abatement ordered without a deadline: refused too.
    refused = post(officer, "/staff/violations/1/notice", order_2="y")
    assert "set the deadline" in refused.text and "checked" in refused.text
    issue_notice(officer, clock)
    page = officer.get("/staff/notices/1/").text
    number = re.search(r"NOV-2027-\d{4}", page).group(0)
    assert number == "NOV-2027-0001"
    # Issued 1 March 2027: appeal by 16 March (15 calendar days, a Tuesday).
    assert "2027-03-16" in times(page) and "2027-03-31" in times(page)
    assert "Where the law is silent" in page and "calendar days" in page

    clock.set("2027-03-10")
    ok(
        post(
            officer,
            "/staff/notices/1/steps/appeal",
            "/staff/notices/1/",
            appeal_filed_on="2027-03-10",
        )
    )
    page = officer.get("/staff/notices/1/").text
    # Hearing within 30 days of filing: 9 April 2027 (a Friday).
    assert "2027-04-09" in times(page)
    assert "waits for the decision of the Board of Trustees" in page
    clock.set("2027-04-05")
    ok(
        post(
            officer,
            "/staff/notices/1/steps/decision",
            "/staff/notices/1/",
            hearing_on="2027-04-05",
            decided_on="2027-04-05",
            upheld="yes",
        )
    )
    page = officer.get("/staff/notices/1/").text
    # Decision filed and mailed within five days: 10 April is a Saturday, so Monday 12 April
    # (General Construction Law § 25-a); correction within five business days: 12 April.
    assert "2027-04-12" in times(page)
    clock.set("2027-04-06")
    ok(
        post(
            officer,
            "/staff/notices/1/steps/filing",
            "/staff/notices/1/",
            decision_filed_on="2027-04-06",
            decision_mailed_on="2027-04-06",
            certified_mail_number="7019 0700 0000 1234 5678",
        )
    )

    clock.set("2027-05-03")
    ok(
        post(
            officer,
            "/staff/notices/1/steps/completion",
            "/staff/notices/1/",
            completed_on="2027-05-03",
            work="1,200.00",
            admin="150",
        )
    )
    clock.set("2027-05-05")
    ok(
        post(
            officer,
            "/staff/notices/1/steps/costs",
            "/staff/notices/1/",
            cost_notice_mailed_on="2027-05-03",
            cost_notice_received_on="2027-05-05",
            payment_count="3",
        )
    )
    page = officer.get("/staff/notices/1/").text
    # A week of continued violation each 7 days from the correction date (12 April) to the
    # abatement (3 May): 3.
    assert "<strong>3</strong> weeks from the correction date" in page
    # Cost notice within 30 days of 3 May: 2 June. Protest 30 days from receipt (5 May) would be
    # 4 June, but the notice printed 30 days from the receipt presumed on 8 May, Monday 7 June,
    # and the period never ends before the date printed (legal review A2).
    assert {"2027-06-02", "2027-06-07"} <= set(times(page))
    assert "2027-06-04" not in times(page)

    # Two payments: one before interest starts (3 June, the 31st day after 3 May), one after.
    clock.set("2027-06-01")
    ok(
        post(
            officer,
            "/staff/notices/1/payments",
            "/staff/notices/1/",
            paid_on="2027-06-01",
            amount="450",
        )
    )
    clock.set("2027-07-11")
    ok(
        post(
            officer,
            "/staff/notices/1/payments",
            "/staff/notices/1/",
            paid_on="2027-07-11",
            amount="450.00",
        )
    )
    page = officer.get("/staff/notices/1/").text
    # $1,350 charged, $900 of it left from 3 June to 10 July (38 days at 9%/365): $8.43
    # interest, paid first from the second payment: $441.57 to the charge, $458.43 left,
    # plus the day of the payment's interest on it ($0.11).
    balance = re.search(r'id="balance">([^<]+)<', page).group(1)
    assert balance == "$458.54", balance
    statement = officer.get("/staff/notices/1/statement")
    assert (
        statement.status_code == 200 and "$8.43" in statement.text and "$441.57" in statement.text
    )

    events = officer.get("/staff/cases/1/").text
    for words in (
        "Violation recorded",
        "Notice of violation issued (NOV-2027-0001)",
        "Appeal logged",
        "Board decision recorded",
        "Abatement completion recorded",
        "Payment recorded",
    ):
        assert words in events, words
    letter = officer.get("/staff/notices/1/letter").text
    assert "NOV-2027-0001" in letter and "202 South Main Street" in letter
    assert "2027-03-16" in times(letter) and "designated governmental agency" in letter


def test_an_issued_notice_is_frozen_and_a_correction_supersedes_it(officer, clock, app):
    issue_notice(officer, clock)
    response = post(officer, "/staff/notices/1/draft", "/staff/notices/1/", order_0="y")
    assert "can no longer change" in officer.get(response.headers["Location"]).text
    with app.app_context(), pytest.raises(sqlite3.IntegrityError):
        get_db().execute("UPDATE notices SET deadline = '2030-01-01' WHERE id = 1")
    ok(
        post(
            officer,
            "/staff/violations/1/notice?supersedes=1",
            "/staff/violations/1/notice?supersedes=1",
            order_1="y",
            specifics_1="Stop now.",
            deadline="2027-04-30",
        )
    )
    issue(officer, 2)
    old = officer.get("/staff/notices/1/").text
    assert "Superseded by" in old and "NOV-2027-0002" in old
    # One notice in force per violation: a second one is refused, and so is correcting the
    # superseded one again.
    for url in ("/staff/violations/1/notice", "/staff/violations/1/notice?supersedes=1"):
        response = officer.get(url)
        assert response.status_code == 303 and response.headers["Location"] == "/staff/notices/2/"
    deadlines = officer.get("/staff/enforcement/deadlines").text
    assert "NOV-2027-0002" in deadlines and "NOV-2027-0001" not in deadlines


def test_overdue_dates_are_flagged_in_the_deadlines_view_and_the_queue(officer, clock):
    issue_notice(officer, clock, deadline="2027-03-05")
    clock.set("2027-03-20")
    page = officer.get("/staff/enforcement/deadlines").text
    assert "Correction due" in page and "Overdue" in page
    assert "Appeal window closes" not in page, "the window has passed with no appeal"
    queue = officer.get("/staff/").text
    assert "Enforcement dates" in queue and "Correction due" in queue
    # Two weeks since the deadline passed.
    assert "<strong>2</strong> weeks" in officer.get("/staff/notices/1/").text


def test_bad_input_is_answered_beside_the_field(officer, clock):
    issue_notice(officer, clock)
    response = post(
        officer, "/staff/notices/1/payments", "/staff/notices/1/", paid_on="2027-03-01", amount="x"
    )
    assert response.status_code == 404, "no payment before the abatement is completed"
    response = post(
        officer, "/staff/notices/1/steps/appeal", "/staff/notices/1/", appeal_filed_on="2026-01-01"
    )
    assert response.status_code == 422 and "on or after" in response.text
    response = post(
        officer, "/staff/notices/1/steps/appeal", "/staff/notices/1/", appeal_filed_on="2030-01-01"
    )
    assert response.status_code == 422 and "has passed" in response.text
    response = post(
        officer, "/staff/notices/1/steps/decision", "/staff/notices/1/", decided_on="2027-03-01"
    )
    assert response.status_code == 303, "refused: no appeal logged"
    assert officer.post("/staff/notices/1/steps/bogus", data={}).status_code in (400, 404)
    assert officer.get("/staff/notices/99/").status_code == 404


def test_each_section_is_offered_by_whole_words(officer, clock):
    """Fresh review: "§ 216-7 B Upon notification to a person that he or she is engaged in a"
    was cut mid-phrase, as if it were the law's own words."""
    page = officer.get("/staff/cases/1/enforcement").text
    assert (
        '<option value="216-7 B">§ 216-7 B Upon notification to a person that he or she is'
        " engaged in activities…</option>" in page
    )
    assert "engaged in a</option>" not in page


def test_enforcement_stays_out_of_public_pages_status_and_exports(officer, clock, app):
    issue_notice(officer, clock)
    status = officer.get(officer.status_url).text
    exports = [
        officer.get(url)
        for url in re.findall(r'href="(/staff/exports/[^"]+)"', officer.get("/staff/exports/").text)
    ]
    for text in (status, *(r.get_data(as_text=True) for r in exports)):
        for secret in ("Elm Street Auto", "NOV-2027", "PO Box 12", "Wash water piped"):
            assert secret not in text
    anonymous = app.test_client()
    for url in (
        "/staff/notices/1/",
        "/staff/notices/1/letter",
        "/staff/respondents/",
        "/staff/enforcement/deadlines",
    ):
        assert anonymous.get(url).status_code == 401


def test_the_morning_digest_lists_the_open_dates_once_a_day(officer, clock, app, mail_server):
    from portal.mail.courier import sweep_and_send

    issue_notice(officer, clock, deadline="2027-03-05")
    mail_server.messages.clear()

    def sweep_at(moment: str) -> list:
        clock.moment = dt.datetime.fromisoformat(moment).replace(tzinfo=TZ)
        with app.app_context():
            sweep_and_send(app, get_db())
        return [m for m in mail_server.messages if m["Subject"].startswith("Morning digest")]

    assert sweep_at("2027-03-08T07:59") == [], "not before the office opens (8:00)"
    digests = sweep_at("2027-03-08T08:00")
    assert [m["Subject"] for m in digests] == [
        "Morning digest, Monday, March 8: 1 enforcement date (1 overdue)"
    ]
    text = body(digests[0])
    assert "Friday, March 5, 2027 (OVERDUE): Correction due" in text and "NOV-2027-0001" in text
    assert "Appeal window closes" not in text, "Tuesday, March 16 is more than a week ahead"
    assert len(sweep_at("2027-03-08T15:00")) == 1, "once a day"
    assert len(sweep_at("2027-03-09T08:30")) == 2, "and again the next morning"
    assert "Tuesday, March 16, 2027: Appeal window closes" in body(mail_server.messages[-1])


MONTH_DATE = re.compile(
    r"\b(January|February|March|April|May|June|July|August|September|October|November|December)"
    r" \d{1,2}, \d{4}"
)


def test_every_date_on_the_enforcement_pages_is_a_time_element(app, client):
    from enforcement_helpers import enforcement_pages

    client.post("/report/", data={**open_form(client), **report_data()})
    sign_in(client, app)
    pages = enforcement_pages(client, 1)
    assert len(pages) > 15
    for name, response in pages.items():
        assert response.status_code in (200, 422), name
        assert response.headers["Cache-Control"] == "no-store", name
        if response.status_code == 422:
            continue  # an error message may name the earliest date allowed, in words
        outside = re.sub(r"<time datetime=\"[^\"]+\">.*?</time>", "", response.text, flags=re.S)
        assert not MONTH_DATE.findall(outside), (name, MONTH_DATE.findall(outside))
    assert times(pages["enf-notice-issued"].text), "the issued notice shows its dates"
