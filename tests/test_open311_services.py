"""Open311 lists with two services: each service_code gives its own requests only. Both
shipped packs offer one service, where a filter that did nothing could not be seen."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from content_model.open311 import Service
from portal import create_app
from portal.core.db import get_db
from portal.intake.storage import store_case

NOW = dt.datetime.now(dt.UTC)
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
FINDING = {
    "description": "Suds",
    "found_at": "2026-12-01T09:00",
    "found_by": "Jo",
    "how_found": "patrol",
    "recorded_by": "jo",
}


@pytest.fixture
def api(tmp_path):
    """The portal with a second service, a report and a staff finding stored."""
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "p.sqlite3"),
            "RATELIMIT_ENABLED": False,
            "MAIL_SUPPRESS_SEND": True,
            "MAIL_FOLDER": str(tmp_path / "mail"),
        }
    )
    content = app.extensions["content"]
    services = (*content.open311.services, SECOND)
    open311 = dataclasses.replace(content.open311, services=services)
    app.extensions["content"] = dataclasses.replace(content, open311=open311)
    references = {}
    with app.test_request_context():
        for kind, key, details in (
            (
                "report",
                "r" * 24,
                {"indicators": "[]", "description": "Foam", "observed_at": "2026-12-01T08:00"},
            ),
            ("staff_found", "s" * 24, FINDING),
        ):
            stored = store_case(
                get_db(),
                kind=kind,
                secret=app.secret_key,
                submission_key=key,
                case={"service_code": "x", "latitude": 42.1679, "longitude": -76.8212},
                details=details,
                photo_ids=[],
                now=NOW,
            )
            references[kind] = stored.reference
    return app.test_client(), references


def listed(client, **params) -> list[tuple[str, str]]:
    answer = client.get("/open311/v2/requests.json", query_string=params)
    assert answer.status_code == 200, answer.text
    return sorted((item["service_code"], item["service_request_id"]) for item in answer.json)


def test_each_service_code_lists_its_own_requests_only(api):
    client, references = api
    report = ("illicit-discharge", references["report"])
    finding = ("found-by-staff", references["staff_found"])
    assert listed(client, service_code="illicit-discharge") == [report]
    assert listed(client, service_code="found-by-staff") == [finding]
    assert listed(client, service_code="illicit-discharge,found-by-staff") == [finding, report]
    assert listed(client) == [finding, report]
    assert listed(client, service_code="found-by-staff", status="closed") == []


def test_a_request_of_the_second_service_is_found_by_its_id(api):
    client, references = api
    answer = client.get(f"/open311/v2/requests/{references['staff_found']}.json")
    assert answer.status_code == 200
    assert answer.json[0]["service_code"] == "found-by-staff"
    assert answer.json[0]["description"] == ""
