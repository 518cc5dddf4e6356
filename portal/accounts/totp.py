"""The staff second factor: time-based one-time codes (RFC 6238) and recovery codes.

A secret counts only once a code made from it has been confirmed. Each 30-second code
opens one sign-in: the last time step used is stored and nothing at or before it is
taken again. Recovery codes are random enough (about 79 bits) that a SHA-256 of each is
a safe thing to store, and it lets one be found without trying every hash.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time

import pyotp
import segno
import sqlite_utils

from portal.core.db import one, transaction, value

# A code from the step before or after is still taken: phones' clocks drift.
DRIFT_STEPS = 1
RECOVERY_CODES = 10
# No 0/o, 1/l/i: read off paper and typed again.
RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
RECOVERY_LENGTH = 16


def new_secret() -> str:
    return pyotp.random_base32()


def readable(secret: str) -> str:
    """The secret in groups of four, to type into an app that cannot scan."""
    return " ".join(secret[i : i + 4] for i in range(0, len(secret), 4))


def provisioning_uri(secret: str, username: str, issuer: str) -> str:
    return pyotp.TOTP(secret).provisioning_uri(name=username, issuer_name=issuer)


def qr_data_uri(uri: str) -> str:
    """The QR code as an SVG data URI: drawn here, nothing fetched from another host."""
    return segno.make(uri, error="m").svg_data_uri(scale=5, border=4, omit_charset=True)


def _digits(code: str) -> str:
    return re.sub(r"[\s-]", "", code or "")


def matching_step(
    secret: str, code: str, after: int | None, now: float | None = None
) -> int | None:
    """The time step whose code this is, if it is near now and later than `after`."""
    code = _digits(code)
    if not re.fullmatch(r"\d{6}", code):
        return None
    totp = pyotp.TOTP(secret)
    current = totp.timecode(time.time() if now is None else now)
    for step in range(current - DRIFT_STEPS, current + DRIFT_STEPS + 1):
        if (after is None or step > after) and secrets.compare_digest(
            totp.generate_otp(step), code
        ):
            return step
    return None


def is_enrolled(db: sqlite_utils.Database, account_id: int) -> bool:
    return bool(value(db, "SELECT totp_secret FROM staff WHERE id = ?", [account_id]))


def _hash(code: str) -> str:
    return hashlib.sha256(_digits(code).lower().encode()).hexdigest()


def new_recovery_code() -> str:
    raw = "".join(secrets.choice(RECOVERY_ALPHABET) for _ in range(RECOVERY_LENGTH))
    return "-".join(raw[i : i + 4] for i in range(0, RECOVERY_LENGTH, 4))


def enrol(db: sqlite_utils.Database, account_id: int, secret: str, step: int) -> list[str] | None:
    """Keep a confirmed secret (its code at `step` now used) and make ten recovery codes,
    returned once; None if the account was enrolled meanwhile (another tab)."""
    codes = [new_recovery_code() for _ in range(RECOVERY_CODES)]
    with transaction(db):
        # The enrolment code that let this happen has done its one job.
        cursor = db.execute(
            "UPDATE staff SET totp_secret = ?, totp_last_step = ?, enrol_code_hash = NULL"
            " WHERE id = ? AND totp_secret IS NULL",
            [secret, step, account_id],
        )
        if cursor.rowcount != 1:
            return None
        db.execute("DELETE FROM staff_recovery_codes WHERE staff_id = ?", [account_id])
        for code in codes:
            db.execute(
                "INSERT INTO staff_recovery_codes (staff_id, code_hash) VALUES (?, ?)",
                [account_id, _hash(code)],
            )
    return codes


def check_code(db: sqlite_utils.Database, account_id: int, code: str) -> bool:
    """Whether this authenticator code opens the account now; using it spends it."""
    row = one(db, "SELECT totp_secret, totp_last_step FROM staff WHERE id = ?", [account_id])
    if not row or not row["totp_secret"]:
        return False
    step = matching_step(row["totp_secret"], code, row["totp_last_step"])
    if step is None:
        return False
    # Only if no sign-in took this step (or a later one) in the meantime.
    cursor = db.execute(
        "UPDATE staff SET totp_last_step = ? WHERE id = ?"
        " AND (totp_last_step IS NULL OR totp_last_step < ?)",
        [step, account_id, step],
    )
    return cursor.rowcount == 1


def use_recovery_code(db: sqlite_utils.Database, account_id: int, code: str, at: str) -> int | None:
    """Spend a recovery code; the number left, or None if it is not an unused one."""
    cursor = db.execute(
        "UPDATE staff_recovery_codes SET used_at = ?"
        " WHERE staff_id = ? AND code_hash = ? AND used_at IS NULL",
        [at, account_id, _hash(code)],
    )
    if cursor.rowcount != 1:
        return None
    return value(
        db,
        "SELECT count(*) FROM staff_recovery_codes WHERE staff_id = ? AND used_at IS NULL",
        [account_id],
    )


def reset(db: sqlite_utils.Database, username: str) -> None:
    """Forget an account's second factor and end its sessions: it enrols again at its next
    sign-in (with a new enrolment code: portal/accounts/accounts.py)."""
    with transaction(db):
        found = value(db, "SELECT id FROM staff WHERE username = ?", [username])
        if found is None:
            raise ValueError(f"no account named {username!r}")
        db.execute(
            "UPDATE staff SET totp_secret = NULL, totp_last_step = NULL WHERE id = ?", [found]
        )
        db.execute("DELETE FROM staff_recovery_codes WHERE staff_id = ?", [found])
        db.execute("DELETE FROM staff_sessions WHERE staff_id = ?", [found])
