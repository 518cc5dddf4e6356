"""The business release notification: triage first, deadlines right, a receipt that is a record."""

from __future__ import annotations

import datetime as dt
import html
import re
from zoneinfo import ZoneInfo

import pytest
from helpers import file_notification, hidden_fields, notification_data, rows, start_notification
from mailserver import body

TZ = ZoneInfo("America/New_York")


def today_at(hour: int, minute: int = 0) -> str:
    """A time earlier today, in the form's format (so the deadline is not yet past)."""
    now = dt.datetime.now(TZ)
    return now.replace(hour=min(hour, now.hour), minute=minute if hour < now.hour else 0).strftime(
        "%Y-%m-%dT%H:%M"
    )


def test_the_triage_cannot_be_skipped(client):
    page = client.get("/notify/").text
    assert "First, safety" in page and "Step 1 of 3" in page
    response = client.post("/notify/", data={**hidden_fields(page), "step": "triage"})
    assert response.status_code == 422
    assert response.text.count('class="error-message"') == 3
    # Posting the details straight away, without the safety answers, leads back to them.
    skipped = client.post("/notify/", data={**hidden_fields(page), **notification_data(
        danger="", hazardous="", petroleum=""), "step": "details", "submission_key": "k" * 24})  # fmt: skip
    assert skipped.status_code == 422 and "First, safety" in skipped.text


def test_a_hazardous_release_says_call_911_first(client, content):
    details = start_notification(client, {"danger": "no", "hazardous": "yes", "petroleum": "yes"})
    assert "Call 911 first" in details.text
    assert content.settings.phones["spill_hotline"].number in details.text
    assert "within two hours" in details.text


def test_a_harmless_release_goes_straight_to_the_details(client):
    details = start_notification(client, {"danger": "no", "hazardous": "no", "petroleum": "no"})
    assert "Call 911 first" not in details.text
    assert 'name="emergency_called"' not in details.text


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"emergency_called": "", "emergency_called_at": ""}, "emergency_called", "Say whether you called 911."),
        ({"emergency_called_at": ""}, "emergency_called_at", "Enter when you called 911."),
        ({"dec_called": "", "dec_called_at": ""}, "dec_called", "Say whether you called the NYSDEC Spill Hotline."),
        ({"facility_name": ""}, "facility_name", "Enter the facility's name."),
        ({"facility_kind": ""}, "facility_kind", "Answer this question to go on."),
        ({"permit_number": ""}, "permit_number", "Enter the permit number."),
        ({"responsible_email": ""}, "responsible_email", "Enter an e-mail address: your receipt is sent there."),
        ({"responsible_email": "sam@"}, "responsible_email", "Enter an e-mail address like name@example.com"),
        ({"responsible_phone": "12"}, "responsible_phone", "Enter a phone number like (555) 555-0123"),
        ({"discovered_at": ""}, "discovered_at", "Enter the date and time, like 2026-05-14 09:30."),
        ({"discovered_at": "2099-06-01T10:00"}, "discovered_at", "This date and time is in the future."),
        ({"began_at": "2026-11-02T10:30"}, "began_at", "This is after it was discovered."),
        ({"ended_at": ""}, "ended_at", "Enter when the release stopped."),
        ({"ended_at": "2026-11-01T10:00"}, "ended_at", "This is before the release began or was discovered."),
        ({"materials": ""}, "materials", "Name the material or materials released."),
        ({"quantity": "lots"}, "quantity", "Enter the amount as a number, like 5 or 2.5."),
        ({"quantity": "-3"}, "quantity", "Enter an amount of zero or more."),
        ({"unit": ""}, "unit", "Choose a unit for the amount."),
        ({"address": ""}, "address", "Enter where the release happened."),
        ({"reached_drain": ""}, "reached_drain", "Answer this question to go on."),
        ({"cleanup": ""}, "cleanup", "Describe the containment and cleanup so far."),
        ({"prior_notice": ""}, "prior_notice", "Answer this question to go on."),
        ({"prior_notice_at": ""}, "prior_notice_at", "Enter when you told us."),
        ({"prior_notice_to": ""}, "prior_notice_to", "Enter who you told, a name or a job title."),
        ({"prior_notice_at": "2026-11-01T10:00"}, "prior_notice_at", "This is before the release was discovered."),
        ({"latitude": "91"}, "latitude", "The latitude must be between -90 and 90."),
    ],
)  # fmt: skip
def test_validation_messages_per_field(app, client, overrides, field, message):
    review, final = file_notification(client, notification_data(**overrides))
    assert final is None and review.status_code == 422
    error = re.search(rf'<p class="error-message" id="{field}-error">(.*?)</p>', review.text, re.S)
    assert error and message in html.unescape(error.group(1)), (field, error and error.group(1))
    assert "Depot Street Fuel" in review.text or field == "facility_name", "typed values are kept"
    assert rows(app, "SELECT id FROM cases") == []


