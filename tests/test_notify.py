"""The business release notification: triage first, deadlines right, a receipt that is a record."""

from __future__ import annotations

import datetime as dt
import html
import io
import re
from zoneinfo import ZoneInfo

import pytest
from helpers import (
    content_with_fax,
    file_notification,
    hidden_fields,
    jpeg,
    notification_data,
    rows,
    start_notification,
)
from law_words import read
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
    skipped = client.post(
        "/notify/",
        data={
            **hidden_fields(page),
            **notification_data(danger="", hazardous="", petroleum=""),
            "step": "details",
            "submission_key": "k" * 24,
        },
    )
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
        (
            {"emergency_called": "", "emergency_called_at": ""},
            "emergency_called",
            "Say whether you called 911.",
        ),
        ({"emergency_called_at": ""}, "emergency_called_at", "Enter when you called 911."),
        (
            {"dec_called": "", "dec_called_at": ""},
            "dec_called",
            "Say whether you called the NYSDEC Spill Hotline.",
        ),
        ({"facility_name": ""}, "facility_name", "Enter the facility's name."),
        ({"facility_kind": ""}, "facility_kind", "Answer this question to go on."),
        ({"permit_number": ""}, "permit_number", "Enter the permit number."),
        (
            {"responsible_email": ""},
            "responsible_email",
            "Enter an e-mail address: your receipt is sent there.",
        ),
        (
            {"responsible_email": "sam@"},
            "responsible_email",
            "Enter an e-mail address like name@example.com",
        ),
        (
            {"responsible_phone": "12"},
            "responsible_phone",
            "Enter a phone number like (555) 555-0123",
        ),
        ({"discovered_at": ""}, "discovered_at", "Enter the date and time, like 2026-05-14 09:30."),
        (
            {"discovered_at": "2099-06-01T10:00"},
            "discovered_at",
            "This date and time is in the future.",
        ),
        ({"began_at": "2026-11-02T10:30"}, "began_at", "This is after it was discovered."),
        ({"ended_at": ""}, "ended_at", "Enter when the release stopped."),
        (
            {"ended_at": "2026-11-01T10:00"},
            "ended_at",
            "This is before the release began or was discovered.",
        ),
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
        (
            {"prior_notice_at": "2026-11-01T10:00"},
            "prior_notice_at",
            "This is before the release was discovered.",
        ),
        ({"latitude": "91"}, "latitude", "The latitude must be between -90 and 90."),
    ],
)
def test_validation_messages_per_field(app, client, overrides, field, message):
    review, final = file_notification(client, notification_data(**overrides))
    assert final is None and review.status_code == 422
    error = re.search(rf'<p class="error-message" id="{field}-error">(.*?)</p>', review.text, re.S)
    assert error and message in html.unescape(error.group(1)), (field, error and error.group(1))
    assert "Depot Street Fuel" in review.text or field == "facility_name", "typed values are kept"
    assert rows(app, "SELECT id FROM cases") == []


@pytest.mark.parametrize(
    ("typed", "stored"),
    [("2,5", 2.5), ("0,75", 0.75), ("1,500", 1500.0), ("12,000.5", 12000.5), (" 20 ", 20.0)],
)
def test_an_amount_is_read_as_people_write_it(app, client, typed, stored):
    """A decimal comma (as Spanish speakers write it) is a decimal point, not a thousands sign."""
    review, final = file_notification(client, notification_data(quantity=typed))
    assert final is not None and final.status_code == 303, review.text[:300]
    assert rows(app, "SELECT quantity FROM notifications") == [{"quantity": stored}]


