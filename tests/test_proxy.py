"""Who the client is, behind the proxies the README describes: the portal under gunicorn
with two workers, rate limits counted per forwarded address only when proxies are trusted."""

from __future__ import annotations

import threading

import pytest
from crashload import Gunicorn, Resident, Tally, free_port, portal_env
from flask import request
from helpers import form_keys, open_form, report_data, save_case, sign_in

from portal import create_app
from portal.core.db import get_db
from portal.web.limit_store import SQLiteStorage

# The default report limit, "30 per hour;6 per minute": the seventh in a minute is refused.
PER_MINUTE = 6


@pytest.fixture
def portal(tmp_path, request):
    """gunicorn --workers 2 with PORTAL_PROXY_HOPS from the test's parameter; yields its URL.

    Rate limits stay on, in the default store: a SQLite file both workers count in, so
    which worker answers a request cannot change the outcome (memory:// would count per
    worker, and a seventh report could pass or not by chance).
    """
    env = portal_env(tmp_path)
    del env["PORTAL_RATELIMIT_ENABLED"]
    env["PORTAL_PROXY_HOPS"] = str(request.param)
    server = Gunicorn(free_port(), env, tmp_path)
    try:
        server.start()
        server.wait_ready()
        yield server.url
    finally:
        server.stop()
    assert "Traceback" not in server.log(tail=0), server.log()


def send_report(url: str, forwarded_for: str, n: int) -> tuple[int, str]:
    """One resident's report through a proxy that says it came from `forwarded_for`."""
    resident = Resident(n, url, Tally(), threading.Event(), 1)
    resident.headers = {"X-Forwarded-For": forwarded_for}
    status, _, page = resident._request("/report/")
    assert status == 200
    hidden = form_keys(page)
    body, content_type = resident.report_body(hidden, f"proxy test {n}", photo=False)
    status, _, page = resident._request("/report/", body, content_type)
    return status, page


@pytest.mark.parametrize("portal", [1], indirect=True)
def test_one_trusted_proxy_counts_each_forwarded_address_apart(portal):
    neighbours = [send_report(portal, f"198.51.100.{n}", n)[0] for n in range(PER_MINUTE + 1)]
    assert neighbours == [303] * (PER_MINUTE + 1), "seven residents, one report each"

    # One resident sending seven; what the browser itself puts in front is not believed.
    one = [send_report(portal, f"10.9.8.{n}, 203.0.113.7", n) for n in range(PER_MINUTE + 1)]
    assert [status for status, _ in one] == [303] * PER_MINUTE + [429]
    assert "Too many reports have come from this connection" in one[-1][1]
    assert "call 911" in one[-1][1]


@pytest.mark.parametrize("portal", [0], indirect=True)
def test_with_no_trusted_proxy_a_forwarded_header_does_not_escape_the_limit(portal):
    codes = [send_report(portal, f"198.51.100.{n}", n)[0] for n in range(PER_MINUTE + 1)]
    assert codes == [303] * PER_MINUTE + [429]


def test_two_workers_count_in_the_same_window(tmp_path):
    """Two connections (as two workers hold) see and add to one count."""
    uri = f"sqlite:///{tmp_path / 'limits.sqlite3'}"
    first, second = SQLiteStorage(uri), SQLiteStorage(uri)
    assert [first.incr("k", 60), second.incr("k", 60), first.incr("k", 60)] == [1, 2, 3]
    assert second.get("k") == 3 and second.get_expiry("k") > 0
    second.clear("k")
    assert first.get("k") == 0
    assert first.incr("gone", -1) == 1 and first.incr("gone", 60) == 1, "a window over starts anew"


@pytest.mark.parametrize(
    ("hops", "forwarded_for", "seen"),
    [
        (0, "203.0.113.7", "127.0.0.1 http localhost"),
        # X-Forwarded-Host is never believed: the host stays the request's own.
        (1, "203.0.113.7", "203.0.113.7 https localhost"),
        (1, "10.0.0.1, 203.0.113.7", "203.0.113.7 https localhost"),
        (2, "10.0.0.1, 203.0.113.7, 198.51.100.2", "203.0.113.7 https localhost"),
        # Fewer entries than trusted proxies: nothing is believed.
        (2, "203.0.113.7", "127.0.0.1 https localhost"),
    ],
)
def test_the_client_address_scheme_and_host_come_from_trusted_proxies(
    tmp_path, hops, forwarded_for, seen
):
    app = create_app({"DATABASE": str(tmp_path / "db.sqlite3"), "PROXY_HOPS": hops})
    app.add_url_rule(
        "/who", "who", lambda: f"{request.remote_addr} {request.scheme} {request.host}"
    )
    headers = {
        "X-Forwarded-For": forwarded_for,
        "X-Forwarded-Proto": "https",
        "X-Forwarded-Host": "evil.example",
    }
    assert app.test_client().get("/who", headers=headers).text == seen


def test_a_forwarded_host_never_reaches_the_link_to_share(tmp_path):
    app = create_app(
        {
            "DATABASE": str(tmp_path / "db.sqlite3"),
            "PROXY_HOPS": 1,
            "PUBLIC_URL": "https://village.example.org",
            "RATELIMIT_ENABLED": False,
            "MAIL_FOLDER": str(tmp_path / "mail"),
        }
    )
    client = app.test_client()
    client.environ_base["HTTP_X_FORWARDED_HOST"] = "evil.example"
    sent = client.post("/report/", data={**open_form(client), **report_data()})
    page = client.get(sent.headers["Location"]).text
    assert "https://village.example.org/status/" in page and "evil.example" not in page


@pytest.mark.parametrize("hops", [-1, "two", True, 1.5])
def test_a_hop_count_that_is_not_a_whole_number_stops_the_start(tmp_path, hops):
    with pytest.raises(ValueError, match="PORTAL_PROXY_HOPS"):
        create_app({"DATABASE": str(tmp_path / "db.sqlite3"), "PROXY_HOPS": hops})


@pytest.mark.parametrize(("hops", "recorded"), [(0, "127.0.0.1"), (2, "203.0.113.7")])
def test_the_audit_log_keeps_the_address_the_trusted_proxies_give(tmp_path, hops, recorded):
    app = create_app(
        {
            "DATABASE": str(tmp_path / "db.sqlite3"),
            "PROXY_HOPS": hops,
            "MAIL_FOLDER": str(tmp_path / "mail"),
            "RATELIMIT_ENABLED": False,
            "SESSION_COOKIE_SECURE": False,
        }
    )
    client = app.test_client()
    # Netlify, then nginx: [what the browser claimed,] the resident, Netlify.
    client.environ_base["HTTP_X_FORWARDED_FOR"] = "10.0.0.1, 203.0.113.7, 198.51.100.2"
    client.post("/report/", data={**open_form(client), **report_data()})
    sign_in(client, app)
    assert save_case(client, 1, status="investigating").status_code == 303
    with app.app_context():
        assert [r[0] for r in get_db().execute("SELECT client FROM events")] == [recorded]
    assert f"smo (from {recorded}):" in client.get("/staff/cases/1/").text
