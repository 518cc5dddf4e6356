"""Staff accounts: created and disabled from the command line, checked at sign-in."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import secrets
import time
from collections.abc import Callable
from typing import Any

import click
import sqlite_utils
from flask import Flask, current_app
from werkzeug.security import check_password_hash, generate_password_hash

from portal.accounts import guessing, passwords, sessions
from portal.core.clock import local_stamp
from portal.core.db import get_db, one, rows, transaction, value
from portal.core.display import when

USERNAME = re.compile(r"^[A-Za-z0-9._-]{1,60}$")
# Checked when the username is unknown, so a wrong name takes as long as a wrong password.
_DUMMY_HASH = generate_password_hash("not a real password, never matches")


EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def _checked_email(email: str | None) -> str | None:
    email = (email or "").strip() or None
    if email is not None and (len(email) > 254 or not EMAIL.fullmatch(email)):
        raise ValueError(f"{email!r} is not an e-mail address")
    return email


def add_account(
    db: sqlite_utils.Database, username: str, password: str, email: str | None = None
) -> int:
    """A new, enabled account; the password is stored only as a salted scrypt hash."""
    # ASCII only: the pattern, not str.isalnum(), which accepts any script's letters
    # (and look-alikes such as a Cyrillic "а" in "аdmin").
    if not USERNAME.fullmatch(username or ""):
        raise ValueError("use letters, digits, dots, dashes or underscores for the username")
    if value(db, "SELECT 1 FROM staff WHERE username = ?", [username]):
        raise ValueError(f"an account named {username!r} already exists")
    refused = passwords.problem(password, username)
    if refused:
        raise ValueError(refused)
    cursor = db.execute(
        "INSERT INTO staff (username, password_hash, created_at, email) VALUES (?, ?, ?, ?)",
        [username, generate_password_hash(password), local_stamp(), _checked_email(email)],
    )
    return cursor.lastrowid


def set_email(db: sqlite_utils.Database, username: str, email: str | None) -> None:
    """Where the account's assignments and daily digest go (None: no mail)."""
    cursor = db.execute(
        "UPDATE staff SET email = ? WHERE username = ?", [_checked_email(email), username]
    )
    if cursor.rowcount != 1:
        raise ValueError(f"no account named {username!r}")


def account_id(db: sqlite_utils.Database, username: str) -> int:
    found = value(db, "SELECT id FROM staff WHERE username = ?", [username])
    if found is None:
        raise ValueError(f"no account named {username!r}")
    return found


def set_disabled(db: sqlite_utils.Database, username: str, disabled: bool) -> None:
    """Disable (ending every session of it at once) or enable an account. Enabling opens
    no old session again: those rows are gone."""
    with transaction(db):
        found = account_id(db, username)
        db.execute("UPDATE staff SET disabled = ? WHERE id = ?", [int(disabled), found])
        if disabled:
            sessions.end_all(db, found)


def set_password(db: sqlite_utils.Database, username: str, new: str) -> None:
    """Store a new password (checked as at `add`) and end every session of the account."""
    refused = passwords.problem(new, username)
    if refused:
        raise ValueError(refused)
    with transaction(db):
        found = account_id(db, username)
        db.execute(
            "UPDATE staff SET password_hash = ? WHERE id = ?", [generate_password_hash(new), found]
        )
        sessions.end_all(db, found)


def password_matches(db: sqlite_utils.Database, account: int, password: str) -> bool:
    stored = value(db, "SELECT password_hash FROM staff WHERE id = ?", [account])
    return bool(stored) and check_password_hash(stored, password or "")


# An enrolment code: long enough not to be guessed in the tries the sign-in allows, short
# enough to read out over the phone. It works once, for ENROL_CODE_DAYS.
ENROL_CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
ENROL_CODE_LENGTH = 12
ENROL_CODE_DAYS = 7


def _code_hash(code: str) -> str:
    return hashlib.sha256(re.sub(r"[\s-]", "", code or "").lower().encode()).hexdigest()