def test_a_filing_after_a_phone_notice_shows_both_deadlines(app, client):
    data = notification_data(
        discovered_at=today_at(0),
        began_at="",
        emergency_called_at=today_at(0, 5),
        dec_called_at=today_at(0, 6),
        ended_at=today_at(0, 7),
        prior_notice_at=today_at(0, 8),
    )
    review, final = file_notification(client, data)
    assert (
        review.status_code == 200
        and "Check your record" in review.text
        and "Record of a release · Step 3 of 3" in review.text
    )
    assert (
        "Submit this record" in review.text
        and "notification" not in review.text.split("<h1")[1].split("</h1>")[0]
    )
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
    # Discovered Monday, November 2, 2026; Tuesday the 3rd was Election Day. The law says "no
    # later than the next business day": the end of that day; 4 p.m. is advice.
    assert (
        'due by the end of <time datetime="2026-11-04">Wednesday, November 4, 2026</time>'
        in receipt
    )
    assert "The office closes at 4:00 p.m. that day: call or come in before then." in receipt
    assert "Not done yet, and that time has passed" in receipt
    assert "A deadline has passed. What to do now:" in receipt
    assert content.settings.office.phone.number in receipt
    assert "Written confirmation</strong>" not in receipt, "no spoken notice, nothing to confirm"
    [n] = rows(app, "SELECT notice_met, confirmation_due FROM notifications")
    # Late, but nothing was given: unknown until staff log a notice (the queue flags it).
    assert n == {"notice_met": None, "confirmation_due": None}


FAX_READING = "so a notice given by the end of that day counts as in time: our reading too."


class TestWhereAFaxNumberIsPublished:
    @pytest.fixture
    def content_dir(self, tmp_path):
        return content_with_fax(tmp_path / "content")

    def test_a_fax_counts_as_the_notice_and_needs_no_confirmation(self, client):
        review, _ = file_notification(client, notification_data(prior_notice="fax"))
        assert "Given by fax" in review.text and "Written confirmation:" not in review.text

    def test_fax_is_offered_and_its_reading_declared(self, client):
        step_1 = " ".join(html.unescape(client.get("/notify/").text).split())
        assert FAX_READING in step_1 and "published no fax number" not in step_1
        step_2 = start_notification(client, {"danger": "no", "hazardous": "no", "petroleum": "no"})
        assert 'name="prior_notice" required type="radio" value="fax"' in step_2.text
        assert "Yes, by fax" in step_2.text and "(607) 555-0148" in step_2.text


def test_stored_once_with_a_reference_kept_three_years(app, client, mail_server):
    data = notification_data()
    review, final = file_notification(client, data)
    assert final.status_code == 303
    again = client.post(
        "/notify/",
        data={
            **dict(
                re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', review.text)
            ),
            "step": "confirm",
        },
    )
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
    assert receipt["Subject"].startswith("Receipt for your record of a release REL-")
    assert receipt["Subject"].endswith(" (not your notice to the Village)")
    page = client.get(final.headers["Location"]).text
    texts = [body(receipt), body(receipt, "html"), body(smo), page]
    answers = [
        value
        for name, value in data.items()
        if value
        and name not in ("latitude", "longitude", "nickname")
        and not name.endswith("_at")
        and name
        not in (
            "danger",
            "hazardous",
            "petroleum",
            "emergency_called",
            "dec_called",
            "facility_kind",
            "permit",
            "is_over",
            "unit",
            "reached_drain",
            "prior_notice",
        )
    ]
    for text in texts:
        for answer in answers:
            assert answer.replace("'", "&#39;") in text or answer in text, answer
        for moment in (
            "November 2, 2026 at 9:00 a.m.",
            "November 2, 2026 at 9:10 a.m.",
            "November 2, 2026 at 8:30 a.m.",
            "November 2, 2026 at 9:45 a.m.",
            "November 2, 2026 at 10:00 a.m.",
        ):
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
    data = notification_data(
        **moments(
            "2028-02-29",
            began_at="08:30",
            discovered_at="09:00",
            emergency_called_at="09:10",
            dec_called_at="09:20",
            ended_at="09:30",
            prior_notice_at="09:40",
        )
    )
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
        'due by the end of <time datetime="2028-03-01">Wednesday, March 1, 2028</time>' in receipt
    )


