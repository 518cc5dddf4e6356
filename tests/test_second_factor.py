"""Staff sign in with a password and a code from an authenticator app (RFC 6238)."""

from __future__ import annotations

import hashlib
import re
import sqlite3
import time

import pyotp
import pytest
from helpers import PASSWORD, enter_code, hidden_fields, next_code
from helpers import sign_in_by_form as sign_in
from werkzeug.security import generate_password_hash

from portal import create_app
from portal.accounts import totp
from portal.accounts.accounts import add_account, issue_enrol_code
from portal.core.db import get_db

RECOVERY = re.compile(r"<code>([a-z0-9]{4}(?:-[a-z0-9]{4}){3})</code>")


def password_step(client, username: str = "smo", password: str = PASSWORD, next_url: str = ""):
    page = client.get("/staff/login")
    return client.post(
        "/staff/login",
        data={
            **hidden_fields(page.text),
            "username": username,
            "password": password,
            "next": next_url,
        },
    )


def add_with_code(app, username: str = "smo") -> str:
    """A new account, as `staff add` makes it: no second factor yet, an enrolment code."""
    with app.app_context():
        db = get_db()
        return issue_enrol_code(db, add_account(db, username, PASSWORD))


def enter_enrol_code(client, code: str):
    page = client.get("/staff/enrol")
    assert page.status_code == 200 and "Enrolment code" in page.text
    return client.post("/staff/enrol", data={**hidden_fields(page.text), "enrol_code": code})


def enrol_from_page(client, enrol_code: str | None) -> tuple[str, list[str], object]:
    """Set up the app as an officer would: the administrator's enrolment code (unless it
    was entered already), then read the key off the page and confirm a code."""
    if enrol_code:
        assert enter_enrol_code(client, enrol_code).headers["Location"] == "/staff/enrol"
    page = client.get("/staff/enrol")
    assert page.status_code == 200
    secret = re.search(r'id="setup-key">([A-Z2-7 ]+)<', page.text).group(1).replace(" ", "")
    done = client.post(
        "/staff/enrol", data={**hidden_fields(page.text), "code": pyotp.TOTP(secret).now()}
    )
    return secret, RECOVERY.findall(done.text), done


def row(app, username: str = "smo") -> tuple:
    with app.app_context():
        return (
            get_db()
            .execute("SELECT totp_secret, totp_last_step FROM staff WHERE username = ?", [username])
            .fetchone()
        )


def test_first_sign_in_sets_up_the_app_and_shows_recovery_codes_once(app, client):
    enrol_code = add_with_code(app)
    first = password_step(client, next_url="/staff/exports/")
    assert first.status_code == 303 and first.headers["Location"] == "/staff/enrol"
    assert client.get("/staff/").status_code == 401, "the password alone opens nothing"
    assert "setup-key" not in client.get("/staff/enrol").text, "no secret before the code"
    wrong = enter_enrol_code(client, "abcd-efgh-jkmn")
    assert wrong.status_code == 422 and "not the enrolment code of this account" in wrong.text
    assert enter_enrol_code(client, enrol_code.upper()).status_code == 303
    page = client.get("/staff/enrol")
    assert 'src="data:image/svg+xml,' in page.text and "otpauth" not in page.text.split("<img")[0]
    assert row(app) == (None, None), "nothing counts before a code confirms it"

    wrong = client.post("/staff/enrol", data={**hidden_fields(page.text), "code": "000000"})
    assert wrong.status_code == 422 and "That code does not match" in wrong.text
    assert row(app) == (None, None)

    secret, codes, done = enrol_from_page(client, None)
    assert done.status_code == 200 and len(set(codes)) == 10
    assert 'href="/staff/exports/"' in done.text and done.headers["Cache-Control"] == "no-store"
    assert row(app)[0] == secret
    with app.app_context():
        stored = {r[0] for r in get_db().execute("SELECT code_hash FROM staff_recovery_codes")}
    assert stored == {hashlib.sha256(c.replace("-", "").encode()).hexdigest() for c in codes}
    assert client.get("/staff/").status_code == 200
    # Shown once: the enrolment page now sends the signed-in officer on to the queue.
    again = client.get("/staff/enrol")
    assert again.status_code == 303 and again.headers["Location"] == "/staff/"
    assert client.get("/staff/").status_code == 200, "and still signed in"
    # The enrolment code worked once.
    with app.app_context():
        assert get_db().execute("SELECT enrol_code_hash FROM staff").fetchone()[0] is None


