"""GeoReport v2 to the letter (issue 22, point 6): each point the security and Open311 review
found, against the portal under gunicorn, read with the `georeport` client from PyPI in JSON
and XML where it can ask, and with plain HTTP where it cannot (POSTs, empty parameters)."""

from __future__ import annotations

import datetime as dt
import json
import time
from types import SimpleNamespace
from xml.etree import ElementTree

import pytest
import requests
import test_open311 as base
from helpers import csrf_of, rows, save_case, sign_in
from mailserver import wait_for
from test_open311 import API, CONTENT, FORMATS, SERVICE, assert_error, filed_id, post, report

from portal import create_app

http = base.http


@pytest.fixture
def portal(open311_server):
    """The portal under gunicorn test_open311.py uses too, this file filing with its own key."""
    return SimpleNamespace(
        **vars(open311_server)
        | {"keys": {**open311_server.keys, "tester": open311_server.keys["letter-tester"]}}
    )


def database(portal):
    return SimpleNamespace(config={"DATABASE": portal.database})


def client_for(portal, fmt: str, jurisdiction: str | None = API.jurisdiction_id):
    from georeport import GeoReport

    return GeoReport(portal.url, jurisdiction=jurisdiction, output_format=fmt)


def listed(found) -> list[dict]:
    """georeport's answer as a list of requests (xmltodict gives one item as itself)."""
    return [found] if isinstance(found, dict) else list(found or [])


@pytest.fixture
def staff(portal, tmp_path):
    """The officer's own portal on the gunicorn's database file, signed in."""
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(portal.database),
            "RATELIMIT_ENABLED": False,
            "SESSION_COOKIE_SECURE": False,
            "MAIL_SUPPRESS_SEND": True,
            "MAIL_FOLDER": str(tmp_path / "mail"),
        }
    )
    client = app.test_client()
    sign_in(client, app, username=f"officer{time.monotonic_ns()}")
    return SimpleNamespace(app=app, client=client)


def case_id(portal, reference: str) -> int:
    return rows(database(portal), "SELECT id FROM cases WHERE reference = ?", reference)[0]["id"]


# ------------------------------------------------------------------ service_code, jurisdiction


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_unknown_service_code_is_404_for_a_post_and_a_list(http, portal, fmt):
    before = rows(database(portal), "SELECT count(*) AS n FROM cases")[0]["n"]
    key = f"checker-{fmt}"
    assert_error(
        post(http, portal, fmt, key=key, service_code="potholes"), fmt, 404, "service_code"
    )
    assert rows(database(portal), "SELECT count(*) AS n FROM cases")[0]["n"] == before
    with pytest.raises(requests.HTTPError) as refused:
        client_for(portal, fmt).get_service_requests(service_code="potholes")
    assert refused.value.response.status_code == 404


@pytest.mark.parametrize("fmt", FORMATS)
def test_jurisdiction_matches_whatever_its_case(http, portal, fmt):
    reference = filed_id(post(http, portal, fmt, jurisdiction_id=API.jurisdiction_id.upper()), fmt)
    shouting = client_for(portal, fmt, API.jurisdiction_id.upper())
    assert listed(shouting.get_service_list())[0]["service_code"] == SERVICE.service_code
    assert shouting.get_service_request(reference)["service_request_id"] == reference
    with pytest.raises(requests.HTTPError) as refused:
        client_for(portal, fmt, "sfgov.org").get_service_list()
    assert refused.value.response.status_code == 404


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_empty_optional_parameter_is_the_same_as_none(http, portal, fmt):
    reference = filed_id(
        post(http, portal, fmt, jurisdiction_id="", address_id="", media_url=""), fmt
    )
    empty = {
        "jurisdiction_id": "",
        "service_code": "",
        "status": "",
        "start_date": "",
        "end_date": "",
        "service_request_id": "",
        "api_key": "",
    }
    with_empties = http.get(f"{portal.url}/requests.{fmt}", params=empty)
    without = http.get(f"{portal.url}/requests.{fmt}")
    assert with_empties.status_code == 200 and with_empties.content == without.content
    assert reference in with_empties.text
    for path in ("services", f"services/{SERVICE.service_code}", f"requests/{reference}"):
        answer = http.get(f"{portal.url}/{path}.{fmt}", params={"jurisdiction_id": ""})
        assert answer.status_code == 200, (path, answer.text)
        assert answer.content == http.get(f"{portal.url}/{path}.{fmt}").content