def test_a_filing_at_half_past_midnight_on_31_december_on_a_utc_server(app, client, mail_server):
    # The server's clock says 05:30 UTC: 00:30 on Friday, December 31, 2027 in New York.
    # GCL § 24 does not move New Year's Day from Saturday, so that Friday is a business day.
    app.config["CLOCK"] = lambda: dt.datetime(2027, 12, 31, 5, 30, tzinfo=dt.UTC)
    data = notification_data(
        prior_notice="none",
        prior_notice_at="",
        prior_notice_to="",
        **moments(
            "2027-12-30",
            began_at="22:00",
            discovered_at="22:30",
            emergency_called_at="22:40",
            dec_called_at="22:50",
            ended_at="23:00",
        ),
    )
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


def test_step_1_opens_with_911_then_the_hotline_then_the_village_then_the_form(client, content):
    raw = client.get("/notify/").text
    page = read(raw).text
    settings = content.settings
    order = [
        "Emergency? Call first",
        "call 911 now",
        settings.phones["spill_hotline"].number,
        "within two hours of discovery",
        "under 5 gallons",
        "at or above its reportable quantity",
        "Then tell the Village by the next business day",
        settings.office.phone.number,
        "First, safety",
    ]
    where = [page.index(words) for words in order]
    assert where == sorted(where), dict(zip(order, where, strict=True))
    for words in (
        settings.office.hours,
        "leave a message",
        "This form does not do that for you",
        "a message left on the answering machine counts as notice by telephone from"
        " when it was left, once staff log it: our reading, as the law does not say",
        "must then be confirmed by a written notice mailed to the Village within three"
        " business days",
        "The ordinance does not define “business day”",
        settings.holidays.source,
        "we add it as a dated closure when it is proclaimed",
    ):
        assert words in page, words
    assert "This form is that notice" not in page and "as the law requires" not in page
    assert '<meta name="description" content="Keep a record of a spill or release at your' in raw


def test_step_1_says_what_hazardous_means_in_the_law(client, content):
    page = html.unescape(client.get("/notify/").text)
    definition = content.ordinance.defined("hazardous-materials")
    assert definition.startswith("Any material, including any substance, waste")
    assert f"Hazardous materials, as the law defines them (§ 216-4): “{definition}”" in page
    assert "sewage" in page and "If you are not sure, answer “Not sure”" in page


def test_no_fax_is_offered_where_no_fax_number_is_published(app, client, mail_server):
    pages = [client.get("/notify/").text]
    data = notification_data(prior_notice="none", prior_notice_at="", prior_notice_to="")
    pages.append(
        start_notification(client, {"danger": "no", "hazardous": "no", "petroleum": "no"}).text
    )
    review, final = file_notification(client, data)
    pages += [review.text, client.get(final.headers["Location"]).text]
    pages += [body(m, kind) for m in mail_server.messages for kind in ("plain", "html")]
    for text in pages:
        text = " ".join(html.unescape(text).split())
        for offer in ("or send a fax", ", or fax"):
            assert offer not in text, offer
        # The law's three means are stated, with why to call instead.
        if "by telephone or by fax" in text:
            assert "by telephone or by fax (no fax number is published, so call or come in)" in text
    assert "The law also allows notice by fax, but the Village has published no fax number" in (
        html.unescape(pages[0])
    )
    # Nor asked about ("Yes, by fax"), nor explained (when a fax counts as in time).
    assert "Yes, by fax" not in pages[1] and 'value="fax"' not in pages[1]
    for text in pages:
        assert "a fax sent by the end of that day" not in html.unescape(text)
    faxed = file_notification(client, notification_data(prior_notice="fax"))[0]
    assert faxed.status_code == 422 and "Choose one of the options shown." in faxed.text


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
    data = notification_data(
        hazardous="yes", petroleum="no", dec_called="not-needed", dec_called_at=""
    )
    review, final = file_notification(client, data)
    assert final is None and review.status_code == 422
    assert 'id="dec_called-error"' in review.text


