"""Storing what the public sends: one transaction per case, references and status tokens."""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from portal.core.db import insert, transaction


@dataclass(frozen=True)
class Kind:
    prefix: str  # of its references, e.g. IDR-2026-0042
    table: str  # of its details, one row per case


# What each kind of case decides about how it is stored.
KINDS = {"report": Kind("IDR", "reports"), "notification": Kind("REL", "notifications")}
# Photos uploaded with a form that was never sent (a CSRF token lasts 6 hours).
PENDING_PHOTO_LIFETIME = dt.timedelta(days=1)


class StorageError(Exception):
    """A valid form that cannot be stored as sent; nothing was stored. `message` says why,
    in words for the person who sent it."""

    message = "This form could not be stored."


class PhotoExpired(StorageError):
    """A photo kept from an earlier try is no longer waiting (swept, or sent already)."""

    message = "A photo could not be kept. Please attach it again."

    def __init__(self, photo_id: str) -> None:
        super().__init__(photo_id)
        self.photo_id = photo_id


class DuplicateSubmission(StorageError):
    """The form's key was used already, for different content: not a double tap."""

    def __init__(self, reference: str) -> None:
        super().__init__(reference)
        self.reference = reference

    @property
    def message(self) -> str:
        return f"This form was already sent as {self.reference}. Open a new form to send another."


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
    (last,) = db.execute(
        "INSERT INTO reference_counters (prefix, year, last) VALUES (?, ?, 1)"
        " ON CONFLICT (prefix, year) DO UPDATE SET last = last + 1 RETURNING last",
        [prefix, year],
    ).fetchone()
    return f"{prefix}-{year}-{last:04d}"


def store_case(
    db: sqlite_utils.Database,
    *,
    kind: str,
    secret: str,
    submission_key: str,
    case: dict[str, Any],
    details: dict[str, Any],
    photo_ids: list[str],
    now: dt.datetime,
) -> Stored:
    """Write a case, its details and its photos in one transaction, once per submission key.

    Raises DuplicateSubmission (the key was used for something else) or PhotoExpired (a
    kept photo is gone); then nothing is stored.
    """
    token = status_token(secret, submission_key)
    with transaction(db):
        # Photos count by their content: a resent form uploads them again under new ids.
        hashes = _content_hashes(db, photo_ids)
        fingerprint = digest({"case": case, "details": details, "photos": hashes})
        existing = db.execute(
            "SELECT id, reference, submission_digest FROM cases WHERE submission_key = ?",
            [submission_key],
        ).fetchone()
        if existing:
            if existing[2] != fingerprint:
                raise DuplicateSubmission(existing[1])
            # The same form again (a lost answer, a double tap): its photos are already kept.
            db.execute("DELETE FROM pending_photos WHERE submission_key = ?", [submission_key])
            return Stored(existing[0], existing[1], token, created=False)
        reference = next_reference(db, KINDS[kind].prefix, now.year)
        stamp = now.isoformat(timespec="seconds")
        case_id = insert(
            db,
            "cases",
            {
                **case,
                "kind": kind,
                "reference": reference,
                "token_hash": token_hash(token),
                "submission_key": submission_key,
                "submission_digest": fingerprint,
                "received_at": stamp,
                "updated_at": stamp,
                "public_changed_at": stamp,
            },
        )
        insert(db, KINDS[kind].table, {"case_id": case_id, **details})
        for position, photo_id in enumerate(photo_ids, start=1):
            moved = db.execute(
                "INSERT INTO photos (case_id, position, content_type, width, height, sha256, data)"
                " SELECT ?, ?, content_type, width, height, sha256, data FROM pending_photos"
                " WHERE id = ? AND submission_key = ?",
                [case_id, position, photo_id, submission_key],
            ).rowcount
            if moved != 1:
                raise PhotoExpired(photo_id)
        db.execute("DELETE FROM pending_photos WHERE submission_key = ?", [submission_key])
    return Stored(case_id, reference, token, created=True)


def delete_abandoned_photos(db: sqlite_utils.Database, now: dt.datetime) -> int:
    """Delete photos kept for forms never sent, once older than PENDING_PHOTO_LIFETIME
    (the outbox sweep calls this); return how many went."""
    # julianday() compares the moments, whatever offset each was written with (DST).
    return db.execute(
        "DELETE FROM pending_photos WHERE julianday(created_at) < julianday(?)",
        [(now - PENDING_PHOTO_LIFETIME).isoformat(timespec="seconds")],
    ).rowcount


def _content_hashes(db: sqlite_utils.Database, photo_ids: list[str]) -> list[str]:
    """Each pending photo's sha256 (its id, if it is gone: storing then fails anyway)."""
    hashes = []
    for photo_id in photo_ids:
        row = db.execute("SELECT sha256 FROM pending_photos WHERE id = ?", [photo_id]).fetchone()
        hashes.append(row[0] if row else photo_id)
    return hashes


def find_by_token(db: sqlite_utils.Database, token: str) -> dict[str, Any] | None:
    """The case a status link opens, or None (the same answer for every wrong token)."""
    if not token or len(token) > 64:
        return None
    rows = list(db["cases"].rows_where("token_hash = ?", [token_hash(token)], limit=1))
    return rows[0] if rows else None
