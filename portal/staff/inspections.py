"""Site visits: an officer records when, who, what was found, whether a sample went to a lab,
and photos taken on site (checked and cleaned like the public form's). Staff only: the
photos are served under /staff/, never on a public page.

The form comes filled with now and the signed-in officer. A refused save shows it again
with what was typed and the photos already checked, kept on the server as the public
forms keep theirs (pending photos, by the form's key), so nothing is chosen twice."""

from __future__ import annotations

from typing import Any

import sqlite_utils
from flask import abort, current_app
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

from portal.accounts.auth import current_staff
from portal.core.cases import new_submission_key
from portal.core.clock import local_now
from portal.core.db import get_db, one, rows
from portal.intake.fields import options
from portal.staff.blueprint import bp


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
    visits = rows(
        db, "SELECT * FROM inspections WHERE case_id = ? ORDER BY visited_at DESC", [case_id]
    )
    for visit in visits:
        visit["photos"] = rows(
            db,
            "SELECT id, position, width, height FROM inspection_photos"
            " WHERE inspection_id = ? ORDER BY position",
            [visit["id"]],
        )
    return visits


def new_inspection_form() -> InspectionForm:
    """An empty form for a visit: now, the signed-in officer, and a key for its photos."""
    return InspectionForm(
        formdata=None,
        data={
            "visited_at": local_now().replace(tzinfo=None, second=0),
            "inspector": current_staff()["username"],
            "visit_key": new_submission_key(),
        },
    )


@bp.route("/inspection-photos/<int:photo_id>")
def inspection_photo(photo_id: int):
    row = one(get_db(), "SELECT data, content_type FROM inspection_photos WHERE id = ?", [photo_id])
    if row is None:
        abort(404)
    response = current_app.response_class(row["data"], mimetype=row["content_type"])
    response.headers["Content-Disposition"] = f"inline; filename=inspection-{photo_id}.jpg"
    return response