def test_the_qr_code_holds_the_key_shown_beside_it(app, client):
    import segno

    enter = add_with_code(app)
    password_step(client)
    enter_enrol_code(client, enter)
    page = client.get("/staff/enrol").text
    secret = re.search(r'id="setup-key">([A-Z2-7 ]+)<', page).group(1).replace(" ", "")
    assert re.fullmatch(r"[A-Z2-7]{32}", secret), "160 bits, base32"
    # What an authenticator app reads (Key Uri Format): the account, the issuer, the key.
    uri = (
        f"otpauth://totp/Horseheads%20stormwater:smo?secret={secret}&issuer=Horseheads%20stormwater"
    )
    assert totp.provisioning_uri(secret, "smo", "Horseheads stormwater") == uri
    qr = segno.make(uri, error="m").svg_data_uri(scale=5, border=4, omit_charset=True)
    assert f'src="{qr}"' in page


# RFC 6238, appendix B: the SHA-1 key "12345678901234567890" gives 07081804 at
# 1111111109 s (step 37037036); authenticator apps show the last six digits.
RFC_SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
RFC_TIME, RFC_CODE, RFC_STEP = 1111111109, "081804", 37037036


@pytest.mark.parametrize(
    ("seconds_off", "taken"),
    [(0, True), (-30, True), (30, True), (-60, False), (60, False), (-300, False), (300, False)],
)
def test_a_code_is_taken_one_step_either_side_of_now_and_no_further(seconds_off, taken):
    """A phone's clock may be one 30-second step off; a code two steps old or early is not
    taken (a wider window gives a guesser and a shoulder-surfer more codes that work)."""
    step = totp.matching_step(RFC_SECRET, RFC_CODE, after=None, now=RFC_TIME + seconds_off)
    assert step == (RFC_STEP if taken else None)


def test_a_code_at_or_before_the_last_one_used_is_not_taken():
    assert totp.matching_step(RFC_SECRET, RFC_CODE, after=RFC_STEP - 1, now=RFC_TIME) == RFC_STEP
    assert totp.matching_step(RFC_SECRET, RFC_CODE, after=RFC_STEP, now=RFC_TIME) is None
    assert totp.matching_step(RFC_SECRET, "081 804", after=None, now=RFC_TIME) == RFC_STEP
    assert totp.matching_step(RFC_SECRET, "081805", after=None, now=RFC_TIME) is None


def test_a_code_opens_one_sign_in_only(app, client):
    sign_in(client, app)
    code = next_code(app, "smo")
    other = app.test_client()
    password_step(other)
    assert enter_code(other, app, "smo", code).status_code == 303
    fresh = app.test_client()
    password_step(fresh)
    reused = enter_code(fresh, app, "smo", code)
    assert reused.status_code == 401 and "was used already" in reused.text
    assert fresh.get("/staff/").status_code == 401


@pytest.mark.parametrize("code", ["", "123", "abcdef", "1234567", "999999"])
def test_a_wrong_code_is_refused_in_plain_words(app, client, code):
    sign_in(client, app)
    fresh = app.test_client()
    password_step(fresh)
    secret = row(app)[0]
    if code == "999999" and pyotp.TOTP(secret).verify(code, valid_window=1):
        code = "999998"  # the one-in-a-million chance that it is right
    response = enter_code(fresh, app, "smo", code)
    assert response.status_code == 401 and 'aria-invalid="true"' in response.text
    assert ("Enter the 6-digit code" if code == "" else "That code is not right") in response.text
    assert fresh.get("/staff/").status_code == 401


def test_the_code_page_waits_only_a_few_minutes_for_the_code(app, client, monkeypatch):
    sign_in(client, app)
    fresh = app.test_client()
    password_step(fresh)
    later = time.time() + 6 * 60
    monkeypatch.setattr(time, "time", lambda: later)
    response = fresh.get("/staff/second-factor")
    assert response.status_code == 303 and response.headers["Location"] == "/staff/login"


def test_a_recovery_code_works_once(app, client):
    enrol_code = add_with_code(app)
    password_step(client)
    _, codes, _ = enrol_from_page(client, enrol_code)
    for attempt in range(2):
        fresh = app.test_client()
        password_step(fresh)
        page = fresh.get("/staff/second-factor")
        response = fresh.post(
            "/staff/second-factor",
            data={**hidden_fields(page.text), "recovery_code": codes[3].upper()},
        )
        if attempt == 0:
            assert response.status_code == 303
            assert "9 left" in fresh.get("/staff/").text
        else:
            assert response.status_code == 401 and "not an unused recovery code" in response.text
            assert " open>" in response.text, "the recovery field is shown with its error"


