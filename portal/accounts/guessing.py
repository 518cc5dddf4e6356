"""Wrong passwords and codes, counted per username whatever address they come from.

The per-address rate limit (portal/web/limits.py) stops one machine; many addresses (a
botnet, an IPv6 /64) could still guess an officer's password, or its 6-digit code once
the password is known. So every failure (a wrong password, authenticator code, recovery
code or enrolment code) also counts against the username. After FAILURES of them, each
less than WINDOW after the one before, the name waits: FIRST_WAIT, doubling with each
further failure up to LONGEST_WAIT. While it waits nothing is checked, so nothing is
learnt and nothing more is counted; a right sign-in ends the count. A name no account
has is counted the same way, so the answers never tell which names exist. The account's
officer (or, without an address, the SMO) is told by mail when the waiting begins.
"""

from __future__ import annotations

import json
import math
import time

import sqlite_utils
from flask import current_app, render_template

from portal.core.db import one, transaction, value
from portal.mail import courier, outbox

FAILURES = 10
WINDOW = 15 * 60
FIRST_WAIT = 60
LONGEST_WAIT = 60 * 60
# Addresses kept per name for the officer's mail (the latest ones).
CLIENTS_KEPT = 10
# Rows of names not tried for this long are forgotten.
FORGET_AFTER = 24 * 3600


def _key(username: str) -> str:
    return (username or "").strip()[:60]


def waiting(db: sqlite_utils.Database, username: str) -> float:
    """Seconds this name must still wait before a try is checked (0: none)."""
    until = value(
        db, "SELECT wait_until FROM sign_in_failures WHERE username = ?", [_key(username)]
    )
    return max(0.0, until - time.time()) if until is not None else 0.0


def wait_for(failures: int) -> float:
    """The wait after this many failures in a row (none below FAILURES)."""
    if failures < FAILURES:
        return 0.0
    return float(min(FIRST_WAIT * 2 ** (failures - FAILURES), LONGEST_WAIT))


def failed(db: sqlite_utils.Database, username: str, client: str | None) -> float:
    """Count one failure; return the wait it starts (0: none). Mails the officer when
    the waiting begins."""
    name, now = _key(username), time.time()
    if not name:
        return 0.0
    told = False
    with transaction(db):
        row = one(
            db,
            "SELECT failures, last_at, wait_until, clients FROM sign_in_failures"
            " WHERE username = ?",
            [name],
        )
        # A pause of WINDOW after the last failure (or the end of the wait) starts afresh.
        if row is None or now - max(row["last_at"], row["wait_until"]) > WINDOW:
            failures, clients = 1, []
        else:
            failures, clients = row["failures"] + 1, json.loads(row["clients"])
        if client:
            others = [c for c in clients if c != client]
            clients = [*others[-(CLIENTS_KEPT - 1) :], client]
        wait = wait_for(failures)
        db.execute(
            "INSERT INTO sign_in_failures (username, failures, last_at, wait_until, clients)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (username) DO UPDATE SET"
            " failures = excluded.failures, last_at = excluded.last_at,"
            " wait_until = excluded.wait_until, clients = excluded.clients",
            [name, failures, now, now + wait if wait else 0, json.dumps(clients)],
        )
        if failures == FAILURES:
            told = _tell_the_officer(db, name, clients, wait)
        db.execute("DELETE FROM sign_in_failures WHERE last_at < ?", [now - FORGET_AFTER])
    if told:
        courier.dispatch()
    return wait


def succeeded(db: sqlite_utils.Database, username: str) -> None:
    db.execute("DELETE FROM sign_in_failures WHERE username = ?", [_key(username)])


def _tell_the_officer(
    db: sqlite_utils.Database, username: str, clients: list[str], wait: float
) -> bool:
    """Queue a mail to the account's own address, else the SMO's (inside the transaction)."""
    account = one(db, "SELECT username, email FROM staff WHERE username = ?", [username])
    if account is None:
        return False
    recipient = account["email"] or current_app.config["SMO_EMAIL"]
    if not recipient:
        current_app.logger.warning(
            "sign-in of %s waits after %d failures", account["username"], FAILURES
        )
        return False
    from portal.core.clock import local_stamp

    stamp = local_stamp()
    context = {
        "username": account["username"],
        "failures": FAILURES,
        "window": WINDOW // 60,
        "minutes": max(1, round(wait / 60)),
        "clients": clients,
        "at": stamp,
        "own": bool(account["email"]),
    }
    return outbox.enqueue(
        db,
        case_id=None,
        purpose=f"sign-in-wait-{account['username']}-{stamp}",
        recipient=recipient,
        subject=f"Sign-in of {account['username']} paused after {FAILURES} wrong tries",
        text=render_template("mail/sign_in_wait.txt", **context),
        html=render_template("mail/sign_in_wait.html", **context),
    )


def wait_words(seconds: float) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    return (
        "Too many wrong passwords or codes were given for this username, from wherever they "
        f"came, so signing in to it waits: try again in {minutes} minute"
        f"{'s' if minutes != 1 else ''}."
    )
