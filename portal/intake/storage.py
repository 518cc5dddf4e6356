"""Storing what the public sends: one transaction per case, references and status tokens."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from typing import Any

import sqlite_utils
from flask_babel import gettext

from portal.core import kinds
from portal.core.cases import Stored, digest, next_reference, status_token, token_hash
from portal.core.db import insert, one, transaction, value

# Photos uploaded with a form that was never sent (a CSRF token lasts 6 hours).
PENDING_PHOTO_LIFETIME = dt.timedelta(days=1)

# What every photo table keeps of a checked photo: pending_photos, and each owner's table
# (photos, inspection_photos, outfall_photos, screening_photos), which adds its owner's id
# and the photo's position. A new photo table is made with `photo_table`.
PHOTO_FIELDS = ("content_type", "width", "height", "sha256", "data")
PHOTO_COLUMNS = (
    "content_type TEXT NOT NULL, width INTEGER NOT NULL, height INTEGER NOT NULL,"
    " sha256 TEXT NOT NULL, data BLOB NOT NULL"
)


def photo_table(table: str, owner: str, owner_table: str, more: str = "") -> str:
    """The CREATE TABLE of a new owner's photo table, in the one shape: its owner's id, the
    photo's position among the owner's, PHOTO_COLUMNS, then `more` columns of its own."""
    return (
        f"CREATE TABLE IF NOT EXISTS {table} (id INTEGER PRIMARY KEY,"
        f" {owner} INTEGER NOT NULL REFERENCES {owner_table} (id), position INTEGER NOT NULL,"
        f" {PHOTO_COLUMNS}{f', {more}' if more else ''}, UNIQUE ({owner}, position))"
    )


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
        existing = one(
            db,
            "SELECT id, reference, submission_digest FROM cases WHERE submission_key = ?",
            [submission_key],
        )
        if existing:
            if existing["submission_digest"] != fingerprint:
                raise DuplicateSubmission(existing["reference"])
            # The same form again (a lost answer, a double tap): its photos are already kept.
            db.execute("DELETE FROM pending_photos WHERE submission_key = ?", [submission_key])
            return Stored(existing["id"], existing["reference"], token, created=False)
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
        move_pending_photos(db, "photos", "case_id", case_id, photo_ids, submission_key)
    return Stored(case_id, reference, token, created=True)


def move_pending_photos(
    db: sqlite_utils.Database,
    table: str,
    owner: str,
    owner_id: int,
    photo_ids: list[str],
    key: str,
    extra: Mapping[str, Any] | None = None,
) -> None:
    """Move the kept photos of the form sent with `key` into `table` under its `owner`
    column, in the order given, after the owner's last one, with `extra` columns; then
    forget every photo kept under that key (call inside a transaction).

    A photo is taken only under its own form's key, so another person's kept photo is never
    attached by its id; one that is not waiting (swept, or moved by a request sent twice)
    raises PhotoExpired, and the transaction then stores nothing."""
    last = 0
    if photo_ids:  # a text-only form costs no statement here (tests/test_submission_cost.py)
        last = value(
            db, f"SELECT coalesce(max(position), 0) FROM {table} WHERE {owner} = ?", [owner_id]
        )
    extra = extra or {}
    fields = ", ".join(PHOTO_FIELDS)
    names = "".join(f", {name}" for name in extra)
    marks = "".join(", ?" for _ in extra)
    for position, photo_id in enumerate(photo_ids, start=last + 1):
        moved = db.execute(
            f"INSERT INTO {table} ({owner}, position, {fields}{names})"
            f" SELECT ?, ?, {fields}{marks} FROM pending_photos"
            " WHERE id = ? AND submission_key = ?",
            [owner_id, position, *extra.values(), photo_id, key],
        ).rowcount
        if moved != 1:
            raise PhotoExpired(photo_id)
    db.execute("DELETE FROM pending_photos WHERE submission_key = ?", [key])


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
        found = value(db, "SELECT sha256 FROM pending_photos WHERE id = ?", [photo_id])
        hashes.append(found if found is not None else photo_id)
    return hashes
