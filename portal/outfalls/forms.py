"""The staff forms of the inventory: one structure, its photos, and a file to import."""

from __future__ import annotations

from typing import Any

from flask import current_app
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    FileField,
    HiddenField,
    MultipleFileField,
    SelectField,
    StringField,
)
from wtforms.validators import Length, Optional, ValidationError

from portal.core.clock import local_today
from portal.core.display import date_words
from portal.enforcement.forms import day
from portal.intake.fields import coordinate_field, long_text, options, text
from portal.outfalls import checking
from portal.outfalls.choices import OTHER, labels

MAX_IMPORT_BYTES = 20 * 1024 * 1024


def _choices(field: str, blank: str | None = "Not recorded") -> list:
    pairs = list(labels(field).items())
    return options(([("", blank)] if blank else []) + pairs)


def _size(form: object, field: Any) -> None:
    """A size in inches: 24, 24 in, 600 mm (see checking.parse_size), or empty."""
    value = (field.data or "").strip()
    field.data = value or None
    if not value:
        return
    try:
        inches, second = checking.parse_size(value)
    except ValueError:
        raise ValidationError("Enter the size in inches, like 24 (or 600 mm).") from None
    if second is not None:
        raise ValidationError("Enter one number here; the height has its own box.")
    field.data = inches


def _not_future(form: object, field: Any) -> None:
    if field.data is not None and field.data > local_today():
        raise ValidationError("Enter a day that has passed (today at the latest).")


class OutfallForm(FlaskForm):
    """One structure of the inventory, as staff add or edit it."""

    code = text("Id", 40, required="Enter the id your inventory uses, like OF-012.")
    structure_type = SelectField("Kind of structure", choices=_choices("structure_type", None))
    structure_type_other = text("Other kind, in words", checking.MAX_OTHER)
    latitude = coordinate_field("Latitude", -90, 90)
    longitude = coordinate_field("Longitude", -180, 180)
    location = text("Where it is", 2000)
    owner = text("Owner", 2000)
    conveyance = SelectField("Conveyance", choices=_choices("conveyance"))
    conveyance_other = text("Other conveyance, in words", checking.MAX_OTHER)
    material = SelectField("Material", choices=_choices("material"))
    material_other = text("Other material, in words", checking.MAX_OTHER)
    shape = SelectField("Shape", choices=_choices("shape"))
    shape_other = text("Other shape, in words", checking.MAX_OTHER)
    size_in = StringField("Diameter or width (inches)", [Length(max=30), _size])
    height_in = StringField("Height (inches)", [Length(max=30), _size])
    receiving_water = text("Receiving water", 2000)
    impaired_water = SelectField(
        "Impaired or priority receiving water",
        choices=options([("", "Not recorded"), ("yes", "Yes"), ("no", "No")]),
        default="",
    )
    drainage_area = text("Sewershed or drainage area", 2000)
    condition = SelectField("Condition", choices=_choices("condition"))
    condition_other = text("Other condition, in words", checking.MAX_OTHER)
    notes = long_text("Notes", 2000)
    inventoried_on = day("In the inventory since")

    def validate_inventoried_on(self, field: Any) -> None:
        _not_future(self, field)

    def validate(self, extra_validators=None) -> bool:
        valid = super().validate(extra_validators)
        for name in ("latitude", "longitude"):
            field = getattr(self, name)
            if field.data is None and not field.errors:
                field.errors = [f"Enter the {name} (in degrees, like the map shows it)."]
                valid = False
        # Words are kept for "other" only: typed beside a known value, they would be lost.
        for name, column in OTHER.items():
            words = getattr(self, column)
            if words.data and getattr(self, name).data != "other" and not words.errors:
                other = labels(name)["other"]
                words.errors = [f"Choose “{other}” above to keep these words, or clear them."]
                valid = False
        # The place the import would refuse, the edit form refuses too (a
        # latitude of 42.30 was once saved by hand).
        lat, lon = self.latitude.data, self.longitude.data
        if valid and lat is not None and lon is not None:
            area = current_app.extensions["content"].settings.service_area
            if not area.contains(lat, lon):
                self.latitude.errors = [area.outside(lat, lon) + "."]
                valid = False
        return valid

    def values(self) -> dict[str, Any]:
        """What to store: every field, empty ones as None."""
        values = {
            name: (getattr(self, name).data or None) for name in ("code", *checking.STORED_FIELDS)
        }
        if values["inventoried_on"] is not None:
            values["inventoried_on"] = values["inventoried_on"].isoformat()
        return values


class PhotosForm(FlaskForm):
    photos = MultipleFileField("Photos of the structure")
    # keep_photos() reads these two; an edit page keeps no photos between tries.
    kept_photos = HiddenField()


class RetireForm(FlaskForm):
    """Take a structure out of service: the day and why (removed, replaced, found not ours)."""

    retired_on = day("Retired on", "Enter the day it went out of service.")
    retired_reason = text(
        "Why",
        500,
        required='Say why, like "pipe removed in the 2026'
        ' road work" or "not ours: a private drain".',
    )
    # Never part of the system (a private drain, a typing slip): retired from the first day it
    # counted, so it leaves every period's figures, not only those after a day.
    in_error = BooleanField(
        "Entered in error: it was never part of the system (it leaves the"
        " figures of every period; no day needed)"
    )

    def validate(self, extra_validators: Any = None) -> bool:
        if self.in_error.data:
            self.retired_on.validators = [Optional()]
        return super().validate(extra_validators)

    def validate_retired_on(self, field: Any) -> None:
        if field.data:
            _not_future(self, field)


class PaperDayForm(FlaskForm):
    """A screening day on paper, added or corrected by hand."""

    screened_on = day("Screened on (on paper)", "Enter the day it was screened.")

    def validate_screened_on(self, field: Any) -> None:
        _not_future(self, field)
        # The sheet's own earliest day (content/outfalls.yaml, earliest_screening): a paper
        # day of 1901 is a slip of the keys here too.
        earliest = current_app.extensions["outfalls"].earliest_screening
        if field.data and field.data < earliest:
            raise ValidationError(
                f"A screening cannot be before {date_words(earliest)}"
                " (the earliest day the sheet takes): check the year."
            )


class ImportForm(FlaskForm):
    file = FileField("Inventory file")
    check_only = BooleanField("Only check the file: change nothing")
    beside = BooleanField(
        "Add new ids beside a stored structure (a new structure a few metres"
        " from one stored under another id)"
    )

    def validate_file(self, field: Any) -> None:
        upload = field.data
        if not upload or not getattr(upload, "filename", ""):
            raise ValidationError(
                "Choose a file: GeoJSON, CSV with latitude and longitude, or a zipped shapefile."
            )