def test_not_needed_is_offered_for_petroleum_with_all_four_conditions(client):
    details = start_notification(client, {"danger": "no", "hazardous": "no", "petroleum": "yes"})
    assert 'value="not-needed"' in details.text
    for condition in (
        "under 5 gallons",
        "contained and under control",
        "water or land",
        "cleaned up within two hours",
    ):
        assert condition in html.unescape(details.text)


@pytest.mark.parametrize("amount", ["", "a bucket or so"])
def test_a_blank_or_worded_amount_never_shows_none(app, client, mail_server, amount):
    data = notification_data(quantity="", unit="", amount_reached=amount)
    review, final = file_notification(client, data)
    receipt = client.get(final.headers["Location"]).text
    for text in (review.text, receipt, body(mail_server.to("sam@depot.test")[0])):
        assert "None" not in text
    # The filer's words as typed, in a row of their own: never "about about".
    assert ("<dt>Roughly how much went in</dt><dd>a bucket or so</dd>" in receipt) is bool(amount)


def test_the_receipt_says_what_the_record_must_hold(client):
    _, final = file_notification(client, notification_data())
    receipt = html.unescape(client.get(final.headers["Location"]).text)
    assert (
        "on-site written record of the discharge and of the actions taken to prevent it" in receipt
    )
    assert "for at least three years" in receipt
    assert "It is not the notice § 216-12 requires" in receipt
    assert "Nor is it the written confirmation" in receipt
    assert "This receipt is a record to keep with it, not that record." in receipt


def not_yet_told(**overrides) -> dict:
    """A filing made before any notice, for a release discovered half an hour ago."""
    moment = (dt.datetime.now(TZ) - dt.timedelta(minutes=30)).strftime("%Y-%m-%dT%H:%M")
    return notification_data(
        **{
            "prior_notice": "none",
            "prior_notice_at": "",
            "prior_notice_to": "",
            "discovered_at": moment,
            "began_at": "",
            "ended_at": moment,
            "emergency_called_at": moment,
            "dec_called_at": moment,
            **overrides,
        }
    )


def test_the_receipt_opens_with_this_is_not_your_notice_and_what_is_still_due(client):
    _, final = file_notification(client, not_yet_told())
    receipt = html.unescape(client.get(final.headers["Location"]).text)
    order = [
        "Filing received",
        "This is not your notice to the Village.",
        "Still to do:",
        "Tell the Village by the end of",
        "Then confirm a notice given in person or by"
        " telephone with a written notice mailed to Horseheads Village Hall",
        "We have e-mailed this receipt",
        'class="receipt"',
    ]
    where = [receipt.index(words) for words in order]
    assert where == sorted(where), dict(zip(order, where, strict=True))
    assert "even though it is late" not in receipt and "even if it is late" not in receipt
    # Reached again later (not just filed), the receipt says it after its title.
    again = html.unescape(client.get(final.headers["Location"].split("?")[0]).text)
    assert again.index("Receipt REL-") < again.index("This is not your notice to the Village.")


def test_every_receipt_says_to_mail_the_confirmation_within_three_business_days(
    client, mail_server
):
    """Even when no notice has been given yet (the text part used to leave it out)."""
    _, final = file_notification(client, not_yet_told())
    [receipt] = mail_server.to("sam@depot.test")
    page = read(client.get(final.headers["Location"]).text).text
    for text in (page, " ".join(body(receipt).split()), read(body(receipt, "html")).text):
        assert (
            "mail a written notice to Horseheads Village Hall, 202 South Main Street,"
            " Horseheads, New York 14845, within three business days"
        ) in text
        assert (
            "The law does not say what the written notice confirming a notice in person or"
            " by telephone must contain" in text
        )
        assert "Our reading: give the facility's name and street address" in text
        assert "your signature and the date." in text
        # A signed printed receipt will do only where the municipality says so (not here).
        assert "printed copy of this receipt" not in text
        assert "A plain-language guide, not legal advice. The ordinance governs." in text


