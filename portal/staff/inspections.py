"""Site visits: an officer records when, who, what was found, whether a sample went to a lab,
and photos taken on site (checked and cleaned like the public form's). Staff only: the
photos are served under /staff/, never on a public page.

The form comes filled with now and the signed-in officer. A refused save shows it again
with what was typed and the photos already checked, kept on the server as the public
forms keep theirs (pending photos, by the form's key), so nothing is chosen twice."""

from __future__ import annotations

from typing import Any

import sqlite_utils
from flask import abort, current_app, flash, redirect, url_for
from flask_wtf import FlaskForm
from wtforms import (
    DateTimeLocalField,
    HiddenField,
    MultipleFileField,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.validators import DataRequired, InputRequired, Length, Optional

from portal.core.clock import local_now, local_stamp
from portal.core.db import get_db, insert, transaction
from portal.intake.fields import options
from portal.intake.pending import SUBMISSION_KEY, keep_photos
from portal.intake.storage import new_submission_key
from portal.staff import bp
from portal.staff.auth import current_staff
from portal.staff.workflow import log


class InspectionForm(FlaskForm):
    visited_at = DateTimeLocalField(
        "Date and time of the visit",
        [InputRequired("Enter when the visit was.")],
        format=["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S"],
    )
    inspector = StringField("Who visited", [DataRequired("Say who visited."), Length(max=200)])
    findings = TextAreaField(
        "What was found", [DataRequired("Describe what was found."), Length(max=4000)]
    )
    sampled = SelectField(
        "Sample taken", choices=options([("no", "No"), ("yes", "Yes")]), default="no"
    )
    lab_reference = StringField("Lab reference", [Optional(), Length(max=100)])
    photos = MultipleFileField("Photos taken on site")
    # The form's key, and the photos checked on an earlier try (pending photos under it).
    visit_key = HiddenField()
    kept_photos = HiddenField()

    def validate(self, extra_validators=None) -> bool:
        valid = super().validate(extra_validators)
        if self.sampled.data == "yes" and not (self.lab_reference.data or "").strip():
            self.lab_reference.errors = ["Give the lab's reference for the sample."]
            valid = False
        if self.visited_at.data and self.visited_at.data > local_now().replace(tzinfo=None):
            self.visited_at.errors = ["The visit cannot be in the future."]
            valid = False
        return valid


def inspections_of(db: sqlite_utils.Database, case_id: int) -> list[dict[str, Any]]:
    """A case's site visits, latest first, each with its photos' ids and sizes."""
    visits = list(
        db["inspections"].rows_where("case_id = ?", [case_id], order_by="visited_at desc")
    )
    for visit in visits:
        visit["photos"] = list(db["inspection_photos"].rows_where(
            "inspection_id = ?", [visit["id"]], order_by="position",
            select="id, position, width, height"))  # fmt: skip
    return visits


def new_inspection_form() -> InspectionForm:
    """An empty form for a visit: now, the signed-in officer, and a key for its photos."""
    return InspectionForm(formdata=None, data={
        "visited_at": local_now().replace(tzinfo=None, second=0),
        "inspector": current_staff()["username"], "visit_key": new_submission_key(),
    })  # fmt: skip


@bp.route("/cases/<int:case_id>/inspections", methods=["POST"])
def add_inspection(case_id: int):
    from portal.staff.cases import _case_page, case_form, get_case

    case = get_case(case_id)
    form = InspectionForm()
    if not SUBMISSION_KEY.match(form.visit_key.data or ""):
        form.visit_key.data = new_submission_key()
    valid = form.validate()
    photos, errors = keep_photos(form, form.visit_key.data)  # at most MAX_PHOTOS
    if not valid or errors:
        form.photos.errors = [*form.photos.errors, *errors]
        form.kept_photos.data = ",".join(photo["id"] for photo in photos)
        return _case_page(
            case, case_form(case), inspection_form=form, kept_visit_photos=photos, status=422
        )
    actor = current_staff()["username"]
    db = get_db()
    with transaction(db):
        visit = insert(db, "inspections", {
            "case_id": case_id, "visited_at": form.visited_at.data.isoformat(timespec="minutes"),
            "inspector": form.inspector.data.strip(), "findings": form.findings.data.strip(),
            "sampled": int(form.sampled.data == "yes"),
            "lab_reference": (form.lab_reference.data or "").strip() or None,
            "recorded_at": local_stamp(), "recorded_by": actor,
        })  # fmt: skip
        for position, photo in enumerate(photos, start=1):
            # The checked photo moves from the pending table to the visit's, in one go.
            db.execute(
                "INSERT INTO inspection_photos (inspection_id, position, content_type, width,"
                " height, sha256, data) SELECT ?, ?, content_type, width, height, sha256, data"
                " FROM pending_photos WHERE id = ?",
                [visit, position, photo["id"]],
            )
            db.execute("DELETE FROM pending_photos WHERE id = ?", [photo["id"]])
        log(db, case_id, actor, "inspection", inspection=visit, photos=len(photos))
    flash("Site visit recorded.", "success")
    # `recorded`: the page tells the browser to forget the draft it kept of this form.
    target = url_for("staff.case", case_id=case_id, recorded=visit, _anchor="inspections")
    return redirect(target, code=303)


@bp.route("/inspection-photos/<int:photo_id>")
def inspection_photo(photo_id: int):
    row = get_db().execute(
        "SELECT data, content_type FROM inspection_photos WHERE id = ?", [photo_id]
    ).fetchone() or abort(404)
    response = current_app.response_class(row[0], mimetype=row[1])
    response.headers["Content-Disposition"] = f"inline; filename=inspection-{photo_id}.jpg"
    return response
