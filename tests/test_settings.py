"""Settings fail closed: served without its secret key or public address the portal does not
start; `flask --app portal check` says what is missing; the README documents every setting."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from crashload import ROOT, Gunicorn, flask_command, free_port, portal_env
from helpers import form_keys, open_form, report_data
from mailserver import MailServer, body

from portal import create_app
from portal.core.settings import SETTINGS


def test_the_readme_table_names_every_setting_and_nothing_else():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index("| variable | what |") :].split("\n\n", 1)[0]
    documented = set(re.findall(r"`PORTAL_([A-Z0-9_]+)`", table))
    known = {setting.name for setting in SETTINGS}
    assert known - documented == set(), "settings missing from the README's table"
    assert documented - known == set(), "the README's table names settings that do not exist"


@pytest.mark.parametrize(
    ("missing", "named"),
    [("PORTAL_SECRET_KEY", "PORTAL_SECRET_KEY"), ("PORTAL_PUBLIC_URL", "PORTAL_PUBLIC_URL")],
)
def test_gunicorn_refuses_to_start_without_an_essential_setting(tmp_path, missing, named):
    env = portal_env(tmp_path)
    del env[missing]
    log = Gunicorn(free_port(), env, tmp_path).refused_start()
    assert f"{named} is not set" in log
    if named == "PORTAL_SECRET_KEY":
        assert "secrets.token_hex(32)" in log, "the message says how to make a key"
    assert not (tmp_path / "portal.sqlite3").exists(), "nothing was served or stored"


def check(env: dict[str, str], tmp_path: Path, *command: str) -> subprocess.CompletedProcess:
    return flask_command(env, tmp_path, *(command or ["check"]))


def test_check_passes_a_correct_configuration_and_tries_the_smtp_server(tmp_path, mail_server):
    env = portal_env(tmp_path) | {
        "PORTAL_MAIL_SERVER": "127.0.0.1",
        "PORTAL_MAIL_PORT": str(mail_server.port),
        "PORTAL_MAIL_PASSWORD": "smtp-password-never-shown",
        "PORTAL_RATELIMIT_STORAGE_URI": "memcached://127.0.0.1:11211",
    }
    result = check(env, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    for setting in SETTINGS:
        assert re.search(rf"^  {setting.variable} +\S", out, re.MULTILINE), setting.variable
    assert env["PORTAL_SECRET_KEY"] not in out and "*** (64 characters)" in out
    assert "smtp-password-never-shown" not in out
    assert re.search(r"PORTAL_PUBLIC_URL +https://portal\.village\.test$", out, re.MULTILINE)
    assert f"SMTP: 127.0.0.1:{mail_server.port} answered" in out
    assert "-> content/site.yaml: https://tile.openstreetmap.org/{z}/{x}/{y}.png" in out
    assert "error:" not in out and "Ready for production" in out


def test_check_fails_a_broken_configuration_and_says_why(tmp_path):
    env = portal_env(tmp_path)
    del env["PORTAL_SECRET_KEY"]
    env |= {
        "PORTAL_PUBLIC_URL": "portal.village.test",  # no scheme: links in mail would break
        "PORTAL_MAIL_SERVER": "127.0.0.1",
        "PORTAL_MAIL_PORT": str(MailServer().port),  # nobody listens there
        "PORTAL_MAIL_TIMEOUT": "3",
        "PORTAL_STAFF_TOTP": "false",
    }
    result = check(env, tmp_path)
    out = result.stdout
    assert result.returncode == 1, out + result.stderr
    assert "error: PORTAL_SECRET_KEY is not set" in out and "token_hex(32)" in out
    assert "error: PORTAL_PUBLIC_URL is not an address like https://" in out
    assert re.search(
        rf"error: PORTAL_MAIL_SERVER 127\.0\.0\.1:{env['PORTAL_MAIL_PORT']} did not work: \w+", out
    )
    assert "warning: PORTAL_STAFF_TOTP is false" in out
    assert "Not ready for production: 3 error(s)." in out


def test_check_without_any_setting_names_what_production_needs(tmp_path):
    env = {k: v for k, v in portal_env(tmp_path).items() if not k.startswith("PORTAL_")}
    result = check(env, tmp_path)
    assert result.returncode == 1
    for name in ("PORTAL_SECRET_KEY", "PORTAL_PUBLIC_URL", "PORTAL_MAIL_SERVER"):
        assert f"error: {name} is not set" in result.stdout


def test_an_admin_command_without_the_settings_says_what_is_missing_in_one_line(tmp_path):
    env = {k: v for k, v in portal_env(tmp_path).items() if k != "PORTAL_SECRET_KEY"}
    result = check(env, tmp_path, "staff", "list")
    assert result.returncode == 1
    assert result.stderr.startswith("Error: the portal cannot start: PORTAL_SECRET_KEY is not set")
    assert "Traceback" not in result.stderr


def test_links_in_mail_use_the_public_address_not_the_request_host(app, client, mail_server):
    app.config["PUBLIC_URL"] = "https://village.test/portal/"
    seen_as = "http://10.0.0.7:8001"  # the address gunicorn is reached at, behind the proxy
    form = form_keys(client.get("/report/", base_url=seen_as).text)
    response = client.post("/report/", data={**form, **report_data()}, base_url=seen_as)
    assert response.status_code == 303
    (ack,) = mail_server.to("pat@example.test")
    links = re.findall(r"https?://\S+", body(ack))
    assert links and all(link.startswith("https://village.test/portal/status/") for link in links)


def test_links_in_mail_sent_in_the_background_use_the_public_address(app, client, mail_server):
    from mailserver import wait_for

    client.post("/report/", data={**open_form(client), **report_data()})
    wait_for(lambda: mail_server.to("pat@example.test"))
    (ack,) = mail_server.to("pat@example.test")
    assert "https://portal.village.test/status/" in body(ack) and "localhost" not in body(ack)


@pytest.mark.parametrize(
    ("url", "secure"), [("https://portal.village.test", True), ("http://127.0.0.1:8000", False)]
)
def test_secure_cookies_and_hsts_exactly_when_the_public_address_is_https(tmp_path, url, secure):
    app = create_app({"DATABASE": str(tmp_path / "db.sqlite3"), "PUBLIC_URL": url})
    assert app.config["SESSION_COOKIE_SECURE"] is secure
    response = app.test_client().get("/report/")
    assert ("Strict-Transport-Security" in response.headers) is secure
    cookie = response.headers.get("Set-Cookie", "")
    assert cookie and ("Secure" in cookie) is secure


def test_the_environment_overrides_the_defaults(tmp_path, monkeypatch):
    monkeypatch.setenv("PORTAL_SECRET_KEY", "k" * 64)
    monkeypatch.setenv("PORTAL_PUBLIC_URL", "https://portal.village.test")
    monkeypatch.setenv("PORTAL_DATABASE", str(tmp_path / "db.sqlite3"))
    monkeypatch.setenv("PORTAL_STAFF_IDLE_MINUTES", "12")
    app = create_app()
    assert app.secret_key == "k" * 64 and app.config["STAFF_IDLE_MINUTES"] == 12
    assert app.config["STAFF_TOTP"] is True and app.config["PROXY_HOPS"] == 0


def test_help_of_an_admin_command_needs_no_settings(tmp_path):
    env = {k: v for k, v in portal_env(tmp_path).items() if not k.startswith("PORTAL_")}
    result = check(env, tmp_path, "staff", "add", "--help")
    assert result.returncode == 0, result.stderr
    assert "Create an account; asks for its password twice and prints its" in result.stdout


def make(tmp_path: Path, *args: str, password: str = "") -> subprocess.CompletedProcess:
    """`make ARGS` in the project as a newcomer types it, with the key and the database in
    tmp_path (the defaults are instance/secret_key and instance/portal.sqlite3) and the
    virtualenv running the tests."""
    env = {k: v for k, v in portal_env(tmp_path).items() if not k.startswith("PORTAL_")}
    env["PORTAL_DATABASE"] = str(tmp_path / "portal.sqlite3")
    local = [f"KEY_FILE={tmp_path / 'secret_key'}", f"BIN={Path(sys.executable).parent}"]
    return subprocess.run(
        ["make", "-s", "-o", ".venv/.installed", *args, *local],
        cwd=ROOT,
        env=env,
        input=password,
        capture_output=True,
        text=True,
        timeout=120,
        start_new_session=True,  # no terminal: the password prompt reads standard input
    )


def test_the_readmes_staff_add_works_as_printed_with_the_settings_of_make_run(tmp_path):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    printed = re.search(r"^make staff-add NAME=\S+ EMAIL=\S+", readme, re.MULTILINE).group(0)
    assert printed == "make staff-add NAME=smo EMAIL=smo@village.example.org"
    added = make(tmp_path, *shlex.split(printed)[1:], password="a long staff password\n" * 2)
    assert added.returncode == 0, added.stdout + added.stderr
    assert "account smo created" in added.stdout
    assert re.fullmatch(r"[0-9a-f]{64}\n", (tmp_path / "secret_key").read_text())
    listed = make(tmp_path, "flask", "ARGS=staff list")
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.startswith("smo\tenabled\tsmo@village.example.org\t")
    unnamed = make(tmp_path, "staff-add")
    assert unnamed.returncode != 0 and "make staff-add NAME=smo" in unnamed.stdout
