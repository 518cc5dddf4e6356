"""Staff accounts: created and disabled from the command line, checked at sign-in."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import click
import sqlite_utils
from flask import Flask
from werkzeug.security import check_password_hash, generate_password_hash

from portal.clock import local_stamp
from portal.db import get_db

MIN_PASSWORD = 12
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
    if len(password) < MIN_PASSWORD:
        raise ValueError(f"use a password of at least {MIN_PASSWORD} characters")
    # ASCII only: the pattern, not str.isalnum(), which accepts any script's letters
    # (and look-alikes such as a Cyrillic "а" in "аdmin").
    if not USERNAME.fullmatch(username or ""):
        raise ValueError("use letters, digits, dots, dashes or underscores for the username")
    if db.execute("SELECT 1 FROM staff WHERE username = ?", [username]).fetchone():
        raise ValueError(f"an account named {username!r} already exists")
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


def set_disabled(db: sqlite_utils.Database, username: str, disabled: bool) -> None:
    cursor = db.execute(
        "UPDATE staff SET disabled = ? WHERE username = ?", [int(disabled), username]
    )
    if cursor.rowcount != 1:
        raise ValueError(f"no account named {username!r}")


def verify(db: sqlite_utils.Database, username: str, password: str) -> dict[str, Any] | None:
    """The enabled account these credentials open, or None."""
    account = next(
        db.query(
            "SELECT id, username, password_hash, disabled FROM staff WHERE username = ?",
            [username or ""],
        ),
        None,
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
    row = db.execute(
        f"SELECT id, username FROM staff WHERE id = ? AND disabled = 0{second_factor}",
        [account_id],
    ).fetchone()
    return {"id": row[0], "username": row[1]} if row else None


def usernames(db: sqlite_utils.Database) -> list[str]:
    """Enabled accounts, for the assignment list."""
    return [
        r[0] for r in db.execute("SELECT username FROM staff WHERE disabled = 0 ORDER BY username")
    ]


def _or_fail(action: Callable[[], Any], done: str) -> None:
    """Run a command's action; a refusal becomes the command's error message."""
    try:
        action()
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    click.echo(done)


def init_account_commands(app: Flask) -> None:
    @app.cli.group("staff")
    def staff_cli() -> None:
        """Manage staff accounts (there is no default account)."""

    @staff_cli.command("add")
    @click.argument("username")
    @click.password_option("--password", prompt="Password", help="asked for when not given")
    @click.option("--email", default=None, help="where assignments and the daily digest go")
    def add_command(username: str, password: str, email: str | None) -> None:
        """Create an account; asks for its password twice."""
        _or_fail(
            lambda: add_account(get_db(), username, password, email), f"account {username} created"
        )

    @staff_cli.command("edit")
    @click.argument("username")
    @click.option("--email", required=True, help='the new address ("" for none)')
    def edit_command(username: str, email: str) -> None:
        """Change an account's e-mail address."""
        _or_fail(
            lambda: set_email(get_db(), username, email),
            f"account {username}: e-mail {email or 'removed'}",
        )

    @staff_cli.command("disable")
    @click.argument("username")
    def disable_command(username: str) -> None:
        """Stop an account from signing in (its open sessions end too)."""
        _or_fail(lambda: set_disabled(get_db(), username, True), f"account {username} disabled")

    @staff_cli.command("enable")
    @click.argument("username")
    def enable_command(username: str) -> None:
        """Let a disabled account sign in again."""
        _or_fail(lambda: set_disabled(get_db(), username, False), f"account {username} enabled")

    @staff_cli.command("reset-2fa")
    @click.argument("username")
    def reset_2fa_command(username: str) -> None:
        """Forget an account's second factor (a lost phone): its open sessions end, and it
        sets up a new one at its next sign-in."""
        from portal.staff.totp import reset

        _or_fail(
            lambda: reset(get_db(), username),
            f"second factor of {username} reset: it sets up a new one at its next sign-in",
        )

    @staff_cli.command("list")
    def list_command() -> None:
        """List accounts and whether each is enabled."""
        for name, disabled, last, email in get_db().execute(
            "SELECT username, disabled, last_login_at, email FROM staff ORDER BY username"
        ):
            state = "disabled" if disabled else "enabled"
            click.echo(f"{name}\t{state}\t{email or 'no e-mail'}\tlast sign-in {last or 'never'}")
