"""The enforcement forms: each checks its own input and says what is wrong beside the field."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from flask_wtf import FlaskForm
from wtforms import BooleanField, DateField, Field, SelectField
from wtforms.validators import DataRequired, Optional, StopValidation

from portal.core.display import date_words
from portal.intake.fields import choice, long_text, text
from portal.intake.validators import email_address, phone_number


class Day(DateField):
    """A date input: what was typed is shown again, unless a date input cannot hold it
    (text that is no date: the error beside it says what to enter)."""

    def _value(self) -> str:
        value = super()._value()
        try:
            dt.date.fromisoformat(value)
        except ValueError:
            return ""
        return value


def day(label: str, required: str | None = None) -> DateField:
    first = [DataRequired(required)] if required else [Optional()]
    return Day(label, first)


class DayForm(FlaskForm):
    """A form of dates, none before `earliest` nor after `latest` (when set)."""

    earliest: dt.date | None = None
    latest: dt.date | None = None
    future_ok: tuple[str, ...] = ()

    def validate(self, extra_validators: Any = None) -> bool:
        fine = super().validate(extra_validators)
        for field in self:
            if isinstance(field, DateField) and isinstance(field.data, dt.date):
                if self.earliest and field.data < self.earliest:
                    field.errors.append(f"Enter a date on or after {date_words(self.earliest)}.")
                    fine = False
                elif self.latest and field.data > self.latest and field.name not in self.future_ok:
                    field.errors.append("Enter a date that has passed (today at the latest).")
                    fine = False
        return fine

    def dates(self) -> dict[str, Any]:
        return {f.name: f.data for f in self if f.name != "csrf_token"}


class RequiredSelect(SelectField):
    """A drop-down that must be answered: nothing chosen (or the "Choose..." line) gets
    `message`, anything not in the list "Choose from the list.". (Not flagged `required`: the
    HTML attribute would need an empty first option.)"""

    def __init__(self, label: str, message: str, **kwargs: Any) -> None:
        super().__init__(label, validate_choice=True, **kwargs)
        self.message = message

    def pre_validate(self, form: FlaskForm) -> None:
        if not self.data:
            raise StopValidation(self.message)
        if self.data not in {str(value) for value, *_ in self.iter_choices()}:
            raise StopValidation("Choose from the list.")


class ViolationFacts(DayForm):
    """What a violation is: where, whose property, when it happened and when the officer
    found it, the section and what was found."""

    place = text(
        "Place of the violation",
        300,
        required="Enter where the violation is: an address or a description.",
    )
    owner_name = text("Owner of the property, if not the respondent", 200)
    owner_address = long_text("Owner's mailing address", 400)
    committed_on = day("Date the violation was committed", "Enter the date of the violation.")
    found_on = day("Date the officer found it", "Enter the date the officer found it.")
    section = RequiredSelect("Section violated", "Choose the section violated.")
    description = long_text("What was found", 4000, required="Describe what was found.")

    def validate(self, extra_validators: Any = None) -> bool:
        fine = super().validate(extra_validators)
        found, committed = self.found_on.data, self.committed_on.data
        if isinstance(found, dt.date) and isinstance(committed, dt.date) and found < committed:
            self.found_on.errors = [
                *self.found_on.errors,
                "It cannot be found before it was committed.",
            ]
            fine = False
        if self.owner_name.data and not self.owner_address.data:
            self.owner_address.errors = [
                *self.owner_address.errors,
                "Enter the owner's mailing address.",
            ]
            fine = False
        return fine

    def facts(self) -> dict[str, Any]:
        return {
            name: self[name].data
            for name in (
                "place",
                "owner_name",
                "owner_address",
                "committed_on",
                "found_on",
                "section",
                "description",
            )
        }


ROLE_CHOICES = [
    ("owner", "Owner of the property"),
    ("operator", "Operator (runs the business or activity)"),
    ("both", "Owner and operator"),
    ("other", "Another responsible person"),
]


class ContactFields:
    """A respondent's name, mailing address and contact details."""

    name = text("Name of the person or business", 200)
    mailing_address = long_text("Mailing address", 400)
    phone = text("Phone", 40, phone_number)
    email = text("E-mail", 254, email_address)
    role = choice("Owner or operator", ROLE_CHOICES)

    def contact(self) -> dict[str, Any]:
        return {
            key: self[key].data for key in ("name", "mailing_address", "phone", "email", "role")
        }


