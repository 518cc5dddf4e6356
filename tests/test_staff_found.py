"""A discharge staff found (issue 24 point 7): a kind of case registered through the
descriptor alone. An officer records one on the staff page and lands on its case; it is
numbered by the local date, told to nobody, found in the queue's filter, the search and the
export, counted in the annual figures once confirmed, and its status page shows nothing of it."""

from __future__ import annotations

import datetime as dt
import io
import re
from zoneinfo import ZoneInfo

import pytest
from helpers import hidden_fields, jpeg, rows, save_case, sign_in
from nuchecker import assert_valid_pages

from portal.core.cases import status_token
from portal.core.db import get_db
from portal.staff.reports import annual_counts

UTC = dt.UTC
NEW_YORK = ZoneInfo("America/New_York")
# 00:30 on 1 March in the Village (EST, UTC-5) is 05:30 on the server's UTC clock.
MARCH_FIRST_0030 = dt.datetime(2026, 3, 1, 5, 30, tzinfo=UTC)
FINDING = {
    "indicators": ["dead-animals", "odor"],
    "description": "Grey water and dead fish below the pipe behind the bakery.",
    "address": "Outfall behind 12 Main Street",
    "found_at": "2026-02-28T23:50",
    "found_by": "Jo Smith",
    "how_found": "routine-inspection",
    "confirmed": "yes",
}


def clocked(app, moment: dt.datetime) -> None:
    app.config["CLOCK"] = lambda: moment


def open_page(client) -> dict[str, str]:
    page = client.get("/staff/found/new")
    assert page.status_code == 200
    return hidden_fields(page.text)


def record(client, photos=(), **changes):
    data = {**open_page(client), **FINDING, **changes}
    if photos:
        data["photos"] = [(io.BytesIO(content), name) for name, content in photos]
    return client.post("/staff/found/new", data=data, content_type="multipart/form-data")


@pytest.fixture
def officer(app, client):
    sign_in(client, app)
    clocked(app, MARCH_FIRST_0030)
    return client


def test_the_page_comes_filled_with_the_local_now_and_the_officer(app, officer):
    page = officer.get("/staff/found/new")
    assert page.headers["Cache-Control"] == "no-store"
    # The local date (1 March), not the server's 05:30 UTC.
    assert re.search(
        r'id="found_at" name="found_at" required type="datetime-local"'
        r' value="2026-03-01T00:30"',
        page.text,
    )
    assert re.search(r'id="found_by"[^>]* value="smo"', page.text)
    # With a name to sign letters by, that name (not "Screened by: smo").
    with app.app_context():
        get_db().execute("UPDATE staff SET letter_name = 'Dana Reyes' WHERE username = 'smo'")
    named = officer.get("/staff/found/new").text
    assert re.search(r'id="found_by"[^>]* value="Dana Reyes"', named)
    assert '<input checked id="confirmed-0" name="confirmed" type="radio" value="no">' in page.text
    for words in (
        "Routine inspection",
        "During other work",
        "A complaint by phone, not filed online",
        "Construction site inspection",
        "Dead fish or animals",
    ):
        assert words in page.text
    # Reached from the queue.
    queue = officer.get("/staff/").text
    assert '<a href="/staff/found/new">Record a discharge staff found</a>' in queue


