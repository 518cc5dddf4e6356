"""Staff sessions live on the server: a copied cookie dies with the session it copied, at
sign-out, disable, reset of the second factor, a password change or `staff sign-out`; no
session outlives its absolute lifetime; the cookie carries no secret."""

from __future__ import annotations

import time

import pytest
from helpers import PASSWORD, csrf_of, hidden_fields
from helpers import sign_in_by_form as sign_in

from portal.core.db import get_db

NEW_PASSWORD = "copper kettle under the willow"


def copy_of(app, client):
    """Another browser holding a copy of this one's session cookie, taken now."""
    value = client.get_cookie("session").value
    thief = app.test_client()
    thief.set_cookie("session", value)
    return thief


def assert_sign_in_page(client) -> None:
    for url in ("/staff/", "/staff/exports/cases.csv"):
        response = client.get(url)
        assert response.status_code == 401, (url, response.status_code)
        assert "Staff sign-in" in response.text and "Pat Doe" not in response.text


def cookie_contents(app, client) -> dict:
    serializer = app.session_interface.get_signing_serializer(app)
    return serializer.loads(client.get_cookie("session").value)


def test_a_copy_of_the_cookie_dies_at_sign_out(app, client):
    sign_in(client, app)
    thief = copy_of(app, client)
    assert thief.get("/staff/").status_code == 200, "a copy works while the session lives"
    client.post("/staff/logout", data={"csrf_token": csrf_of(client.get("/staff/").text)})
    assert_sign_in_page(client)
    assert_sign_in_page(thief)


def test_a_copy_stays_dead_after_disable_then_enable(app, client):
    sign_in(client, app)
    thief = copy_of(app, client)
    runner = app.test_cli_runner()
    assert runner.invoke(args=["staff", "disable", "smo"]).exit_code == 0
    assert_sign_in_page(thief)
    assert runner.invoke(args=["staff", "enable", "smo"]).exit_code == 0
    assert_sign_in_page(thief)
    assert_sign_in_page(client)


def test_a_copy_stays_dead_after_reset_and_re_enrolment(app, client):
    sign_in(client, app)
    thief = copy_of(app, client)
    runner = app.test_cli_runner()
    result = runner.invoke(args=["staff", "reset-2fa", "smo"])
    assert result.exit_code == 0, result.output
    assert_sign_in_page(thief)
    # The officer sets up the new phone (directly, as tests do) and signs in again.
    from portal.accounts import totp

    with app.app_context():
        db = get_db()
        account = db.execute("SELECT id FROM staff WHERE username = 'smo'").fetchone()[0]
        totp.enrol(db, account, totp.new_secret(), step=0)
    assert sign_in(app.test_client(), app, create=False).status_code == 303
    assert_sign_in_page(thief)


def test_a_copy_dies_when_the_password_is_changed_and_the_officer_goes_on(app, client):
    sign_in(client, app)
    thief = copy_of(app, client)
    page = client.get("/staff/password")
    assert page.status_code == 200
    changed = client.post(
        "/staff/password",
        data={
            **hidden_fields(page.text),
            "current": PASSWORD,
            "new": NEW_PASSWORD,
            "again": NEW_PASSWORD,
        },
    )
    assert changed.status_code == 303 and changed.headers["Location"] == "/staff/"
    assert "Your password was changed" in client.get("/staff/").text, "this browser goes on"
    assert_sign_in_page(thief)
    assert sign_in(app.test_client(), app, password=PASSWORD, create=False).status_code == 401
    assert sign_in(app.test_client(), app, password=NEW_PASSWORD, create=False).status_code == 303


def test_the_password_command_asks_for_the_current_password_and_ends_sessions(app, client):
    sign_in(client, app)
    thief = copy_of(app, client)
    runner = app.test_cli_runner()
    wrong = runner.invoke(
        args=["staff", "password", "smo"], input=f"not it at all\n{NEW_PASSWORD}\n{NEW_PASSWORD}\n"
    )
    assert wrong.exit_code != 0 and "not the current password" in wrong.output
    assert thief.get("/staff/").status_code == 200, "nothing changed"
    done = runner.invoke(
        args=["staff", "password", "smo"], input=f"{PASSWORD}\n{NEW_PASSWORD}\n{NEW_PASSWORD}\n"
    )
    assert done.exit_code == 0 and "every session of it has ended" in done.output, done.output
    assert_sign_in_page(thief)
    assert_sign_in_page(client)
    forgotten = runner.invoke(
        args=["staff", "password", "smo", "--forgotten"], input=f"{PASSWORD}x\n{PASSWORD}x\n"
    )
    assert forgotten.exit_code == 0, forgotten.output
    assert sign_in(app.test_client(), app, password=f"{PASSWORD}x", create=False).status_code == 303


