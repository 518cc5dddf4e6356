"""What a public form carries between tries (its key, its photos), and how it is stored."""

from __future__ import annotations

import datetime as dt
import re
import secrets
from io import BytesIO
from typing import Any

from flask import Request, abort, current_app, request
from flask_babel import gettext as _
from werkzeug.datastructures import FileStorage

from content_model.site import N_
from portal.core.cases import Stored, new_submission_key
from portal.core.clock import local_now, local_stamp
from portal.core.db import get_db, insert, one, transaction, value
from portal.intake.decoder import DecoderBusy, clean_photo
from portal.intake.forms import MAX_PHOTOS, PublicForm
from portal.intake.photos import PhotoError
from portal.intake.storage import store_case
from portal.mail import courier
from portal.web.limits import STORED, spend


class UploadsInMemory(Request):
    """Uploads are parsed into memory, not spooled to a temporary file past 500 KB as
    Werkzeug does by default: the body is already capped (MAX_CONTENT_LENGTH) and every
    photo is read whole at once, so the disk round trip only cost time."""

    def _get_file_stream(self, *args, **kwargs) -> BytesIO:
        return BytesIO()

    def _load_form_data(self) -> None:
        super()._load_form_data()
        # A multipart part whose name Werkzeug cannot read (name="\\") comes as the key None:
        # no form has it, and what reads every name (the CSRF check) would fail on it (a 500).
        for part in ("form", "files"):
            data = self.__dict__.get(part)
            if data is not None and None in data:
                kept = [(k, v) for k, v in data.items(multi=True) if k is not None]
                self.__dict__[part] = type(data)(kept)


SUBMISSION_KEY = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
# Photos kept for forms not yet sent, per address and hour (six invalid forms once
# left 20 MB in a minute). Ten forms' worth; a sent form's photos no longer count.
UNSENT_PHOTOS_PER_HOUR = 30
_TOO_MANY_UNSENT = N_(
    "We are keeping many photos from this connection for forms not yet sent, so this one "
    "was not taken. Send the form with the photos already attached, or try again in an hour."
)
# A form whose CSRF token is missing or stale could have been sent by any web page in the
# visitor's browser: its uploads are not decoded or stored.
_NOT_TAKEN_EXPIRED = N_("this photo was not kept because the form had expired. Attach it again.")
PENDING_ID = re.compile(r"^[A-Za-z0-9_-]{16,32}$")


def submission_key(form: PublicForm) -> str:
    """The posted form's key, after refusing forms no person could have sent (a 400)."""
    key = form.submission_key.data or ""
    if not SUBMISSION_KEY.match(key):
        abort(400, _("This form is missing a part it needs. Please open the form again."))
    if form.nickname.data:
        # Only software fills a field nobody can see; store nothing.
        abort(400, _("We could not accept this form."))
    return key


def keep_photos(
    form: PublicForm, key: str, uploads_taken: bool = True
) -> tuple[list[dict[str, Any]], list[str]]:
    """Photos kept from an earlier try plus new uploads, each checked and stored as pending
    (unless `uploads_taken` is False: each is then named in an error, not stored)."""
    db = get_db()
    removed = set(request.form.getlist("remove_photo"))
    kept = []
    for photo_id in (form.kept_photos.data or "").split(","):
        if PENDING_ID.match(photo_id) and photo_id not in removed:
            photo = one(
                db,
                "SELECT id, filename, width, height FROM pending_photos"
                " WHERE id = ? AND submission_key = ?",
                [photo_id, key],
            )
            if photo:
                kept.append(photo)
    errors = []
    uploads: list[FileStorage] = [f for f in request.files.getlist("photos") if f and f.filename]
    unsent = _unsent_photos(db) if uploads else 0
    busy = None
    for upload in uploads:
        name = _display_name(upload.filename)
        if not uploads_taken:
            errors.append(f"{name}: {_(_NOT_TAKEN_EXPIRED)}")
            continue
        if len(kept) >= MAX_PHOTOS:
            errors.append(
                _(
                    "%(name)s was not added: you can attach up to %(count)s photos.",
                    name=name,
                    count=MAX_PHOTOS,
                )
            )
            continue
        if unsent >= UNSENT_PHOTOS_PER_HOUR:  # checked before any decoding
            errors.append(f"{name}: {_(_TOO_MANY_UNSENT)}")
            continue
        if busy:  # no second wait in the same request: its thread is wanted for pages
            errors.append(f"{name}: {busy.translated()}")
            continue
        try:
            photo = clean_photo(upload.read())
        except DecoderBusy as error:
            busy = error
            errors.append(f"{name}: {error.translated()}")
            continue
        except PhotoError as error:
            errors.append(f"{name}: {error.translated()}")
            continue
        unsent += 1
        row = {
            "id": secrets.token_urlsafe(16),
            "submission_key": key,
            "filename": name,
            "content_type": photo.content_type,
            "width": photo.width,
            "height": photo.height,
            "sha256": photo.sha256,
            "data": photo.data,
            "created_at": local_stamp(),
            "client": request.remote_addr,
        }
        with transaction(db):
            insert(db, "pending_photos", row)
        kept.append({k: row[k] for k in ("id", "filename", "width", "height")})
    return kept, errors


def _unsent_photos(db) -> int:
    """Photos this address uploaded in the last hour with forms it has not sent."""
    since = (local_now() - dt.timedelta(hours=1)).isoformat(timespec="seconds")
    return value(
        db,
        "SELECT count(*) FROM pending_photos WHERE client = ?"
        " AND julianday(created_at) >= julianday(?)",
        [request.remote_addr, since],
    )


def _display_name(filename: str) -> str:
    name = re.sub(r"[^\w .()-]", "", filename.rsplit("/", 1)[-1].rsplit("\\", 1)[-1])
    return (name or "photo")[:80]


def recover(form: PublicForm, expired: bool = False) -> list[dict[str, Any]]:
    """A form carried back to an earlier step, or (`expired`) after a missing or stale CSRF
    token: make sure it has a key, and keep its photos (after a stale token, only those
    kept before: new uploads are named, to attach again)."""
    key = form.submission_key.data or ""
    if not SUBMISSION_KEY.match(key):
        form.submission_key.data = key = new_submission_key()
    photos, errors = keep_photos(form, key, uploads_taken=not expired)
    form.photos.errors = errors
    return photos


def store_submission(
    form: PublicForm,
    photos: list[dict[str, Any]],
    *,
    kind: str,
    case: dict[str, Any],
    details: dict[str, Any],
    now: dt.datetime,
) -> Stored:
    """Store a valid form once, then wake the courier. Raises what store_case raises
    (PhotoExpired, DuplicateSubmission), with nothing stored: the view says what to do.

    The person waits for one commit only. Their mail is written by the courier after the
    response (portal/mail/courier.py): the case is stored without `mail_queued_at`, and
    any worker's courier queues the mail of every case stored without it, so a process
    that dies after the commit loses nothing.

    The form's limit of stored submissions is spent here, after the form was found valid and
    before a new case is stored (LimitReached: the 429 page, nothing stored).
    """
    stored = store_case(
        get_db(),
        kind=kind,
        secret=current_app.secret_key,
        submission_key=form.submission_key.data,
        case=case,
        details=details,
        photo_ids=[photo["id"] for photo in photos],
        now=now,
        # Spent only for a new case: a form stored already (a double tap, Back then Send)
        # makes none, so it spends nothing.
        on_new=lambda: spend(STORED),
    )
    courier.dispatch()
    return stored
