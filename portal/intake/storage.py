"""Storing what the public sends: one transaction per case, references and status tokens."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import sqlite_utils
from flask_babel import gettext

from portal.core import kinds
from portal.core.cases import Stored, digest, next_reference, status_token, token_hash
from portal.core.db import insert, transaction

# Photos uploaded with a form that was never sent (a CSRF token lasts 6 hours).
PENDING_PHOTO_LIFETIME = dt.timedelta(days=1)


class StorageError(Exception):
    """A valid form that cannot be stored as sent; nothing was stored. `message` says why,
    in words for the person who sent it."""

    @property
    def message(self) -> str:
        return gettext("This form could not be stored.")


class PhotoExpired(StorageError):
    """A photo kept from an earlier try is no longer waiting (swept, or sent already)."""

    @property
    def message(self) -> str:
        return gettext("A photo could not be kept. Please attach it again.")

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
        return gettext(
            "This form was already sent as %(reference)s. Open a new form to send another.",
            reference=self.reference,
        )


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
    on_new: Callable[[], None] | None = None,
) -> Stored:
    """Write a case, its details and its photos in one transaction, once per submission key.

    Raises DuplicateSubmission (the key was used for something else) or PhotoExpired (a
    kept photo is gone); then nothing is stored. `on_new` runs only when a new case is about
    to be written (what it raises stores nothing either).
    """
    described = kinds.get(kind)  # an unregistered kind is refused before anything is written
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
        if on_new is not None:
            on_new()
        reference = next_reference(db, described.prefix, now.year)
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
        insert(db, described.table, {"case_id": case_id, **details})
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
