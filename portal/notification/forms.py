"""The business release notification (the ordinance's release notification section): the
safety triage and the full form."""

from __future__ import annotations

import datetime as dt
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import Field, HiddenField
from wtforms.validators import ValidationError

from portal.intake.choices import YES_NO, YES_NO_UNSURE
from portal.intake.fields import choice, long_text, moment, text
from portal.intake.forms import PublicForm
from portal.intake.validators import email_address, phone_number, quantity
from portal.notification.choices import (
    DEC_CALLED,
    FACILITY_KINDS,
    PERMITS,
    PRIOR_NOTICE,
    REACHED,
    UNITS,
)

ANSWER = _l("Answer this question to go on.")
TRIAGE_FIELDS = ("danger", "hazardous", "petroleum")


class TriageFields:
    """The three safety questions every filing starts with."""

    danger = choice(_l("Is anyone hurt or in danger, or is there a fire?"), YES_NO, required=ANSWER)
    hazardous = choice(_l("Is the material hazardous?"), YES_NO_UNSURE, required=ANSWER)
    petroleum = choice(
        _l("Is it gasoline, diesel, fuel oil, motor oil or another petroleum product?"),
        YES_NO_UNSURE,
        required=ANSWER,
    )

    @property
    def urgent(self) -> bool:
        """Emergency services first: danger, or a material that is or may be hazardous."""
        return self.danger.data == "yes" or self.hazardous.data in ("yes", "unsure")

    @property
    def petroleum_spill(self) -> bool:
        return self.petroleum.data in ("yes", "unsure")


class TriageForm(TriageFields, FlaskForm):
    step = HiddenField(default="triage")


