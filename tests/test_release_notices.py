"""The release notification section as it was complied with: a notice counts once staff log
a call, visit or fax and link it; a written confirmation once they record the mailed letter.
The review's scenario: filed Monday 1 March 2027 at 10:00, never phoned."""

from __future__ import annotations

import datetime as dt
import re
from zoneinfo import ZoneInfo

import pytest
from helpers import (
    content_with_fax,
    csrf_of,
    file_notification,
    notification_data,
    rows,
    save_case,
    sign_in,
)
from mailserver import body
from nuchecker import assert_valid_pages

from portal.core.db import get_db
from portal.core.statuses import STATUSES
from portal.notification.compliance import notice_limit
from portal.staff.reports import annual_counts

NEW_YORK = ZoneInfo("America/New_York")
# The permit year holding March 2027 (content: January 3 to January 2).
YEAR_2027 = (dt.date(2027, 1, 3), dt.date(2028, 1, 2))


def at(app, moment: str) -> None:
    """Set the portal's clock to a local time, "2027-03-02T16:30"."""
    when = dt.datetime.fromisoformat(moment).replace(tzinfo=NEW_YORK)
    app.config["CLOCK"] = lambda: when


def file_on_monday(client, app, **overrides):
    """The review's filing: discovered Monday 1 March 2027 at 9:00, filed at 10:00."""
    at(app, "2027-03-01T10:00")
    day = "2027-03-01T"
    answers = {
        "began_at": day + "08:30",
        "discovered_at": day + "09:00",
        "emergency_called_at": day + "09:10",
        "dec_called_at": day + "09:20",
        "ended_at": day + "09:45",
        "prior_notice": "none",
        "prior_notice_at": "",
        "prior_notice_to": "",
    }
    data = notification_data(**(answers | overrides))
    review, final = file_notification(client, data)
    assert final.status_code == 303, review.text[:400]
    return final


def log_notice(client, how: str, told_at: str, case_id: int | None = 1, **extra):
    """Log a notice from the filing's case page (so it is linked), or alone (case_id None)."""
    url = "/staff/phone-notices/new" + (f"?case={case_id}" if case_id else "")
    page = client.get(url).text
    data = {
        "csrf_token": csrf_of(page),
        "told_at": told_at,
        "how": how,
        "facility_name": "Depot Street Fuel",
        "caller_name": "Sam Lee",
        "material": "Diesel",
        "case": str(case_id or ""),
    } | extra
    response = client.post("/staff/phone-notices/new", data=data)
    assert response.status_code == 303, response.text[:500]
    return response


def record_letter(
    client, notice_id: int, mailed_on: str, received_on: str = "", case_id=1, sender: str = ""
):
    page = client.get(f"/staff/phone-notices/{notice_id}/").text
    data = {
        "csrf_token": csrf_of(page),
        "mailed_on": mailed_on,
        "received_on": received_on,
        "sender": sender,
    }
    if case_id:
        data["case_id"] = str(case_id)
    return client.post(f"/staff/phone-notices/{notice_id}/letter", data=data)


def stored(app) -> dict:
    [n] = rows(app, "SELECT notice_met, confirmation_due, confirmation_met FROM notifications")
    return n


def figures(app) -> dict:
    with app.app_context():
        from portal.core.clock import local_now

        return annual_counts(get_db(), *YEAR_2027, now=local_now())


# ---------------------------------------------------------------- the deadline of a notice