def issue_enrol_code(db: sqlite_utils.Database, account: int) -> str:
    """A new one-time enrolment code for the account (the last one stops working);
    returned once, stored only as a hash."""
    raw = "".join(secrets.choice(ENROL_CODE_ALPHABET) for _ in range(ENROL_CODE_LENGTH))
    code = "-".join(raw[i : i + 4] for i in range(0, ENROL_CODE_LENGTH, 4))
    db.execute(
        "UPDATE staff SET enrol_code_hash = ?, enrol_code_until = ? WHERE id = ?",
        [_code_hash(code), time.time() + ENROL_CODE_DAYS * 86400, account],
    )
    return code


def enrol_code_matches(db: sqlite_utils.Database, account: int, code: str) -> bool:
    row = one(db, "SELECT enrol_code_hash, enrol_code_until FROM staff WHERE id = ?", [account])
    if not row or not row["enrol_code_hash"] or (row["enrol_code_until"] or 0) < time.time():
        return False
    return secrets.compare_digest(row["enrol_code_hash"], _code_hash(code))


def has_enrol_code(db: sqlite_utils.Database, account: int) -> bool:
    row = one(db, "SELECT enrol_code_hash, enrol_code_until FROM staff WHERE id = ?", [account])
    return bool(row and row["enrol_code_hash"] and (row["enrol_code_until"] or 0) >= time.time())


def verify(db: sqlite_utils.Database, username: str, password: str) -> dict[str, Any] | None:
    """The enabled account these credentials open, or None."""
    account = one(
        db,
        "SELECT id, username, password_hash, disabled FROM staff WHERE username = ?",
        [username or ""],
    )
    if account is None:
        check_password_hash(_DUMMY_HASH, password or "")
        return None
    if not check_password_hash(account["password_hash"], password or "") or account["disabled"]:
        return None
    db.execute("UPDATE staff SET last_login_at = ? WHERE id = ?", [local_stamp(), account["id"]])
    return {"id": account["id"], "username": account["username"]}


def active_account(
    db: sqlite_utils.Database, account_id: int, enrolled: bool = False
) -> dict[str, Any] | None:
    """The enabled account, or None; `enrolled`: only while it has a second factor, so
    resetting a lost phone's second factor also ends the sessions opened with it."""
    second_factor = " AND totp_secret IS NOT NULL" if enrolled else ""
    return one(
        db,
        f"SELECT id, username FROM staff WHERE id = ? AND disabled = 0{second_factor}",
        [account_id],
    )


def usernames(db: sqlite_utils.Database) -> list[str]:
    """Enabled accounts, for the assignment list."""
    return [
        r["username"]
        for r in rows(db, "SELECT username FROM staff WHERE disabled = 0 ORDER BY username")
    ]


def _or_fail(action: Callable[[], Any], done: str) -> None:
    """Run a command's action; a refusal becomes the command's error message."""
    try:
        action()
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    click.echo(done)


def _enrol_code_words(username: str, code: str) -> str:
    days = ENROL_CODE_DAYS
    return (
        f"enrolment code for {username} (give it to them; it works once, for {days} days, "
        f"to set up their authenticator app at their first sign-in):\n{code}"
    )


def _new_password(username: str, password: str) -> str:
    """A new password, checked before it is asked for again."""
    refused = passwords.problem(password, username)
    if refused:
        raise click.BadParameter(refused, param_hint="password")
    return password


