"""The resident's report of an illicit discharge: the form, storing it, the confirmation."""

from __future__ import annotations

import datetime as dt
import json
import re
import secrets
from typing import Any

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from werkzeug.datastructures import FileStorage

from portal import outbox
from portal.cases import (
    REPORT_PREFIX,
    DuplicateSubmission,
    find_by_token,
    new_submission_key,
    store_case,
)
from portal.db import get_db
from portal.forms import MAX_PHOTOS, ReportForm
from portal.messages import queue_report_mail
from portal.photos import PhotoError, process_photo
from static_site.content import Content

bp = Blueprint("report", __name__, url_prefix="/report")

SUBMISSION_KEY = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
PENDING_ID = re.compile(r"^[A-Za-z0-9_-]{16,32}$")


def _content() -> Content:
    return current_app.extensions["content"]


def local_now() -> dt.datetime:
    return dt.datetime.now(_content().settings.timezone).replace(microsecond=0)


def _form(**kwargs: Any) -> ReportForm:
    return ReportForm(clock=local_now, **kwargs)


def exempt_hints(text: str) -> list[Any]:
    """Exempt discharges whose keywords appear in the text (a hint, never a block)."""
    lowered = (text or "").lower()
    return [
        entry
        for entry in _content().exempt.entries
        if any(re.search(rf"\b{re.escape(k.lower())}\b", lowered) for k in entry.keywords)
    ]


@bp.route("/", methods=["GET"])
def form():
    form = _form(formdata=None)
    form.submission_key.data = new_submission_key()
    form.observed_at.data = local_now().replace(second=0, tzinfo=None)
    return render_template("portal/report.html", form=form, photos=[], hints=[], expired=False)


@bp.route("/", methods=["POST"])
def submit():
    form = _form()
    key = form.submission_key.data or ""
    if not SUBMISSION_KEY.match(key):
        abort(400, "This form is missing a part it needs. Please open the form again.")
    if form.nickname.data:
        # Only software fills a field nobody can see; store nothing.
        abort(400, "We could not accept this form.")
    photos, photo_errors = keep_photos(form, key)
    if not form.validate() or photo_errors:
        form.photos.errors = photo_errors
        return redisplay(form, photos)
    try:
        stored = store_case(
            get_db(),
            kind="report",
            prefix=REPORT_PREFIX,
            secret=current_app.secret_key,
            submission_key=key,
            case=_case_fields(form),
            details_table="reports",
            details=_report_fields(form),
            photo_ids=[photo["id"] for photo in photos],
            now=local_now(),
        )
    except LookupError:
        # A kept photo vanished between the check and the commit; nothing was stored.
        form.photos.errors = ["A photo could not be kept. Please attach it again."]
        return redisplay(form, [])
    except DuplicateSubmission as duplicate:
        abort(
            409,
            f"This form was already sent as report {duplicate}. Open a new form to send another.",
        )
    if stored.created:
        # Only now, with the report safely committed, does any mail get queued and sent.
        queue_report_mail(get_db(), stored.case_id, stored.token)
        outbox.send_pending(limit=5)
    return redirect(url_for("report.sent", token=stored.token), code=303)


def redisplay(form: ReportForm, photos: list[dict[str, Any]], expired: bool = False):
    """The form again, with what the person typed, their photos, and every error."""
    form.kept_photos.data = ",".join(photo["id"] for photo in photos)
    return render_template(
        "portal/report.html",
        form=form,
        photos=photos,
        hints=exempt_hints(form.description.data),
        expired=expired,
    ), (400 if expired else 422)


def keep_photos(form: ReportForm, key: str) -> tuple[list[dict[str, Any]], list[str]]:
    """Photos kept from an earlier try plus new uploads, each checked and stored as pending."""
    db = get_db()
    removed = set(request.form.getlist("remove_photo"))
    kept = []
    for photo_id in (form.kept_photos.data or "").split(","):
        if PENDING_ID.match(photo_id) and photo_id not in removed:
            row = db.execute(
                "SELECT id, filename, width, height FROM pending_photos"
                " WHERE id = ? AND submission_key = ?",
                [photo_id, key],
            ).fetchone()
            if row:
                kept.append(dict(zip(("id", "filename", "width", "height"), row, strict=True)))
    errors = []
    uploads: list[FileStorage] = [f for f in request.files.getlist("photos") if f and f.filename]
    for upload in uploads:
        name = _display_name(upload.filename)
        if len(kept) >= MAX_PHOTOS:
            errors.append(f"{name}: you can attach up to {MAX_PHOTOS} photos. Remove one first.")
            continue
        try:
            photo = process_photo(upload.read(), upload.filename)
        except PhotoError as error:
            errors.append(f"{name}: {error}")
            continue
        row = {
            "id": secrets.token_urlsafe(16),
            "submission_key": key,
            "filename": name,
            "content_type": photo.content_type,
            "width": photo.width,
            "height": photo.height,
            "sha256": photo.sha256,
            "data": photo.data,
            "created_at": local_now().isoformat(),
        }
        db["pending_photos"].insert(row)
        kept.append({k: row[k] for k in ("id", "filename", "width", "height")})
    return kept, errors


def _display_name(filename: str) -> str:
    name = re.sub(r"[^\w .()-]", "", filename.rsplit("/", 1)[-1].rsplit("\\", 1)[-1])
    return (name or "photo")[:80]


def _case_fields(form: ReportForm) -> dict[str, Any]:
    area = _content().settings.service_area
    lat, lon = form.latitude.data, form.longitude.data
    return {
        "service_code": "illicit-discharge",
        "latitude": lat,
        "longitude": lon,
        "address": form.address.data or None,
        "in_service_area": None if lat is None else int(area.contains(lat, lon)),
        "contact_name": form.contact_name.data or None,
        "contact_email": form.contact_email.data or None,
        "contact_phone": form.contact_phone.data or None,
    }


def _report_fields(form: ReportForm) -> dict[str, Any]:
    observed = form.observed_at.data.replace(tzinfo=_content().settings.timezone)
    return {
        "indicators": json.dumps(form.indicators.data or []),
        "color": form.color.data or None,
        "odor": form.odor.data or None,
        "description": form.description.data,
        "location_type": form.location_type.data,
        "observed_at": observed.isoformat(timespec="minutes"),
        "still_happening": form.still_happening.data,
        "happened_before": form.happened_before.data,
        "source_description": form.source_description.data or None,
        "source_vehicle": form.source_vehicle.data or None,
        "source_notes": form.source_notes.data or None,
    }


@bp.route("/sent/<token>/")
def sent(token: str):
    case = find_by_token(get_db(), token) or abort(404)
    if case["kind"] != "report":
        abort(404)
    report = get_db()["reports"].get(case["id"])
    return render_template(
        "portal/report_sent.html",
        case=case,
        token=token,
        hints=exempt_hints(report["description"]),
    )


def expired():
    """The form again after a missing or stale CSRF token, with everything kept."""
    form = _form()
    key = form.submission_key.data or ""
    if not SUBMISSION_KEY.match(key):
        form.submission_key.data = key = new_submission_key()
    photos, errors = keep_photos(form, key)
    form.photos.errors = errors
    return redisplay(form, photos, expired=True)