@pytest.mark.parametrize(
    ("how", "office_hours_apply_to_fax", "last_moment"),
    # Seed 153: "in person or by telephone or facsimile no later than the next business day": a
    # day, not an hour; only a fax can be held to office hours.
    [
        ("phone", False, "23:59:59"),
        ("in-person", False, "23:59:59"),
        ("fax", False, "23:59:59"),
        ("online", False, "23:59:59"),
        ("fax", True, "16:00:00"),
        ("phone", True, "23:59:59"),
    ],
)
def test_every_notice_is_due_by_the_end_of_the_day_closing_time_is_advice(
    how, office_hours_apply_to_fax, last_moment
):
    due = dt.datetime(2027, 3, 2, 16, 0, tzinfo=NEW_YORK)
    limit = notice_limit(due, how, office_hours_apply_to_fax)
    assert limit == dt.datetime.fromisoformat(f"2027-03-02T{last_moment}").replace(tzinfo=NEW_YORK)


def test_no_reading_for_faxes_where_no_fax_number_is_published(client, app):
    receipt = client.get(file_on_monday(client, app).headers["Location"]).text
    assert "a fax, by the end of that day" not in receipt
    assert (
        "The law says only “no later than the next business day”, a day and not an hour,"
        " so a notice given by the end of that day counts as in time: our reading too. The"
        " office closes at 4:00 p.m.: call or come in before then" in receipt
    )


class TestWhereAFaxNumberIsPublished:
    @pytest.fixture
    def content_dir(self, tmp_path):
        return content_with_fax(tmp_path / "content")

    def test_the_reading_for_faxes_is_declared_on_the_receipt(self, client, app):
        receipt = client.get(file_on_monday(client, app).headers["Location"]).text
        assert "(607) 555-0148" in receipt
        assert (
            "so a notice given by the end of that day counts as in time: our reading too."
            in receipt
        )


class TestWhereFaxesAreHeldToOfficeHours:
    """A pack that turns office_hours_apply_to_fax on holds a fax to closing time (4 p.m.) on
    the due day, and nothing else: a visit or a call at 5 p.m. that day is still in time."""

    @pytest.fixture
    def content_dir(self, tmp_path):
        root = content_with_fax(tmp_path / "content")
        site = root / "site.yaml"
        text = site.read_text(encoding="utf-8")
        assert text.count("office_hours_apply_to_fax: false") == 1
        site.write_text(
            text.replace("office_hours_apply_to_fax: false", "office_hours_apply_to_fax: true"),
            encoding="utf-8",
        )
        return root

    @pytest.mark.parametrize(
        ("how", "label", "met", "words"),
        [
            ("in-person", "Notice in person</a>", 1, ">in time<"),
            ("phone", "Notice by telephone</a>", 1, ">in time<"),
            ("fax", "Notice by fax</a>", 0, ">after the deadline (late)<"),
        ],
    )
    def test_at_5_pm_on_the_due_day_only_a_fax_is_late(self, app, client, how, label, met, words):
        file_on_monday(client, app)
        sign_in(client, app)
        at(app, "2027-03-02T17:30")
        log_notice(client, how, "2027-03-02T17:00")
        assert stored(app)["notice_met"] == met
        case_page = client.get("/staff/cases/1/").text
        assert label in case_page
        assert words in case_page


# ---------------------------------------------------------------- the review's scenario


def test_a_filing_never_phoned_is_overdue_after_4_pm_on_the_next_business_day(app, client):
    file_on_monday(client, app)
    assert stored(app)["notice_met"] is None, "filing is not notice: nothing stored as given"
    sign_in(client, app)
    at(app, "2027-03-02T23:59")
    # Past closing time, but the law's day is not over: not yet overdue.
    assert "No notice logged by the deadline" not in client.get("/staff/").text
    assert figures(app)["notice_to_come"] == 1
    at(app, "2027-03-03T00:01")
    queue = client.get("/staff/").text
    assert "No notice logged by the deadline" in queue
    assert "REL-2027-0001" in client.get("/staff/", query_string={"flag": "overdue"}).text
    case_page = client.get("/staff/cases/1/").text
    deadline = '<time datetime="2027-03-02">Tuesday, March 2, 2027</time>'
    assert f"Notice due by the end of {deadline} in person or by telephone" in case_page
    assert "No notice logged by the deadline</span>: counted as given late" in case_page
    # A week later it is still overdue, and the annual figures count it late.
    at(app, "2027-03-09T10:00")
    assert "No notice logged by the deadline" in client.get("/staff/").text
    counts = figures(app)
    assert (counts["notice_due"], counts["notice_missed"], counts["notice_on_time"]) == (1, 1, 0)


