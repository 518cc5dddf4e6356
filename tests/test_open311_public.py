"""What Open311's reads may show, in process and fast: each service's own requests (with a
throwaway second service: both shipped packs offer one, where a filter that did nothing
could not be seen), the 90-day window to its last second, newest first, the place rounded,
and every parameter the API cannot read refused."""

from __future__ import annotations

import dataclasses
import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from content_model.open311 import Service
from portal import create_app
from portal.core.db import get_db
from portal.intake.storage import store_case
from portal.open311 import public

ZONE = ZoneInfo("America/New_York")
NOW = dt.datetime(2026, 12, 1, 12, 0, tzinfo=ZONE)
# A throwaway second service, standing for the staff-found kind's cases (a service is its
# form: content_model/open311.py lets one form stand for one service only).
SECOND = Service(
    service_code="found-by-staff",
    form="staff_found",
    service_name="Discharge found by staff",
    description="A discharge the office found itself.",
    keywords=("found",),
    group="Stormwater",
    agency_responsible="The office",
    service_notice="",
)
REPORT = {"indicators": "[]", "description": "Foam", "observed_at": "2026-12-01T08:00"}
FINDING = {
    "description": "Suds",
    "found_at": "2026-12-01T09:00",
    "found_by": "Jo",
    "how_found": "patrol",
    "recorded_by": "jo",
}
# (kind, received, where): the oldest sits 90 days before NOW by the local clock (12:00 in
# summer time), one a second older.
CASES = {
    "old": ("report", dt.datetime(2026, 9, 2, 11, 59, 59, tzinfo=ZONE), None),
    "edge": ("staff_found", dt.datetime(2026, 9, 2, 12, 0, 0, tzinfo=ZONE), None),
    "found": ("staff_found", dt.datetime(2026, 11, 20, 9, 0, tzinfo=ZONE), None),
    "open": ("report", dt.datetime(2026, 11, 30, 10, 0, tzinfo=ZONE), (42.16789, -76.82149)),
    "closed": ("report", dt.datetime(2026, 12, 1, 9, 0, tzinfo=ZONE), None),
}


