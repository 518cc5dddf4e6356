"""The case page's account of a filing's notice: the notices logged and linked to it, each in
time or late and with its letter, and the notices not linked to any filing that it suggests
as being about the same release (the same facility, or told near the release's time)."""

from __future__ import annotations

import pytest
from helpers import content_with_fax, sign_in
from test_notification_deadlines_shown import CASE, case_notice, deadlines_on, file_at
from test_release_notices import at, log_notice, record_letter, stored


def suggested(client) -> str:
    """The case page's list of notices that may be about the release, as its words."""
    words = case_notice(client)
    head = "Logged notices not linked to any filing that may be about this release: "
    return words.split(head)[1] if head in words else ""


def test_notices_of_the_facility_or_near_the_release_s_time_are_suggested(app, client):
    """Discovered Monday 1 March 2027 at 9:00, filed at 10:00: a notice of the same facility
    (whatever the case of its letters) at any time, of another one from a day before the
    discovery to a week after the filing."""
    file_at(client, app, "2027-03-01T10:00")
    sign_in(client, app)
    at(app, "2027-03-20T10:00")
    for told_at, name in [
        ("2027-02-10T09:00", "DEPOT STREET FUEL"),
        ("2027-02-28T08:59", "Too early"),
        ("2027-02-28T09:00", "A day before"),
        ("2027-03-08T10:00", "A week after"),
        ("2027-03-08T10:01", "Too late"),
        ("2027-03-15T09:00", "depot street fuel"),
    ]:
        log_notice(client, "phone", told_at, case_id=None, facility_name=name, caller_name="Jo")
    assert suggested(client) == (
        "DEPOT STREET FUEL , February 10, 2027 at 9:00 a.m., by telephone, Jo"
        " A day before , February 28, 2027 at 9:00 a.m., by telephone, Jo"
        " A week after , March 8, 2027 at 10:00 a.m., by telephone, Jo"
        " depot street fuel , March 15, 2027 at 9:00 a.m., by telephone, Jo"
    )


def test_a_notice_linked_to_another_filing_is_not_suggested(app, client):
    file_at(client, app, "2027-03-01T10:00")
    file_at(client, app, "2027-03-01T11:00")
    sign_in(client, app)
    at(app, "2027-03-01T12:00")
    log_notice(client, "phone", "2027-03-01T11:30", case_id=2)
    assert suggested(client) == ""


def test_a_linked_visit_before_the_filing_with_its_letter_from_and_arrival(app, client):
    file_at(client, app, "2027-03-01T10:00")
    sign_in(client, app)
    at(app, "2027-03-01T11:00")
    log_notice(client, "in-person", "2027-03-01T09:30", caller_name="Sam Lee")
    at(app, "2027-03-05T11:00")
    record_letter(client, 1, "2027-03-04", "2027-03-05", sender="Sam Lee, yard manager")
    assert case_notice(client) == (
        "No, not yet. Notice in person , March 1, 2027 at 9:30 a.m. , Sam Lee; logged by smo:"
        " in time . Written confirmation, a letter mailed by the end of Thursday, March 4, 2027"
        " : mailed Thursday, March 4, 2027 , in time , from Sam Lee, yard manager, arrived"
        " Friday, March 5, 2027 ."
    )


class TestWhereFaxesAreHeldToOfficeHours:
    @pytest.fixture
    def content_dir(self, tmp_path):
        root = content_with_fax(tmp_path / "content")
        site = root / "site.yaml"
        words = site.read_text(encoding="utf-8")
        line = "office_hours_apply_to_fax: false"
        site.write_text(words.replace(line, "office_hours_apply_to_fax: true"), encoding="utf-8")
        return root

    @pytest.mark.parametrize(
        ("told_at", "words"),
        [
            (
                "2027-03-02T16:00",
                "March 2, 2027 at 4:00 p.m. , Sam Lee; logged by smo (after this"
                " filing was made): in time .",
            ),
            (
                "2027-03-02T16:01",
                "March 2, 2027 at 4:01 p.m. , Sam Lee; logged by smo (after this"
                " filing was made): after the deadline (late) .",
            ),
        ],
    )
    def test_a_fax_is_in_time_until_closing_time(self, app, client, told_at, words):
        _, receipt = file_at(client, app, "2027-03-01T10:00")
        sign_in(client, app)
        at(app, "2027-03-02T18:00")
        log_notice(client, "fax", told_at)
        held = CASE.replace(" or by fax (our", "; by fax, by 4:00 p.m. (our")
        assert case_notice(client, held) == "No, not yet. Notice by fax , " + words
        assert stored(app)["notice_met"] == (0 if "late" in words else 1)
        [notice] = deadlines_on(client.get(receipt).text)
        assert notice.endswith("that time (late) ." if "late" in words else "within that time .")


def test_a_call_told_the_minute_the_filing_was_made_is_not_after_it(app, client):
    file_at(client, app, "2027-03-01T10:00")
    sign_in(client, app)
    at(app, "2027-03-01T10:30")
    log_notice(client, "phone", "2027-03-01T10:00")
    assert case_notice(client).startswith(
        "No, not yet. Notice by telephone , March 1, 2027 at 10:00 a.m. , Sam Lee; logged by smo:"
        " in time ."
    )