def test_an_officer_records_a_finding_and_lands_on_its_case(app, officer, mail_server):
    saved = record(officer)
    assert saved.status_code == 303
    assert saved.headers["Location"] == "/staff/cases/1/"
    case = officer.get("/staff/cases/1/").text
    assert "SF-2026-0001 recorded: a discharge staff found." in case
    assert 'SF-2026-0001 <span class="muted">Discharge found by staff</span>' in case
    assert "Grey water and dead fish below the pipe behind the bakery." in case
    assert "<dd>Dead fish or animals; A smell</dd>" in case
    assert "<dd>Routine inspection</dd>" in case and "<dt>Recorded by</dt><dd>smo</dd>" in case
    assert '<time datetime="2026-02-28">' in case and "by Jo Smith" in case
    # The content's dead-fish rule flags it, as it flags a resident's report.
    assert "Hazardous: dead fish or animals" in case
    # Its log: the officer who recorded it took it on, confirmed as they said.
    assert "Assigned to smo; Marked as a confirmed illicit discharge" in case
    # Nobody outside sent it: no note to a sender, and its print says so.
    assert "Note to the person who sent it" not in case and "Note to the sender" not in case
    assert "their status page and mail" not in case and "e-mail to the person" not in case
    printed = officer.get("/staff/cases/1/print").text
    assert "confidential: a staff record" in printed and "person who sent it" not in printed
    # Numbered by the local date: 2026, received at 00:30 on 1 March.
    stored = rows(
        app,
        "SELECT reference, kind, received_at, address, latitude, assignee,"
        " confirmed_illicit, first_action_at, contact_email, service_code FROM cases",
    )
    assert stored == [
        {
            "reference": "SF-2026-0001",
            "kind": "staff_found",
            "received_at": "2026-03-01T00:30:00-05:00",
            "address": "Outfall behind 12 Main Street",
            "latitude": None,
            "assignee": "smo",
            "confirmed_illicit": 1,
            "first_action_at": "2026-03-01T00:30:00-05:00",
            "contact_email": None,
            "service_code": "illicit-discharge",
        }
    ]
    assert rows(app, "SELECT * FROM staff_findings") == [
        {
            "case_id": 1,
            "indicators": '["dead-animals", "odor"]',
            "description": "Grey water and dead fish below the pipe behind the bakery.",
            "found_at": "2026-02-28T23:50-05:00",
            "found_by": "Jo Smith",
            "how_found": "routine-inspection",
            "confirmed_when_found": 1,
            "recorded_by": "smo",
        }
    ]
    # Nobody is mailed: its mail is done, and nothing waits in the outbox.
    assert rows(app, "SELECT mail_queued_at FROM cases") == [
        {"mail_queued_at": "2026-03-01T00:30:00-05:00"}
    ]
    assert rows(app, "SELECT count(*) AS n FROM outbox") == [{"n": 0}]
    assert mail_server.messages == []


def test_new_years_eve_late_is_numbered_in_the_old_year(app, officer):
    clocked(app, dt.datetime(2027, 1, 1, 4, 30, tzinfo=UTC))  # 23:30 on 31 December locally
    assert record(officer, found_at="2026-12-31T23:00").status_code == 303
    assert rows(app, "SELECT reference FROM cases") == [{"reference": "SF-2026-0001"}]


def test_the_same_form_sent_twice_is_one_case_confirmed_once(app, officer):
    data = {**open_page(officer), **FINDING}
    first = officer.post("/staff/found/new", data=data)
    again = officer.post("/staff/found/new", data=data)
    assert first.headers["Location"] == again.headers["Location"] == "/staff/cases/1/"
    assert rows(app, "SELECT count(*) AS n FROM cases") == [{"n": 1}]
    assert rows(app, "SELECT action FROM events") == [{"action": "update"}]
    # Back after Save, a word changed, Save: the case stored already, nothing new.
    changed = officer.post("/staff/found/new", data={**data, "description": "Other words"})
    assert changed.headers["Location"] == "/staff/cases/1/"
    page = officer.get("/staff/cases/1/").text
    assert "This form was saved already as SF-2026-0001: nothing new was saved." in page
    assert rows(app, "SELECT count(*) AS n FROM cases") == [{"n": 1}]


def test_a_post_without_its_csrf_token_stores_nothing_and_keeps_the_words(app, officer):
    data = {**open_page(officer), **FINDING}
    del data["csrf_token"]
    refused = officer.post("/staff/found/new", data=data)
    assert refused.status_code == 400
    assert "it needed renewing: everything you typed is kept below" in refused.text
    assert "Grey water and dead fish below the pipe behind the bakery.</textarea>" in refused.text
    assert rows(app, "SELECT count(*) AS n FROM cases") == [{"n": 0}]
    # A stale token too.
    refused = officer.post("/staff/found/new", data={**data, "csrf_token": "stale"})
    assert refused.status_code == 400
    assert rows(app, "SELECT count(*) AS n FROM cases") == [{"n": 0}]


