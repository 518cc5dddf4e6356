"""What a filing's row keeps of the release notification section's two steps (notice_met,
confirmation_due, confirmation_met: the queue, the exports and the annual figures read
them), as filed and as worked out again when staff log, link or unlink a notice or record a
letter. Discovered Monday 1 March 2027 at 9:00, filed at 10:00 unless said otherwise."""

from __future__ import annotations

import pytest
from helpers import content_with_fax, csrf_of, rows, sign_in
from test_notification_deadlines_shown import case_notice, file_at
from test_release_notices import at, log_notice, record_letter, stored
from throwaway_pack import throwaway_pack

NOTHING = {"notice_met": None, "confirmation_due": None, "confirmation_met": None}
PHONE_AT_9_30 = {"prior_notice": "phone", "prior_notice_at": "2027-03-01T09:30"}


def test_a_call_the_filer_names_is_stored_as_a_letter_due_not_as_a_notice(app, client):
    file_at(client, app, "2027-03-01T10:00", **PHONE_AT_9_30)
    assert stored(app) == NOTHING | {"confirmation_due": "2027-03-04T23:59:59-05:00"}


def test_no_letter_is_due_without_a_spoken_notice(app, client):
    file_at(client, app, "2027-03-01T10:00")
    assert stored(app) == NOTHING


class TestWhereAFaxNumberIsPublished:
    @pytest.fixture
    def content_dir(self, tmp_path):
        return content_with_fax(tmp_path / "content")

    def test_a_fax_the_filer_names_needs_no_letter(self, app, client):
        file_at(
            client, app, "2027-03-01T10:00", prior_notice="fax", prior_notice_at="2027-03-01T09:30"
        )
        assert stored(app) == NOTHING


def test_a_late_call_and_one_in_time_the_notice_is_in_time(app, client):
    file_at(client, app, "2027-03-01T10:00")
    sign_in(client, app)
    at(app, "2027-03-03T10:00")
    log_notice(client, "phone", "2027-03-03T09:00")
    assert stored(app) == {
        "notice_met": 0,
        "confirmation_due": "2027-03-08T23:59:59-05:00",
        "confirmation_met": None,
    }
    # A call logged later, of the day before: the letter is due from the first call.
    log_notice(client, "phone", "2027-03-02T15:00")
    assert stored(app) == {
        "notice_met": 1,
        "confirmation_due": "2027-03-05T23:59:59-05:00",
        "confirmation_met": None,
    }


def test_the_letter_of_the_first_spoken_notice_counts_a_fax_needs_none(app, client):
    file_at(client, app, "2027-03-01T10:00")
    sign_in(client, app)
    at(app, "2027-03-02T12:00")
    log_notice(client, "fax", "2027-03-01T09:30")
    log_notice(client, "phone", "2027-03-01T11:00")
    log_notice(client, "in-person", "2027-03-02T11:00")
    at(app, "2027-03-08T12:00")
    record_letter(client, 2, "2027-03-04")
    assert stored(app) == {
        "notice_met": 1,
        "confirmation_due": "2027-03-04T23:59:59-05:00",
        "confirmation_met": 1,
    }


def test_unlinking_the_call_leaves_the_filer_s_answer(app, client):
    file_at(client, app, "2027-03-01T10:00", **PHONE_AT_9_30)
    sign_in(client, app)
    at(app, "2027-03-02T12:00")
    log_notice(client, "phone", "2027-03-02T11:00")
    assert stored(app) == {
        "notice_met": 1,
        "confirmation_due": "2027-03-05T23:59:59-05:00",
        "confirmation_met": None,
    }
    page = client.get("/staff/cases/1/").text
    client.post("/staff/phone-notices/1/unlink", data={"csrf_token": csrf_of(page), "case_id": "1"})
    assert stored(app) == NOTHING | {"confirmation_due": "2027-03-04T23:59:59-05:00"}


class TestWhereTheFilingIsTheNotice:
    @pytest.fixture
    def content_dir(self, tmp_path):
        line = "counts_as_notice: false"
        return throwaway_pack(tmp_path / "content", "site.yaml", line, "counts_as_notice: true")

    @pytest.mark.parametrize(("moment", "met"), [("2027-03-02T23:00", 1), ("2027-03-03T00:30", 0)])
    def test_the_filing_is_stored_as_the_notice_in_time_or_late(self, app, client, moment, met):
        file_at(client, app, moment)
        assert stored(app) == NOTHING | {"notice_met": met}
        # A late call logged beside it changes nothing: the filing was the notice.
        sign_in(client, app)
        at(app, "2027-03-04T09:30")
        log_notice(client, "fax", "2027-03-04T09:00")
        assert stored(app) == NOTHING | {"notice_met": met}


class TestWhereTheFilingIsTheWrittenConfirmation:
    @pytest.fixture
    def content_dir(self, tmp_path):
        line = "counts_as_written_confirmation: false"
        new = "counts_as_written_confirmation: true"
        return throwaway_pack(tmp_path / "content", "site.yaml", line, new)

    @pytest.mark.parametrize(("moment", "met"), [("2027-03-01T10:00", 1), ("2027-03-05T00:30", 0)])
    def test_a_filing_after_the_call_it_names_is_stored_as_its_letter(
        self, app, client, moment, met
    ):
        file_at(client, app, moment, **PHONE_AT_9_30)
        assert stored(app) == {
            "notice_met": None,
            "confirmation_due": "2027-03-04T23:59:59-05:00",
            "confirmation_met": met,
        }


def test_a_time_and_person_typed_before_answering_not_yet_are_not_kept(app, client):
    """Typed for an earlier notice, then "No, not yet" chosen: no notice was given, and the
    case page must not show one as the filer's answer."""
    answers = {"prior_notice_at": "2027-03-01T09:30", "prior_notice_to": "Village Clerk"}
    file_at(client, app, "2027-03-01T10:00", **answers)
    assert rows(
        app, "SELECT prior_notice, prior_notice_at, prior_notice_to FROM notifications"
    ) == [{"prior_notice": "none", "prior_notice_at": None, "prior_notice_to": None}]
    assert stored(app) == NOTHING
    sign_in(client, app)
    assert case_notice(client) == "No, not yet. No notice logged yet."
