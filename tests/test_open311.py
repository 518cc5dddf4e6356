"""The Open311 GeoReport v2 API, as an integrator meets it: the portal under gunicorn with a
real SMTP server, keys issued with the `flask` command, every endpoint in JSON and XML,
every error in the specification's format."""

from __future__ import annotations

import datetime as dt
import itertools
import json
import re
from types import SimpleNamespace
from xml.etree import ElementTree

import pytest
import requests
from crashload import ROOT, flask_command
from helpers import rows, save_case, sign_in
from mailserver import body, wait_for
from open311_server import FILE_LIMIT, PUBLIC_URL

from content_model.loader import load_content
from portal import create_app
from portal.report.choices import INDICATORS, LOCATION_TYPES, ODORS
from portal.report.forms import DESCRIPTION_LIMIT

CONTENT = load_content()
API = CONTENT.open311
SERVICE = API.services[0]
REFERENCE = re.compile(r"^IDR-\d{4}-\d{4,}$")
FORMATS = ("json", "xml")
# What an answer may never contain (the reporter's own details and words).
SECRET_EMAIL = "resident.secret@example.test"
SECRET_WORDS = "Purple foam behind 14 Quiet Lane, my house"


@pytest.fixture
def portal(open311_server):
    """The portal under gunicorn both Open311 files share (conftest.py), and its keys."""
    return open311_server


@pytest.fixture(scope="module")
def http():
    session = requests.Session()
    session.trust_env = False  # never a proxy from the environment: the server is local
    return session


def parse(response: requests.Response, fmt: str):
    """The answer as plain data: JSON as it is; XML as (tag, children or text) trees."""
    expected = "application/json" if fmt == "json" else "text/xml"
    assert response.headers["Content-Type"] == f"{expected}; charset=utf-8", response.headers
    if fmt == "json":
        return response.json()
    assert response.content.startswith(b'<?xml version="1.0" encoding="utf-8"?>')
    return ElementTree.fromstring(response.content)


def xml_items(root: ElementTree.Element, item: str) -> list[dict[str, str]]:
    """An XML list's items as {field: text} (fields with children left out)."""
    return [
        {child.tag: child.text or "" for child in element if len(child) == 0}
        for element in root.findall(item)
    ]


def assert_error(response: requests.Response, fmt: str, status: int, mentions: str = "") -> None:
    """The specification's error answer: a list of {code, description}, with this status."""
    assert response.status_code == status, (response.status_code, response.text)
    answer = parse(response, fmt)
    if fmt == "json":
        items = [(item["code"], item["description"]) for item in answer]
    else:
        assert answer.tag == "errors"
        items = [(int(e.findtext("code")), e.findtext("description")) for e in answer]
    assert items and all(code == status and words for code, words in items), items
    assert mentions in " ".join(words for _, words in items), items


_DEVICES = itertools.count(1)


def report(**overrides) -> dict:
    """A full request body. Each is a new report: the same body again within ten minutes
    would be a retry of the first (its device_id differs, as two phones' would)."""
    data = {
        "device_id": f"test-phone-{next(_DEVICES)}",
        "service_code": SERVICE.service_code,
        "lat": "42.1678911",
        "long": "-76.8212345",
        "description": SECRET_WORDS,
        "email": SECRET_EMAIL,
        "first_name": "Dana",
        "last_name": "Quietlane",
        "phone": "607-555-0199",
        "attribute[observed_at]": "2026-11-29T14:30:00Z",
        "attribute[indicators]": ["suds", "color"],
        "attribute[location_type]": "storm-drain",
        "attribute[still_happening]": "yes",
    }
    return data | overrides


def post(http, portal, fmt="json", key="tester", **overrides) -> requests.Response:
    data = report(**overrides)
    if key:
        data["api_key"] = portal.keys.get(key, key)
    return http.post(f"{portal.url}/requests.{fmt}", data=data)