def test_a_form_without_its_key_is_refused_as_malformed(app, officer):
    data = {**open_page(officer), **FINDING, "submission_key": "x"}
    assert officer.post("/staff/found/new", data=data).status_code == 400
    assert rows(app, "SELECT count(*) AS n FROM cases") == [{"n": 0}]


def test_errors_are_said_next_to_their_fields_with_what_was_typed_kept(app, officer):
    refused = record(
        officer,
        description="",
        address="",
        found_at="2026-03-01T09:00",
        how_found="",
        latitude="42.16",
        found_by="Jo Smith",
    )
    assert refused.status_code == 422
    page = refused.text
    assert "<title>Error: Record a discharge staff found" in page
    assert re.search(
        r'<p class="error-message" id="description-error"><span class="visually-'
        r'hidden">Error: </span>Describe what was found.</p>',
        page,
    )
    assert re.search(
        r'id="found_at-error">.*This date and time is in the future. Enter when it'
        r" was found.</p>",
        page,
    )
    assert re.search(r'id="how_found-error">.*Choose how it was found.</p>', page)
    assert re.search(
        r'id="longitude-error">.*Give the longitude too, or clear both'
        r" coordinates.</p>",
        page,
    )
    # What was typed is kept: the time, the name, the half point and the ticked boxes.
    assert 'value="2026-03-01T09:00"' in page and re.search(
        r'id="found_by"[^>]*value="Jo Smith"', page
    )
    assert re.search(r'id="latitude"[^>]*value="42.16"', page)
    assert '<input checked id="indicators-6" name="indicators" type="checkbox" value="dead-' in page
    assert '<input checked id="confirmed-1" name="confirmed" type="radio" value="yes">' in page
    # Neither an address nor a point: one of them is needed.
    nowhere = record(officer, address="", latitude="", longitude="").text
    assert "Say where: type an address or landmark, or give the coordinates." in nowhere
    assert rows(app, "SELECT count(*) AS n FROM cases") == [{"n": 0}]


def test_a_file_that_is_not_a_photo_is_refused_and_a_good_one_kept(app, officer):
    refused = record(
        officer, photos=[("outfall.jpg", jpeg((800, 600))), ("notes.jpg", b"not a photo at all")]
    )
    assert refused.status_code == 422
    assert (
        "notes.jpg: This file is not a photo we can read. Attach a JPEG, PNG, WebP or GIF image."
    ) in refused.text
    assert "outfall.jpg (800 × 600)" in refused.text  # kept, not to choose again
    kept = re.search(r'name="kept_photos" type="hidden" value="([^"]+)"', refused.text).group(1)
    fields = hidden_fields(refused.text)
    saved = officer.post("/staff/found/new", data={**FINDING, **fields, "kept_photos": kept})
    assert saved.status_code == 303
    case = officer.get(saved.headers["Location"]).text
    assert case.count('alt="Photo 1 sent with SF-2026-0001"') == 1
    assert rows(app, "SELECT case_id, position, width FROM photos") == [
        {"case_id": 1, "position": 1, "width": 800}
    ]