@pytest.fixture
def api(tmp_path):
    """The portal at NOW with a second service, and the CASES stored; (client, references)."""
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "p.sqlite3"),
            "RATELIMIT_ENABLED": False,
            "MAIL_SUPPRESS_SEND": True,
            "MAIL_FOLDER": str(tmp_path / "mail"),
            "CLOCK": lambda: NOW,
        }
    )
    content = app.extensions["content"]
    open311 = dataclasses.replace(content.open311, services=(*content.open311.services, SECOND))
    app.extensions["content"] = dataclasses.replace(content, open311=open311)
    references = {}
    with app.test_request_context():
        db = get_db()
        for name, (kind, received, point) in CASES.items():
            case = {"service_code": "x", "address": "Main Street"}
            if point:
                case["latitude"], case["longitude"] = point
            stored = store_case(
                db,
                kind=kind,
                secret=app.secret_key,
                submission_key=name * (24 // len(name) + 1),
                case=case,
                details=REPORT if kind == "report" else FINDING,
                photo_ids=[],
                now=received,
            )
            references[name] = stored.reference
        db.execute(
            "UPDATE cases SET status = 'resolved', public_update = 'Fixed by the owner.',"
            " public_changed_at = '2026-12-01T10:00:00-05:00',"
            " closed_at = '2026-12-01T11:00:00-05:00' WHERE reference = ?",
            [references["closed"]],
        )
    return app.test_client(), references


def listed(client, references, **params) -> list[str]:
    """The names of the CASES a list answers with, in its order."""
    answer = client.get("/open311/v2/requests.json", query_string=params)
    assert answer.status_code == 200, answer.text
    names = {reference: name for name, reference in references.items()}
    return [names[item["service_request_id"]] for item in answer.json]


def refused(client, **params) -> tuple[int, str]:
    answer = client.get("/open311/v2/requests.json", query_string=params)
    return answer.status_code, answer.json[0]["description"]


def test_each_service_code_lists_its_own_requests_only(api):
    client, refs = api
    assert listed(client, refs, service_code="illicit-discharge") == ["closed", "open"]
    assert listed(client, refs, service_code="found-by-staff") == ["found", "edge"]
    both = "found-by-staff,illicit-discharge"
    assert listed(client, refs, service_code=both) == ["closed", "open", "found", "edge"]
    assert listed(client, refs) == ["closed", "open", "found", "edge"]
    assert refused(client, service_code="yard-waste")[0] == 404


def test_the_window_is_the_last_90_days_to_the_second_newest_first(api, monkeypatch):
    client, refs = api
    assert "old" not in listed(client, refs) and "edge" in listed(client, refs)
    window = {"start_date": "2026-09-02T12:00:00-04:00", "end_date": "2026-11-20T09:00:00-05:00"}
    assert listed(client, refs, **window) == ["found", "edge"]
    # Without an offset, a date is the municipality's time.
    assert listed(client, refs, start_date="2026-11-30T10:00:00") == ["closed", "open"]
    assert listed(client, refs, start_date="2026-11-30T10:00:01") == ["closed"]
    # An end alone: the 90 days before it.
    # (10:59:59 EST on 1 December less 90 days is when "old" came, 11:59:59 in summer time.)
    everything = ["closed", "open", "found", "edge", "old"]
    assert listed(client, refs, end_date="2026-12-01T10:59:59-05:00") == everything
    assert listed(client, refs, end_date="2026-12-01T11:00:00-05:00") == everything[:-1]
    assert listed(client, refs, end_date="2026-11-30T09:59:59-05:00") == ["found", "edge", "old"]
    monkeypatch.setattr(public, "MOST", 2)
    assert listed(client, refs) == ["closed", "open"], "the newest are the ones kept"


def test_open_and_closed_are_asked_for_by_status(api):
    client, refs = api
    assert listed(client, refs, status="closed") == ["closed"]
    assert listed(client, refs, status="open") == ["open", "found", "edge"]
    assert listed(client, refs, status="open,closed") == ["closed", "open", "found", "edge"]
    assert listed(client, refs, status="") == ["closed", "open", "found", "edge"]


def test_ids_override_every_other_parameter(api):
    client, refs = api
    ids = f"{refs['old']}, {refs['edge']},{refs['old']},IDR-1999-0001"
    params = {"service_request_id": ids, "status": "closed", "service_code": "x"}
    assert listed(client, refs, **params) == ["old", "edge"]


def test_a_request_shows_the_public_words_and_a_rounded_place(api):
    client, refs = api
    (opened,) = client.get(f"/open311/v2/requests/{refs['open']}.json").json
    assert opened == {
        "service_request_id": refs["open"],
        "status": "open",
        "status_notes": "",
        "service_name": "Illicit discharge to the storm sewer",
        "service_code": "illicit-discharge",
        "description": "",
        "agency_responsible": "Village of Horseheads Stormwater Management Officer",
        "service_notice": "The Stormwater Management Officer reviews reports on business"
        " days. If this is an emergency, call 911.",
        "requested_datetime": "2026-11-30T10:00:00-05:00",
        "updated_datetime": "2026-11-30T10:00:00-05:00",
        "lat": 42.168,
        "long": -76.821,
    }
    (closed,) = client.get(f"/open311/v2/requests/{refs['closed']}.json").json
    assert closed["status"] == "closed" and closed["status_notes"] == "Fixed by the owner."
    assert closed["updated_datetime"] == "2026-12-01T11:00:00-05:00", "when it was closed"
    assert "lat" not in closed and "long" not in closed
    (found,) = client.get(f"/open311/v2/requests/{refs['found']}.json").json
    assert found["service_code"] == "found-by-staff" and found["description"] == ""


@pytest.mark.parametrize(
    ("params", "says"),
    [
        ({"status": "pending"}, "status: use open or closed"),
        ({"start_date": "yesterday"}, "start_date: give a W3C date and time"),
        ({"end_date": "2026-13-01T00:00:00Z"}, "end_date: give a W3C date and time"),
        (
            {"start_date": "2026-11-01T00:00:00Z", "end_date": "2026-10-31T23:59:59Z"},
            "end_date: comes before start_date",
        ),
        (
            {"start_date": "2026-09-01T00:00:00Z", "end_date": "2026-11-30T00:00:01Z"},
            "may not span more than 90 days",
        ),
        ({"end_date": "0001-01-02T00:00:00Z"}, "between the years 1 and 9999"),
        ({"start_date": "9999-12-30T00:00:00Z"}, "between the years 1 and 9999"),
    ],
)
def test_a_parameter_the_api_cannot_read_is_refused_by_name(api, params, says):
    status, description = refused(api[0], **params)
    assert status == 400 and says in description


def test_a_window_of_exactly_90_days_is_taken(api):
    client, refs = api
    window = {"start_date": "2026-09-02T13:00:00-04:00", "end_date": "2026-12-01T12:00:00-05:00"}
    assert listed(client, refs, **window) == ["closed", "open", "found"]
