"""The staff page that records a discharge staff found (/staff/found/new): under /staff/,
behind the workspace's sign-in (portal/accounts/auth.py guards every /staff/ path), never kept
by a browser. Saved, the officer lands on the new case's page."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, current_app, flash, redirect, render_template, url_for

from portal.accounts.auth import current_staff, staff_name
from portal.core.cases import new_submission_key
from portal.core.clock import local_now
from portal.core.db import get_db, value
from portal.intake.pending import keep_photos, recover, submission_key
from portal.intake.storage import DuplicateSubmission, PhotoExpired
from portal.staff_found.form import FindingForm
from portal.staff_found.records import SERVICE_CODE, store_finding
from portal.web.routes import NO_STORE, declare, declare_blueprint

bp = declare_blueprint(Blueprint("staff_found", __name__, url_prefix="/staff"), caching=NO_STORE)


def _form(**kwargs: Any) -> FindingForm:
    return FindingForm(clock=local_now, **kwargs)


def _page(
    form: FindingForm,
    photos: list[dict[str, Any]],
    status: int = 200,
    *,
    fresh: bool = False,
    expired: bool = False,
):
    form.carry_photos(photos)
    return render_template(
        "staff/staff_found.html", form=form, photos=photos, fresh=fresh, expired=expired
    ), status


@bp.route("/found/new", methods=["GET"])
def new_finding():
    """The form, filled with now and the signed-in officer."""
    form = _form(
        formdata=None,
        data={
            "submission_key": new_submission_key(),
            "found_by": staff_name(),
            "found_at": local_now().replace(second=0, tzinfo=None),
            "confirmed": "no",
        },
    )
    return _page(form, [], fresh=True)


@bp.route("/found/new", methods=["POST"])
@declare(on_expired=lambda: expired())
def save_finding():
    form = _form()
    key = submission_key(form)  # a form without its key is no form of ours: a 400
    photos, photo_errors = keep_photos(form, key)
    if not form.validate() or photo_errors:
        form.photos.errors = [*form.photos.errors, *photo_errors]
        return _page(form, photos, 422)
    content = current_app.extensions["content"]
    try:
        stored = store_finding(
            get_db(),
            secret=current_app.secret_key,
            submission_key=key,
            case=form.case_fields(
                SERVICE_CODE,
                content.settings.service_area.contains,
                address=form.address.data,
                name=None,
                email=None,
                phone=None,
            ),
            details=_details(form, content.settings.timezone),
            photo_ids=[photo["id"] for photo in photos],
            actor=current_staff()["username"],
            now=local_now(),
        )
    except PhotoExpired as error:
        form.photos.errors = [error.message]
        return _page(form, [], 422)
    except DuplicateSubmission as error:
        # This form was saved already and comes back changed (Back, then Save): that case.
        flash(f"This form was saved already as {error.reference}: nothing new was saved.", "error")
        found = value(get_db(), "SELECT id FROM cases WHERE reference = ?", [error.reference])
        return redirect(url_for("staff.case", case_id=found), code=303)
    if stored.created:
        flash(f"{stored.reference} recorded: a discharge staff found.", "success")
    return redirect(url_for("staff.case", case_id=stored.case_id), code=303)


def _details(form: FindingForm, timezone: Any) -> dict[str, Any]:
    found_at = form.found_at.data.replace(tzinfo=timezone)
    return {
        "indicators": json.dumps(form.indicators.data or []),
        "description": form.description.data,
        "found_at": found_at.isoformat(timespec="minutes"),
        "found_by": form.found_by.data,
        "how_found": form.how_found.data,
        "confirmed_when_found": int(form.confirmed.data == "yes"),
        "recorded_by": current_staff()["username"],
    }


def expired():
    """The form again after a stale CSRF token (a long morning in the field), with what was
    typed kept; photos chosen with it are named, to choose again."""
    form = _form()
    return _page(form, recover(form, expired=True), 400, expired=True)
