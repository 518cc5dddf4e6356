"""The resident's report of an illicit discharge: the form, storing it, the confirmation."""

from __future__ import annotations

import json
import re
from typing import Any

import sqlite_utils
from flask import Blueprint, abort, current_app, redirect, render_template, url_for

from content_model.loader import Content
from portal.core.cases import find_by_token, new_submission_key
from portal.core.clock import local_now
from portal.core.db import get_db
from portal.intake.pending import keep_photos, recover, store_submission, submission_key
from portal.intake.storage import DuplicateSubmission, PhotoExpired
from portal.report.forms import ReportForm
from portal.web.limits import FORM, TOKEN_PAGES
from portal.web.routes import NO_STORE, declare

bp = Blueprint("report", __name__, url_prefix="/report")


def _content() -> Content:
    return current_app.extensions["content"]


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
@declare(photo_previews=True)
def form():
    form = _form(formdata=None)
    form.submission_key.data = new_submission_key()
    form.observed_at.data = local_now().replace(second=0, tzinfo=None)
    return render_template("portal/report.html", form=form, photos=[], hints=[], expired=False)


@bp.route("/", methods=["POST"])
@declare(limit=FORM, photo_previews=True, on_expired=lambda: expired())
def submit():
    form = _form()
    photos, photo_errors = keep_photos(form, submission_key(form))
    if not form.validate() or photo_errors:
        form.photos.errors = photo_errors
        return redisplay(form, photos)
    try:
        stored = store_submission(
            form,
            photos,
            kind="report",
            case=_case_fields(form),
            details=_report_fields(form),
            now=local_now(),
        )
    except PhotoExpired as error:
        form.photos.errors = [error.message]
        return redisplay(form, [])
    except DuplicateSubmission as error:
        abort(409, error.message)
    return redirect(url_for("report.sent", token=stored.token), code=303)


def redisplay(form: ReportForm, photos: list[dict[str, Any]], expired: bool = False):
    """The form again, with what the person typed, their photos, and every error."""
    form.carry_photos(photos)
    return render_template(
        "portal/report.html",
        form=form,
        photos=photos,
        hints=exempt_hints(form.description.data),
        expired=expired,
    ), (400 if expired else 422)


def _case_fields(form: ReportForm) -> dict[str, Any]:
    return form.case_fields(
        "illicit-discharge",
        _content().settings.service_area.contains,
        address=form.address.data,
        name=form.contact_name.data,
        email=form.contact_email.data,
        phone=form.contact_phone.data,
    )


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
@declare(limit=TOKEN_PAGES, caching=NO_STORE)
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


def status_page(db: sqlite_utils.Database, case: dict[str, Any], token: str):
    """A report's public status page: what was reported, roughly where, and its status."""
    report = db["reports"].get(case["id"])
    # A duplicate follows the case it was joined to: its status is the one that moves.
    original = db["cases"].get(case["duplicate_of"]) if case["duplicate_of"] else None
    return render_template(
        "portal/status.html", case=case, report=report, token=token, original=original
    )


def expired():
    """The form again after a missing or stale CSRF token, with everything kept."""
    form = _form()
    return redisplay(form, recover(form), expired=True)
