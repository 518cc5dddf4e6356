"""Staff sessions kept on the server.

The signed cookie holds only a random id; the `staff_sessions` table holds its SHA-256,
the account, and when the session began and was last used. A session is whatever row
that id names, so deleting rows ends sessions at once, in every worker, whatever copies
of the cookie exist: sign-out, `staff disable`, `staff reset-2fa`, a password change and
`staff sign-out` all do. Between the password and the code a row of stage 'code' stands
for the half-finished sign-in, with the authenticator being set up, if any.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from typing import Any

import sqlite_utils
from flask import current_app

from portal.core.db import insert, one, rows

SIGNED_IN, CODE = "signed-in", "code"
# Time to type the code after the password; then the password is asked for again.
PENDING_SECONDS = 5 * 60
# `seen` is written at most this often: a page's every request need not write a row.
TOUCH_SECONDS = 15


def _hash(session_id: str) -> str:
    return hashlib.sha256(session_id.encode()).hexdigest()


def open_session(
    db: sqlite_utils.Database,
    account_id: int,
    stage: str,
    *,
    client: str | None,
    next_url: str | None = None,
) -> str:
    """A new session of `stage` for the account; returns the id for the cookie (never stored)."""
    session_id = secrets.token_urlsafe(32)
    now = time.time()
    insert(
        db,
        "staff_sessions",
        {
            "id_hash": _hash(session_id),
            "staff_id": account_id,
            "stage": stage,
            "started": now,
            "seen": now,
            "next_url": next_url,
            "client": client,
        },
    )
    return session_id


def find(db: sqlite_utils.Database, session_id: Any, stage: str) -> dict[str, Any] | None:
    """The session row this cookie value names, at this stage, or None."""
    if not isinstance(session_id, str) or not session_id or len(session_id) > 100:
        return None
    return one(
        db,
        "SELECT * FROM staff_sessions WHERE id_hash = ? AND stage = ?",
        [_hash(session_id), stage],
    )


def ended_by_time(row: dict[str, Any], idle: float, lifetime: float) -> str | None:
    """'lifetime' or 'idle' if the session is over by the clock, else None."""
    now = time.time()
    if now - row["started"] > lifetime:
        return "lifetime"
    if now - row["seen"] > idle:
        return "idle"
    return None


def touch(db: sqlite_utils.Database, row: dict[str, Any]) -> None:
    now = time.time()
    if now - row["seen"] >= TOUCH_SECONDS:
        db.execute("UPDATE staff_sessions SET seen = ? WHERE id_hash = ?", [now, row["id_hash"]])


def pending(db: sqlite_utils.Database, session_id: Any) -> dict[str, Any] | None:
    """The half-finished sign-in this cookie value names, while there is still time."""
    row = find(db, session_id, CODE)
    if row is None or time.time() - row["started"] > PENDING_SECONDS:
        return None
    return row


def set_enrol_secret(db: sqlite_utils.Database, row: dict[str, Any], secret: str) -> None:
    db.execute(
        "UPDATE staff_sessions SET enrol_secret = ? WHERE id_hash = ?", [secret, row["id_hash"]]
    )


def end(db: sqlite_utils.Database, session_id: Any) -> None:
    if isinstance(session_id, str) and session_id:
        db.execute("DELETE FROM staff_sessions WHERE id_hash = ?", [_hash(session_id)])


def end_row(db: sqlite_utils.Database, row: dict[str, Any]) -> None:
    db.execute("DELETE FROM staff_sessions WHERE id_hash = ?", [row["id_hash"]])


def end_all(db: sqlite_utils.Database, account_id: int) -> int:
    """End every session of the account, signed in or half way; how many there were."""
    return db.execute("DELETE FROM staff_sessions WHERE staff_id = ?", [account_id]).rowcount


def end_everyone(db: sqlite_utils.Database) -> int:
    return db.execute("DELETE FROM staff_sessions").rowcount


def forget_old(db: sqlite_utils.Database, idle: float, lifetime: float) -> None:
    """Delete rows no cookie can use any more (called at each sign-in)."""
    now = time.time()
    db.execute(
        "DELETE FROM staff_sessions WHERE seen < ? OR started < ? OR (stage = ? AND started < ?)",
        [now - idle, now - lifetime, CODE, now - PENDING_SECONDS],
    )


def listed(db: sqlite_utils.Database) -> list[dict[str, Any]]:
    """Signed-in sessions, for `staff sessions`: who, since when, last used, from where."""
    return rows(
        db,
        "SELECT s.username, x.started, x.seen, x.client FROM staff_sessions x"
        " JOIN staff s ON s.id = x.staff_id WHERE x.stage = ? ORDER BY s.username, x.started",
        [SIGNED_IN],
    )


def limits() -> tuple[float, float]:
    """(idle, absolute) lifetime of a staff session, in seconds, from the settings."""
    config = current_app.config
    return config["STAFF_IDLE_MINUTES"] * 60, config["STAFF_SESSION_HOURS"] * 3600