class NotificationForm(TriageFields, PublicForm):
    """Everything the release notification section requires of a facility, and what the
    municipality needs to follow up."""

    step = HiddenField()

    def __init__(self, *args, fax: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if not fax:
            # No fax number in content: "by fax" is neither offered nor taken.
            self.prior_notice.choices = [c for c in self.prior_notice.choices if c.value != "fax"]
        if self.petroleum.data != "yes":
            # Not for a chemical release: a hazardous substance at or above its reportable
            # quantity is reported to the State whatever the amount that stayed contained.
            offered = self.dec_called.choices
            self.dec_called.choices = [c for c in offered if c.value != "not-needed"]

    @property
    def state_report_asked(self) -> bool:
        """Petroleum, or a material that is or may be hazardous: ask about the State hotline."""
        return self.petroleum_spill or self.hazardous.data in ("yes", "unsure")

    emergency_called = choice(_l("Did you call 911 (emergency services)?"), YES_NO)
    emergency_called_at = moment(_l("When did you call 911?"))
    dec_called = choice(_l("Did you call the NYSDEC Spill Hotline?"), DEC_CALLED)
    dec_called_at = moment(_l("When did you call the NYSDEC Spill Hotline?"))
    dec_spill_number = text(_l("NYSDEC spill number, if you were given one"), 40)

    facility_name = text(
        _l("Business or facility name"), 200, required=_l("Enter the facility's name.")
    )
    facility_address = text(
        _l("Facility street address"), 300, required=_l("Enter the facility's street address.")
    )
    facility_kind = choice(_l("What kind of facility is it?"), FACILITY_KINDS, required=ANSWER)
    permit = choice(
        _l("Does the facility hold a SPDES stormwater permit?"), PERMITS, required=ANSWER
    )
    permit_number = text(_l("Permit number"), 40)

    responsible_name = text(_l("Your name"), 120, required=_l("Enter your name."))
    responsible_title = text(_l("Your job title"), 120)
    responsible_phone = text(
        _l("Phone number"), 40, phone_number, required=_l("Enter a phone number we can call.")
    )
    responsible_email = text(
        _l("E-mail address"),
        254,
        email_address,
        required=_l("Enter an e-mail address: your receipt is sent there."),
    )

    discovered_at = moment(
        _l("When was the release discovered?"),
        required=_l("Enter the date and time, like 2026-05-14 09:30."),
    )
    began_at = moment(_l("When did it begin, if you know?"))
    is_over = choice(_l("Has the release stopped?"), YES_NO, required=ANSWER)
    ended_at = moment(_l("When did it stop?"))
    materials = long_text(
        _l("What was released?"), 500, required=_l("Name the material or materials released.")
    )
    quantity = text(_l("Estimated amount"), 20, quantity)
    unit = choice(_l("Unit"), UNITS)
    address = text(
        _l("Where did it happen?"), 300, required=_l("Enter where the release happened.")
    )
    reached_drain = choice(
        _l("Did it enter, or could it enter, a storm drain, ditch or stream?"),
        REACHED,
        required=ANSWER,
    )
    amount_reached = text(_l("Roughly how much went in?"), 120)
    cause = long_text(
        _l("What caused it?"), 2000, required=_l("Describe the cause, as far as you know.")
    )
    cleanup = long_text(
        _l("What have you done to contain and clean it up?"),
        2000,
        required=_l("Describe the containment and cleanup so far."),
    )
    prevention = long_text(
        _l("What will you do to keep it from happening again?"),
        2000,
        required=_l("Describe what will prevent it from happening again."),
    )

    prior_notice = choice(
        _l("Have you already told us about this release?"), PRIOR_NOTICE, required=ANSWER
    )
    prior_notice_at = moment(_l("When did you tell us?"))
    prior_notice_to = text(_l("Who did you tell?"), 120)

    def validate(self, extra_validators=None) -> bool:
        valid = super().validate(extra_validators)
        for field, message in self._missing_answers():
            if not field.errors:
                field.errors.append(message)
                valid = False
        return valid

    def _missing_answers(self) -> list[tuple[Field, str]]:
        """Questions that become required by earlier answers."""
        missing = []

        def need(field: Field, message: str) -> None:
            if field.data in (None, ""):
                missing.append((field, message))

        if self.urgent:
            need(self.emergency_called, _("Say whether you called 911."))
        if self.emergency_called.data == "yes":
            need(self.emergency_called_at, _("Enter when you called 911."))
        if self.state_report_asked:
            need(self.dec_called, _("Say whether you called the NYSDEC Spill Hotline."))
        if self.dec_called.data == "yes":
            need(self.dec_called_at, _("Enter when you called the NYSDEC Spill Hotline."))
        if self.permit.data in ("industrial", "construction"):
            need(self.permit_number, _("Enter the permit number."))
        if self.is_over.data == "yes":
            need(self.ended_at, _("Enter when the release stopped."))
        if self.prior_notice.data not in (None, "none"):
            need(self.prior_notice_at, _("Enter when you told us."))
            need(self.prior_notice_to, _("Enter who you told, a name or a job title."))
        if self.quantity.data and not self.unit.data:
            missing.append((self.unit, _("Choose a unit for the amount.")))
        # The State's exception needs a release known to have "not reached and will not reach
        # water": one that went, may go, or may have gone into a storm drain is not under it.
        if self.dec_called.data == "not-needed" and self.reached_drain.data in (
            "yes",
            "may",
            "unsure",
        ):
            missing.append(
                (
                    self.dec_called,
                    _(
                        "A release that went, or may go, into a storm drain, or that you are not"
                        " sure about, is not under that exception:"
                        " call the NYSDEC Spill Hotline now, then answer “Yes”."
                    ),
                )
            )
        return missing

    def validate_ended_at(self, field: Field) -> None:
        self._not_before_the_release(field)

    def validate_began_at(self, field: Field) -> None:
        if field.data and self.discovered_at.data and field.data > self.discovered_at.data:
            raise ValidationError(_("This is after it was discovered. Check the two times."))

    def validate_emergency_called_at(self, field: Field) -> None:
        self._not_before_the_release(field)

    def validate_dec_called_at(self, field: Field) -> None:
        self._not_before_the_release(field)

    def _not_before_the_release(self, field: Field) -> None:
        if field.data and self.discovered_at.data and field.data < self._earliest_start():
            raise ValidationError(_("This is before the release began or was discovered."))

    def validate_prior_notice_at(self, field: Field) -> None:
        if field.data and self.discovered_at.data and field.data < self.discovered_at.data:
            raise ValidationError(_("This is before the release was discovered."))

    def _earliest_start(self):
        began = self.began_at.data
        return min(began, self.discovered_at.data) if began else self.discovered_at.data


def _local(value: dt.datetime | None, tz: dt.tzinfo) -> dt.datetime | None:
    return value.replace(tzinfo=tz) if value is not None else None


def _stamp(value: dt.datetime | None) -> str | None:
    return value.isoformat(timespec="minutes") if value is not None else None


def from_form(
    form: NotificationForm, tz: dt.tzinfo, area_contains
) -> tuple[dict[str, Any], dict[str, Any], dict[str, dt.datetime | None]]:
    """What to store: the shared case fields, the notification's own, and its moments."""
    # A time and a person typed for an earlier notice and then answered "No, not yet" are
    # not an answer: nothing is stored of them (the case page would show them as told).
    told = form.prior_notice.data not in (None, "none")
    moments = {
        name: _local(getattr(form, name).data, tz)
        for name in [
            "emergency_called_at",
            "dec_called_at",
            "discovered_at",
            "began_at",
            "ended_at",
            "prior_notice_at",
        ]
    }
    case = form.case_fields(
        "release-notification",
        area_contains,
        address=form.address.data,
        name=form.responsible_name.data,
        email=form.responsible_email.data,
        phone=form.responsible_phone.data,
    )
    plain = [
        "danger",
        "hazardous",
        "petroleum",
        "emergency_called",
        "dec_called",
        "dec_spill_number",
        "facility_name",
        "facility_address",
        "facility_kind",
        "permit",
        "permit_number",
        "responsible_title",
        "is_over",
        "materials",
        "unit",
        "reached_drain",
        "amount_reached",
        "cause",
        "cleanup",
        "prevention",
        "prior_notice",
        "prior_notice_to",
    ]
    if not told:
        moments["prior_notice_at"] = None
    details = {name: getattr(form, name).data or None for name in plain}
    if not told:
        details["prior_notice_to"] = None
    details["quantity"] = float(form.quantity.data) if form.quantity.data else None
    details |= {name: _stamp(value) for name, value in moments.items()}
    return case, details, moments
