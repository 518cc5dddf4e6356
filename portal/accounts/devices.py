"""Devices an officer has signed in on: the per-username wait does not hold them.

The wait after many wrong tries (portal/accounts/guessing.py) is per username, from any
address, so anyone could keep an officer out for good with one wrong try per wait (ASVS
2.2.1 asks that lockouts not make a denial of service easy). A full
sign-in (password and second factor) leaves a signed, long-lived cookie on the device;
on that device the username's wait does not apply (its wrong tries still count, and the
per-address rate limit still holds). The cookie names the account and a fingerprint of
its password hash, so a new password forgets every device.
"""

from __future__ import annotations

import hashlib

import sqlite_utils
from flask import Response, after_this_request, current_app, request
from itsdangerous import BadSignature, URLSafeTimedSerializer

from portal.accounts import guessing
from portal.core.db import value

COOKIE = "staff_device"
# A year: an officer's own computer or phone stays known across holidays and leave.
KEPT_SECONDS = 365 * 24 * 3600


def _signer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.secret_key, salt="staff-device")


def _fingerprint(db: sqlite_utils.Database, username: str) -> str | None:
    stored = value(db, "SELECT password_hash FROM staff WHERE username = ?", [username])
    return hashlib.sha256(stored.encode()).hexdigest()[:32] if stored is not None else None


def remember(db: sqlite_utils.Database, username: str) -> None:
    """After a full sign-in: mark this device as one the account signed in on."""
    value = _signer().dumps({"u": username, "p": _fingerprint(db, username)})

    @after_this_request
    def set_cookie(response: Response) -> Response:
        response.set_cookie(
            COOKIE,
            value,
            max_age=KEPT_SECONDS,
            path="/staff/",
            secure=bool(current_app.config["SESSION_COOKIE_SECURE"]),
            httponly=True,
            samesite="Strict",
        )
        return response


def known(db: sqlite_utils.Database, username: str) -> bool:
    """Whether this request comes from a device `username` signed in on (with its password
    of now)."""
    value = request.cookies.get(COOKIE)
    if not value:
        return False
    try:
        data = _signer().loads(value, max_age=KEPT_SECONDS)
    except BadSignature:
        return False
    name = (username or "").strip()
    fingerprint = _fingerprint(db, name)
    return bool(fingerprint) and data == {"u": name, "p": fingerprint}


def waiting(db: sqlite_utils.Database, username: str) -> float:
    """Seconds this name's sign-in must still wait on this device (0: none)."""
    return 0.0 if known(db, username) else guessing.waiting(db, username)