def test_a_filing_after_a_phone_notice_shows_both_deadlines(app, client):
    data = notification_data(discovered_at=today_at(0), began_at="", emergency_called_at=today_at(0, 5),
                             dec_called_at=today_at(0, 6), ended_at=today_at(0, 7),
                             prior_notice_at=today_at(0, 8))  # fmt: skip
    review, final = file_notification(client, data)
    assert review.status_code == 200 and "Check your notification" in review.text
    for page in (review.text, client.get(final.headers["Location"]).text):
        assert "Notice to the Village</strong>" in page and "Given by telephone" in page
        assert "Written confirmation</strong>" in page
        assert page.count("within that time") == 1 and "(late)" not in page
        # The filing is not the written confirmation (content's default): it is still to do.
        assert "Still to do</span>: this filing is not the written confirmation" in page
    [n] = rows(app, "SELECT * FROM notifications")
    # The filer's word is not a record of the notice: nothing is stored as done until staff
    # log the call; the letter confirming it is due from the call the filer names.
    assert n["notice_met"] is None and n["confirmation_met"] is None and n["confirmation_due"]


def test_a_late_filing_is_marked_late(app, client, content):
    data = notification_data(prior_notice="none", prior_notice_at="", prior_notice_to="")
    _, final = file_notification(client, data)
    receipt = client.get(final.headers["Location"]).text
    # Discovered Monday, November 2, 2026; Tuesday the 3rd was Election Day. Notice in person
    # or by telephone needs the office open: the deadline is its closing time that day.
    assert (
        'due by 4:00 p.m. on <time datetime="2026-11-04">Wednesday, November 4, 2026</time>'
        in receipt
    )
    assert "Not done yet, and that time has passed" in receipt
    assert "A deadline has passed. What to do now:" in receipt
    assert content.settings.office.phone.number in receipt
    assert "Written confirmation</strong>" not in receipt, "no spoken notice, nothing to confirm"
    [n] = rows(app, "SELECT notice_met, confirmation_due FROM notifications")
    # Late, but nothing was given: unknown until staff log a notice (the queue flags it).
    assert n == {"notice_met": None, "confirmation_due": None}


def test_a_fax_counts_as_the_notice_and_needs_no_confirmation(client):
    review, _ = file_notification(client, notification_data(prior_notice="fax"))
    assert "Given by fax" in review.text and "Written confirmation:" not in review.text


def test_stored_once_with_a_reference_kept_three_years(app, client, mail_server):
    data = notification_data()
    review, final = file_notification(client, data)
    assert final.status_code == 303
    again = client.post("/notify/", data={**dict(re.findall(
        r'<input type="hidden" name="([^"]+)" value="([^"]*)">', review.text)), "step": "confirm"})  # fmt: skip
    assert again.headers["Location"] == final.headers["Location"]
    [case] = rows(app, "SELECT * FROM cases")
    assert re.fullmatch(r"REL-\d{4}-0001", case["reference"]) and case["kind"] == "notification"
    assert case["contact_email"] == "sam@depot.test"
    [n] = rows(
        app, "SELECT retain_until, received_at FROM notifications JOIN cases ON id = case_id"
    )
    received = dt.date.fromisoformat(n["received_at"][:10])
    assert n["retain_until"] == received.replace(year=received.year + 3).isoformat()