def test_a_notice_given_late_is_not_asked_for_again(client):
    # Discovered Monday, November 2, 2026; due by the end of Wednesday the 4th; told on the 5th.
    data = notification_data(prior_notice_at="2026-11-05T09:00")
    review, final = file_notification(client, data)
    for page in (review.text, client.get(final.headers["Location"]).text):
        page = read(page).text
        assert "Given by telephone, November 5, 2026 at 9:00 a.m., as this filing says: " in page
        assert "after that time (late)" in page
        assert "Tell the Village" not in page, "the notice was given: no call asked for"
        assert "Mail the written confirmation to Horseheads Village Hall" in page


def test_the_facility_s_record_is_asked_only_of_commercial_and_industrial_filers(client):
    receipts, reviews = {}, {}
    for kind in ("commercial", "residential", "other", "rental", "institutional"):
        review, final = file_notification(client, notification_data(facility_kind=kind))
        reviews[kind] = html.unescape(review.text)
        receipts[kind] = html.unescape(client.get(final.headers["Location"]).text)
    reading = (
        "Our reading: The law does not say when the three years start; we count them"
        " from the day of this filing."
    )
    assert (
        reading in receipts["commercial"]
        and "Keep the facility's on-site written record of the release." in receipts["commercial"]
    )
    assert (
        "we read the facility as a commercial or industrial establishment, so § 216-12 requires"
        in receipts["commercial"]
    )
    assert reading not in receipts["residential"]
    assert (
        "If the release came from a commercial or industrial establishment, § 216-12 requires"
        in receipts["other"]
        and reading in receipts["other"]
    )
    # Who counts as commercial is a reading, said to every kind of filer.
    who = (
        "Our reading of who keeps it: The law does not say which places are commercial or"
        " industrial establishments. We go by the kind of place you chose"
    )
    assert who in receipts["other"] and who not in receipts["commercial"]
    assert (
        "From the kind of place you chose, we read the on-site written record § 216-12"
        " requires of a commercial or industrial establishment as not required of you. Our"
        " reading: The law does not say which places" in receipts["residential"]
    )
    assert "a home you live in does not." in receipts["residential"]
    # A landlord or an institution may be a commercial establishment: told to keep the record.
    for kind in ("rental", "institutional", "other"):
        assert (
            "If the release came from a commercial or industrial establishment, § 216-12"
            " requires" in receipts[kind]
        ), kind
        assert (
            "(a private hospital or college, a landlord's rental): keep the record to be"
            " safe, and ask the Village." in receipts[kind]
        ), kind
        assert "as not required of you" not in receipts[kind], kind
        # Told to keep it to be safe in what is still to do, too (nothing told yet here).
        assert "To be safe, keep an on-site written record of the release" in receipts[kind], kind
    # The review step says the same before anything is sent, without calling it a receipt.
    assert "The receipt you get when you submit is a record to keep with it" in reviews["rental"]
    assert "as not required of you" in reviews["residential"]
    assert "This receipt is a record" not in reviews["commercial"]


def test_the_receipt_is_a_record_to_keep_not_the_notice_nor_the_facility_s_record(
    client, mail_server
):
    details = start_notification(client, {"danger": "no", "hazardous": "no", "petroleum": "no"})
    assert (
        "We send your receipt here: a record to keep with the facility's own written"
        " record of the release." in details.text
    )
    assert "first knew of it or suspected it" in details.text
    _, final = file_notification(client, notification_data())
    receipt = html.unescape(client.get(final.headers["Location"]).text)
    assert (
        "Village of Horseheads · Record of a release (not the notice § 216-12 requires)" in receipt
    )
    assert (
        "Release notification under" not in receipt and "written record of a release" not in receipt
    )
    assert (
        '<meta name="description" content="The receipt for a record of a release: a record to'
        " keep with the facility's written record.\"" in receipt
    )
    text = body(mail_server.to("sam@depot.test")[0])
    assert "Keep this message as a record, with the facility's on-site written record" in text


