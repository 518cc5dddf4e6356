"""The resident's report form."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import Field, SelectField
from wtforms.validators import Optional, ValidationError

from portal.intake.choices import YES_NO_UNSURE
from portal.intake.fields import CheckboxesField, choice, long_text, moment, options, text
from portal.intake.forms import PublicForm
from portal.intake.validators import email_address, phone_number
from portal.report.choices import INDICATORS, LOCATION_TYPES, ODORS

DESCRIPTION_LIMIT = 4000


class ReportForm(PublicForm):
    """A resident's report of an illicit discharge."""

    indicators = CheckboxesField(_l("What did you see?"), choices=options(INDICATORS))
    color = text(_l("Which color?"), 60)
    odor = SelectField(
        _l("What did it smell like?"),
        choices=options(ODORS),
        validate_choice=False,
        validators=[Optional()],
    )
    description = long_text(
        _l("Describe what you saw"),
        DESCRIPTION_LIMIT,
        required=_l("Describe what you saw, in a few words or more."),
    )
    address = text(_l("Street address or landmark"), 300)
    location_type = choice(_l("Where is it?"), LOCATION_TYPES)

    observed_at = moment(
        _l("When did you first notice it?"),
        required=_l("Enter the date and time, like 2026-05-14 09:30."),
        future=_l("This date and time is in the future. Enter when you first saw it."),
    )
    still_happening = choice(_l("Is it still happening?"), YES_NO_UNSURE)
    happened_before = choice(_l("Have you seen it happen before?"), YES_NO_UNSURE)

    source_description = text(_l("Business or property"), 300)
    source_vehicle = text(_l("Vehicle and license plate"), 120)
    source_notes = long_text(_l("What did you see them do?"), 2000)

    contact_name = text(_l("Your name"), 120)
    contact_email = text(_l("E-mail address"), 254, email_address)
    contact_phone = text(_l("Phone number"), 40, phone_number)

    def validate_address(self, field: Field) -> None:
        lat, lon = self.latitude, self.longitude
        if not field.data and not self.has_point and not (lat.errors or lon.errors):
            raise ValidationError(
                _("Tell us where: type an address or landmark, or use your location.")
            )

    def validate_odor(self, field: Field) -> None:
        if field.data and field.data not in {value for value, _ in ODORS}:
            raise ValidationError(_("Choose a smell from the list."))