class ViolationForm(ContactFields, ViolationFacts):
    respondent = SelectField("Respondent", validate_choice=False)

    def validate(self, extra_validators: Any = None) -> bool:
        fine = super().validate(extra_validators)
        if not self.respondent.data:
            needed = (
                (self.name, "Enter the respondent's name."),
                (self.mailing_address, "Enter their mailing address."),
            )
            for field, message in needed:
                if not field.data:
                    field.errors = [*field.errors, message]
                    fine = False
        elif not self.respondent.data.isdigit():
            self.respondent.errors = ["Choose a respondent from the list."]
            fine = False
        return fine


class RespondentForm(ContactFields, FlaskForm):
    name = text("Name of the person or business", 200, required="Enter the name.")
    mailing_address = long_text("Mailing address", 400, required="Enter the mailing address.")


class MergeForm(FlaskForm):
    other = RequiredSelect("The duplicate record", "Choose the duplicate record.")
    same = BooleanField(
        "I checked that both records are the same person or business",
        [DataRequired("Tick this once you have checked they are the same.")],
    )


OUTCOME_CHOICES = [
    ("notice", "Notice of violation final (not appealed in time, or upheld)"),
    ("conviction", "Convicted"),
    ("overturned", "Notice overturned, or the charge dismissed"),
]


class PriorOffenseForm(DayForm):
    committed_on = day("Date the offense was committed", "Enter the date it was committed.")
    section = RequiredSelect("Section violated", "Choose the section violated.")
    reference = text(
        "Notice number or court reference",
        100,
        required="Enter the notice number or the court's reference.",
    )
    outcome = choice("Outcome", OUTCOME_CHOICES, required="Choose the outcome.")
    notes = text("Notes", 500)


class ReasonForm(FlaskForm):
    reason = text("Reason", 300, required="Say why.")


# The fine order states no amount (content `fine_order`, seed 167 and 173): a figure with a
# dollar sign or the word "dollars" is refused.
AMOUNT = re.compile(r"\$\s*\d|\d\s*(dollars?|usd)\b", re.IGNORECASE)
FINE_AMOUNT = (
    "Leave the amount out: the law sets a fine only on conviction. The notice says a court sets"
    " any fine, and lists the ranges the penalties set."
)


class NoticeForm(DayForm):
    """The orders (a checkbox and specifics for each order the notice section lists) and the
    deadline; made by `notice_form`, which adds `order_<n>` and `specifics_<n>`."""

    deadline = day("Deadline to comply, abate or restore")
    future_ok = ("deadline",)
    order_labels: tuple[str, ...] = ()
    abatement_labels: tuple[str, ...] = ()
    fine_label: str = ""

    def validate(self, extra_validators: Any = None) -> bool:
        fine = super().validate(extra_validators)
        chosen = [label for label, _ in self.orders() if self[f"order_{self.index(label)}"].data]
        if not chosen:
            self["order_0"].errors = ["Choose at least one order."]
            fine = False
        if self.fine_label in chosen:
            specifics = self[f"specifics_{self.index(self.fine_label)}"]
            if AMOUNT.search(specifics.data or ""):
                specifics.errors = [*specifics.errors, FINE_AMOUNT]
                fine = False
        if set(self.abatement_labels) & set(chosen) and not self.deadline.data:
            message = "When abatement or restoration is ordered, set the deadline."
            self.deadline.errors = [*self.deadline.errors, message]
            fine = False
        if self.deadline.data and self.latest and self.deadline.data <= self.latest:
            self.deadline.errors = [*self.deadline.errors, "Set a deadline after today."]
            fine = False
        return fine

    def index(self, label: str) -> int:
        return self.order_labels.index(label)

    def orders(self) -> list[tuple[str, Field]]:
        return [(label, self[f"specifics_{i}"]) for i, label in enumerate(self.order_labels)]

    def chosen(self) -> dict[str, str]:
        """Each order ticked, by its label, with the officer's specifics."""
        return {
            label: self[f"specifics_{i}"].data or ""
            for i, label in enumerate(self.order_labels)
            if self[f"order_{i}"].data
        }


def notice_form(
    orders: list[tuple[str, str]],
    abatement_labels: tuple[str, ...],
    fine_label: str = "",
    **kwargs: Any,
) -> NoticeForm:
    """A NoticeForm with a checkbox and a specifics box for each order: (label, its words)."""
    fields: dict[str, Any] = {
        "order_labels": tuple(label for label, _ in orders),
        "abatement_labels": abatement_labels,
        "fine_label": fine_label,
    }
    for i, (label, words) in enumerate(orders):
        fields[f"order_{i}"] = BooleanField(f"{label} {words}")
        fields[f"specifics_{i}"] = long_text(f"Specifics for {label}", 2000)
    return type("OrdersForm", (NoticeForm,), fields)(**kwargs)