# ------------------------------------------------------------------ address_id, dates


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_address_id_alone_is_a_place(http, portal, fmt):
    reference = filed_id(post(http, portal, fmt, lat="", long="", address_id="545483"), fmt)
    (case,) = rows(
        database(portal), "SELECT address, latitude FROM cases WHERE reference = ?", reference
    )
    assert case == {"address": "Address ID 545483", "latitude": None}
    both = filed_id(
        post(
            http,
            portal,
            fmt,
            address_string="Corner of Main and Hanover",
            address_id="A-77",
            lat="",
            long="",
        ),
        fmt,
    )
    (case,) = rows(database(portal), "SELECT address FROM cases WHERE reference = ?", both)
    assert case["address"] == "Corner of Main and Hanover (address ID A-77)"
    found = client_for(portal, fmt).get_service_request(reference)
    assert "545483" not in json.dumps(found), "a place given by the reporter is not published"


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(
    "params",
    [
        {"end_date": "0001-01-01T00:00:00Z"},
        {"start_date": "9999-12-31T00:00:00Z"},
        {"start_date": "9999-12-31T23:59:59-12:00"},
        {"end_date": "0001-01-01T00:00:00+14:00"},
    ],
)
def test_dates_out_of_range_are_a_bad_request_not_a_crash(http, portal, fmt, params):
    assert_error(http.get(f"{portal.url}/requests.{fmt}", params=params), fmt, 400, "date")
    with pytest.raises(requests.HTTPError) as refused:
        client_for(portal, fmt).get_service_requests(**params)
    assert refused.value.response.status_code == 400


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_observed_time_out_of_range_is_refused_in_the_apis_words(http, portal, fmt):
    for value in ("0001-01-01T00:00:00+14:00", ""):
        answer = post(http, portal, fmt, key=f"checker-{fmt}", **{"attribute[observed_at]": value})
        assert_error(answer, fmt, 400, "attribute[observed_at]")
        assert "W3C date and time" in answer.text and "09:30." not in answer.text


# ------------------------------------------------------------------ updated_datetime, notes


def read_back(portal, fmt: str, reference: str) -> dict:
    return client_for(portal, fmt).get_service_request(reference)


def test_updated_datetime_is_when_it_closed_and_internal_work_never_moves_it(http, portal, staff):
    reference = filed_id(post(http, portal), "json")
    number = case_id(portal, reference)
    filed = read_back(portal, "json", reference)
    assert filed["updated_datetime"] == filed["requested_datetime"]
    time.sleep(1.1)
    assert save_case(staff.client, number, status="investigating").status_code == 303
    opened = read_back(portal, "json", reference)["updated_datetime"]
    assert opened > filed["updated_datetime"]
    time.sleep(1.1)
    assert (
        save_case(
            staff.client, number, status="resolved", public_update="The outfall was cleaned."
        ).status_code
        == 303
    )
    closed = read_back(portal, "json", reference)
    assert closed["status"] == "closed" and closed["updated_datetime"] > opened
    time.sleep(1.1)
    # An internal note, a note to the sender, a site visit, a later public update: the
    # request stays closed when it was closed.
    assert save_case(staff.client, number, note="Owner called back").status_code == 303
    assert save_case(staff.client, number, public_note="Thank you, Dana.").status_code == 303
    page = staff.client.get(f"/staff/cases/{number}/").text
    visit = staff.client.post(
        f"/staff/cases/{number}/inspections",
        data={
            "csrf_token": csrf_of(page),
            "visited_at": f"{dt.datetime.now(CONTENT.settings.timezone):%Y-%m-%dT%H:%M}",
            "inspector": "smo",
            "findings": "Dry pipe",
            "sampled": "no",
        },
    )
    assert visit.status_code == 303, visit.text[:500]
    assert save_case(staff.client, number, public_update="Cleaned on Monday.").status_code == 303
    for fmt in FORMATS:
        later = read_back(portal, fmt, reference)
        assert later["updated_datetime"] == closed["updated_datetime"], fmt
        assert later["status_notes"] == "Cleaned on Monday."
        assert "Thank you, Dana" not in json.dumps(later) and "Owner" not in json.dumps(later)


