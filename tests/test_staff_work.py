"""The SMO's work: queue, case actions and their audit log, updates by mail, exports, figures."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re

import pytest
from helpers import (
    csrf_of,
    file_notification,
    notification_data,
    open_form,
    report_data,
    save_case,
    sign_in,
)
from mailserver import body

from bench.seed import seed_reports
from portal.core.db import get_db
from portal.staff.reports import reporting_year


def three_reports(client) -> None:
    for text in ("Foam at the bridge", "More foam at the bridge", "Oil on Elm Street"):
        extra = (
            {"latitude": "42.15", "longitude": "-76.83", "address": "Elm Street"}
            if "Elm" in text
            else {}
        )
        client.post(
            "/report/", data={**open_form(client), **report_data(description=text, **extra)}
        )


@pytest.fixture
def staff(app, client, prepared):
    """A signed-in client and three reports from the public (two at the same spot), made
    once for the module."""
    prepared(app, three_reports)
    sign_in(client, app)
    return client


def act(client, case_id: int, **data) -> str:
    """Save the case form with `data`; the case page after it (or the refusal)."""
    response = save_case(client, case_id, **data)
    if response.status_code != 303:
        assert response.status_code == 422, response.status_code
        return response.text
    return client.get(f"/staff/cases/{case_id}/").text


def test_queue_lists_newest_first_with_flags(staff):
    page = staff.get("/staff/", query_string={"sort": "newest"}).text
    references = re.findall(r">(IDR-\d{4}-\d{4})</a>", page)
    assert references == sorted(references, reverse=True) and len(references) == 3
    assert page.count("Possible duplicate") == 1, "the second report at the bridge"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({"q": "Elm"}, 1),
        ({"q": "foam"}, 2),
        ({"kind": "notification"}, 0),
        ({"status": "received"}, 3),
        ({"status": "resolved"}, 0),
        ({"assignee": "-"}, 3),
        ({"start": "2099-01-01"}, 0),
        ({"end": "2000-01-01"}, 0),
        ({"status": "open"}, 3),
        ({"kind": "bogus", "status": "bogus", "page": "x"}, 3),
    ],
)
def test_queue_filters(staff, query, expected):
    page = staff.get("/staff/", query_string=query).text
    assert len(re.findall(r">IDR-\d{4}-\d{4}</a>", page)) == expected


def test_a_bad_date_filter_is_explained(staff):
    page = staff.get("/staff/", query_string={"start": "yesterday"}).text
    assert "Enter a date like 2026-05-14." in page


def test_status_assignment_notes_and_the_audit_log(app, staff, mail_server):
    page = act(staff, 1, status="investigating")
    assert "Being investigated" in page
    page = act(staff, 1, assignee="smo")
    page = act(staff, 1, note="Called the car wash owner.")
    page = act(staff, 1, confirmed="yes")
    page = act(staff, 1, status="referred", referred_agency="Chemung County")
    log = page[page.index('class="audit"') :]
    for entry in (
        "Status Received → Being investigated",
        "Assigned to smo",
        "Internal note added",
        "Marked as a confirmed illicit discharge",
        "Status Being investigated → Passed to another agency; referred to Chemung County",
    ):
        assert entry in log, entry
    assert log.count(", smo (from 127.0.0.1):") == 5
    assert "Called the car wash owner." in page
    with app.app_context():
        case = get_db()["cases"].get(1)
    assert (case["status"], case["assignee"], case["referred_to"], case["confirmed_illicit"]) == (
        "referred",
        "smo",
        "Chemung County",
        1,
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"status": "referred"}, "Say which agency it was referred to."),
        ({"status": "exempt"}, "Say which exempt discharge it was."),
        (
            {"status": "duplicate", "duplicate_of": "IDR-1999-0001"},
            "There is no case IDR-1999-0001.",
        ),
        ({"status": "closed"}, "Choose one of the statuses listed."),
    ],
)
def test_a_change_that_cannot_be_made_is_explained(staff, data, message):
    page = act(staff, 1, **data)
    assert message in page
    assert "Received" in page


def test_duplicates_are_linked_to_the_original(app, staff):
    original = re.search(r"IDR-\d{4}-0001", staff.get("/staff/cases/1/").text).group(0)
    page = staff.get("/staff/cases/2/").text
    assert f"Mark this case a duplicate of {original}" in page, "the nearby case is offered"
    page = act(staff, 2, status="duplicate", duplicate_of=original)
    assert f'of <a href="/staff/cases/1/">{original}</a>' in page
    assert "/staff/cases/2/" in staff.get("/staff/cases/1/").text, "the original lists it"
    assert "A case cannot duplicate itself." in act(
        staff, 1, status="duplicate", duplicate_of=original
    )
    third = re.search(r"IDR-\d{4}-0002", page).group(0)
    assert "is itself a duplicate" in act(staff, 3, status="duplicate", duplicate_of=third)


def test_a_public_note_reaches_the_status_page_and_the_reporters_inbox(app, staff, mail_server):
    confirmation = staff.get("/report/sent/placeholder/")  # 404, but keeps the client warm
    assert confirmation.status_code == 404
    act(staff, 1, public_note="A crew will visit on Monday.")
    act(staff, 1, status="investigating")
    updates = [
        m for m in mail_server.to("pat@example.test") if m["Subject"].startswith("Update on")
    ]
    assert len(updates) == 2
    text = body(updates[-1])
    assert "Being investigated" in text and "A crew will visit on Monday." in text
    status_url = re.search(r"https://portal\.village\.test(/status/[\w-]+/)", text).group(1)
    status = staff.get(status_url).text
    assert "A crew will visit on Monday." in status and "Being investigated" in status


def test_photos_are_for_staff_only(app, client):
    from helpers import jpeg

    client.post(
        "/report/",
        data={**open_form(client), **report_data(), "photos": [(io.BytesIO(jpeg()), "a.jpg")]},
        content_type="multipart/form-data",
    )
    assert client.get("/staff/photos/1").status_code == 401
    sign_in(client, app)
    response = client.get("/staff/photos/1")
    assert response.status_code == 200 and response.mimetype == "image/jpeg"
    assert "no-store" in response.headers["Cache-Control"]


def test_the_case_page_shows_a_notification_with_its_deadlines(app, client):
    file_notification(client, notification_data())
    sign_in(client, app)
    page = client.get("/staff/cases/1/").text
    assert "Depot Street Fuel" in page and "Notice and written confirmation" in page
    assert "Written confirmation overdue" in client.get("/staff/").text
    assert "Hazardous" in client.get("/staff/").text


# ---------------------------------------------------------------- exports


PERSONAL = ("Pat Doe", "pat@example.test", "(555) 555-0123", "Foam at the bridge", "Elm Street")


def export(client, name: str, start: str = "2000-01-01", end: str = "2099-12-31"):
    return client.get(f"/staff/exports/{name}", query_string={"start": start, "end": end})


def csv_rows(response) -> list[dict[str, str]]:
    """The lines of a CSV export; it must start with the byte-order mark Excel needs."""
    assert response.data.startswith(b"\xef\xbb\xbf"), response.data[:20]
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    return list(csv.DictReader(io.StringIO(response.data.decode("utf-8-sig"))))


def test_geojson_export_has_no_personal_data(staff):
    response = export(staff, "cases.geojson")
    assert response.headers["Content-Disposition"].startswith("attachment;")
    data = json.loads(response.data)
    assert len(data["features"]) == 3
    for bit in PERSONAL:
        assert bit not in response.text, bit
    assert set(data["features"][0]["properties"]) == {
        "reference",
        "kind",
        "kind_label",
        "received",
        "status",
        "status_label",
        "service_code",
        "location_type",
        "location_type_label",
        "indicators",
        "indicator_labels",
        "hazardous",
        "hazards",
        "confirmed_illicit",
    }
    assert data["features"][0]["geometry"]["coordinates"][0] < 0, "GeoJSON order: longitude first"


def test_geojson_export_flags_hazards_as_the_queue_does_with_words_beside_codes(app, client):
    gasoline = report_data(
        indicators=["sheen"],
        odor="petroleum",
        location_type="storm-drain",
        description="A rainbow film by the drain",
        source_description="",
    )
    foam = report_data(
        indicators=["suds"],
        odor="",
        location_type="ditch",
        description="Foam",
        latitude="42.2",
        source_description="",
    )
    for data in (gasoline, foam):
        client.post("/report/", data={**open_form(client), **data})
    file_notification(client, notification_data(latitude="42.17", longitude="-76.82"))
    sign_in(client, app)
    act(client, 1, status="investigating", confirmed="yes")
    queue = client.get("/staff/").text
    assert queue.count("Hazardous") >= 2, "the queue flags the oil report and the notification"
    features = json.loads(export(client, "cases.geojson").data)["features"]
    oil, ditch, spill = (f["properties"] for f in features)
    assert (oil["hazardous"], oil["hazards"], oil["confirmed_illicit"]) == (
        True,
        ["Fuel or oil"],
        True,
    )
    assert (oil["status"], oil["status_label"]) == ("investigating", "Being investigated")
    assert (oil["location_type"], oil["location_type_label"]) == (
        "storm-drain",
        "Storm drain or catch basin",
    )
    assert (oil["indicators"], oil["indicator_labels"]) == (
        ["sheen"],
        ["Oily sheen or rainbow film"],
    )
    assert (oil["kind"], oil["kind_label"]) == ("report", "Resident report")
    assert (ditch["hazardous"], ditch["hazards"], ditch["confirmed_illicit"]) == (False, [], False)
    assert ditch["location_type_label"] == "Roadside ditch"
    assert (spill["kind_label"], spill["hazardous"], spill["hazards"]) == (
        "Release notification",
        True,
        ["Hazardous material"],
    )


def test_csv_export_opens_in_excel_with_every_answer_of_the_report(app, client):
    # Monday 30 November 2026, 1:06 p.m. in New York (18:06 on a UTC server).
    app.config["CLOCK"] = lambda: dt.datetime(2026, 11, 30, 18, 6, 18, tzinfo=dt.UTC)
    client.post(
        "/report/",
        data={
            **open_form(client),
            **report_data(
                contact_name="José Núñez",
                source_description="Café Olé Carpet Cleaning",
                source_vehicle="White van, plate ABC 1234",
                source_notes="Ran a hose into the drain",
                location_type="ditch",
                happened_before="yes",
                color="blue",
                observed_at="2026-11-29T08:15",
            ),
        },
    )
    sign_in(client, app)
    [row] = csv_rows(export(client, "cases.csv"))
    assert row["Received"] == "2026-11-30 13:06"
    assert row["First noticed"] == "2026-11-29 08:15"
    assert row["Name"] == "José Núñez"
    assert row["Business or property named"] == "Café Olé Carpet Cleaning"
    assert row["Vehicle and license plate"] == "White van, plate ABC 1234"
    assert row["What they were seen doing"] == "Ran a hose into the drain"
    assert (row["Kind of place"], row["Happened before"], row["Which color"]) == (
        "Roadside ditch",
        "Yes",
        "blue",
    )
    assert row["Business or facility"] == "", "a notification's column"
    assert row["Site visits"] == "0"


def test_csv_export_round_trips_and_is_safe_in_spreadsheets(app, client):
    client.post(
        "/report/",
        data={
            **open_form(client),
            **report_data(
                description='=HYPERLINK("http://evil.example")',
                contact_name="@SUM(A1)",
                contact_phone="+1 555 555 0123",
            ),
        },
    )
    sign_in(client, app)
    [row] = csv_rows(export(client, "cases.csv"))
    assert row["Describe what you saw"] == '\'=HYPERLINK("http://evil.example")'
    assert row["Name"] == "'@SUM(A1)" and row["Phone"] == "'+1 555 555 0123"
    assert row["E-mail"] == "pat@example.test" and row["Longitude"] == "-76.82099"
    assert row["What was seen"] == "Suds or foam; A smell"
    assert re.fullmatch(r"IDR-\d{4}-0001", row["Reference"])
    assert (row["Kind"], row["Status"], row["Still happening"], row["Smell"], row["Hazard"]) == (
        "Resident report",
        "Received",
        "Yes",
        "Chemical",
        "",
    ), "a chemical smell alone is not § 216-4's hazardous materials"
    assert row["Confirmed illicit discharge"] == "no" and row["Internal notes"] == ""


def test_csv_export_has_every_answer_of_a_notification(app, client):
    file_notification(client, notification_data())
    sign_in(client, app)
    act(client, 1, note="Booms checked.")
    [row] = csv_rows(export(client, "cases.csv"))
    assert (row["Kind"], row["Amount released"], row["What was released"]) == (
        "Release notification",
        "20",
        "Diesel fuel",
    )
    assert row["Unit"] == "gallons" and row["Hazardous substance"] == "Yes"
    assert row["Hazard"] == "Hazardous material"
    assert (row["Discovered"], row["Began"], row["Stopped"], row["Stopped at"]) == (
        "2026-11-02 09:00",
        "2026-11-02 08:30",
        "Yes",
        "2026-11-02 09:45",
    )
    assert (row["Called 911 at"], row["NYSDEC spill number"], row["Kind of facility"]) == (
        "2026-11-02 09:10",
        "2608123",
        "Commercial (a shop, garage, restaurant, office)",
    )
    assert (row["Earlier notice"], row["Earlier notice at"], row["Earlier notice to"]) == (
        "Yes, by telephone",
        "2026-11-02 10:00",
        "Village Clerk",
    )
    assert (row["How much went in"], row["Cause"], row["Permit number"]) == (
        "a cup or two",
        "A split fuel hose",
        "NYR00A123",
    )
    assert row["Internal notes"].endswith("smo: Booms checked.")
    assert "Booms" not in export(client, "cases.geojson").text


def test_site_visits_have_their_own_csv_for_the_period_they_were_made(app, client):
    from test_case_desk import record_visit

    client.post("/report/", data={**open_form(client), **report_data()})
    sign_in(client, app)
    assert (
        record_visit(
            client,
            1,
            visited_at="2026-11-20T10:30",
            inspector="José Núñez",
            findings="Grey water from the car wash drain",
        ).status_code
        == 303
    )
    response = export(client, "site-visits.csv", "2026-11-01", "2026-11-30")
    assert response.headers["Content-Disposition"] == (
        'attachment; filename="site-visits-2026-11-01-to-2026-11-30.csv"'
    )
    [visit] = csv_rows(response)
    assert re.fullmatch(r"IDR-\d{4}-0001", visit["Case"])
    assert (visit["Visited"], visit["Who visited"], visit["What was found"]) == (
        "2026-11-20 10:30",
        "José Núñez",
        "Grey water from the car wash drain",
    )
    assert (visit["Sample taken"], visit["Lab reference"]) == ("yes", "LAB-77")
    assert visit["Photos"] == "0"
    assert visit["Street address or landmark"] == "Main Street bridge over the creek"
    assert csv_rows(export(client, "site-visits.csv", "2026-11-21", "2026-11-30")) == []
    [case] = csv_rows(export(client, "cases.csv"))
    assert case["Site visits"] == "1"


# ---------------------------------------------------------------- annual figures


def test_the_permit_year_runs_january_3_to_january_2(app):
    with app.app_context():
        assert reporting_year(dt.date(2026, 11, 29)) == (dt.date(2026, 1, 3), dt.date(2027, 1, 2))
        assert reporting_year(dt.date(2027, 1, 2)) == (dt.date(2026, 1, 3), dt.date(2027, 1, 2))
        assert reporting_year(dt.date(2027, 1, 3)) == (dt.date(2027, 1, 3), dt.date(2028, 1, 2))


def test_queue_pages_through_many_cases(app, client):
    with app.app_context():
        seed_reports(get_db(), 120)
    sign_in(client, app)
    first = client.get("/staff/").text
    assert "120 cases, page 1 of 3" in first
    third = client.get("/staff/", query_string={"page": 3}).text
    assert len(re.findall(r'scope="row"><a', third)) == 20


def test_mail_that_failed_for_good_is_shown_to_staff_and_can_be_retried(app, client, mail_server):
    client.post(
        "/report/", data={**open_form(client), **report_data(contact_email="rejected@example.test")}
    )
    sign_in(client, app)
    queue_page = client.get("/staff/").text
    assert "Mail (1 failed)" in queue_page
    page = client.get("/staff/outbox/").text
    assert "rejected@example.test" in page and "Failed" in page and "550" in page
    retry = re.search(r'action="(/staff/outbox/(\d+)/retry)"', page)
    response = client.post(retry.group(1), data={"csrf_token": csrf_of(page)})
    assert response.status_code == 303
    assert "Queued again." in client.get("/staff/outbox/").text
    with app.app_context():  # tried again at once, and refused again by the server
        message = get_db()["outbox"].get(int(retry.group(2)))
    assert message["status"] == "failed" and message["attempts"] == 2


def test_hostile_text_is_shown_escaped_in_the_workspace(app, client):
    script = '<script>alert("x")</script>'
    client.post(
        "/report/",
        data={
            **open_form(client),
            **report_data(
                description=f"d {script}", address=f"a {script}", contact_name=f"n {script}"
            ),
        },
    )
    sign_in(client, app)
    act(client, 1, note=f"note {script}", public_note=f"public {script}")
    pages = [
        client.get("/staff/").text,
        client.get("/staff/cases/1/").text,
        client.get("/staff/", query_string={"q": script}).text,
        client.get("/staff/map/frame").text,
        client.get("/staff/cases/1/map").text,
    ]
    for page in pages:
        assert script not in page
    assert client.get("/staff/cases/1/").text.count("&lt;script&gt;") >= 5
    geojson = client.get("/staff/exports/cases.geojson", query_string={"start": "2000-01-01"}).text
    assert "<script>" not in geojson


# ---------------------------------------------------------------- notices by phone


def log_phone_notice(client, **overrides):
    page = client.get("/staff/phone-notices/new")
    data = {
        "csrf_token": csrf_of(page.text),
        "told_at": "2026-11-02T10:00",
        "how": "phone",
        "facility_name": "Depot Street Fuel",
        "caller_name": "Sam Lee",
        "caller_phone": "(555) 555-0100",
        "material": "Diesel",
        "hazardous": "yes",
    } | overrides
    return client.post("/staff/phone-notices/new", data=data)


def test_a_phone_notice_waits_for_its_written_confirmation(app, client):
    sign_in(client, app)
    assert log_phone_notice(client).status_code == 303
    queue = client.get("/staff/").text
    assert "Notices waiting for their written confirmation" in queue
    # Told Monday, Nov 2, 2026; Tuesday the 3rd was Election Day: due Friday the 6th.
    assert "Friday, November 6, 2026" in queue and "Written confirmation overdue" in queue
    with app.app_context():
        [notice] = get_db()["phone_notices"].rows
    assert notice["taken_by"] == "smo" and notice["confirmation_due"].startswith(
        "2026-11-06T23:59:59"
    )


def test_a_fax_needs_no_written_confirmation(app, client):
    sign_in(client, app)
    log_phone_notice(client, how="fax")
    assert "Notices waiting for their written confirmation" not in client.get("/staff/").text


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"facility_name": ""}, "Enter the facility&#39;s name."),
        ({"how": ""}, "Choose how the notice was given."),
        ({"told_at": "2099-01-01T10:00"}, "This date and time is in the future."),
        ({"caller_phone": "12"}, "Enter a phone number like"),
    ],
)
def test_a_phone_notice_form_explains_its_errors(app, client, overrides, message):
    sign_in(client, app)
    response = log_phone_notice(client, **overrides)
    assert response.status_code == 422 and message in response.text


def test_a_phone_notice_is_linked_to_its_filing_which_does_not_confirm_it(app, client):
    file_notification(client, notification_data())
    sign_in(client, app)
    log_phone_notice(client)
    case_page = client.get("/staff/cases/1/").text
    assert "Link it to this filing" in case_page, "the notice of the same facility is suggested"
    notice_form = re.search(r'action="(/staff/phone-notices/\d+/link)"', case_page).group(1)
    reference = re.search(r"REL-\d{4}-\d{4}", case_page).group(0)
    bad = client.post(
        notice_form, data={"csrf_token": csrf_of(case_page), "reference": "IDR-1999-0001"}
    )
    assert (
        "There is no release notification IDR-1999-0001."
        in client.get(bad.headers["Location"]).text
    )
    client.post(notice_form, data={"csrf_token": csrf_of(case_page), "reference": reference})
    queue = client.get("/staff/").text
    assert f"Linked to {reference}." in queue
    # Linked, but the filing is not the letter: the notice still waits for it.
    assert "Notices waiting for their written confirmation" in queue
    page = client.get(
        "/staff/annual-report/", query_string={"start": "2026-01-03", "end": "2027-01-02"}
    ).text
    assert re.search(r"No letter recorded</th><td><a [^>]*>1<", page)
    assert re.search(r"Letter mailed in time</th><td><a [^>]*>0<", page)


def test_the_amount_that_went_in_is_said_once(app, client):
    file_notification(
        client, notification_data(reached_drain="yes", amount_reached="about 2 gallons")
    )
    sign_in(client, app)
    for url in ("/staff/cases/1/", "/staff/cases/1/print"):
        page = client.get(url).text
        assert "about 2 gallons" in page and "about about" not in page, url
