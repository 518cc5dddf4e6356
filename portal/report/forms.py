"""The resident's report form, and what every public form shares."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from flask_wtf import FlaskForm
from wtforms import Field, HiddenField, MultipleFileField, SelectField, StringField
from wtforms.validators import Optional, ValidationError

from portal.intake.fields import (
    YES_NO_UNSURE,
    CheckboxesField,
    choice,
    coordinate_field,
    long_text,
    moment,
    options,
    text,
)
from portal.intake.validators import email_address, phone_number

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
DESCRIPTION_LIMIT = 4000
MAX_PHOTOS = 3


class PublicForm(FlaskForm):
    """What every public form has: a submission key, a honeypot, a map point and photos."""

    # Set when the form is first shown; the same key twice is the same submission.
    submission_key = HiddenField()
    # A field people never see; software that fills every field gives itself away.
    nickname = StringField("Leave this field empty")
    latitude = coordinate_field("Latitude", -90, 90)
    longitude = coordinate_field("Longitude", -180, 180)
    photos = MultipleFileField("Photos")
    kept_photos = HiddenField()

    def __init__(self, *args, clock: Callable[[], dt.datetime], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.clock = clock

    @property
    def has_point(self) -> bool:
        return self.latitude.data is not None and self.longitude.data is not None

    def validate(self, extra_validators=None) -> bool:
        valid = super().validate(extra_validators)
        lat, lon = self.latitude, self.longitude
        if not (lat.errors or lon.errors) and (lat.data is None) != (lon.data is None):
            missing = lon if lon.data is None else lat
            missing.errors.append(f"Give the {missing.name} too, or clear both coordinates.")
            valid = False
        return valid


class ReportForm(PublicForm):
    """A resident's report of an illicit discharge."""

    indicators = CheckboxesField("What did you see?", choices=options(INDICATORS))
    color = text("Which color?", 60)
    odor = SelectField(
        "What did it smell like?", choices=options(ODORS), validate_choice=False,
        validators=[Optional()],
    )  # fmt: skip
    description = long_text(
        "Describe what you saw",
        DESCRIPTION_LIMIT,
        required="Describe what you saw, in a few words or more.",
    )
    address = text("Street address or landmark", 300)
    location_type = choice("Where is it?", LOCATION_TYPES)

    observed_at = moment(
        "When did you first notice it?",
        required="Enter the date and time, like 2026-05-14 09:30.",
        future="This date and time is in the future. Enter when you first saw it.",
    )
    still_happening = choice("Is it still happening?", YES_NO_UNSURE)
    happened_before = choice("Have you seen it happen before?", YES_NO_UNSURE)

    source_description = text("Business or property", 300)
    source_vehicle = text("Vehicle and license plate", 120)
    source_notes = long_text("What did you see them do?", 2000)

    contact_name = text("Your name", 120)
    contact_email = text("E-mail address", 254, email_address)
    contact_phone = text("Phone number", 40, phone_number)

    def validate_address(self, field: Field) -> None:
        lat, lon = self.latitude, self.longitude
        if not field.data and not self.has_point and not (lat.errors or lon.errors):
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
