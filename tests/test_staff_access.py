"""Who may enter the workspace: accounts, sign-in, sessions, and every route guarded."""

from __future__ import annotations

import re

import pytest
from helpers import PASSWORD, enter_code, hidden_fields, open_form, report_data
from helpers import sign_in_by_form as sign_in
from werkzeug.routing import Rule

from portal.core.db import get_db

# The only staff pages an anonymous visitor may reach: written out here, so a page added
# to portal/accounts/auth.py's list must be added here too, on purpose.
OPEN_ENDPOINTS = {"accounts.login", "accounts.second_factor", "accounts.enrol"}

SECRET_BITS = ("Pat Doe", "pat@example.test", "White foam", "IDR-")


def staff_rules(app) -> list[Rule]:
    return [rule for rule in app.url_map.iter_rules() if rule.endpoint.startswith("staff.")]


def concrete(rule: Rule) -> str:
    values = {name: 1 for name in rule.arguments}
    return rule.build(values)[1]


def test_every_staff_route_answers_anonymous_visitors_with_the_sign_in_page(app, client):
    client.post("/report/", data={**open_form(client), **report_data()})
    rules = staff_rules(app)
    assert len(rules) >= 15, "the table comes from the URL map: new routes are covered"
    for rule in rules:
        url = concrete(rule)
        for method in ("GET", "POST"):
            response = client.open(url, method=method, data={"status": "resolved"})
            if rule.endpoint in OPEN_ENDPOINTS:  # the sign-in's steps: back to the first
                assert response.status_code in (200, 303, 400, 401), url
                assert response.headers.get("Location", "/staff/login") == "/staff/login"
                assert not any(bit in response.text for bit in SECRET_BITS)
                continue
            assert response.status_code in (401, 403), (method, url, response.status_code)
            assert "Staff sign-in" in response.text or response.status_code == 403
            for bit in SECRET_BITS:
                assert bit not in response.text, (method, url, bit)
    with app.app_context():
        assert get_db()["events"].count == 0, "nothing was changed"


def test_there_is_no_default_account(app):
    with app.app_context():
        assert get_db()["staff"].count == 0


def test_the_cli_creates_and_disables_accounts_with_hashed_passwords(app):
    runner = app.test_cli_runner()
    result = runner.invoke(args=["staff", "add", "smo"], input=f"{PASSWORD}\n{PASSWORD}\n")
    assert result.exit_code == 0 and "account smo created" in result.output
    with app.app_context():
        [row] = get_db()["staff"].rows
    assert row["password_hash"].startswith("scrypt:") and PASSWORD not in row["password_hash"]
    assert (
        runner.invoke(args=["staff", "add", "smo"], input=f"{PASSWORD}\n{PASSWORD}\n").exit_code
        != 0
    )
    short = runner.invoke(args=["staff", "add", "clerk"], input="short\nshort\n")
    assert short.exit_code != 0 and "at least 12 characters" in short.output
    assert runner.invoke(args=["staff", "disable", "smo"]).exit_code == 0
    assert "smo\tdisabled" in runner.invoke(args=["staff", "list"]).output


def test_sign_in_and_out(app, client):
    response = sign_in(client, app)
    assert response.status_code == 303 and response.headers["Location"] == "/staff/"
    assert client.get("/staff/").status_code == 200
    page = client.get("/staff/").text
    client.post(
        "/staff/logout",
        data={"csrf_token": re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)},
    )
    assert client.get("/staff/").status_code == 401


@pytest.mark.parametrize(
    ("username", "password"), [("smo", "wrong password here"), ("nobody", PASSWORD), ("", "")]
)
def test_wrong_credentials_are_refused_in_plain_words(app, client, username, password):
    sign_in(client, app)
    client.post("/staff/logout", data={})  # no token: refused, but the next test is a new client
    fresh = app.test_client()
    response = sign_in(fresh, app, username, password, create=False)
    assert response.status_code in (401, 400)
    assert fresh.get("/staff/").status_code == 401


def test_a_disabled_account_loses_access_at_once(app, client):
    sign_in(client, app)
    assert client.get("/staff/").status_code == 200
    app.test_cli_runner().invoke(args=["staff", "disable", "smo"])
    assert client.get("/staff/").status_code == 401
    assert sign_in(client, app, create=False).status_code == 401


def _sign_in_with_next(app, target: str) -> str:
    """Sign in from a fresh browser with `next=target`; where the code page sends it."""
    fresh = app.test_client()
    page = fresh.get("/staff/login")
    response = fresh.post(
        "/staff/login",
        data={**hidden_fields(page.text), "username": "smo", "password": PASSWORD, "next": target},
    )
    assert response.headers["Location"] == "/staff/second-factor"
    return enter_code(fresh, app, "smo").headers["Location"]


