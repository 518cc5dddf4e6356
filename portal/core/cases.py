"""A case's reference and status link, whatever its kind: numbering per prefix and year, the
unguessable token and its hash, finding a case by its token, and what a stored one is."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from portal.core.db import one, value


@dataclass(frozen=True)
class Stored:
    case_id: int
    reference: str
    token: str
    created: bool


def new_submission_key() -> str:
    return secrets.token_urlsafe(18)


def status_token(secret: str | bytes, submission_key: str) -> str:
    """The unguessable status-link token, derived so a repeated POST finds the same one.

    Only its hash is stored: the database alone does not open anybody's status page.
    """
    key = secret.encode() if isinstance(secret, str) else secret
    mac = hmac.new(key, f"status:{submission_key}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:24]).decode().rstrip("=")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def digest(values: dict[str, Any]) -> str:
    """A fingerprint of what was submitted, to tell a double tap from a reused key."""
    canonical = json.dumps(values, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def next_reference(db: sqlite_utils.Database, prefix: str, year: int) -> str:
    """The next reference in this year's sequence, e.g. IDR-2026-0042 (inside a transaction)."""
    last = value(
        db,
        "INSERT INTO reference_counters (prefix, year, last) VALUES (?, ?, 1)"
        " ON CONFLICT (prefix, year) DO UPDATE SET last = last + 1 RETURNING last",
        [prefix, year],
    )
    return f"{prefix}-{year}-{last:04d}"


def find_by_token(db: sqlite_utils.Database, token: str) -> dict[str, Any] | None:
    """The case a status link opens, or None (the same answer for every wrong token)."""
    if not token or len(token) > 64:
        return None
    return one(db, "SELECT * FROM cases WHERE token_hash = ? LIMIT 1", [token_hash(token)])
