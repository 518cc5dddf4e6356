"""One case: everything the person gave, its photos and map, the nearby cases, and the
actions staff take on it."""

from __future__ import annotations

import datetime as dt
from typing import Any

import sqlite_utils
from flask import (
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_wtf import FlaskForm
from wtforms import DateField, HiddenField, SelectField, StringField, TextAreaField
from wtforms.validators import Length, Optional

from portal.accounts.accounts import usernames
from portal.accounts.auth import current_staff
from portal.core import kinds
from portal.core.cases import new_submission_key
from portal.core.clock import local_now, local_stamp, local_today
from portal.core.db import get_db, insert, one, rows, transaction, value
from portal.core.display import day
from portal.core.statuses import STATUSES
from portal.intake.fields import options
from portal.intake.pending import SUBMISSION_KEY, keep_photos
from portal.intake.storage import PhotoExpired, move_pending_photos
from portal.mail.compose import map_link
from portal.staff import village_calls, workflow
from portal.staff.blueprint import bp
from portal.staff.inspections import InspectionForm, inspections_of, new_inspection_form
from portal.staff.queue import distance_m, nearby
from portal.staff.workflow import WorkflowError, describe, log

CONFIRMED_CHOICES = [("no", "Not confirmed"), ("yes", "Confirmed illicit discharge")]


class CaseForm(FlaskForm):
    """The case's one update form: everything staff change on a case, saved together."""

    revision = HiddenField()
    status = SelectField("Status", validate_choice=False)
    referred_agency = SelectField("Referred to (when referring)", validate_choice=False)
    referred_to = StringField("Or another agency", [Optional(), Length(max=200)])
    exempt_reason = SelectField("Which exempt discharge", validate_choice=False)
    duplicate_of = StringField("Duplicate of (reference)", [Optional(), Length(max=20)])
    assignee = SelectField("Assigned to", validate_choice=False)
    confirmed = SelectField("Investigation found", choices=options(CONFIRMED_CHOICES))
    follow_up_on = DateField("Follow up on", [Optional()])
    # Two audiences: the person who sent the case, and everyone.
    public_note = TextAreaField("Note to the person who sent it", [Length(max=2000)])
    public_update = TextAreaField("Public update", [Length(max=2000)])
    note = TextAreaField("Add an internal note (staff only)", [Length(max=4000)])


def get_case(case_id: int) -> dict[str, Any]:
    """The case, or the 404 page."""
    return one(get_db(), "SELECT * FROM cases WHERE id = ?", [case_id]) or abort(404)


def _case_row(db: sqlite_utils.Database, case_id: int | None) -> dict[str, Any] | None:
    """A case by its id (the original a duplicate names), or None."""
    return one(db, "SELECT * FROM cases WHERE id = ?", [case_id]) if case_id else None


def _photos_of(db: sqlite_utils.Database, case_id: int) -> list[dict[str, Any]]:
    return rows(
        db,
        "SELECT id, position, width, height FROM photos WHERE case_id = ? ORDER BY position",
        [case_id],
    )


def case_form(case: dict[str, Any], formdata: Any = None) -> CaseForm:
    """The update form, filled from the case (or from what was posted, kept on an error)."""
    db = get_db()
    content = current_app.extensions["content"]
    agencies = content.settings.referral_agencies
    referred = case["referred_to"] or ""
    original = _case_row(db, case["duplicate_of"])
    data = {
        **case,
        "referred_agency": referred if referred in agencies else "",
        "referred_to": "" if referred in agencies else referred,
        "duplicate_of": original["reference"] if original else "",
        "assignee": case["assignee"] or "",
        "confirmed": "yes" if case["confirmed_illicit"] else "no",
        "follow_up_on": dt.date.fromisoformat(case["follow_up_on"])
        if case["follow_up_on"]
        else None,
        "exempt_reason": case["exempt_reason"] or "",
    }
    form = CaseForm(formdata=formdata, data=data)
    # "Confirmed in writing" only once the mailed letter is on record (workflow refuses it too).
    on_record = kinds.get(case["kind"]).confirmation_on_record
    keys = [
        s
        for s in kinds.statuses_for(case["kind"])
        if s != workflow.CONFIRMED
        or case["status"] == workflow.CONFIRMED
        or on_record(db, case["id"])
    ]
    form.status.choices = options([(s, STATUSES[s].label) for s in keys])
    form.referred_agency.choices = options([("", "Choose an agency")] + [(a, a) for a in agencies])
    # The listed exemptions, then those allowed on conditions (approval in writing, dye testing
    # with notice, a State permit): a screened flow may be any of them.
    exemptions = [(e.name, e.name) for e in content.exempt.entries] + [
        (c.title, f"{c.title} (on its conditions)") for c in content.exempt.conditional
    ]
    form.exempt_reason.choices = options([("", "Choose one"), *exemptions])
    form.assignee.choices = options([("", "Nobody")] + [(n, n) for n in usernames(db)])
    return form


def _changes(form: CaseForm, sent: Any) -> workflow.Changes:
    """What the form asks for; a field not sent at all (a one-button form) is unchanged."""

    def given(name: str) -> Any:
        return getattr(form, name).data if name in sent else None

    referred = None
    if "referred_agency" in sent or "referred_to" in sent:
        referred = (form.referred_to.data or "").strip() or form.referred_agency.data or ""
    follow_up = given("follow_up_on")
    return workflow.Changes(
        status=given("status"),
        referred_to=referred,
        exempt_reason=given("exempt_reason"),
        duplicate_of=given("duplicate_of"),
        assignee=given("assignee"),
        confirmed=(form.confirmed.data == "yes") if "confirmed" in sent else None,
        follow_up_on=(follow_up.isoformat() if follow_up else "")
        if "follow_up_on" in sent
        else None,
        public_note=given("public_note"),
        public_update=given("public_update"),
        note=given("note"),
    )


@bp.route("/cases/<int:case_id>/")
def case(case_id: int):
    found = get_case(case_id)
    return render_case_page(found, case_form(found))


def render_case_page(
    case: dict[str, Any],
    form: CaseForm,
    conflict: tuple[workflow.Conflict, CaseForm] | None = None,
    inspection_form: FlaskForm | None = None,
    status: int = 200,
    kept_visit_photos: list[dict[str, Any]] | None = None,
    **triage_forms: Any,
) -> tuple[str, int]:
    """The case page: its record, photos, map, site visits, the update form, the log."""
    db = get_db()
    case_id = case["id"]
    kind = kinds.get(case["kind"])
    details = one(db, f"SELECT * FROM {kind.table} WHERE case_id = ?", [case_id])
    photos = _photos_of(db, case_id)
    events = rows(db, "SELECT * FROM events WHERE case_id = ? ORDER BY id DESC", [case_id])
    notes = rows(db, "SELECT * FROM notes WHERE case_id = ? ORDER BY id DESC", [case_id])
    original = _case_row(db, case["duplicate_of"])
    duplicates = rows(db, "SELECT id, reference FROM cases WHERE duplicate_of = ?", [case_id])
    page = render_template(
        "staff/case.html",
        # The hazard as the officer's flag leaves it, its calls: over the kind's own.
        **{
            **kind.staff_context(db, case, details),
            **village_calls.context(db, case, details, **triage_forms),
        },
        case=case,
        kind=kind,
        details=details,
        photos=photos,
        events=[(event, describe(event)) for event in events],
        notes=notes,
        nearby=nearby(db, case),
        original=original,
        duplicates=duplicates,
        form=form,
        conflict=conflict,
        inspections=inspections_of(db, case_id),
        inspection_form=inspection_form or new_inspection_form(),
        kept_visit_photos=kept_visit_photos or [],
    )
    return page, status


@bp.route("/cases/<int:case_id>/", methods=["POST"])
def update(case_id: int):
    """Save the case form: everything in it at once, or nothing (an error, a conflict)."""
    case = get_case(case_id)
    form = case_form(case, request.form)
    if not form.validate():
        return render_case_page(case, form, status=422)
    try:
        revision = int(form.revision.data or "")
    except ValueError:
        abort(400)
    try:
        saved = workflow.save(get_db(), case_id, _actor(), _changes(form, request.form), revision)
    except workflow.Conflict as conflict:
        # Shown with what was posted kept, on the revision now stored: a second save is a
        # deliberate choice to replace the other officer's version.
        form.revision.data = str(conflict.case["revision"])
        theirs = case_form(conflict.case)
        return render_case_page(conflict.case, form, conflict=(conflict, theirs), status=409)
    except WorkflowError as error:
        getattr(form, error.field).errors = [str(error)]
        return render_case_page(case, form, status=422)
    flash(_saved_message(saved), "success")
    follow_up = form.follow_up_on.data
    if "follow_up_on" in saved.changed and follow_up and follow_up < local_today():
        # Kept as given (a date can be set late on purpose), but never silently.
        flash(
            f"The follow-up date, {day(follow_up)}, has already passed: the case shows"
            " as overdue in the queue and in the next morning digest.",
            "error",
        )
    return redirect(url_for("staff.case", case_id=case_id), code=303)


@bp.route("/cases/<int:case_id>/duplicate")
def confirm_duplicate(case_id: int):
    """The step before marking a case a duplicate of another (`?of=` its reference): both
    cases side by side, what the reporter will be told, then one button (no script needed)."""
    db = get_db()
    case = get_case(case_id)
    reference = request.args.get("of", "").strip().upper()[:20]
    other_id = value(db, "SELECT id FROM cases WHERE reference = ?", [reference])
    if not kinds.get(case["kind"]).duplicates or other_id is None:
        abort(404)
    problem = None
    try:
        workflow.original_of(db, case, reference)
    except WorkflowError as error:
        problem = str(error)
    pair = []
    for each in (case, get_case(other_id)):
        table = kinds.get(each["kind"]).table
        pair.append((each, one(db, f"SELECT * FROM {table} WHERE case_id = ?", [each["id"]])))
    distance = None
    if case["latitude"] is not None and pair[1][0]["latitude"] is not None:
        other = pair[1][0]
        distance = distance_m(
            case["latitude"], case["longitude"], other["latitude"], other["longitude"]
        )
    page = render_template(
        "staff/confirm_duplicate.html", case=case, pair=pair, distance=distance, problem=problem
    )
    return page, 409 if problem else 200


def _saved_message(saved: workflow.Saved) -> str:
    if not saved.changed:
        return "Nothing changed, so nothing was saved."
    told = []
    if saved.mailed_person:
        told.append("the person who sent it was e-mailed")
    if saved.mailed_assignee:
        told.append("the assignee was e-mailed")
    if saved.duplicates_told:
        many = saved.duplicates_told > 1
        told.append(
            f"the reporter{'s' * many} of {saved.duplicates_told} duplicate{'s' * many}"
            f" {'were' if many else 'was'} e-mailed"
        )
    return "Saved." + (f" {' and '.join(told).capitalize()}." if told else "")


def _actor() -> str:
    return current_staff()["username"]


@bp.route("/photos/<int:photo_id>")
def photo(photo_id: int):
    return photo_response("photos", photo_id, "photo")


def photo_response(table: str, photo_id: int, name: str) -> Response:
    """One stored photo (staff only: served under /staff/), or the 404 page."""
    row = one(get_db(), f"SELECT data, content_type FROM {table} WHERE id = ?", [photo_id])
    if row is None:
        abort(404)
    response = current_app.response_class(row["data"], mimetype=row["content_type"])
    response.headers["Content-Disposition"] = f"inline; filename={name}-{photo_id}.jpg"
    return response


@bp.route("/cases/<int:case_id>/print")
def case_print(case_id: int):
    """The case on one or two Letter pages: facts, place, photos small, the timeline."""
    db = get_db()
    case = get_case(case_id)
    kind = kinds.get(case["kind"])
    details = one(db, f"SELECT * FROM {kind.table} WHERE case_id = ?", [case_id])
    photos = _photos_of(db, case_id)
    events = rows(db, "SELECT * FROM events WHERE case_id = ? ORDER BY id", [case_id])
    return render_template(
        "staff/case_print.html",
        **{**kind.staff_context(db, case, details), **village_calls.context(db, case, details)},
        case=case,
        kind=kind,
        details=details,
        printed=local_now(),
        original=_case_row(db, case["duplicate_of"]),
        duplicates=rows(db, "SELECT reference FROM cases WHERE duplicate_of = ?", [case_id]),
        photos=photos,
        inspections=inspections_of(db, case_id),
        notes=rows(db, "SELECT * FROM notes WHERE case_id = ? ORDER BY id", [case_id]),
        events=[(event, describe(event)) for event in events],
        map_link=map_link(case),
    )


VISIT_PHOTOS_GONE = (
    "Nothing was saved from this send: its photos were no longer waiting, most likely"
    " because the form was sent twice and the first send recorded the visit with them."
    " Check the site visits below before recording it again."
)


@bp.route("/cases/<int:case_id>/inspections", methods=["POST"])
def add_inspection(case_id: int):
    case = get_case(case_id)
    form = InspectionForm()
    if not SUBMISSION_KEY.match(form.visit_key.data or ""):
        form.visit_key.data = new_submission_key()
    valid = form.validate()
    photos, errors = keep_photos(form, form.visit_key.data)  # at most MAX_PHOTOS
    if not valid or errors:
        form.photos.errors = [*form.photos.errors, *errors]
        form.kept_photos.data = ",".join(photo["id"] for photo in photos)
        return render_case_page(
            case, case_form(case), inspection_form=form, kept_visit_photos=photos, status=422
        )
    actor = current_staff()["username"]
    db = get_db()
    try:
        visit = _store_visit(db, case_id, form, [photo["id"] for photo in photos], actor)
    except PhotoExpired:
        # Sent twice (a double click, a resend after a lost answer): the first send took
        # the kept photos, so this one stores nothing and says so instead of failing.
        form.photos.errors = [*form.photos.errors, VISIT_PHOTOS_GONE]
        form.kept_photos.data = ""
        return render_case_page(case, case_form(case), inspection_form=form, status=409)
    flash("Site visit recorded.", "success")
    # `recorded`: the page tells the browser to forget the draft it kept of this form.
    target = url_for("staff.case", case_id=case_id, recorded=visit, _anchor="inspections")
    return redirect(target, code=303)


def _store_visit(
    db: sqlite_utils.Database, case_id: int, form: InspectionForm, photo_ids: list[str], actor: str
) -> int:
    """The visit, its photos and its log entry in one transaction; PhotoExpired (nothing
    stored) if a kept photo is no longer waiting."""
    with transaction(db):
        visit = insert(
            db,
            "inspections",
            {
                "case_id": case_id,
                "visited_at": form.visited_at.data.isoformat(timespec="minutes"),
                "inspector": form.inspector.data.strip(),
                "findings": form.findings.data.strip(),
                "sampled": int(form.sampled.data == "yes"),
                "lab_reference": (form.lab_reference.data or "").strip() or None,
                "recorded_at": local_stamp(),
                "recorded_by": actor,
            },
        )
        move_pending_photos(
            db, "inspection_photos", "inspection_id", visit, photo_ids, form.visit_key.data
        )
        log(db, case_id, actor, "inspection", inspection=visit, photos=len(photo_ids))
    return visit