def test_an_administrator_ends_every_session(app, client):
    sign_in(client, app)
    other = app.test_client()
    sign_in(other, app, username="clerk")
    runner = app.test_cli_runner()
    listed = runner.invoke(args=["staff", "sessions"]).output
    assert listed.count("\n") == 2 and "smo\tsince " in listed and "clerk\tsince " in listed
    assert runner.invoke(args=["staff", "sign-out", "smo"]).output == "sessions of smo ended\n"
    assert_sign_in_page(client)
    assert other.get("/staff/").status_code == 200, "only smo's sessions"
    result = runner.invoke(args=["staff", "sign-out", "--all"])
    assert result.exit_code == 0 and "1 sessions ended" in result.output
    assert_sign_in_page(other)
    assert runner.invoke(args=["staff", "sign-out"]).exit_code != 0, "neither a name nor --all"


def test_a_session_ends_after_its_absolute_lifetime_however_active(app, client, monkeypatch):
    sign_in(client, app)
    start = time.time()
    # Used every 20 minutes (under the 30-minute idle limit) for almost 12 hours: still in.
    for minutes in range(20, 12 * 60, 20):
        monkeypatch.setattr(time, "time", lambda m=minutes: start + m * 60)
        assert client.get("/staff/").status_code == 200, minutes
    monkeypatch.setattr(time, "time", lambda: start + 12 * 3600 + 5)
    response = client.get("/staff/")
    assert response.status_code == 401 and "a session lasts 12 hours at most" in response.text


def test_idle_sessions_expire_on_the_server(app, client, monkeypatch):
    sign_in(client, app)
    start = time.time()
    monkeypatch.setattr(time, "time", lambda: start + 29 * 60)
    assert client.get("/staff/").status_code == 200
    monkeypatch.setattr(time, "time", lambda: start + 29 * 60 + 31 * 60)
    response = client.get("/staff/")
    assert response.status_code == 401
    assert "signed out after a time without activity" in response.text
    monkeypatch.setattr(time, "time", lambda: start)
    assert client.get("/staff/").status_code == 401, "the row is gone, not just out of time"


def test_the_cookie_holds_an_id_and_no_secret(app, client):
    from portal.accounts.accounts import add_account, issue_enrol_code

    with app.app_context():
        db = get_db()
        code = issue_enrol_code(db, add_account(db, "newbie", PASSWORD))
    page = client.get("/staff/login")
    client.post(
        "/staff/login",
        data={**hidden_fields(page.text), "username": "newbie", "password": PASSWORD},
    )
    page = client.get("/staff/enrol")
    client.post("/staff/enrol", data={**hidden_fields(page.text), "enrol_code": code})
    setup = client.get("/staff/enrol").text
    secret = setup.split('id="setup-key">', 1)[1].split("<", 1)[0].replace(" ", "")
    contents = cookie_contents(app, client)
    assert set(contents) <= {"staff_pending", "csrf_token", "_permanent"}, contents
    assert secret not in repr(contents), "the secret being set up is kept on the server"
    with app.app_context():
        stored = get_db().execute("SELECT id_hash, enrol_secret FROM staff_sessions").fetchall()
    assert [row[1] for row in stored] == [secret]
    assert contents["staff_pending"] not in repr(stored), "only a hash of the id is stored"
    sign_in(client, app)
    assert set(cookie_contents(app, client)) <= {"staff_session", "csrf_token", "_permanent"}


@pytest.mark.parametrize(
    ("password", "words"),
    [
        ("short one", "at least 12 characters"),
        ("password1234", "common passwords"),
        ("Qwertyuiop!!2026", "common passwords"),
        ("iloveyou iloveyou", "common passwords"),
        ("aaaaaaaaaaaaaaaa", "more different characters"),
        ("my name is smo, hello", "username"),
    ],
)
def test_weak_passwords_are_refused_by_the_page_and_the_commands(app, client, password, words):
    sign_in(client, app)
    page = client.get("/staff/password")
    refused = client.post(
        "/staff/password",
        data={**hidden_fields(page.text), "current": PASSWORD, "new": password, "again": password},
    )
    assert refused.status_code == 422 and words in refused.text
    assert 'aria-invalid="true"' in refused.text
    runner = app.test_cli_runner()
    added = runner.invoke(
        args=["staff", "add", "smo-two", "--password", password.replace("smo", "smo-two")]
    )
    assert added.exit_code != 0 and words in added.output, added.output
    changed = runner.invoke(
        args=["staff", "password", "smo", "--forgotten"],
        input=f"{password}\n{NEW_PASSWORD}\n{NEW_PASSWORD}\n",
    )
    assert words in changed.output, changed.output
    assert changed.exit_code == 0, "asked again, and the good one taken"