def test_the_record_leaves_out_questions_never_asked(app, client, mail_server):
    harmless = not_yet_told(
        danger="no",
        hazardous="no",
        petroleum="no",
        emergency_called="",
        emergency_called_at="",
        dec_called="",
        dec_called_at="",
        dec_spill_number="",
    )
    review, final = file_notification(client, harmless)
    texts = [
        review.text,
        client.get(final.headers["Location"]).text,
        body(mail_server.to("sam@depot.test")[0]),
    ]
    for text in texts:
        assert "Called 911" not in text and "Called the NYSDEC Spill Hotline" not in text
    review, _ = file_notification(client, notification_data())
    assert "<dt>Called 911</dt><dd>Yes, November 2, 2026 at 9:10 a.m.</dd>" in review.text


def test_the_holidays_a_count_passed_over_are_named_as_our_reading(client, mail_server):
    """Discovered Wednesday, February 11, 2026 and told by telephone that day: the notice is
    due Friday the 13th (Lincoln's Birthday, Thursday the 12th, skipped); the letter by
    Wednesday the 18th (the 12th and Washington's Birthday, Monday the 16th, skipped). If the
    office works those days, the law's deadline is sooner: the filer is told so, once."""
    data = notification_data(
        discovered_at="2026-02-11T09:00",
        began_at="2026-02-11T08:30",
        ended_at="2026-02-11T09:45",
        emergency_called_at="2026-02-11T09:10",
        dec_called_at="2026-02-11T09:20",
        prior_notice_at="2026-02-11T10:00",
    )
    review, final = file_notification(client, data)
    receipt = client.get(final.headers["Location"]).text
    two = (
        "Counted as holidays, not business days (our reading): Thursday, February 12, 2026 and"
        " Monday, February 16, 2026. If the Village office is open on one of them, a deadline"
        " comes sooner: to be safe, count them as business days."
    )
    [mail] = mail_server.to("sam@depot.test")
    for text in (review.text, receipt, body(mail), body(mail, "html")):
        text = " ".join(html.unescape(re.sub(r"<[^>]+>", "", text)).split())
        assert text.count(two) == 1 and "Counted as a holiday," not in text
        assert "Friday, February 13, 2026" in text and "Wednesday, February 18, 2026" in text


def test_the_state_exception_is_refused_for_a_release_that_reached_a_drain(app, client):
    data = notification_data(dec_called="not-needed", dec_called_at="", reached_drain="yes")
    review, final = file_notification(client, data)
    assert final is None and review.status_code == 422
    error = re.search(
        r'<p class="error-message" id="dec_called-error">(.*?)</p>', review.text, re.S
    )
    assert error and html.unescape(error.group(1)).endswith(
        "</span>A release that went, or may go, into a storm drain, or that you are not sure"
        " about, is not under that exception: call the NYSDEC Spill Hotline now, then answer"
        " “Yes”."
    )
    unsure, _ = file_notification(client, {**data, "reached_drain": "unsure"})
    assert unsure.status_code == 422 and "or that you are not sure about" in unsure.text
    kept, _ = file_notification(client, {**data, "reached_drain": "no"})
    assert kept.status_code == 200, "contained and away from drains, the exception may hold"