def test_a_fax_at_5_pm_on_the_due_day_is_in_time(app, client):
    file_on_monday(client, app)
    sign_in(client, app)
    at(app, "2027-03-02T17:30")
    log_notice(client, "fax", "2027-03-02T17:00")
    assert stored(app) == {"notice_met": 1, "confirmation_due": None, "confirmation_met": None}
    case_page = client.get("/staff/cases/1/").text
    assert "Notice by fax</a>" in case_page and ">in time<" in case_page
    assert "No notice logged by the deadline" not in client.get("/staff/").text
    counts = figures(app)
    assert (counts["notice_on_time"], counts["notice_missed"]) == (1, 0)
    assert dict(counts["notices_by_how"]) == {"phone": 0, "in-person": 0, "fax": 1}


def test_a_call_at_5_pm_on_the_due_day_is_in_time_and_owes_a_letter_by_friday(app, client):
    # The law's deadline is the day (seed 153, "no later than the next
    # business day"); a call after closing time that day is in time, one the next day late.
    file_on_monday(client, app)
    sign_in(client, app)
    at(app, "2027-03-02T17:30")
    log_notice(client, "phone", "2027-03-02T17:00")
    # Told Tuesday 2 March: Wednesday, Thursday, Friday are the three business days.
    assert stored(app) == {
        "notice_met": 1,
        "confirmation_due": "2027-03-05T23:59:59-05:00",
        "confirmation_met": None,
    }
    case_page = client.get("/staff/cases/1/").text
    assert ">in time<" in case_page and "after the deadline (late)" not in case_page
    assert '<time datetime="2027-03-05">Friday, March 5, 2027</time>' in case_page
    assert (figures(app)["notice_late"], figures(app)["notice_on_time"]) == (0, 1)
    at(app, "2027-03-06T09:00")
    assert "Written confirmation overdue" in client.get("/staff/").text


def test_a_call_the_day_after_is_late(app, client):
    file_on_monday(client, app)
    sign_in(client, app)
    at(app, "2027-03-03T09:30")
    log_notice(client, "phone", "2027-03-03T09:00")
    assert stored(app)["notice_met"] == 0
    assert "after the deadline (late)" in client.get("/staff/cases/1/").text
    assert figures(app)["notice_late"] == 1


# ---------------------------------------------------------------- the written confirmation