def filed_id(response: requests.Response, fmt: str) -> str:
    assert response.status_code == 200, response.text
    answer = parse(response, fmt)
    if fmt == "json":
        (item,) = answer
        assert item["account_id"] is None
    else:
        assert answer.tag == "service_requests"
        (item,) = xml_items(answer, "request")
        assert item["account_id"] == ""
    assert item["service_notice"] == SERVICE.service_notice
    assert REFERENCE.match(item["service_request_id"]), item
    return item["service_request_id"]


# ------------------------------------------------------------------ discovery and services


@pytest.mark.parametrize("fmt", FORMATS)
def test_discovery_names_the_production_endpoint(http, portal, fmt):
    response = http.get(f"{portal.url}/discovery.{fmt}")
    assert response.status_code == 200
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    answer = parse(response, fmt)
    if fmt == "json":
        top, (endpoint,) = answer, answer["endpoints"]
        formats = endpoint["formats"]
    else:
        top = {child.tag: child.text for child in answer if len(child) == 0}
        (element,) = answer.find("endpoints")
        endpoint = {child.tag: child.text for child in element if len(child) == 0}
        formats = [f.text for f in element.find("formats")]
    assert top["changeset"] == API.changeset
    assert top["key_service"] == API.key_service
    assert CONTENT.settings.office.phone.number in top["contact"]
    assert endpoint["url"] == f"{PUBLIC_URL}/open311/v2"
    assert endpoint["type"] == "production"
    assert sorted(formats) == ["application/json", "text/xml"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_services_list_each_service_from_content(http, portal, fmt):
    response = http.get(f"{portal.url}/services.{fmt}")
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    answer = parse(response, fmt)
    items = answer if fmt == "json" else xml_items(answer, "service")
    assert [item["service_code"] for item in items] == [s.service_code for s in API.services]
    (item,) = items
    assert item["service_name"] == SERVICE.service_name
    assert item["description"] == SERVICE.description
    assert item["group"] == SERVICE.group
    assert item["keywords"] == ", ".join(SERVICE.keywords)
    assert item["type"] == "realtime"
    assert item["metadata"] in (True, "true")
    # The release notification is a legal filing, not a service request.
    assert "notif" not in json.dumps(items).lower()


@pytest.mark.parametrize("fmt", FORMATS)
def test_service_definition_is_the_report_forms_questions(http, portal, fmt):
    response = http.get(f"{portal.url}/services/{SERVICE.service_code}.{fmt}")
    answer = parse(response, fmt)
    if fmt == "json":
        assert answer["service_code"] == SERVICE.service_code
        attributes = {a["code"]: a for a in answer["attributes"]}
        values = {
            code: [(v["key"], v["name"]) for v in a["values"]] for code, a in attributes.items()
        }
    else:
        assert answer.findtext("service_code") == SERVICE.service_code
        elements = answer.find("attributes").findall("attribute")
        attributes = {
            e.findtext("code"): {c.tag: c.text for c in e if len(c) == 0} for e in elements
        }
        values = {
            e.findtext("code"): [(v.findtext("key"), v.findtext("name")) for v in e.find("values")]
            for e in elements
        }
    # The same choices the web form offers (its "choose a smell" prompt is not a value).
    assert values["indicators"] == INDICATORS
    assert values["odor"] == [pair for pair in ODORS if pair[0]]
    assert values["location_type"] == LOCATION_TYPES
    assert attributes["indicators"]["datatype"] == "multivaluelist"
    assert attributes["odor"]["datatype"] == "singlevaluelist"
    assert attributes["observed_at"]["datatype"] == "datetime"
    assert attributes["source_notes"]["datatype"] == "text"
    assert attributes["observed_at"]["required"] in (True, "true")
    assert attributes["odor"]["required"] in (False, "false")
    assert attributes["observed_at"]["description"] == "When did you first notice it?"
    orders = [int(a["order"]) for a in attributes.values()]
    assert orders == list(range(1, len(orders) + 1))
    # The standard parameters are not attributes; nothing the person is asked about
    # themselves is either.
    assert not {"description", "address", "contact_email", "contact_name"} & set(attributes)


# ------------------------------------------------------------------ filing


def test_a_post_files_the_report_as_the_web_form_does(http, portal):
    before = len(portal.mail.messages)
    response = post(http, portal)
    reference = filed_id(response, "json")
    # Only reads are for any origin; a POST's answer is for the client that sent it.
    assert "Access-Control-Allow-Origin" not in response.headers
    wait_for(lambda: len(portal.mail.messages) >= before + 2, timeout=15)
    officer = [m for m in portal.mail.to("smo@crash.test") if reference in m["Subject"]]
    reporter = [m for m in portal.mail.to(SECRET_EMAIL) if reference in m["Subject"]]
    assert officer and reporter, [m["Subject"] for m in portal.mail.messages]
    assert SECRET_WORDS in body(officer[0])
    app = SimpleNamespace(config={"DATABASE": portal.database})
    (case,) = rows(app, "SELECT * FROM cases WHERE reference = ?", reference)
    assert case["kind"] == "report" and case["service_code"] == "illicit-discharge"
    assert case["contact_email"] == SECRET_EMAIL
    assert case["contact_name"] == "Dana Quietlane"
    assert case["latitude"] == pytest.approx(42.1678911)
    assert case["in_service_area"] is not None
    (details,) = rows(app, "SELECT * FROM reports WHERE case_id = ?", case["id"])
    assert json.loads(details["indicators"]) == ["suds", "color"]
    assert details["description"] == SECRET_WORDS
    # 14:30 UTC is 09:30 in the Village, stored as the web form stores it.
    assert details["observed_at"] == "2026-11-29T09:30-05:00"
    (event,) = rows(app, "SELECT * FROM events WHERE case_id = ?", case["id"])
    assert event["actor"] == "Open311 key tester"
    (filing,) = rows(
        app,
        "SELECT k.name FROM open311_filings f JOIN open311_keys k"
        " ON k.id = f.key_id WHERE f.case_id = ?",
        case["id"],
    )
    assert filing["name"] == "tester"


def test_a_post_answers_in_xml(http, portal):
    reference = filed_id(
        post(http, portal, "xml", address_string="Corner of Main and Hanover", lat="", long=""),
        "xml",
    )
    app = SimpleNamespace(config={"DATABASE": portal.database})
    (case,) = rows(app, "SELECT latitude, address FROM cases WHERE reference = ?", reference)
    assert case == {"latitude": None, "address": "Corner of Main and Hanover"}


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(
    ("status", "key", "overrides", "mentions"),
    [
        (403, None, {}, "api_key"),
        (403, "not-a-key-anyone-was-given", {}, "api_key"),
        (400, "tester", {"service_code": ""}, "service_code"),
        (404, "tester", {"service_code": "potholes"}, "service_code"),
        (400, "tester", {"attribute[odor]": "lavender"}, "attribute[odor]"),
        (
            400,
            "tester",
            {"attribute[still_happening]": ["yes", "no"]},
            "attribute[still_happening]",
        ),
        (400, "tester", {"attribute[colour]": "red"}, "attribute[colour]"),
        (400, "tester", {"attribute[indicators]": ["suds", "glitter"]}, "attribute[indicators]"),
        (400, "tester", {"attribute[observed_at]": "yesterday"}, "attribute[observed_at]"),
        (
            400,
            "tester",
            {"attribute[observed_at]": "2999-01-01T00:00:00Z"},
            "attribute[observed_at]",
        ),
        (400, "tester", {"attribute[observed_at]": ""}, "attribute[observed_at]"),
        (400, "tester", {"lat": "95", "long": "-76.8"}, "lat"),
        (400, "tester", {"lat": "42.1", "long": ""}, "long"),
        (400, "tester", {"lat": "", "long": ""}, "address_string"),
        (400, "tester", {"description": ""}, "description"),
        (400, "tester", {"description": "x" * (DESCRIPTION_LIMIT + 1)}, "description"),
        (400, "tester", {"email": "not an address"}, "email"),
        (400, "tester", {"media_url": "file:///etc/passwd"}, "media_url"),
        (404, "tester", {"jurisdiction_id": "elsewhere.example"}, "jurisdiction_id"),
    ],
)
def test_a_refused_post_says_why_and_stores_nothing(
    http, portal, fmt, status, key, overrides, mentions
):
    app = SimpleNamespace(config={"DATABASE": portal.database})
    before = rows(app, "SELECT count(*) AS n FROM cases")[0]["n"]
    key = f"checker-{fmt}" if key == "tester" else key  # a key of its own: many tries
    assert_error(post(http, portal, fmt, key=key, **overrides), fmt, status, mentions)
    assert rows(app, "SELECT count(*) AS n FROM cases")[0]["n"] == before


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_json_body_is_a_bad_request(http, portal, fmt):
    response = http.post(f"{portal.url}/requests.{fmt}", json=report(api_key=portal.keys["tester"]))
    assert_error(response, fmt, 400)


def test_a_matching_jurisdiction_is_accepted(http, portal):
    filed_id(post(http, portal, jurisdiction_id=API.jurisdiction_id), "json")
    response = http.get(
        f"{portal.url}/services.json", params={"jurisdiction_id": API.jurisdiction_id}
    )
    assert response.status_code == 200


def test_a_revoked_key_stops_at_once(http, portal):
    filed_id(post(http, portal, key="leaver"), "json")
    done = flask_command(portal.env, ROOT, "open311", "keys", "revoke", "leaver")
    assert done.returncode == 0, done.stderr
    for fmt in FORMATS:  # both workers, right away
        assert_error(post(http, portal, fmt, key="leaver"), fmt, 403, "revoked")
    # Reads need none, and one in a read's address is refused like any other.
    response = http.get(f"{portal.url}/services.json", params={"api_key": portal.keys["leaver"]})
    assert response.status_code == 403


@pytest.mark.parametrize("fmt", FORMATS)
def test_each_key_has_its_own_rate_limit(http, portal, fmt):
    key = "burst" if fmt == "json" else "second"
    assert filed_id(post(http, portal, fmt, key=key), fmt)
    # Refused tries count too (no description): hammering costs the key its limit.
    answers = {
        post(http, portal, fmt, key=key, description="").status_code for _ in range(FILE_LIMIT - 1)
    }
    assert answers == {400}, answers
    assert_error(post(http, portal, fmt, key=key), fmt, 429)
    # Another key is not held back by this one.
    assert post(http, portal, fmt, key="tester").status_code == 200


def test_keys_are_listed_with_their_counts_and_never_shown_again(http, portal):
    filed_id(post(http, portal), "json")  # by "tester"; "lister" is revoked here, unused
    assert flask_command(portal.env, ROOT, "open311", "keys", "revoke", "lister").returncode == 0
    listing = flask_command(portal.env, ROOT, "open311", "keys", "list")
    assert listing.returncode == 0, listing.stderr
    lines = {line.split("\t")[0]: line for line in listing.stdout.splitlines()}
    assert set(lines) >= {"tester", "burst", "leaver", "second", "lister"}
    assert "revoked" in lines["lister"] and "in use" in lines["tester"]
    assert re.search(r"\t[1-9]\d* requests\t[1-9]\d* filed", lines["tester"]), lines["tester"]
    for key in portal.keys.values():
        assert key not in listing.stdout
    app = SimpleNamespace(config={"DATABASE": portal.database})
    stored = json.dumps(rows(app, "SELECT * FROM open311_keys"))
    assert not any(key in stored for key in portal.keys.values()), "a key stored as it is"
    again = flask_command(portal.env, ROOT, "open311", "keys", "add", "tester")
    assert again.returncode != 0 and "exists" in again.stderr
    assert flask_command(portal.env, ROOT, "open311", "keys", "revoke", "nobody").returncode != 0


# ------------------------------------------------------------------ reading requests


def public_answers(http, portal, reference: str) -> list[tuple[str, requests.Response]]:
    """Every way to read a request, in both formats."""
    now = dt.datetime.now(dt.UTC)
    queries = [
        ("requests/{id}", {}),
        ("requests", {}),
        ("requests", {"service_request_id": f"{reference},IDR-1999-0001"}),
        ("requests", {"status": "open", "service_code": SERVICE.service_code}),
        (
            "requests",
            {
                "start_date": (now - dt.timedelta(hours=1)).isoformat(),
                "end_date": (now + dt.timedelta(hours=1)).isoformat(),
            },
        ),
    ]
    answers = []
    for fmt in FORMATS:
        for path, params in queries:
            url = f"{portal.url}/{path.format(id=reference)}.{fmt}"
            answers.append((fmt, http.get(url, params=params)))
    return answers


def items_of(response: requests.Response, fmt: str) -> list[dict]:
    answer = parse(response, fmt)
    return answer if fmt == "json" else xml_items(answer, "request")


def test_a_request_shows_only_what_a_status_page_may(http, portal):
    reference = filed_id(post(http, portal), "json")
    for fmt, response in public_answers(http, portal, reference):
        assert response.status_code == 200, response.text
        assert response.headers["Access-Control-Allow-Origin"] == "*"
        text = response.content.decode()
        for secret in (SECRET_EMAIL, SECRET_WORDS, "Quietlane", "555-0199", "42.16789"):
            assert secret not in text, (secret, response.url)
        (item,) = [i for i in items_of(response, fmt) if i["service_request_id"] == reference]
        assert item["status"] == "open"
        assert item["service_code"] == SERVICE.service_code
        assert item["service_name"] == SERVICE.service_name
        assert item["agency_responsible"] == SERVICE.agency_responsible
        assert float(item["lat"]) == 42.168 and float(item["long"]) == -76.821
        assert dt.datetime.fromisoformat(item["requested_datetime"]).tzinfo is not None
        assert set(item) <= {
            "service_request_id",
            "status",
            "status_notes",
            "service_name",
            "service_code",
            "description",
            "agency_responsible",
            "service_notice",
            "requested_datetime",
            "updated_datetime",
            "lat",
            "long",
        }
        assert not item["description"]


def test_the_request_is_in_the_staff_queue_and_closes_with_its_public_update(
    http, portal, tmp_path
):
    reference = filed_id(post(http, portal), "json")
    # The officer's own portal on the same database file.
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
    sign_in(client, app, username="officer")
    queue = client.get("/staff/")
    assert reference in queue.text
    (case,) = rows(app, "SELECT id FROM cases WHERE reference = ?", reference)
    page = client.get(f"/staff/cases/{case['id']}/")
    assert "Open311" in page.text and "tester" in page.text, "the case does not say which key"
    # One save of the case form: the internal note, the note to the sender, the public
    # update and the status together; only the public update is published.
    saved = save_case(
        client,
        case["id"],
        note="Internal: neighbour at no. 12 suspected",
        public_note="Thank you, Dana.",
        public_update="Cleaned up by the owner.",
        status="resolved",
    )
    assert saved.status_code == 303
    for fmt, response in public_answers(http, portal, reference)[:3]:
        (item,) = [i for i in items_of(response, fmt) if i["service_request_id"] == reference]
        assert item["status"] == "closed"
        assert item["status_notes"] == "Cleaned up by the owner."
        assert "neighbour" not in response.text and "Dana" not in response.text
    closed = http.get(f"{portal.url}/requests.json", params={"status": "open"})
    assert reference not in closed.text
    assert reference in http.get(f"{portal.url}/requests.json", params={"status": "closed"}).text


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(
    ("path", "params", "status", "mentions"),
    [
        ("requests/IDR-1999-0001", {}, 404, "service_request_id"),
        ("requests/REL-2026-0001", {}, 404, "service_request_id"),
        ("services/potholes", {}, 404, "service_code"),
        ("tokens/12345", {}, 404, "token"),
        ("no-such-thing", {}, 404, ""),
        ("services", {"jurisdiction_id": "elsewhere.example"}, 404, "jurisdiction_id"),
        ("requests", {"status": "pending"}, 400, "status"),
        ("requests", {"service_code": "potholes"}, 404, "service_code"),
        ("requests", {"start_date": "last tuesday"}, 400, "start_date"),
        (
            "requests",
            {"start_date": "2026-01-01T00:00:00Z", "end_date": "2026-06-01T00:00:00Z"},
            400,
            "90 days",
        ),
        (
            "requests",
            {"start_date": "2026-03-01T00:00:00Z", "end_date": "2026-02-01T00:00:00Z"},
            400,
            "end_date",
        ),
    ],
)
def test_a_refused_read_says_why(http, portal, fmt, path, params, status, mentions):
    response = http.get(f"{portal.url}/{path}.{fmt}", params=params)
    assert_error(response, fmt, status, mentions)


def test_an_unknown_format_or_method_is_an_api_error_too(http, portal):
    assert_error(http.get(f"{portal.url}/services.html"), "json", 404)
    assert_error(http.delete(f"{portal.url}/requests.xml"), "xml", 405)


def test_a_date_window_finds_only_its_requests(http, portal):
    reference = filed_id(post(http, portal), "json")
    past = {"start_date": "2020-01-01T00:00:00Z", "end_date": "2020-03-01T00:00:00Z"}
    assert http.get(f"{portal.url}/requests.json", params=past).json() == []
    # A start alone means the 90 days after it; an end alone, the 90 days before it.
    soon = (dt.datetime.now(dt.UTC) - dt.timedelta(days=1)).isoformat()
    assert reference in http.get(f"{portal.url}/requests.json", params={"start_date": soon}).text
    late = (dt.datetime.now(dt.UTC) + dt.timedelta(days=1)).isoformat()
    assert reference in http.get(f"{portal.url}/requests.json", params={"end_date": late}).text
    newest_first = [i["requested_datetime"] for i in http.get(f"{portal.url}/requests.json").json()]
    assert newest_first == sorted(newest_first, reverse=True)


# ------------------------------------------------------------------ a client from PyPI


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_georeport_client_reads_the_portal(http, portal, fmt, monkeypatch):
    from georeport import GeoReport

    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    reference = filed_id(post(http, portal), "json")
    client = GeoReport(portal.url, jurisdiction=API.jurisdiction_id, output_format=fmt)
    services = client.get_service_list()
    # xmltodict reads a one-item list as the item itself.
    service = services[0] if fmt == "json" else services
    assert service["service_code"] == SERVICE.service_code
    definition = client.get_service_definition(SERVICE.service_code)
    assert definition["service_code"] == SERVICE.service_code
    attributes = (
        definition["attributes"] if fmt == "json" else definition["attributes"]["attribute"]
    )
    assert "observed_at" in [a["code"] for a in attributes]

    def ids(found) -> list[str]:
        found = [found] if isinstance(found, dict) else found
        return [item["service_request_id"] for item in found]

    assert ids(client.get_service_requests(service_request_id=reference)) == [reference]
    assert reference in ids(client.get_service_requests(status="open"))
    now = dt.datetime.now(dt.UTC).replace(microsecond=0)
    window = client.get_service_requests(
        start_date=(now - dt.timedelta(hours=1)).isoformat().replace("+00:00", "Z"),
        end_date=(now + dt.timedelta(hours=1)).isoformat().replace("+00:00", "Z"),
    )
    assert reference in ids(window)
    one = client.get_service_request(reference)
    assert one["service_request_id"] == reference and one["status"] == "open"
    assert SECRET_EMAIL not in json.dumps([services, definition, window, one])


# ------------------------------------------------------------------ in-process details


def test_reads_are_rate_limited_per_address_in_the_api_format(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "p.sqlite3"),
            "OPEN311_READ_RATE_LIMIT": "3 per minute",
            "MAIL_SUPPRESS_SEND": True,
        }
    )
    client = app.test_client()
    answers = [client.get("/open311/v2/services.xml") for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert answers[-1].content_type == "text/xml; charset=utf-8"
    assert b"<errors><error><code>429</code>" in answers[-1].data


def test_discovery_without_a_public_address_names_the_requests_own(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "p.sqlite3"),
            "PUBLIC_URL": None,
            "RATELIMIT_ENABLED": False,
        }
    )
    answer = app.test_client().get("/open311/v2/discovery.json", base_url="http://api.test")
    assert answer.json["endpoints"][0]["url"] == "http://api.test/open311/v2"