def test_a_call_before_the_release_is_refused(client):
    data = notification_data(
        emergency_called_at="2026-11-01T09:10", dec_called_at="2026-11-02T08:00"
    )
    review, final = file_notification(client, data)
    assert final is None and review.status_code == 422
    for field in ("emergency_called_at", "dec_called_at"):
        error = re.search(
            rf'<p class="error-message" id="{field}-error">(.*?)</p>', review.text, re.S
        )
        assert error and "This is before the release began or was discovered." in error.group(1)


def test_a_state_call_not_made_comes_first_in_what_is_still_to_do(client, mail_server):
    data = notification_data(dec_called="no", dec_called_at="", dec_spill_number="")
    review, final = file_notification(client, data)
    receipt = client.get(final.headers["Location"]).text
    [mail] = mail_server.to("sam@depot.test")
    for text in (review.text, receipt, body(mail, "html")):
        text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())
        assert (
            ": Call the NYSDEC Spill Hotline (24 hours) now, at 1-800-457-7362 , if the State's"
            " rule applies: The State requires these to be reported to it within two hours of"
            " discovery:"
        ) in text
    called, _ = file_notification(client, notification_data())
    assert "if the State's rule applies" not in called.text
    # The plain-text part too, first, before the deadlines.
    assert (
        "STILL TO DO:\r\n- Call the NYSDEC Spill Hotline (24 hours) now, at 1-800-457-7362, if the"
        " State's rule applies:\r\n  The State requires these to be reported to it within two"
        " hours of discovery:\r\n  - a petroleum"
    ) in body(mail)
    assert body(mail).index("STILL TO DO:") < body(mail).index("DEADLINES")


def test_a_changed_filing_sent_again_leads_to_its_receipt_and_to_a_correction(app, client):
    """Back after Submit, a change, Submit again: nothing more stored, and the way on."""
    review, final = file_notification(client, notification_data())
    confirm = hidden_fields(review.text)
    again = client.post("/notify/", data={**confirm, "cause": "A worn hose", "step": "confirm"})
    assert again.status_code == 409
    page = html.unescape(again.text)
    receipt = final.headers["Location"].split("?")[0]
    assert f'<a class="button" href="{receipt}">See your receipt REL-2026-0001</a>' in page
    text = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    assert "This record was already sent as REL-2026-0001 , on " in text
    assert (
        "To correct it, call Clerk and Code Enforcement at (607) 739-5691 and give your"
        " reference; if the facility keeps the written record, note the correction there too."
    ) in text
    assert rows(app, "SELECT cause FROM notifications") == [{"cause": "A split fuel hose"}]


def test_no_doubled_word_or_full_stop_in_what_the_filer_reads(client, mail_server):
    data = notification_data(
        discovered_at="2026-11-02T15:30",
        amount_reached="about 5 gallons",
        began_at="2026-11-02T15:00",
        ended_at="2026-11-02T15:45",
        emergency_called_at="2026-11-02T15:35",
        dec_called_at="2026-11-02T15:40",
        prior_notice_at="2026-11-02T15:50",
    )
    review, final = file_notification(client, data)
    texts = [review.text, client.get(final.headers["Location"]).text]
    texts += [body(m, kind) for m in mail_server.messages for kind in ("plain", "html")]
    assert (
        '(<time datetime="2026-11-02">November 2, 2026 at 3:30 p.m.</time>): our reading'
        in review.text
    )
    for text in texts:
        text = re.sub(r"<[^>]+>", "", text)
        assert "about about" not in text and "about 5 gallons" in text
        assert not re.search(r"[ap]\.m\.\.", text), re.search(r".{40}[ap]\.m\.\..{10}", text)


def test_still_to_do_says_late_only_when_it_is(client):
    review, _ = file_notification(client, not_yet_told())
    page = html.unescape(review.text)
    assert "Still to do:" in page and "A deadline has passed" not in page
    assert "even though it is late" not in page and "even if it is late" not in page
    late, _ = file_notification(
        client, notification_data(prior_notice="none", prior_notice_at="", prior_notice_to="")
    )
    assert "Tell the Village now, even though it is late:" in html.unescape(late.text)