def test_the_note_to_the_sender_is_never_published(http, portal, staff):
    reference = filed_id(post(http, portal), "json")
    number = case_id(portal, reference)
    assert (
        save_case(
            staff.client,
            number,
            public_note="Your neighbour Jane reported it too",
            status="investigating",
        ).status_code
        == 303
    )
    for fmt in FORMATS:
        item = read_back(portal, fmt, reference)
        assert not item.get("status_notes"), "the public update is empty by default"
        everything = http.get(f"{portal.url}/requests.{fmt}").text
        assert "Jane" not in everything
    form = staff.client.get(f"/staff/cases/{number}/").text
    assert "Note to the person who sent it" in form and "Never published." in form
    assert "Public update" in form and "Published for anyone to read" in form


def test_every_xml_answer_parses_whatever_a_note_holds(http, portal, staff):
    reference = filed_id(post(http, portal), "json")
    number = case_id(portal, reference)
    # A vertical tab, as Word writes a manual line break, and other control characters.
    update = "Line one\vline two\x01\x1f end"
    assert save_case(staff.client, number, public_update=update).status_code == 303
    (stored,) = rows(database(portal), "SELECT public_update FROM cases WHERE id = ?", number)
    assert stored["public_update"] == "Line one\nline two end"
    # Even a control character already stored (a file from before) cannot break the XML.
    with __import__("sqlite3").connect(portal.database) as conn:
        conn.execute("UPDATE cases SET public_update = ? WHERE id = ?", ["a\vb\x00c", number])
    answers = [
        http.get(f"{portal.url}/requests.xml"),
        http.get(f"{portal.url}/requests/{reference}.xml"),
    ]
    for answer in answers:
        root = ElementTree.fromstring(answer.content)
        notes = [
            r.findtext("status_notes")
            for r in root
            if r.findtext("service_request_id") == reference
        ]
        assert notes == ["abc"]
    assert read_back(portal, "xml", reference)["status_notes"] == "abc"
    assert reference in [
        r["service_request_id"]
        for r in listed(client_for(portal, "xml").get_service_requests(status="open"))
    ]
    assert read_back(portal, "json", reference)["status_notes"] == "a\vb\x00c"


# ------------------------------------------------------------------ keys, retries, headers