def test_confirmed_in_writing_needs_the_mailed_letter_and_then_tells_the_filer(
    app, client, mail_server
):
    filed = file_on_monday(
        client,
        app,
        prior_notice="phone",
        prior_notice_at="2027-03-01T09:30",
        prior_notice_to="Village Clerk",
    )
    assert stored(app)["confirmation_met"] is None, "the filing is not the letter"
    sign_in(client, app)
    at(app, "2027-03-01T11:00")
    case_page = client.get("/staff/cases/1/").text
    assert '<option value="confirmed"' not in case_page
    refused = save_case(client, 1, status="confirmed")
    assert refused.status_code == 422
    assert "needs the written confirmation mailed to the office" in refused.text
    # The call the filer named, logged and linked; the letter mailed Thursday 4 March.
    log_notice(client, "phone", "2027-03-01T09:30")
    at(app, "2027-03-05T11:00")
    before = len(mail_server.messages)
    response = record_letter(client, 1, "2027-03-04", "2027-03-05", sender="Sam Lee, yard manager")
    assert response.status_code == 303 and response.headers["Location"] == "/staff/cases/1/"
    assert stored(app) == {
        "notice_met": 1,
        "confirmation_due": "2027-03-04T23:59:59-05:00",
        "confirmation_met": 1,
    }
    [case] = rows(app, "SELECT status FROM cases")
    assert case["status"] == "confirmed"
    [update] = mail_server.messages[before:]
    text = body(update)
    assert "Confirmed in writing" in text
    assert "Staff have received the written confirmation mailed to Horseheads Village Hall." in text
    log = client.get("/staff/cases/1/").text
    assert (
        "a letter from Sam Lee, yard manager mailed Thursday, March 4, 2027, arrived Friday,"
        " March 5, 2027, in time"
    ) in log
    assert "From Sam Lee, yard manager." in client.get("/staff/phone-notices/1/").text
    assert "Status Received → Confirmed in writing" in log
    counts = figures(app)
    assert (counts["letter_on_time"], counts["letter_late"], counts["letters_mailed"]) == (1, 0, 1)
    # The filer's receipt now says what staff recorded.
    receipt = client.get(filed.headers["Location"]).text
    assert "Confirmed in writing. Staff have received the written confirmation mailed to" in receipt
    assert "Given by telephone, March 1, 2027 at 9:30 a.m., as recorded by staff" in receipt
    assert (
        'A letter mailed on <time datetime="2027-03-04">Thursday, March 4, 2027</time>, as'
        " recorded by staff"
    ) in receipt


def test_a_letter_mailed_after_the_third_business_day_is_late(app, client):
    file_on_monday(client, app)
    sign_in(client, app)
    at(app, "2027-03-01T11:00")
    log_notice(client, "phone", "2027-03-01T10:30")
    at(app, "2027-03-09T11:00")
    record_letter(client, 1, "2027-03-08")
    assert stored(app)["confirmation_met"] == 0
    assert "mailed <time" in client.get("/staff/cases/1/").text
    counts = figures(app)
    assert (counts["letter_on_time"], counts["letter_late"], counts["letter_missed"]) == (0, 1, 0)


@pytest.mark.parametrize(
    ("mailed_on", "received_on", "message"),
    [
        ("", "", "Enter the day the letter was mailed"),
        ("2027-02-26", "", "enter that day or later"),
        ("2027-03-20", "", "Enter a day that has passed"),
        ("2027-03-04", "2027-03-03", "It cannot arrive before it was mailed."),
    ],
)
def test_a_letter_with_a_wrong_date_is_explained_and_kept(
    app, client, mailed_on, received_on, message
):
    file_on_monday(client, app)
    sign_in(client, app)
    at(app, "2027-03-05T11:00")
    log_notice(client, "phone", "2027-03-01T10:30")
    response = record_letter(client, 1, mailed_on, received_on, case_id=None)
    assert response.status_code == 422 and message in response.text
    if mailed_on:
        assert f'value="{mailed_on}"' in response.text
    assert stored(app)["confirmation_met"] is None


def test_a_fax_needs_no_letter(app, client):
    file_on_monday(client, app)
    sign_in(client, app)
    at(app, "2027-03-01T11:00")
    log_notice(client, "fax", "2027-03-01T10:30")
    page = client.get("/staff/phone-notices/1/").text
    assert "A fax is written notice: nothing to confirm." in page
    response = record_letter(client, 1, "2027-03-01")
    assert "A fax is written already" in client.get(response.headers["Location"]).text


# ---------------------------------------------------------------- linking


