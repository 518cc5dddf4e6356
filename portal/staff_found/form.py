"""The form an officer records a discharge with: what was seen (the report form's indicators
and words), where, when, who found it and how, photos, and whether it is confirmed."""

from __future__ import annotations

from wtforms import Field
from wtforms.validators import ValidationError

from portal.intake.fields import CheckboxesField, choice, long_text, moment, options, text
from portal.intake.forms import PublicForm
from portal.report.choices import INDICATORS
from portal.staff_found.choices import CONFIRMED, HOW_FOUND

DESCRIPTION_LIMIT = 4000


class FindingForm(PublicForm):
    """A discharge staff found. The public forms' base gives it what it shares with them:
    its key (one record however often it is sent), a map point and photos checked alike."""

    indicators = CheckboxesField("What was seen", choices=options(INDICATORS))
    description = long_text(
        "Describe what was found", DESCRIPTION_LIMIT, required="Describe what was found."
    )
    address = text("Street address or landmark", 300)
    found_at = moment(
        "When it was found",
        required="Enter when it was found, like 2026-05-14 09:30.",
        future="This date and time is in the future. Enter when it was found.",
    )
    found_by = text("Who found it", 200, required="Say who found it.")
    how_found = choice("How it was found", HOW_FOUND, required="Choose how it was found.")
    confirmed = choice("Is it a confirmed illicit discharge?", CONFIRMED)

    def validate_address(self, field: Field) -> None:
        lat, lon = self.latitude, self.longitude
        if not field.data and not self.has_point and not (lat.errors or lon.errors):
            raise ValidationError(
                "Say where: type an address or landmark, or give the coordinates."
            )