def test_codes_count_with_passwords_against_the_sign_in_limit(tmp_path):
    app = create_app(
        {
            "DATABASE": str(tmp_path / "db.sqlite3"),
            "LOGIN_RATE_LIMIT": "3 per minute",
            "SESSION_COOKIE_SECURE": False,
        }
    )
    client = app.test_client()
    assert sign_in(client, app).status_code == 303  # the password, then the code: two
    fresh = app.test_client()
    assert password_step(fresh).status_code == 303  # three
    assert enter_code(fresh, app, "smo", "000000").status_code == 429


def test_a_training_install_signs_in_with_the_password_alone(tmp_path):
    app = create_app(
        {
            "DATABASE": str(tmp_path / "db.sqlite3"),
            "STAFF_TOTP": False,
            "RATELIMIT_ENABLED": False,
            "SESSION_COOKIE_SECURE": False,
        }
    )
    client = app.test_client()
    with app.app_context():
        add_account(get_db(), "trainee", PASSWORD)
    response = password_step(client, "trainee")
    assert response.status_code == 303 and response.headers["Location"] == "/staff/"
    assert client.get("/staff/").status_code == 200


def test_reset_2fa_makes_the_account_set_up_again(app, client):
    sign_in(client, app)
    assert client.get("/staff/").status_code == 200
    runner = app.test_cli_runner()
    result = runner.invoke(args=["staff", "reset-2fa", "smo"])
    assert result.exit_code == 0 and "reset" in result.output
    # The session opened with the lost phone's codes ends with it.
    assert client.get("/staff/").status_code == 401
    assert row(app) == (None, None)
    with app.app_context():
        assert get_db()["staff_recovery_codes"].count == 0
    fresh = app.test_client()
    assert password_step(fresh).headers["Location"] == "/staff/enrol"
    # Only with the enrolment code the command printed (not the password alone).
    printed = result.output.strip().splitlines()[-1]
    assert enter_enrol_code(fresh, "abcd-efgh-jkmn").status_code == 422
    _, codes, done = enrol_from_page(fresh, printed)
    assert done.status_code == 200 and len(codes) == 10
    missing = runner.invoke(args=["staff", "reset-2fa", "nobody"])
    assert missing.exit_code != 0 and "no account named 'nobody'" in missing.output


def test_accounts_of_an_earlier_install_set_up_the_app_at_their_next_sign_in(tmp_path):
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.executescript("""
        CREATE TABLE staff (id INTEGER PRIMARY KEY, username TEXT NOT NULL UNIQUE COLLATE NOCASE,
            password_hash TEXT NOT NULL, disabled INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL, last_login_at TEXT);
        CREATE TABLE events (id INTEGER PRIMARY KEY, case_id INTEGER NOT NULL, at TEXT NOT NULL,
            actor TEXT NOT NULL, action TEXT NOT NULL, detail TEXT NOT NULL DEFAULT '{}');
        PRAGMA user_version = 5;
    """)
    old.execute(
        "INSERT INTO staff (username, password_hash, created_at) VALUES (?, ?, ?)",
        ["smo", generate_password_hash(PASSWORD), "2026-01-05T09:00:00-05:00"],
    )
    old.commit()
    old.close()
    app = create_app(
        {"DATABASE": str(path), "RATELIMIT_ENABLED": False, "SESSION_COOKIE_SECURE": False}
    )
    with app.app_context():
        db = get_db()
        assert {"totp_secret", "totp_last_step"} <= set(db["staff"].columns_dict)
        assert "client" in db["events"].columns_dict and "staff_recovery_codes" in db.table_names()
    assert password_step(app.test_client()).headers["Location"] == "/staff/enrol"


def test_no_code_opens_an_account_without_a_second_factor_or_no_account(app):
    """An account not yet enrolled has no secret: no code is its code; nor is any code one
    of an account that does not exist."""
    with app.app_context():
        db = get_db()
        account = add_account(db, "smo", PASSWORD)
        assert totp.check_code(db, account, RFC_CODE) is False
        assert totp.check_code(db, account + 1, RFC_CODE) is False


def test_recovery_codes_are_16_characters_read_easily_off_paper():
    """Four groups of four from 31 characters (no 0/o, 1/l/i): about 79 bits each."""
    codes = {totp.new_recovery_code() for _ in range(50)}
    assert len(codes) == 50
    for code in codes:
        assert re.fullmatch(r"[a-hjkmnp-z2-9]{4}(-[a-hjkmnp-z2-9]{4}){3}", code), code