def test_changing_the_safety_answers_keeps_everything_typed_in_step_2(app, client):
    data = notification_data(
        hazardous="no",
        petroleum="no",
        danger="no",
        emergency_called="",
        emergency_called_at="",
        dec_called="",
        dec_called_at="",
        dec_spill_number="",
    )
    details = start_notification(client, {"danger": "no", "hazardous": "no", "petroleum": "no"})
    assert "Change the safety answers" in details.text and "start again" not in details.text
    payload = {
        **hidden_fields(details.text),
        **data,
        "change": "safety",
        "photos": [(io.BytesIO(jpeg()), "dock.jpg")],
    }
    triage = client.post("/notify/", data=payload, content_type="multipart/form-data")
    assert triage.status_code == 200 and "First, safety" in triage.text
    # Step 1 shows the answers given before, to change.
    [hazardous_no] = re.findall(r'<input[^>]*name="hazardous"[^>]*value="no"[^>]*>', triage.text)
    assert "checked" in hazardous_no
    carried = hidden_fields(triage.text)
    assert carried["facility_name"] == "Depot Street Fuel" and carried["kept_photos"]
    assert carried["discovered_at"] == "2026-11-02T09:00" and carried["step"] == "triage"
    # Now the material is hazardous after all: step 2 comes back with every answer, the
    # photo, and the questions the new answer asks.
    again = client.post(
        "/notify/", data={**carried, "danger": "no", "hazardous": "yes", "petroleum": "no"}
    )
    assert again.status_code == 200 and "Call 911 first" in again.text
    page = html.unescape(again.text)
    for answer in (
        "Depot Street Fuel",
        "A split fuel hose",
        "Hoses replaced; inspections weekly",
        "2026-11-02T09:00",
        "dock.jpg",
    ):
        assert answer in page, answer
    assert 'name="emergency_called"' in again.text
    assert rows(app, "SELECT id FROM cases") == []


def test_an_expired_step_1_keeps_what_step_2_carried(client):
    details = start_notification(client, {"danger": "no", "hazardous": "no", "petroleum": "no"})
    data = notification_data(
        danger="no", hazardous="no", petroleum="no", facility_name="Elm Cleaners"
    )
    triage = client.post(
        "/notify/", data={**hidden_fields(details.text), **data, "change": "safety"}
    )
    carried = {k: v for k, v in hidden_fields(triage.text).items() if k != "csrf_token"}
    response = client.post(
        "/notify/", data={**carried, "danger": "no", "hazardous": "yes", "petroleum": "no"}
    )
    assert response.status_code == 400 and "please answer these questions again" in response.text
    assert hidden_fields(response.text)["facility_name"] == "Elm Cleaners"


def test_round3_the_text_receipt_asks_for_a_call_only_when_no_notice_is_given(client, mail_server):
    # A filer who says they telephoned in time is not told to call; one
    # who has told no one is.
    file_notification(client, notification_data())
    [told] = mail_server.to("sam@depot.test")
    text = " ".join(body(told).split())
    assert "it is not the notice § 216-12 requires." in text
    assert "Call Clerk and Code Enforcement at" not in text
    file_notification(
        client, notification_data(prior_notice="none", prior_notice_at="", prior_notice_to="")
    )
    untold = " ".join(body(mail_server.to("sam@depot.test")[1]).split())
    assert "it is not the notice § 216-12 requires. Call Clerk and Code Enforcement at" in untold


def test_the_filing_is_named_as_what_it_is_unless_content_accepts_it_as_the_notice():
    """The law's word for the notice is "notification" (seed 153); the filing is a record."""
    from content_model.site import OnlineFiling

    assert OnlineFiling(False, False).name == "record of a release"
    assert OnlineFiling(False, False).short == "record"
    assert OnlineFiling(True, False).name == "release notification"
    assert OnlineFiling(True, False).short == "notification"
