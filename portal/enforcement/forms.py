"""The enforcement forms: each checks its own input and says what is wrong beside the field."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from flask_wtf import FlaskForm
from wtforms import BooleanField, DateField, Field, SelectField
from wtforms.validators import DataRequired, Optional, ValidationError

from portal.intake.fields import choice, long_text, text

MONEY = re.compile(r"^\$?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$")


def cents_of(value: str | None) -> int | None:
    """'$1,234.5' -> 123450; None for an empty value; ValueError for anything else."""
    value = (value or "").strip()
    if not value:
        return None
    match = MONEY.match(value)
    if not match:
        raise ValueError(value)
    whole, part = match.group(1).replace(",", ""), (match.group(2) or "").ljust(2, "0")
    return int(whole) * 100 + int(part)


def money(label: str, required: str | None = None) -> Field:
    def check(form: FlaskForm, field: Field) -> None:
        try:
            cents = cents_of(field.data)
        except ValueError:
            raise ValidationError("Enter an amount in dollars, like 1250.00.") from None
        if cents is None and required:
            raise ValidationError(required)
        if cents is not None and cents > 100_000_000:
            raise ValidationError("Enter an amount under $1,000,000.")

    if required:
        check.field_flags = {"required": True}  # so the label does not say "(optional)"
    return text(label, 20, check)


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
                    first = f"{self.earliest:%B} {self.earliest.day}, {self.earliest.year}"
                    field.errors.append(f"Enter a date on or after {first}.")
                    fine = False
                elif self.latest and field.data > self.latest and field.name not in self.future_ok:
                    field.errors.append("Enter a date that has passed (today at the latest).")
                    fine = False
        return fine

    def dates(self) -> dict[str, Any]:
        return {f.name: f.data for f in self if f.name != "csrf_token"}


class ViolationForm(DayForm):
    respondent = SelectField("Respondent", validate_choice=False)
    name = text("Name of the person or business", 200)
    mailing_address = long_text("Mailing address", 400)
    property_address = text("Property address (where the violation is)", 300)
    committed_on = day("Date of the violation", "Enter the date of the violation.")
    section = SelectField("Section violated", validate_choice=True)
    description = long_text("What was found", 4000, required="Describe what was found.")

    def validate(self, extra_validators: Any = None) -> bool:
        fine = super().validate(extra_validators)
        if not self.respondent.data:
            needed = ((self.name, "Enter the respondent's name."),
                      (self.mailing_address, "Enter their mailing address."))  # fmt: skip
            for field, message in needed:
                if not field.data:
                    field.errors = [*field.errors, message]
                    fine = False
        elif not self.respondent.data.isdigit():
            self.respondent.errors = ["Choose a respondent from the list."]
            fine = False
        return fine


class NoticeForm(DayForm):
    """The orders (a checkbox and specifics for each order the notice section lists) and the
    deadline; made by `notice_form`, which adds `order_<n>` and `specifics_<n>`."""

    deadline = day("Deadline to comply, abate or restore")
    future_ok = ("deadline",)
    order_labels: tuple[str, ...] = ()
    abatement_label = ""

    def validate(self, extra_validators: Any = None) -> bool:
        fine = super().validate(extra_validators)
        chosen = [label for label, _ in self.orders() if self[f"order_{self.index(label)}"].data]
        if not chosen:
            self["order_0"].errors = ["Choose at least one order."]
            fine = False
        if self.abatement_label in chosen and not self.deadline.data:
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


def notice_form(orders: list[tuple[str, str]], abatement_label: str, **kwargs: Any) -> NoticeForm:
    """A NoticeForm with a checkbox and a specifics box for each order: (label, its words)."""
    fields: dict[str, Any] = {"order_labels": tuple(label for label, _ in orders),
                              "abatement_label": abatement_label}  # fmt: skip
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


class AppealForm(DayForm):
    appeal_filed_on = day("Date the appeal was filed", "Enter the date it was filed.")


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


class CompletionForm(DayForm):
    completed_on = day("Date the abatement was completed", "Enter the date it was completed.")
    work = money("Cost of the work", "Enter the cost of the work.")
    admin = money("Administrative costs")


class CostNoticeForm(DayForm):
    cost_notice_mailed_on = day("Date the cost notice was mailed", "Enter the date it was mailed.")
    cost_notice_received_on = day("Date the owner received it")
    protest_filed_on = day("Date a written protest was filed")
    payment_count = SelectField("Number of equal payments", coerce=int)


class AttorneyForm(DayForm):
    attorney_recommendation = long_text(
        "Recommendation", 2000, required="Write the recommendation."
    )
    attorney_recommended_on = day("Date of the recommendation", "Enter the date.")
    smo_concurs = choice("Does the officer concur?", YES_NO)


class RemedyForm(DayForm):
    kind = SelectField("Remedy", validate_choice=True)
    details = text("Details", 300)
    due_on = day("Complete by", "Enter the date it must be done by.")
    future_ok = ("due_on",)


class RemedyDoneForm(DayForm):
    completed_on = day("Completed on", "Enter the date it was completed.")


class PaymentForm(DayForm):
    paid_on = day("Date paid", "Enter the date of the payment.")
    amount = money("Amount", "Enter the amount paid.")

    def validate(self, extra_validators: Any = None) -> bool:
        fine = super().validate(extra_validators)
        if fine and not cents_of(self.amount.data):
            self.amount.errors = ["Enter an amount above zero."]
            fine = False
        return fine


class TaxForm(DayForm):
    tax_bill_on = day("Date added to the tax bill", "Enter the date.")