def test_linking_shows_on_both_records_and_in_the_audit_log_even_when_filed_first(app, client):
    file_on_monday(client, app)  # filed 10:00
    sign_in(client, app)
    at(app, "2027-03-01T10:20")
    log_notice(client, "phone", "2027-03-01T10:15", case_id=None, facility_name="Depot St Fuel")
    case_page = client.get("/staff/cases/1/").text
    assert "Depot St Fuel</a>" in case_page, "a notice told near the filing is suggested"
    link = re.search(r'action="(/staff/phone-notices/1/link)"', case_page).group(1)
    response = client.post(
        link, data={"csrf_token": csrf_of(case_page), "reference": "REL-2027-0001", "case_id": "1"}
    )
    assert response.headers["Location"] == "/staff/cases/1/"
    case_page = client.get("/staff/cases/1/").text
    assert "(after this filing was made)" in case_page
    assert (
        "Linked to the notice by telephone of March 1, 2027 at 10:15 a.m. from Sam Lee"
        " (Depot St Fuel); this filing was made before the notice was given"
    ) in case_page
    notice_page = client.get("/staff/phone-notices/1/").text
    assert (
        ">REL-2027-0001</a>, filed March 1, 2027 at 10:00 a.m. (before this notice" in notice_page
    )
    assert "Linked to the notice by telephone" in notice_page, "the log shows on the notice too"
    assert stored(app)["notice_met"] == 1
    # A link made by mistake is undone, in the log too.
    unlink = re.search(r'action="(/staff/phone-notices/1/unlink)"', case_page).group(1)
    client.post(unlink, data={"csrf_token": csrf_of(case_page), "case_id": "1"})
    assert stored(app)["notice_met"] is None
    assert "Unlinked from the notice by telephone" in client.get("/staff/cases/1/").text
    # A notice is linked to one filing at a time.
    file_on_monday(client, app)
    client.post(link, data={"csrf_token": csrf_of(case_page), "reference": "REL-2027-0002"})
    refused = client.post(
        link, data={"csrf_token": csrf_of(case_page), "reference": "REL-2027-0001"}
    )
    assert (
        "That notice is linked to REL-2027-0002: unlink it there first."
        in client.get(refused.headers["Location"]).text
    )


# ---------------------------------------------------------------- statuses


def test_the_status_wordings_claim_no_more_than_the_record():
    assert STATUSES["confirmed"].public == (
        "Staff have received the written confirmation mailed to {office}."
    )
    closed = STATUSES["closed"].public
    assert "No further action" not in closed
    assert (
        "a notice not yet given must still be given; a written confirmation still due must"
        " still be mailed"
    ) in closed
    assert "at least three years" in closed


# ---------------------------------------------------------------- valid HTML


def test_the_notice_pages_queue_and_figures_are_valid_html(app, client, tmp_path):
    file_on_monday(
        client,
        app,
        prior_notice="phone",
        prior_notice_at="2027-03-01T09:30",
        prior_notice_to="Village Clerk",
    )
    file_on_monday(client, app)
    sign_in(client, app)
    at(app, "2027-03-05T11:00")
    log_notice(client, "phone", "2027-03-01T09:30")
    log_notice(client, "in-person", "2027-03-02T09:00", case_id=None)
    pages = {
        "case-linked": client.get("/staff/cases/1/"),
        "case-suggested": client.get("/staff/cases/2/"),
        "notice-linked": client.get("/staff/phone-notices/1/"),
        "notice-alone": client.get("/staff/phone-notices/2/"),
        "notice-letter-errors": record_letter(client, 1, "2027-02-01", "2027-01-01", case_id=None),
        "notice-new-for-filing": client.get("/staff/phone-notices/new?case=2"),
        "queue-search": client.get("/staff/", query_string={"q": "Depot"}),
        "queue-overdue": client.get("/staff/", query_string={"flag": "overdue"}),
    }
    record_letter(client, 1, "2027-03-04")
    pages["case-confirmed"] = client.get("/staff/cases/1/")
    pages["notice-confirmed"] = client.get("/staff/phone-notices/1/")
    pages["notices"] = client.get("/staff/phone-notices/")
    pages["annual"] = client.get("/staff/annual-report/", query_string={"start": "2027-01-03"})
    assert [name for name, r in pages.items() if r.status_code not in (200, 422)] == []
    assert_valid_pages(pages, tmp_path)