def test_the_smo_copy_and_the_receipt_hold_every_field(app, client, mail_server, content):
    data = notification_data()
    _, final = file_notification(client, data)
    [smo] = mail_server.to("smo@village.test")
    [receipt] = mail_server.to("sam@depot.test")
    assert smo["Subject"].startswith("Release notification REL-")
    assert receipt["Subject"].startswith("Receipt for your release notification REL-")
    page = client.get(final.headers["Location"]).text
    texts = [body(receipt), body(receipt, "html"), body(smo), page]
    answers = [value for name, value in data.items()
               if value and name not in ("latitude", "longitude", "nickname") and not name.endswith("_at")
               and name not in ("danger", "hazardous", "petroleum", "emergency_called", "dec_called",
                                "facility_kind", "permit", "is_over", "unit", "reached_drain", "prior_notice")]  # fmt: skip
    for text in texts:
        for answer in answers:
            assert answer.replace("'", "&#39;") in text or answer in text, answer
        for moment in ("November 2, 2026 at 9:00 a.m.", "November 2, 2026 at 9:10 a.m.",
                       "November 2, 2026 at 8:30 a.m.", "November 2, 2026 at 9:45 a.m.",
                       "November 2, 2026 at 10:00 a.m."):  # fmt: skip
            assert moment in text
        for label in (
            "SPDES industrial stormwater permit",
            "It may still go in",
            "Yes, by telephone",
        ):
            assert label in text
    assert "Keep this message" in body(receipt)
    assert re.search(r"https://portal\.village\.test/status/[\w-]+/", body(receipt))


def test_the_receipt_page_is_reached_only_by_its_token(client):
    _, final = file_notification(client, notification_data())
    assert client.get(final.headers["Location"]).status_code == 200
    assert client.get("/status/REL-2026-0001/").status_code == 404


def test_an_expired_form_comes_back_with_everything_typed(client):
    details = start_notification(client, {"danger": "no", "hazardous": "no", "petroleum": "no"})
    fields = {k: v for k, v in hidden_fields(details.text).items() if k != "csrf_token"}
    data = notification_data(
        danger="no", hazardous="no", petroleum="no", facility_name="Elm Cleaners"
    )
    response = client.post("/notify/", data={**fields, **data, "step": "details"})
    assert response.status_code == 400
    assert "please review and send it again" in response.text
    assert 'value="Elm Cleaners"' in response.text


def moments(day: str, **times: str) -> dict[str, str]:
    """The form's date-time answers, all on `day`."""
    return {name: f"{day}T{value}" for name, value in times.items()}


def test_a_filing_on_29_february(app, client, mail_server):
    # 10:00 on Tuesday, February 29, 2028; a phone notice at 09:40 to confirm in writing.
    app.config["CLOCK"] = lambda: dt.datetime(2028, 2, 29, 10, 0, tzinfo=TZ)
    data = notification_data(**moments("2028-02-29", began_at="08:30", discovered_at="09:00",
                                       emergency_called_at="09:10", dec_called_at="09:20",
                                       ended_at="09:30", prior_notice_at="09:40"))  # fmt: skip
    review, final = file_notification(client, data)
    assert review.status_code == 200 and final.status_code == 303
    [n] = rows(app, "SELECT * FROM notifications JOIN cases ON id = case_id")
    assert n["received_at"].startswith("2028-02-29T10:00")
    # Kept "at least three years": 2031 has no February 29, so March 1.
    assert n["retain_until"] == "2031-03-01"
    assert n["notice_due"] == "2028-03-01T16:00:00-05:00"
    assert n["confirmation_due"] == "2028-03-03T23:59:59-05:00"
    receipt = client.get(final.headers["Location"]).text
    assert "Saturday, March 1, 2031" in receipt
    assert (
        'due by 4:00 p.m. on <time datetime="2028-03-01">Wednesday, March 1, 2028</time>' in receipt
    )