def test_it_is_found_in_the_queue_filter_the_search_and_the_export(app, officer):
    assert record(officer).status_code == 303
    assert (
        record(
            officer,
            description="Suds in the ditch",
            address="Elm Street ditch",
            how_found="phone-complaint",
            confirmed="no",
            indicators=["suds"],
            found_by="Pat Lee",
        ).status_code
        == 303
    )
    queue = officer.get("/staff/", query_string={"kind": "staff_found"}).text
    assert '<option value="staff_found" selected>Discharges found by staff</option>' in queue
    assert re.search(r">SF-2026-0001</a> <span class=\"muted\">Staff finding</span>", queue)
    assert "Dead fish or animals; A smell." in queue and "Found by Jo Smith." in queue
    assert '<optgroup label="Staff findings">' in queue
    # Its statuses are a staff finding's: resolved, and allowed discharge with which one (a
    # flow an officer finds may be one the ordinance exempts).
    case = officer.get("/staff/cases/2/").text.split('id="update-heading"')[1]
    assert '<option value="resolved">Resolved</option>' in case
    assert '<option value="exempt">Allowed discharge</option>' in case
    # Which exemption: the listed ones and those allowed on conditions (not only
    # the list of § 216-6 A(1) was offered; seed 103-107).
    assert '<option value="rising groundwater">rising groundwater</option>' in case
    for title in (
        "Emergency discharges approved by the Stormwater Management Officer",
        "Dye testing",
        "Discharges under a State (SPDES) permit",
    ):
        assert f'<option value="{title}">{title} (on its conditions)</option>' in case
    assert "has found to be a substantial contributor of pollutants" in case
    assert "Which exempt discharge" in case
    found = officer.get("/staff/", query_string={"q": "bakery"}).text
    assert ">SF-2026-0001</a>" in found and ">SF-2026-0002</a>" not in found
    assert "Matched what staff found: “…and dead fish below the pipe behind the bakery.”" in found
    by_whom = officer.get("/staff/", query_string={"q": "pat lee"}).text
    assert ">SF-2026-0002</a>" in by_whom and "who found it: “Pat Lee”" in by_whom
    csv = officer.get(
        "/staff/exports/cases.csv", query_string={"start": "2026-03-01", "end": "2026-03-01"}
    ).text
    heading, first, second = csv.lstrip("\ufeff").splitlines()[:3]
    headings = heading.split(",")
    own = [
        "Indicators staff saw",
        "What staff found",
        "When staff found it",
        "Who found it",
        "How staff found it",
        "Confirmed when staff recorded it",
        "Staff finding recorded by",
    ]
    assert headings[headings.index(own[0]) : headings.index(own[0]) + 7] == own
    assert first.startswith("SF-2026-0001,Discharge found by staff,2026-03-01 00:30,Received,")
    assert (
        "Dead fish or animals; A smell,Grey water and dead fish below the pipe behind the"
        " bakery.,2026-02-28 23:50,Jo Smith,Routine inspection,yes,smo,"
    ) in first
    assert (
        ",Suds or foam,Suds in the ditch,2026-02-28 23:50,Pat Lee,A complaint by phone, not"
        in second.replace('"', "")
    )
    # The hazard column reads the content's rules for it too.
    assert ",Dead fish or animals," in first.replace("Dead fish or animals; A smell", "")


def test_the_annual_figures_count_it_as_found_by_staff_once_confirmed(app, officer):
    assert record(officer).status_code == 303  # confirmed as it was recorded
    assert record(officer, description="Suds", confirmed="no").status_code == 303
    year = (dt.date(2026, 1, 3), dt.date(2027, 1, 2))

    def staff_line() -> tuple:
        with app.app_context():
            figures = annual_counts(get_db(), *year)
        return next(line for line in figures["discharges"] if line[0] == "staff findings")

    assert staff_line() == ("staff findings", 1, 0)
    # The second one confirmed on its case page, the first resolved: eliminated.
    clocked(app, dt.datetime(2026, 3, 2, 15, 0, tzinfo=UTC))
    assert save_case(officer, 2, confirmed="yes").status_code == 303
    assert save_case(officer, 1, status="resolved").status_code == 303
    assert staff_line() == ("staff findings", 2, 1)
    # Not a resident's report: the report lines do not move.
    with app.app_context():
        figures = annual_counts(get_db(), *year)
    assert figures["reports"] == 0 and figures["discharges"][0] == ("resident reports", 0, 0)


