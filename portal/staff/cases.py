"""One case: everything the person gave, its photos and map, the nearby cases, and the
actions staff take on it."""

from __future__ import annotations

import json
from typing import Any

from flask import abort, current_app, flash, redirect, render_template, request, url_for
from flask_wtf import FlaskForm
from wtforms import BooleanField, SelectField, StringField, TextAreaField
from wtforms.validators import DataRequired, Length, Optional

from portal.db import get_db
from portal.notification.records import online_filing as _online
from portal.notification.records import record, stored_deadlines
from portal.staff import bp, workflow
from portal.staff.accounts import usernames
from portal.staff.auth import current_staff
from portal.staff.queue import nearby
from portal.staff.workflow import WorkflowError, describe
from portal.statuses import STATUSES, statuses_for


class StatusForm(FlaskForm):
    status = SelectField("Status", validate_choice=False)
    referred_to = StringField("Referred to", [Optional(), Length(max=200)])
    exempt_reason = SelectField("Which exempt discharge", validate_choice=False)
    duplicate_of = StringField("Duplicate of (reference)", [Optional(), Length(max=20)])


class AssignForm(FlaskForm):
    assignee = SelectField("Assigned to", validate_choice=False)


class NoteForm(FlaskForm):
    body = TextAreaField(
        "Internal note (staff only)", [DataRequired("Write the note."), Length(max=4000)]
    )


class PublicNoteForm(FlaskForm):
    public_note = TextAreaField("Public note (shown on the status page)", [Length(max=2000)])


class ConfirmedForm(FlaskForm):
    confirmed = BooleanField("Investigation confirmed an illicit discharge")


def get_case(case_id: int) -> dict[str, Any]:
    """The case, or the 404 page."""
    rows = list(get_db()["cases"].rows_where("id = ?", [case_id]))
    return rows[0] if rows else abort(404)


def _forms(case: dict[str, Any]) -> dict[str, FlaskForm]:
    content = current_app.extensions["content"]
    status = StatusForm(formdata=None, data=case)
    status.status.choices = [(s, STATUSES[s].label) for s in statuses_for(case["kind"])]
    status.exempt_reason.choices = [("", "Choose one")] + [
        (e.name, e.name) for e in content.exempt.entries
    ]
    assign = AssignForm(formdata=None, data={"assignee": case["assignee"] or ""})
    assign.assignee.choices = [("", "Nobody")] + [(n, n) for n in usernames(get_db())]
    return {
        "status": status,
        "assign": assign,
        "note": NoteForm(formdata=None),
        "public": PublicNoteForm(formdata=None, data=case),
        "confirmed": ConfirmedForm(
            formdata=None, data={"confirmed": bool(case["confirmed_illicit"])}
        ),
    }


@bp.route("/cases/<int:case_id>/")
def case(case_id: int):
    db = get_db()
    case = get_case(case_id)
    details_table = "reports" if case["kind"] == "report" else "notifications"
    details = db[details_table].get(case_id)
    sections = record(case, details) if case["kind"] == "notification" else None
    notification = case["kind"] == "notification"
    deadlines = stored_deadlines(case, details, _online()) if notification else None
    photos = list(db["photos"].rows_where("case_id = ?", [case_id], order_by="position",
                                          select="id, position, width, height"))  # fmt: skip
    events = list(db["events"].rows_where("case_id = ?", [case_id], order_by="id desc"))
    notes = list(db["notes"].rows_where("case_id = ?", [case_id], order_by="id desc"))
    original = db["cases"].get(case["duplicate_of"]) if case["duplicate_of"] else None
    duplicates = list(db["cases"].rows_where("duplicate_of = ?", [case_id], select="id, reference"))
    # Spoken notices this filing may confirm in writing: same facility name, still waiting.
    spoken = []
    if case["kind"] == "notification":
        waiting = "confirmed_by IS NULL AND confirmation_due IS NOT NULL"
        spoken = list(db["phone_notices"].rows_where(
            f"{waiting} AND lower(facility_name) = lower(?)", [details["facility_name"]],
            select="id, told_at, how, caller_name"))  # fmt: skip
    return render_template(
        "staff/case.html",
        case=case,
        details=details,
        indicators=json.loads(details["indicators"]) if case["kind"] == "report" else [],
        sections=sections,
        deadlines=deadlines,
        photos=photos,
        events=[(event, describe(event)) for event in events],
        notes=notes,
        nearby=nearby(db, case),
        original=original,
        duplicates=duplicates,
        spoken=spoken,
        forms=_forms(case),
        agencies=current_app.extensions["content"].settings.referral_agencies,
    )


def _act(case_id: int, form: FlaskForm, action) -> Any:
    """Validate a small action form, do it, and go back to the case with a message."""
    get_case(case_id)
    if form.validate():
        try:
            action(form)
        except WorkflowError as error:
            flash(str(error), "error")
        else:
            flash("Saved.", "success")
    else:
        for errors in form.errors.values():
            for message in errors:
                flash(message, "error")
    return redirect(url_for("staff.case", case_id=case_id), code=303)


def _actor() -> str:
    return current_staff()["username"]


@bp.route("/cases/<int:case_id>/status", methods=["POST"])
def set_status(case_id: int):
    def action(form: StatusForm) -> None:
        referred = form.referred_to.data or request.form.get("referred_agency") or None
        workflow.change_status(
            get_db(), case_id, _actor(), form.status.data,
            referred_to=referred, exempt_reason=form.exempt_reason.data or None,
            duplicate_of=form.duplicate_of.data or None,
        )  # fmt: skip

    return _act(case_id, StatusForm(), action)


@bp.route("/cases/<int:case_id>/assign", methods=["POST"])
def assign(case_id: int):
    def action(form: AssignForm) -> None:
        name = form.assignee.data or None
        if name and name not in usernames(get_db()):
            raise WorkflowError("Choose a staff member from the list.")
        workflow.assign(get_db(), case_id, _actor(), name)

    return _act(case_id, AssignForm(), action)


@bp.route("/cases/<int:case_id>/notes", methods=["POST"])
def add_note(case_id: int):
    return _act(
        case_id, NoteForm(), lambda f: workflow.add_note(get_db(), case_id, _actor(), f.body.data)
    )


@bp.route("/cases/<int:case_id>/public-note", methods=["POST"])
def public_note(case_id: int):
    return _act(
        case_id,
        PublicNoteForm(),
        lambda f: workflow.set_public_note(get_db(), case_id, _actor(), f.public_note.data),
    )


@bp.route("/cases/<int:case_id>/confirmed", methods=["POST"])
def confirmed(case_id: int):
    return _act(
        case_id,
        ConfirmedForm(),
        lambda f: workflow.set_confirmed(get_db(), case_id, _actor(), f.confirmed.data),
    )


@bp.route("/photos/<int:photo_id>")
def photo(photo_id: int):
    row = get_db().execute(
        "SELECT data, content_type FROM photos WHERE id = ?", [photo_id]
    ).fetchone() or abort(404)
    response = current_app.response_class(row[0], mimetype=row[1])
    response.headers["Content-Disposition"] = f"inline; filename=photo-{photo_id}.jpg"
    return response