def conditions_form(conditions: list[tuple[str, str]], **kwargs: Any) -> FlaskForm:
    """A checkbox and a note for each condition of the alternative penalties."""
    fields: dict[str, Any] = {"labels": tuple(label for label, _ in conditions)}
    for i, (label, words) in enumerate(conditions):
        fields[f"holds_{i}"] = BooleanField(f"{label} {words}")
        fields[f"note_{i}"] = text(f"Notes on {label}", 500)
    return type("ConditionsForm", (FlaskForm,), fields)(**kwargs)


YES_NO = [("yes", "Yes"), ("no", "No")]


class IssueForm(DayForm):
    """Issuing a notice: the day it is served or mailed (its issuance, from which the appeal
    period runs), how, and who signs it."""

    served_on = day("Date it is served or mailed", "Enter the date it is served or mailed.")
    method = RequiredSelect("How it is served", "Choose how it is served.")
    signer_name = text("Signed by (name)", 120, required="Enter the name of who signs it.")
    signer_title = text("Title", 120, required="Enter the signer's title.")
    future_ok = ("served_on",)
    # How far ahead the day of service may be set (a letter dated for the day it goes out).
    AHEAD = dt.timedelta(days=14)

    def validate(self, extra_validators: Any = None) -> bool:
        fine = super().validate(extra_validators)
        served = self.served_on.data
        if isinstance(served, dt.date) and self.latest and served > self.latest + self.AHEAD:
            message = f"Enter a date at most {self.AHEAD.days} days ahead."
            self.served_on.errors = [*self.served_on.errors, message]
            fine = False
        return fine


class AppealForm(DayForm):
    appeal_filed_on = day("Date the appeal was filed", "Enter the date it was filed.")
    late_appeal_accepted = BooleanField(
        "Filed after the appeal period, but the Board accepted it all the same"
    )


class DecisionForm(DayForm):
    hearing_on = day("Date of the hearing")
    decided_on = day("Date of the Board's decision", "Enter the date of the decision.")
    upheld = choice(
        "Did the Board uphold the notice?", YES_NO, required="Say whether it was upheld."
    )


class FilingForm(DayForm):
    decision_filed_on = day("Date filed with the clerk")
    decision_mailed_on = day("Date mailed by certified mail")
    certified_mail_number = text("Certified mail number", 40)


ANSWERS = [("granted", "Granted"), ("refused", "Refused")]


class AccessForm(DayForm):
    access_requested_on = day("Date access was requested")
    access_answer = choice("The owner's answer", ANSWERS)
    access_answer_on = day("Date of the answer")
    warrant_sought_on = day("Date a warrant was sought")
    court_order_sought_on = day("Date a court order was sought")


class CorrectedForm(DayForm):
    """The respondent corrected the violation (corrective measures, A): the day it was done,
    and the day the officer checked it."""

    corrected_on = day("Date the respondent corrected the violation", "Enter the date.")
    correction_checked_on = day("Date the officer checked it", "Enter the date it was checked.")

    def validate(self, extra_validators: Any = None) -> bool:
        fine = super().validate(extra_validators)
        done, checked = self.corrected_on.data, self.correction_checked_on.data
        if fine and checked < done:
            message = "Enter a date on or after the day it was corrected."
            self.correction_checked_on.errors = [message]
            fine = False
        return fine


class ConvictionForm(DayForm):
    """The court convicted the respondent of this violation: the penalties rise on conviction
    (the notice section's B), so a later violation's offense number counts it."""

    convicted_on = day("Date of the conviction", "Enter the date of the conviction.")


class AttorneyForm(DayForm):
    attorney_recommendation = long_text(
        "Recommendation", 2000, required="Write the recommendation."
    )
    attorney_recommended_on = day("Date of the recommendation", "Enter the date.")
    smo_concurs = choice("Does the officer concur?", YES_NO)


class RemedyForm(DayForm):
    kind = RequiredSelect("Remedy", "Choose the remedy.")
    details = text("Details", 300)
    due_on = day("Complete by", "Enter the date it must be done by.")
    future_ok = ("due_on",)


class RemedyDoneForm(DayForm):
    completed_on = day("Completed on", "Enter the date it was completed.")


class SignatureForm(FlaskForm):
    letter_name = text("Your name, as signed on letters", 120, required="Enter your name.")
    letter_title = text("Your title", 120, required="Enter your title.")