@pytest.mark.parametrize("fmt", FORMATS)
def test_retry_after_is_sent_only_with_429(http, portal, fmt):
    answer = http.get(f"{portal.url}/services.{fmt}")
    assert answer.status_code == 200 and "Retry-After" not in answer.headers
    assert "X-RateLimit-Limit" in answer.headers
    filed = post(http, portal, fmt)
    assert filed.status_code == 200 and "Retry-After" not in filed.headers


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_key_in_a_reads_address_is_refused_whatever_the_key(http, portal, fmt):
    """Reads need no key (GeoReport v2: api_key is POST Service Request's), and an address
    is logged: a key there is refused, good or bad."""
    for given in ("made-up", portal.keys["tester"]):
        for path in ("services", "requests", "discovery"):
            answer = http.get(f"{portal.url}/{path}.{fmt}", params={"api_key": given})
            assert_error(answer, fmt, 403, "reads need no key")
    assert http.get(f"{portal.url}/services.{fmt}", params={"api_key": ""}).status_code == 200


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_key_in_a_posts_address_is_refused_and_nothing_filed(http, portal, fmt):
    before = rows(database(portal), "SELECT count(*) AS n FROM cases")[0]["n"]
    data = report()
    answer = http.post(
        f"{portal.url}/requests.{fmt}", params={"api_key": portal.keys["tester"]}, data=data
    )
    assert_error(answer, fmt, 403, "never in the address")
    both = http.post(
        f"{portal.url}/requests.{fmt}",
        params={"api_key": portal.keys["tester"]},
        data={**data, "api_key": portal.keys["tester"]},
    )
    assert_error(both, fmt, 403, "api_key")
    assert rows(database(portal), "SELECT count(*) AS n FROM cases")[0]["n"] == before


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_retried_post_returns_the_first_id_and_files_nothing_new(http, portal, fmt):
    body = report(
        description=f"Retried after a timeout, {fmt} {time.monotonic_ns()}",
        email=f"retry-{fmt}@example.test",
    )
    body["api_key"] = portal.keys["tester"]
    first = filed_id(http.post(f"{portal.url}/requests.{fmt}", data=body), fmt)
    again = filed_id(http.post(f"{portal.url}/requests.{fmt}", data=body), fmt)
    assert again == first
    # The fields in another order are the same body.
    shuffled = dict(reversed(list(body.items())))
    assert filed_id(http.post(f"{portal.url}/requests.{fmt}", data=shuffled), fmt) == first
    assert (
        len(
            rows(
                database(portal),
                "SELECT id FROM cases WHERE contact_email = ?",
                f"retry-{fmt}@example.test",
            )
        )
        == 1
    )
    (filing,) = rows(
        database(portal),
        "SELECT count(*) AS n FROM open311_filings f JOIN cases c"
        " ON c.id = f.case_id WHERE c.reference = ?",
        first,
    )
    assert filing["n"] == 1
    wait_for(lambda: portal.mail.to(f"retry-{fmt}@example.test"), timeout=15)
    time.sleep(1)
    assert len(portal.mail.to(f"retry-{fmt}@example.test")) == 1, "one acknowledgement"
    assert len([m for m in portal.mail.to("smo@crash.test") if first in m["Subject"]]) == 1
    # A different body is a new report.
    other = filed_id(
        http.post(
            f"{portal.url}/requests.{fmt}", data={**body, "description": body["description"] + "!"}
        ),
        fmt,
    )
    assert other != first


def test_a_retry_after_ten_minutes_is_a_new_report(tmp_path):
    from portal.core.db import get_db
    from portal.open311.keys import add_key

    now = [dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC)]
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "p.sqlite3"),
            "RATELIMIT_ENABLED": False,
            "MAIL_SUPPRESS_SEND": True,
            "MAIL_FOLDER": str(tmp_path / "mail"),
            "CLOCK": lambda: now[0],
        }
    )
    with app.app_context():
        key = add_key(get_db(), "retrier")
    client = app.test_client()
    body = report(api_key=key, **{"attribute[observed_at]": "2026-11-30T08:00:00Z"})
    first = client.post("/open311/v2/requests.json", data=body).json[0]["service_request_id"]
    now[0] += dt.timedelta(minutes=9, seconds=59)
    assert (
        client.post("/open311/v2/requests.json", data=body).json[0]["service_request_id"] == first
    )
    now[0] += dt.timedelta(minutes=10, seconds=2)
    second = client.post("/open311/v2/requests.json", data=body).json[0]["service_request_id"]
    assert second != first
    now[0] += dt.timedelta(minutes=1)
    assert (
        client.post("/open311/v2/requests.json", data=body).json[0]["service_request_id"] == second
    )


def test_made_up_keys_are_counted_with_their_address_and_add_no_rows(tmp_path):
    import sqlite3

    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "p.sqlite3"),
            "OPEN311_READ_RATE_LIMIT": "30 per minute",
            "OPEN311_FILE_RATE_LIMIT": "10 per minute",
            "MAIL_SUPPRESS_SEND": True,
        }
    )
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = "203.0.113.5"
    reads = [
        client.get("/open311/v2/services.json", query_string={"api_key": f"guess{n}"}).status_code
        for n in range(31)
    ]
    assert reads == [403] * 30 + [429]
    posts = [
        client.post("/open311/v2/requests.json", data={"api_key": f"guess{n}"}).status_code
        for n in range(11)
    ]
    assert posts == [403] * 10 + [429]
    limits = tmp_path / "p-limits.sqlite3"
    with sqlite3.connect(limits) as conn:
        keys = [row[0] for row in conn.execute("SELECT key FROM counters")]
    conn.close()
    assert len(keys) == 2 and all("203.0.113.5" in key for key in keys), keys
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = "203.0.113.6"
    assert other.get("/open311/v2/services.json").status_code == 200, "another address is free"
