"""The release notification's switches in site.yaml, each turned the other way by a throwaway
pack (a copy of the content with one line changed), through the pages the filer and the
officer read. The review's filing: discovered Monday 1 March 2027 at 9:00, filed at 10:00,
never phoned."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from helpers import file_notification, notification_data, sign_in
from throwaway_pack import text, throwaway_pack


def at(app, moment: str) -> None:
    """Set the portal's clock to a local time, "2027-03-02T16:30"."""
    when = dt.datetime.fromisoformat(moment).replace(tzinfo=ZoneInfo("America/New_York"))
    app.config["CLOCK"] = lambda: when


@pytest.fixture
def content_dir(request, tmp_path):
    """The default pack, or a copy with `request.param`'s (line, replacement) in site.yaml."""
    if not getattr(request, "param", None):
        return None
    return throwaway_pack(tmp_path / "content", "site.yaml", *request.param)


def file_on_monday(client, app):
    """File the review's release; return (the review page's words, the receipt's words)."""
    at(app, "2027-03-01T10:00")
    day = "2027-03-01T"
    data = notification_data(
        began_at=day + "08:30",
        discovered_at=day + "09:00",
        emergency_called_at=day + "09:10",
        dec_called_at=day + "09:20",
        ended_at=day + "09:45",
        prior_notice="none",
        prior_notice_at="",
        prior_notice_to="",
    )
    review, final = file_notification(client, data)
    assert final.status_code == 303, review.text[:400]
    return text(review.text), text(client.get(final.headers["Location"]).text)


NOTICE = ("counts_as_notice: false", "counts_as_notice: true")


@pytest.mark.parametrize(
    ("content_dir", "accepted"),
    [(None, False), (NOTICE, True)],
    ids=["a-record", "the-notice"],
    indirect=["content_dir"],
)
def test_the_filing_is_the_notice_only_where_the_content_accepts_it(app, client, accepted):
    review, receipt = file_on_monday(client, app)
    is_notice = (
        "The Village accepts this filing as the notice § 216-12 requires, but not as the "
        "written confirmation"
    )
    is_record = (
        "This filing is a record that helps the Village's staff follow up. It is not the "
        "notice § 216-12 requires"
    )
    assert (is_notice in review) is accepted
    assert (is_record in review) is not accepted
    kicker = (
        "Village of Horseheads · Release notification, accepted as the notice § 216-12 requires"
    )
    assert (kicker in receipt) is accepted
    record = "Village of Horseheads · Record of a release (not the notice § 216-12 requires)"
    assert (record in receipt) is not accepted
    assert ("This is not your notice to the Village." in receipt) is not accepted
    in_time = "This filing, March 1, 2027 at 10:00 a.m.: within that time"
    assert (in_time in receipt) is accepted
    # Just after the due day (Tuesday 2 March) is over, no call logged: overdue only when the
    # filing is not itself the notice.
    sign_in(client, app)
    at(app, "2027-03-03T00:01")
    case = text(client.get("/staff/cases/1/").text)
    assert ("No notice logged by the deadline : counted as given late" in case) is not accepted
    assert ("No notice logged by the deadline" in client.get("/staff/").text) is not accepted
    assert ("This filing is the notice, given in time" in case) is accepted
    assert "No notice logged yet." not in case


PRINTED = ("printed_receipt_accepted: false", "printed_receipt_accepted: true")


@pytest.mark.parametrize(
    ("content_dir", "accepted"),
    [(None, False), (PRINTED, True)],
    ids=["a-letter", "the-printed-receipt"],
    indirect=["content_dir"],
)
def test_the_receipt_offers_itself_as_the_written_confirmation_only_where_accepted(
    app, client, accepted
):
    _, receipt = file_on_monday(client, app)
    printed = (
        "The Village accepts a printed copy of this receipt, signed and dated, as the written "
        "notice that confirms a notice given in person or by telephone. Mail it within three "
        "business days of that notice. Or write a letter. The law does not say what it must "
        "contain. Our reading: give"
    )
    letter = (
        "The law does not say what the written notice confirming a notice in person or by "
        "telephone must contain, only that it is addressed and mailed to the Village within "
        "three business days. Our reading: give"
    )
    assert (printed in receipt) is accepted
    assert (letter in receipt) is not accepted
    # Either way the receipt lists what our reading puts in the written notice.
    assert "the reference of your online filing, if you made one; your signature" in receipt
