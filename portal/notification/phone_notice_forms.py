"""The forms staff log a notice with, link it to a filing and record its mailed letter on."""

from __future__ import annotations

import datetime as dt

from flask_wtf import FlaskForm
from wtforms import DateField, HiddenField, StringField
from wtforms.validators import DataRequired, Length, Optional, ValidationError

from portal.core.display import day
from portal.intake.choices import YES_NO_UNSURE
from portal.intake.fields import choice, long_text, moment, text
from portal.intake.validators import email_address, phone_number

HOW = [("phone", "By telephone"), ("in-person", "In person"), ("fax", "By fax")]


class PhoneNoticeForm(FlaskForm):
    told_at = moment("When was the notice given?", required="Enter the date and time.")
    how = choice("How?", HOW, required="Choose how the notice was given.")
    facility_name = text("Business or facility", 200, required="Enter the facility's name.")
    facility_address = text("Facility address", 300)
    caller_name = text("Who called", 120, required="Enter the caller's name.")
    caller_phone = text("Their phone number", 40, phone_number)
    caller_email = text("Their e-mail address", 254, email_address)
    material = long_text("What was released", 500, required="Say what was released.")
    hazardous = choice("Hazardous material?", YES_NO_UNSURE)
    note = long_text("Notes", 2000)
    # The filing this notice is about, when logged from its case page.
    case = HiddenField()

    def __init__(self, *args, clock, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.clock = clock


class LinkForm(FlaskForm):
    reference = StringField(
        "Online filing about the same release (reference)",
        [DataRequired("Give the reference, like REL-2026-0042."), Length(max=20)],
    )


class LetterForm(FlaskForm):
    """The mailed written confirmation: the day it was mailed (it counts by that day) and
    the day it arrived."""

    mailed_on = DateField(
        "Day the letter was mailed (its postmark)",
        [DataRequired("Enter the day the letter was mailed, from its postmark.")],
    )
    received_on = DateField("Day it arrived at the office", [Optional()])
    sender = text("Who signed or sent it", 120)

    def __init__(self, *args, told: dt.date, today: dt.date, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.told, self.today = told, today

    def validate_mailed_on(self, field) -> None:
        if field.data and field.data < self.told:
            raise ValidationError(
                f"The letter confirms a notice given on {day(self.told)}: enter that day or later."
            )
        if field.data and field.data > self.today:
            raise ValidationError("Enter a day that has passed (today at the latest).")

    def validate_received_on(self, field) -> None:
        if field.data and self.mailed_on.data and field.data < self.mailed_on.data:
            raise ValidationError("It cannot arrive before it was mailed.")
        if field.data and field.data > self.today:
            raise ValidationError("Enter a day that has passed (today at the latest).")
