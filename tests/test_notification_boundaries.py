"""The release notification's rules at the last moment of each period, through the page a
person reads: a filing on the last day of the permit year in that year's figures, a notice
still in time between closing time and midnight of its due day, and a pack that accepts the
online filing as the written confirmation (only a filing made after the call is one)."""

from __future__ import annotations

import re
import shutil

import pytest
from helpers import csrf_of, file_notification, notification_data, rows, sign_in
from test_release_notices import at, file_on_monday, log_notice, stored

YEAR_2027 = {"start": "2027-01-03", "end": "2028-01-02"}
YEAR_2028 = {"start": "2028-01-03", "end": "2029-01-02"}


def file_at(client, app, moment: str, day: str, began="08:30", discovered="09:00"):
    """A filing made at `moment`, of a release discovered on `day` ("2027-03-01T")."""
    at(app, moment)
    answers = {
        "began_at": day + began,
        "discovered_at": day + discovered,
        "emergency_called_at": day + discovered,
        "dec_called_at": day + discovered,
        "ended_at": day + discovered,
        "prior_notice": "none",
        "prior_notice_at": "",
        "prior_notice_to": "",
    }
    review, final = file_notification(client, notification_data(**answers))
    assert final.status_code == 303, review.text[:400]
    return final


def shown(page: str, label: str) -> int:
    """The number the annual report page shows for the figure labelled `label`."""
    found = re.search(rf"<th scope=\"row\">{re.escape(label)}</th><td><a [^>]*>(\d+)<", page)
    assert found, f"no figure {label!r} on the page"
    return int(found.group(1))


# ---------------------------------------------------------------- the permit year's last day


def test_a_filing_on_the_last_evening_of_the_permit_year_counts_in_that_year(app, client):
    # The default pack's year runs January 3 to January 2: Sunday 2 January 2028, 23:30, is
    # the last half hour of the 2027 permit year.
    file_at(client, app, "2028-01-02T23:30", "2028-01-02T", began="22:30", discovered="23:00")
    [case] = rows(app, "SELECT received_at FROM cases")
    assert case["received_at"] == "2028-01-02T23:30:00-05:00"
    sign_in(client, app)
    # The page opens on the year holding today, and counts the filing in it.
    page = client.get("/staff/annual-report/").text
    assert shown(page, "Filings made online (a record, not the notice)") == 1
    year = client.get("/staff/annual-report/", query_string=YEAR_2027).text
    assert shown(year, "Filings made online (a record, not the notice)") == 1
    after = client.get("/staff/annual-report/", query_string=YEAR_2028).text
    assert shown(after, "Filings made online (a record, not the notice)") == 0
    # The export of the year and the queue's date filter end on the same day, inclusive.
    sheet = client.get("/staff/exports/cases.csv").text
    assert "REL-2028-0001" in sheet
    assert (
        "REL-2028-0001" not in client.get("/staff/exports/cases.csv", query_string=YEAR_2028).text
    )
    on_the_day = {"start": "2028-01-02", "end": "2028-01-02"}
    assert "REL-2028-0001" in client.get("/staff/", query_string=on_the_day).text


# ---------------------------------------------------------------- a notice's due day


def test_between_closing_time_and_midnight_of_the_due_day_the_notice_is_not_late(app, client):
    # Discovered Monday 1 March 2027 at 9:00: notice due Tuesday 2 March (the office closes at
    # 4 p.m., but the law's deadline is the day).
    final = file_on_monday(client, app)
    receipt = final.headers["Location"]
    at(app, "2027-03-02T20:00")
    page = client.get(receipt).text
    assert "A deadline has passed" not in page
    assert "Not done yet, and that time has passed" not in page
    assert "even though it is late" not in page
    assert "Still to do" in page
    at(app, "2027-03-02T23:59")
    assert "A deadline has passed" not in client.get(receipt).text
    at(app, "2027-03-03T00:01")
    page = client.get(receipt).text
    assert "A deadline has passed" in page
    assert "Not done yet, and that time has passed" in page