def test_a_filing_at_half_past_midnight_on_31_december_on_a_utc_server(app, client, mail_server):
    # The server's clock says 05:30 UTC: 00:30 on Friday, December 31, 2027 in New York.
    # GCL § 24 does not move New Year's Day from Saturday, so that Friday is a business day.
    app.config["CLOCK"] = lambda: dt.datetime(2027, 12, 31, 5, 30, tzinfo=dt.UTC)
    data = notification_data(prior_notice="none", prior_notice_at="", prior_notice_to="",
                             **moments("2027-12-30", began_at="22:00", discovered_at="22:30",
                                       emergency_called_at="22:40", dec_called_at="22:50",
                                       ended_at="23:00"))  # fmt: skip
    review, final = file_notification(client, data)
    assert final.status_code == 303, review.text[:500]
    [n] = rows(app, "SELECT * FROM notifications JOIN cases ON id = case_id")
    assert n["received_at"].startswith("2027-12-31T00:30") and n["reference"].startswith(
        "REL-2027-"
    )
    assert n["notice_due"] == "2027-12-31T16:00:00-05:00"
    assert n["notice_met"] is None, "not given yet: never stored as in time at filing"
    assert n["retain_until"] == "2030-12-31"
    receipt = client.get(final.headers["Location"]).text
    assert "Still to do</span>: this filing is not the notice" in receipt
    assert "Friday, December 31, 2027" in receipt


def test_step_1_says_to_call_first_with_the_office_s_number_and_hours(client, content):
    page = html.unescape(client.get("/notify/").text)
    settings = content.settings
    call = page.index("First, call the Village")
    assert call < page.index("First, safety"), "the call comes before anything else"
    for words in (settings.office.phone.number, settings.office.hours, "leave a message",
                  settings.phones["spill_hotline"].number, "This form does not do that for you",
                  "The ordinance does not define “business day”", settings.holidays.source):  # fmt: skip
        assert words in page, words
    assert "This form is that notice" not in page


def test_step_2_asks_for_the_discovery_time_without_a_default_or_the_safety_again(client):
    details = start_notification(client, {"danger": "no", "hazardous": "yes", "petroleum": "no"})
    assert re.search(r'<input[^>]*id="discovered_at"[^>]*>', details.text)
    assert not re.search(r'<input[^>]*id="discovered_at"[^>]*value="\d', details.text)
    assert 'type="radio" name="danger"' not in details.text and 'id="danger-0"' not in details.text
    # A chemical release: report at or above the reportable quantity, never "not needed".
    assert 'value="not-needed"' not in details.text
    assert "at or above its reportable quantity" in details.text
    assert "under 5 gallons" not in details.text


def test_not_needed_is_refused_for_a_chemical_release(client):
    data = notification_data(hazardous="yes", petroleum="no", dec_called="not-needed",
                             dec_called_at="")  # fmt: skip
    review, final = file_notification(client, data)
    assert final is None and review.status_code == 422
    assert 'id="dec_called-error"' in review.text


def test_not_needed_is_offered_for_petroleum_with_all_four_conditions(client):
    details = start_notification(client, {"danger": "no", "hazardous": "no", "petroleum": "yes"})
    assert 'value="not-needed"' in details.text
    for condition in ("under 5 gallons", "contained and under control", "water or land",
                      "cleaned up within two hours"):  # fmt: skip
        assert condition in html.unescape(details.text)


@pytest.mark.parametrize("amount", ["", "a bucket or so"])
def test_a_blank_or_worded_amount_never_shows_none(app, client, mail_server, amount):
    data = notification_data(quantity="", unit="", amount_reached=amount)
    review, final = file_notification(client, data)
    receipt = client.get(final.headers["Location"]).text
    for text in (review.text, receipt, body(mail_server.to("sam@depot.test")[0])):
        assert "None" not in text
    assert ("about a bucket or so" in receipt) is bool(amount)


def test_the_receipt_says_what_the_record_must_hold(client):
    _, final = file_notification(client, notification_data())
    receipt = html.unescape(client.get(final.headers["Location"]).text)
    assert (
        "on-site written record of the discharge and of the actions taken to prevent it" in receipt
    )
    assert "for at least three years" in receipt
    assert "It is not the notice § 216-12 asks for" in receipt
    assert "Nor is it the written confirmation" in receipt