def init_account_commands(app: Flask) -> None:
    @app.cli.group("staff")
    def staff_cli() -> None:
        """Manage staff accounts (there is no default account)."""

    @staff_cli.command("add")
    @click.argument("username")
    @click.password_option("--password", prompt="Password", help="asked for when not given")
    @click.option("--email", default=None, help="where assignments and the daily digest go")
    def add_command(username: str, password: str, email: str | None) -> None:
        """Create an account; asks for its password twice and prints its enrolment code."""
        db = get_db()
        made: list[str] = []
        _or_fail(
            lambda: made.append(issue_enrol_code(db, add_account(db, username, password, email))),
            f"account {username} created",
        )
        click.echo(_enrol_code_words(username, made[0]))

    @staff_cli.command("edit")
    @click.argument("username")
    @click.option("--email", required=True, help='the new address ("" for none)')
    def edit_command(username: str, email: str) -> None:
        """Change an account's e-mail address."""
        _or_fail(
            lambda: set_email(get_db(), username, email),
            f"account {username}: e-mail {email or 'removed'}",
        )

    @staff_cli.command("password")
    @click.argument("username")
    @click.option(
        "--forgotten",
        is_flag=True,
        help="an administrator sets a new password without the current one",
    )
    def password_command(username: str, forgotten: bool) -> None:
        """Change an account's password (the current one first); its sessions all end."""
        db = get_db()
        _or_fail(lambda: account_id(db, username), f"account {username}")
        if not forgotten:
            current = click.prompt("Current password", hide_input=True)
            if not password_matches(db, account_id(db, username), current):
                raise click.ClickException("that is not the current password")
        new = click.prompt(
            "New password",
            hide_input=True,
            confirmation_prompt=True,
            value_proc=lambda value: _new_password(username, value),
        )
        _or_fail(
            lambda: set_password(db, username, new),
            f"password of {username} changed; every session of it has ended",
        )

    @staff_cli.command("disable")
    @click.argument("username")
    def disable_command(username: str) -> None:
        """Stop an account from signing in (its open sessions end too)."""
        _or_fail(lambda: set_disabled(get_db(), username, True), f"account {username} disabled")

    @staff_cli.command("enable")
    @click.argument("username")
    def enable_command(username: str) -> None:
        """Let a disabled account sign in again (with a new sign-in)."""
        _or_fail(lambda: set_disabled(get_db(), username, False), f"account {username} enabled")

    @staff_cli.command("reset-2fa")
    @click.argument("username")
    def reset_2fa_command(username: str) -> None:
        """Forget an account's second factor (a lost phone): its open sessions end, and it
        sets up a new one at its next sign-in with the enrolment code printed."""
        from portal.accounts.totp import reset

        db = get_db()
        _or_fail(
            lambda: reset(db, username),
            f"second factor of {username} reset: it sets up a new one at its next sign-in",
        )
        click.echo(_enrol_code_words(username, issue_enrol_code(db, account_id(db, username))))

    @staff_cli.command("sign-out")
    @click.argument("username", required=False)
    @click.option("--all", "everyone", is_flag=True, help="every account's sessions")
    def sign_out_command(username: str | None, everyone: bool) -> None:
        """End every session of USERNAME (or, with --all, of every account) at once."""
        db = get_db()
        if everyone == bool(username):
            raise click.UsageError("name one account, or give --all")
        if everyone:
            click.echo(f"{sessions.end_everyone(db)} sessions ended")
            return
        ended: list[int] = []
        _or_fail(
            lambda: ended.append(sessions.end_all(db, account_id(db, username))),
            f"sessions of {username} ended",
        )

    @staff_cli.command("unlock")
    @click.argument("username")
    def unlock_command(username: str) -> None:
        """Clear USERNAME's count of wrong passwords and codes: its sign-in no longer waits."""
        guessing.succeeded(get_db(), username)
        click.echo(f"sign-in of {username} no longer waits; its count of wrong tries is cleared")

    @staff_cli.command("sessions")
    def sessions_command() -> None:
        """List signed-in sessions: account, since, last used, from where."""
        zone = current_app.extensions["content"].settings.timezone

        def local(moment: float) -> str:  # stored as Unix seconds, shown in local time
            return when(dt.datetime.fromtimestamp(moment, zone))

        for row in sessions.listed(get_db()):
            click.echo(
                f"{row['username']}\tsince {local(row['started'])}"
                f"\tlast used {local(row['seen'])}\tfrom {row['client'] or 'unknown'}"
            )

    @staff_cli.command("list")
    def list_command() -> None:
        """List accounts and whether each is enabled."""
        for account in rows(
            get_db(), "SELECT username, disabled, last_login_at, email FROM staff ORDER BY username"
        ):
            state = "disabled" if account["disabled"] else "enabled"
            click.echo(
                f"{account['username']}\t{state}\t{account['email'] or 'no e-mail'}"
                f"\tlast sign-in {account['last_login_at'] or 'never'}"
            )