def test_a_filing_made_after_closing_time_on_the_due_day_is_told_it_is_in_time(app, client):
    # Discovered Monday at 9:00, filed Tuesday (the due day) at 8 p.m.: the review step and
    # the receipt it lands on.
    final = file_at(client, app, "2027-03-02T20:00", "2027-03-01T")
    page = client.get(final.headers["Location"]).text
    assert "A deadline has passed" not in page
    assert "Tell the Village by the end of" in page
    assert '<time datetime="2027-03-02">Tuesday, March 2, 2027</time>' in page


# ---------------------------------------------------------------- the filing as the confirmation


def accepting_the_filing_as_confirmation(root):
    """A copy of the default content whose municipality accepts the online filing as the
    written confirmation of a notice in person or by telephone."""
    from content_model.fields import CONTENT_DIR

    shutil.copytree(CONTENT_DIR, root)
    site = root / "site.yaml"
    text = site.read_text(encoding="utf-8")
    old = "  counts_as_written_confirmation: false\n"
    assert text.count(old) == 1
    site.write_text(text.replace(old, "  counts_as_written_confirmation: true\n"), encoding="utf-8")
    return root


def link(client, notice_id: int, reference: str) -> None:
    page = client.get(f"/staff/phone-notices/{notice_id}/").text
    response = client.post(
        f"/staff/phone-notices/{notice_id}/link",
        data={"csrf_token": csrf_of(page), "reference": reference},
    )
    assert response.status_code == 303


class TestWhereTheFilingIsTheWrittenConfirmation:
    @pytest.fixture
    def content_dir(self, tmp_path):
        return accepting_the_filing_as_confirmation(tmp_path / "content")

    def test_a_filing_made_after_the_call_confirms_it(self, app, client):
        sign_in(client, app)
        at(app, "2027-03-01T09:40")
        log_notice(client, "phone", "2027-03-01T09:30", case_id=None)
        final = file_on_monday(client, app)  # filed at 10:00, after the call
        at(app, "2027-03-01T10:30")
        link(client, 1, "REL-2027-0001")
        assert stored(app) == {
            "notice_met": 1,
            "confirmation_due": "2027-03-04T23:59:59-05:00",
            "confirmation_met": 1,
        }
        receipt = client.get(final.headers["Location"]).text
        assert "this filing is not the written confirmation" not in receipt
        assert receipt.count("This filing, ") == 1
        notice = client.get("/staff/phone-notices/1/").text
        assert "REL-2027-0001 confirms this notice" in notice
        at(app, "2027-03-08T09:00")  # past the letter's day: nothing is overdue
        assert "Written confirmation overdue" not in client.get("/staff/").text
        page = client.get("/staff/annual-report/", query_string=YEAR_2027).text
        assert shown(page, "Confirmed by the online filing") == 1
        assert shown(page, "No letter recorded") == 0

    def test_a_filing_made_before_the_call_does_not_confirm_it(self, app, client):
        final = file_on_monday(client, app)  # filed at 10:00
        sign_in(client, app)
        at(app, "2027-03-01T11:10")
        log_notice(client, "phone", "2027-03-01T11:00")  # the call after it, linked
        assert stored(app) == {
            "notice_met": 1,
            "confirmation_due": "2027-03-04T23:59:59-05:00",
            "confirmation_met": None,
        }
        receipt = client.get(final.headers["Location"]).text
        assert "this filing is not the written confirmation" in receipt
        notice = client.get("/staff/phone-notices/1/").text
        assert "confirms this notice" not in notice
        assert "No letter recorded yet" in notice
        at(app, "2027-03-08T09:00")
        assert "Written confirmation overdue" in client.get("/staff/").text
        page = client.get("/staff/annual-report/", query_string=YEAR_2027).text
        assert shown(page, "Confirmed by the online filing") == 0
        assert shown(page, "No letter recorded") == 1
