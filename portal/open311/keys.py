"""Open311 API keys: issued, listed and revoked from the command line; checked, counted
and named on every request that presents one."""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass

import click
import sqlite_utils
from flask import Flask
from flask.cli import AppGroup

from portal.core.clock import local_stamp
from portal.core.db import get_db, one, rows, value

NAME = re.compile(r"^[A-Za-z0-9._-]{1,60}$")


@dataclass(frozen=True)
class ApiKey:
    id: int
    name: str


def key_hash(key: str) -> str:
    # The key is 192 random bits: a plain SHA-256 cannot be reversed or guessed from.
    return hashlib.sha256(key.encode()).hexdigest()


def add_key(db: sqlite_utils.Database, name: str) -> str:
    """A new key for `name`; the key itself is returned once and never stored."""
    if not NAME.fullmatch(name or ""):
        raise ValueError("use letters, digits, dots, dashes or underscores for the name")
    if value(db, "SELECT 1 FROM open311_keys WHERE name = ?", [name]):
        raise ValueError(f"a key named {name!r} exists already (names stay, even revoked)")
    key = secrets.token_urlsafe(24)
    db.execute(
        "INSERT INTO open311_keys (name, key_hash, created_at) VALUES (?, ?, ?)",
        [name, key_hash(key), local_stamp()],
    )
    return key


def revoke_key(db: sqlite_utils.Database, name: str) -> None:
    cursor = db.execute(
        "UPDATE open311_keys SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL",
        [local_stamp(), name],
    )
    if cursor.rowcount != 1:
        raise ValueError(f"no key named {name!r} in use")


def known_key(db: sqlite_utils.Database, key: str) -> ApiKey | None:
    """The key's holder if the key is in use, without counting the request."""
    row = one(
        db,
        "SELECT id, name FROM open311_keys WHERE key_hash = ? AND revoked_at IS NULL",
        [key_hash(key or "")],
    )
    return ApiKey(row["id"], row["name"]) if row else None


def use_key(db: sqlite_utils.Database, key: str) -> ApiKey | None:
    """The key's holder, counting this request; None for an unknown or revoked key (read
    on every request, so a revoked key stops at once, in every worker)."""
    row = one(
        db,
        "UPDATE open311_keys SET requests = requests + 1, last_used_at = ?"
        " WHERE key_hash = ? AND revoked_at IS NULL RETURNING id, name",
        [local_stamp(), key_hash(key or "")],
    )
    return ApiKey(row["id"], row["name"]) if row else None


def init_key_commands(app: Flask) -> None:
    open311_cli = AppGroup("open311", help="The Open311 GeoReport v2 API.")
    keys_cli = AppGroup("keys", help="API keys for the Open311 API.")
    open311_cli.add_command(keys_cli)

    @keys_cli.command("add")
    @click.argument("name")
    def add_command(name: str) -> None:
        """Issue a key for NAME (an integrator); it is printed once, then only its hash kept."""
        try:
            key = add_key(get_db(), name)
        except ValueError as error:
            raise click.ClickException(str(error)) from None
        click.echo(f"API key for {name} (shown once; give it to them, it cannot be shown again):")
        click.echo(key)

    @keys_cli.command("list")
    def list_command() -> None:
        """List keys: in use or revoked, requests made, reports filed, last use."""
        for k in rows(
            get_db(),
            "SELECT name, created_at, revoked_at, requests, filed, last_used_at"
            " FROM open311_keys ORDER BY name",
        ):
            state = f"revoked {k['revoked_at']}" if k["revoked_at"] else "in use"
            click.echo(
                f"{k['name']}\t{state}\tissued {k['created_at']}\t{k['requests']} requests"
                f"\t{k['filed']} filed\tlast used {k['last_used_at'] or 'never'}"
            )

    @keys_cli.command("revoke")
    @click.argument("name")
    def revoke_command(name: str) -> None:
        """Revoke NAME's key: it stops working at once."""
        try:
            revoke_key(get_db(), name)
        except ValueError as error:
            raise click.ClickException(str(error)) from None
        click.echo(f"key {name} revoked")

    app.cli.add_command(open311_cli)