@pytest.mark.parametrize(
    "target",
    [
        "//evil.example/",
        "https://evil.example/phish",
        "http://evil.example/staff/",
        "/report/",
        "/status/x/",
        "javascript:alert(1)",
        "/staffing/",
        "",
    ],
)
def test_sign_in_never_redirects_out_of_the_workspace(app, client, target):
    sign_in(client, app)
    assert _sign_in_with_next(app, target) == "/staff/"


def test_sign_in_returns_to_the_staff_page_asked_for(app, client):
    sign_in(client, app)
    assert _sign_in_with_next(app, "/staff/cases/1/?tab=notes") == "/staff/cases/1/?tab=notes"


def test_no_staff_post_is_taken_without_its_csrf_token(app, client, mail_server):
    """Every POST route of the workspace, signed in, without the token: refused (400),
    nothing changed. Some have a form of their own with a token; others (retrying a mail)
    have only the app-wide CSRF protection."""
    submit = client.post(
        "/report/",
        data={**open_form(client), **report_data(contact_email="reject-me@example.test")},
    )
    assert submit.status_code == 303
    sign_in(client, app)

    def snapshot() -> list:
        with app.app_context():
            db = get_db()
            return [
                db.execute(
                    "SELECT id, status, revision, assignee, updated_at FROM cases"
                ).fetchall(),
                db.execute("SELECT id, status, attempts FROM outbox").fetchall(),
                db.execute("SELECT count(*) FROM events").fetchone(),
                db.execute("SELECT count(*) FROM notes").fetchone(),
                db.execute("SELECT username, disabled, totp_secret FROM staff").fetchall(),
            ]

    before = snapshot()
    assert "failed" in str(before[1]), "a failed mail to retry"
    posts = [rule for rule in staff_rules(app) if "POST" in rule.methods]
    assert len(posts) >= 8, "the routes come from the URL map: new ones are covered"
    for rule in posts:
        response = client.post(
            concrete(rule), data={"status": "resolved", "revision": "0", "note": "x", "retry": "1"}
        )
        assert response.status_code == 400, (rule.endpoint, response.status_code)
    assert snapshot() == before
    assert client.get("/staff/").status_code == 200, "still signed in"


def test_sign_in_attempts_are_rate_limited(tmp_path):
    from portal import create_app

    app = create_app({"DATABASE": str(tmp_path / "db.sqlite3"), "LOGIN_RATE_LIMIT": "3 per minute"})
    client = app.test_client()
    codes = [
        sign_in(client, app, "smo", "wrong password x", create=False).status_code for _ in range(4)
    ]
    assert codes[:3] == [401, 401, 401] and codes[3] == 429


def test_session_cookie_flags(tmp_path):
    from portal import create_app

    app = create_app(
        {"DATABASE": str(tmp_path / "db.sqlite3"), "PUBLIC_URL": "https://portal.example.org"}
    )
    assert app.config["SESSION_COOKIE_SECURE"] is True
    assert (
        app.config["SESSION_COOKIE_HTTPONLY"] is True
        and app.config["SESSION_COOKIE_SAMESITE"] == "Lax"
    )
    local = create_app({"DATABASE": str(tmp_path / "db2.sqlite3")})
    assert local.config["SESSION_COOKIE_SECURE"] is False, "plain http for make run"


@pytest.mark.parametrize("username", ["аdmin", "josé", "smo\n", "two words", "", "x" * 61])
def test_usernames_are_ascii_letters_digits_dots_dashes_underscores(tmp_path, username):
    from portal import create_app
    from portal.accounts.accounts import add_account

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "p.sqlite3")})
    with app.app_context(), pytest.raises(ValueError, match="username"):
        add_account(get_db(), username, "a long enough password")
    with app.app_context():
        assert add_account(get_db(), "j.smith-2_b", "a long enough password")


def test_a_signed_in_session_cookie_expires_after_the_12_hour_lifetime(app, client):
    """The browser forgets the sign-in too, at the session's absolute lifetime (12 hours,
    PORTAL_STAFF_SESSION_HOURS' default); the idle limit is the server's (its row), so the
    sign-in page can say why a session ended."""
    import datetime as dt

    sign_in(client, app)
    client.get("/staff/")
    expires = client.get_cookie("session").expires
    assert expires is not None
    left = expires - dt.datetime.now(dt.UTC)
    assert dt.timedelta(hours=11, minutes=59) < left <= dt.timedelta(hours=12, seconds=5)


def test_the_sign_in_page_remembers_the_page_asked_for_on_a_get_only(app, client):
    page = client.get("/staff/cases/1/?tab=notes")
    assert page.status_code == 401
    assert hidden_fields(page.text)["next"] == "/staff/cases/1/?tab=notes"
    assert "signed out after a time without activity" not in page.text, "nobody was signed in"
    posted = client.post("/staff/cases/1/", data={"status": "resolved"})
    assert posted.status_code == 401 and hidden_fields(posted.text)["next"] == ""
