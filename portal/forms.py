"""The portal's forms, with every message a person may see."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from flask_wtf import FlaskForm
from wtforms import (
    DateTimeLocalField,
    Field,
    HiddenField,
    MultipleFileField,
    RadioField,
    SelectField,
    SelectMultipleField,
    StringField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length, Optional, ValidationError
from wtforms.widgets import CheckboxInput, ListWidget

from portal.validators import (
    coordinate,
    email_address,
    not_in_future,
    phone_number,
    printable_text,
)

INDICATORS = [
    ("sheen", "Oily sheen or rainbow film"),
    ("suds", "Suds or foam"),
    ("color", "Unusual color"),
    ("odor", "A smell"),
    ("cloudy", "Cloudy or murky water"),
    ("trash", "Trash or debris"),
    ("dead-animals", "Dead fish or animals"),
    ("dumping", "Someone dumping or washing something into a drain"),
    ("dry-weather-flow", "A pipe flowing when it has not rained"),
]
ODORS = [
    ("", "Choose a smell"),
    ("sewage", "Sewage"),
    ("petroleum", "Gasoline or oil"),
    ("chemical", "Chemical"),
    ("rotten-egg", "Rotten egg"),
    ("other", "Something else"),
]
LOCATION_TYPES = [
    ("storm-drain", "Storm drain or catch basin"),
    ("ditch", "Roadside ditch"),
    ("stream", "Creek or stream"),
    ("outfall", "Pipe outfall"),
    ("street", "Street or parking lot"),
    ("other", "Somewhere else"),
]
YES_NO_UNSURE = [("yes", "Yes"), ("no", "No"), ("unsure", "Not sure")]
DESCRIPTION_LIMIT = 4000
MAX_PHOTOS = 3
DATETIME_FORMAT = "%Y-%m-%dT%H:%M"


def options(pairs: list[tuple[str, str]]) -> list[SelectChoice]:
    return [SelectChoice(value, label) for value, label in pairs]


class CheckboxesField(SelectMultipleField):
    """A group of checkboxes (any number may be ticked)."""

    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()

    def pre_validate(self, form: object) -> None:
        # A tampered value is a malformed request, said plainly rather than with a 500.
        allowed = {value for value, *_ in self.choices}
        if any(value not in allowed for value in self.data or []):
            raise ValidationError("Choose from the options shown.")


class LenientRadioField(RadioField):
    """A radio group that may be left unanswered."""

    def pre_validate(self, form: object) -> None:
        if self.data in (None, "", "None"):
            self.data = None
            return
        if self.data not in {value for value, *_ in self.choices}:
            raise ValidationError("Choose one of the options shown.")


def text(label: str, limit: int, *validators: Callable, **kwargs) -> StringField:
    return StringField(
        label,
        validators=[*validators, Length(max=limit, message=_too_long(limit)), printable_text],
        filters=[_strip],
        **kwargs,
    )


def long_text(label: str, limit: int, *validators: Callable, **kwargs) -> TextAreaField:
    return TextAreaField(
        label,
        validators=[*validators, Length(max=limit, message=_too_long(limit)), printable_text],
        filters=[_strip],
        **kwargs,
    )


def _strip(value: str | None) -> str | None:
    return value.strip() if isinstance(value, str) else value


def _too_long(limit: int) -> str:
    return f"Keep this to {limit:,} characters or fewer."


class ReportForm(FlaskForm):
    """A resident's report of an illicit discharge."""

    # Set when the form is first shown; the same key twice is the same report.
    submission_key = HiddenField()
    # A field people never see; software that fills every field gives itself away.
    nickname = StringField("Leave this field empty")

    indicators = CheckboxesField("What did you see?", choices=options(INDICATORS))
    color = text("Which color?", 60)
    odor = SelectField("What did it smell like?", choices=options(ODORS), validate_choice=False)
    description = long_text(
        "Describe what you saw",
        DESCRIPTION_LIMIT,
        DataRequired("Describe what you saw, in a few words or more."),
    )

    latitude = StringField("Latitude", filters=[_strip])
    longitude = StringField("Longitude", filters=[_strip])
    address = text("Street address or landmark", 300)
    location_type = LenientRadioField("Where is it?", choices=options(LOCATION_TYPES))

    observed_at = DateTimeLocalField(
        "When did you first notice it?",
        format=DATETIME_FORMAT,
        validators=[DataRequired("Enter the date and time, like 2026-05-14 09:30.")],
    )
    still_happening = LenientRadioField("Is it still happening?", choices=options(YES_NO_UNSURE))
    happened_before = LenientRadioField(
        "Have you seen it happen before?", choices=options(YES_NO_UNSURE)
    )

    source_description = text("Business or property", 300)
    source_vehicle = text("Vehicle and license plate", 120)
    source_notes = long_text("What did you see them do?", 2000)

    photos = MultipleFileField("Photos")
    kept_photos = HiddenField()

    contact_name = text("Your name", 120)
    contact_email = text("E-mail address", 254, email_address)
    contact_phone = text("Phone number", 40, phone_number)

    def __init__(self, *args, clock: Callable[[], dt.datetime], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.latitude.validators = [
            Length(max=30, message=_too_long(30)),
            coordinate(-90, 90, "latitude"),
        ]
        self.longitude.validators = [
            Length(max=30, message=_too_long(30)),
            coordinate(-180, 180, "longitude"),
        ]
        self.observed_at.validators = [*self.observed_at.validators, not_in_future(clock)]
        self.odor.validators = [Optional()]

    def validate(self, extra_validators=None) -> bool:
        valid = super().validate(extra_validators)
        lat, lon = self.latitude, self.longitude
        if not (lat.errors or lon.errors) and (lat.data is None) != (lon.data is None):
            missing = lon if lon.data is None else lat
            missing.errors.append(f"Give the {missing.name} too, or clear both coordinates.")
            valid = False
        return valid

    def validate_address(self, field: Field) -> None:
        lat, lon = self.latitude, self.longitude
        no_point = lat.data is None or lon.data is None
        if not field.data and no_point and not (lat.errors or lon.errors):
            raise ValidationError(
                "Tell us where: type an address or landmark, or use your location."
            )

    def validate_odor(self, field: Field) -> None:
        if field.data and field.data not in {value for value, _ in ODORS}:
            raise ValidationError("Choose a smell from the list.")


# Labels for stored values, for pages and mail that show a report.
CHOICE_LABELS = {
    "indicators": dict(INDICATORS),
    "odor": dict(ODORS),
    "location_type": dict(LOCATION_TYPES),
    "yes_no": dict(YES_NO_UNSURE),
}


def field_attrs(field: Field, hint: bool = False, **extra: Any) -> dict[str, Any]:
    """HTML attributes tying an input to its hint and error text for screen readers."""
    described = [f"{field.id}-hint"] if hint else []
    if field.errors:
        described.append(f"{field.id}-error")
        extra["aria-invalid"] = "true"
    if described:
        extra["aria-describedby"] = " ".join(described)
    return extra