def test_a_finding_typed_late_counts_in_the_period_it_was_found_in(app, officer):
    """Fresh review: found 20 Dec 2025 and typed on 30 Nov 2026, it was counted in 2026."""
    clocked(app, dt.datetime(2026, 11, 30, 17, 0, tzinfo=UTC))
    assert record(officer, found_at="2025-12-20T14:00").status_code == 303
    with app.app_context():
        last_year = annual_counts(get_db(), dt.date(2025, 1, 3), dt.date(2026, 1, 2))
        this_year = annual_counts(get_db(), dt.date(2026, 1, 3), dt.date(2027, 1, 2))
    assert ("staff findings", 1, 0) in last_year["discharges"]
    assert ("staff findings", 0, 0) in this_year["discharges"]
    # Resolved now: eliminated this year (the day it happened), found last year.
    assert save_case(officer, 1, status="resolved").status_code == 303
    with app.app_context():
        this_year = annual_counts(get_db(), dt.date(2026, 1, 3), dt.date(2027, 1, 2))
    assert ("staff findings", 0, 1) in this_year["discharges"]
    page = officer.get("/staff/annual-report/?year=2025")
    assert "counts on the day they found it, not the day it was typed" in page.text


def test_its_status_page_shows_nothing_of_the_finding(app, officer):
    data = {**open_page(officer), **FINDING}
    assert officer.post("/staff/found/new", data=data).status_code == 303
    token = status_token(app.secret_key, data["submission_key"])
    page = app.test_client().get(f"/status/{token}/")
    assert page.status_code == 200
    assert "SF-2026-0001" in page.text and "Received" in page.text
    assert "Staff opened this case after finding a discharge" in page.text
    for private in ("fish", "bakery", "12 Main", "Jo Smith", "smo", "Routine", "Outfall"):
        assert private not in page.text, private


def test_every_page_of_it_is_valid_html(app, officer, tmp_path):
    data = {**open_page(officer), **FINDING, "latitude": "42.1656", "longitude": "-76.8200"}
    pages = {
        "form": officer.get("/staff/found/new"),
        "errors": record(
            officer,
            description="",
            how_found="",
            found_at="2026-03-02T10:00",
            photos=[("notes.jpg", b"no")],
        ),
        "expired": officer.post("/staff/found/new", data={**data, "csrf_token": "old"}),
    }
    assert officer.post("/staff/found/new", data=data).status_code == 303
    pages["case"] = officer.get("/staff/cases/1/")
    pages["print"] = officer.get("/staff/cases/1/print")
    pages["queue"] = officer.get("/staff/?kind=staff_found")
    pages["status"] = app.test_client().get(
        f"/status/{status_token(app.secret_key, data['submission_key'])}/"
    )
    assert_valid_pages(pages, tmp_path)


def test_a_post_from_someone_signed_out_stores_nothing(app, client):
    # The sign-in page, answered 401, for the page and for a post.
    assert client.get("/staff/found/new").status_code == 401
    assert client.post("/staff/found/new", data=FINDING).status_code == 401
    assert rows(app, "SELECT count(*) AS n FROM cases") == [{"n": 0}]


def test_the_morning_digest_lists_it_hazardous_with_its_officer(app, officer):
    from portal.digest.morning import queue_digests

    def digest_at(moment: dt.datetime) -> int:
        with app.test_request_context():
            return queue_digests(get_db(), moment)

    with app.app_context():
        get_db().execute("UPDATE staff SET email = 'smo@village.test'")
    # Monday 2 March 2026 at 9:00: the first digest starts the count.
    assert digest_at(dt.datetime(2026, 3, 2, 9, 0, tzinfo=NEW_YORK)) == 0
    clocked(app, dt.datetime(2026, 3, 2, 15, 0, tzinfo=UTC))  # 10:00 in New York
    assert record(officer).status_code == 303
    assert digest_at(dt.datetime(2026, 3, 3, 8, 0, tzinfo=NEW_YORK)) == 1  # Tuesday
    (digest,) = rows(app, "SELECT subject, body_text FROM outbox")
    assert digest["subject"] == "Morning digest, Tuesday, March 3: 1 new case (1 hazardous)"
    assert (
        "- SF-2026-0001 (HAZARDOUS: dead fish or animals), received March 2, 2026 at"
        " 10:00 a.m.: Outfall behind 12 Main Street; Received, assigned to smo"
    ) in digest["body_text"]


def test_the_queue_flags_a_hazardous_finding(app, officer):
    assert record(officer).status_code == 303
    hazardous = officer.get("/staff/", query_string={"flag": "hazard"}).text
    assert ">SF-2026-0001</a>" in hazardous
