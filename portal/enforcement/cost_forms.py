"""The cost-of-abatement forms (the completed work and its cost, the cost notice, the protest
decision, payments and the tax bill), and the money field they share."""

from __future__ import annotations

import re
from typing import Any

from flask_wtf import FlaskForm
from wtforms import Field, SelectField
from wtforms.validators import ValidationError

from portal.enforcement.forms import DayForm, day
from portal.intake.fields import choice, text

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


class CompletionForm(DayForm):
    completed_on = day("Date the abatement was completed", "Enter the date it was completed.")
    work = money("Cost of the work", "Enter the cost of the work.")
    admin = money("Administrative costs")


OUTCOMES = [
    ("upheld", "Upheld: the amount stands as mailed"),
    ("reduced", "Reduced to the amount below"),
    ("withdrawn", "The charge withdrawn: nothing is owed"),
]


class ProtestDecisionForm(DayForm):
    """The Board's decision on a cost protest, an event of its own: what it decided (and the
    amount, when it reduced the charge), its date and certified-mail number, and the day
    payment is due from. The cost notice as mailed is never changed by it."""

    protest_outcome = choice("What the Board decided", OUTCOMES, "Say what the Board decided.")
    decided = money("The amount the Board set (when it reduced the charge)")
    protest_decided_on = day("Date of the Board's decision on the protest", "Enter the date.")
    protest_mail_number = text("Certified-mail number of the decision", 40)
    protest_payment_due_on = day("First payment due (the day the decision sets)")
    future_ok = ("protest_payment_due_on",)
    mailed_cents: int | None = None  # the charge the cost notice stated

    def validate(self, extra_validators: Any = None) -> bool:
        fine = super().validate(extra_validators)
        outcome = self.protest_outcome.data
        # A badly typed amount has the field's own message already.
        cents = None if self.decided.errors else cents_of(self.decided.data)
        if outcome == "reduced" and cents is None and not self.decided.errors:
            self.decided.errors.append("Enter the amount the Board set.")
            fine = False
        elif (
            outcome == "reduced"
            and cents is not None
            and self.mailed_cents is not None
            and not 0 < cents < self.mailed_cents
        ):
            self.decided.errors.append(
                "Enter an amount above zero and below the amount mailed; a charge withdrawn"
                " whole is the third answer."
            )
            fine = False
        due = self.protest_payment_due_on
        if outcome != "withdrawn" and not due.data and not due.errors:
            due.errors.append("Enter the day payment is due from.")
            fine = False
        elif outcome != "withdrawn" and not due.data:
            fine = False
        return fine

    def values(self) -> dict[str, Any]:
        """The notice_steps columns it sets."""
        outcome = self.protest_outcome.data
        return {
            "protest_outcome": outcome,
            "protest_decided_cents": cents_of(self.decided.data) if outcome == "reduced" else None,
            "protest_decided_on": self.protest_decided_on.data,
            "protest_mail_number": self.protest_mail_number.data or None,
            "protest_payment_due_on": (
                None if outcome == "withdrawn" else self.protest_payment_due_on.data
            ),
        }


class CostNoticeForm(DayForm):
    cost_notice_mailed_on = day("Date the cost notice was mailed", "Enter the date it was mailed.")
    cost_notice_received_on = day("Date the owner received it")
    protest_filed_on = day("Date a written protest was filed")
    payment_count = SelectField("Number of equal payments", coerce=int)


class PaymentForm(DayForm):
    paid_on = day("Date paid", "Enter the date of the payment.")
    amount = money("Amount", "Enter the amount paid.")

    def validate(self, extra_validators: Any = None) -> bool:
        fine = super().validate(extra_validators)
        if fine and not cents_of(self.amount.data):
            self.amount.errors = ["Enter an amount above zero."]
            fine = False
        return fine


class CorrectPaymentForm(PaymentForm):
    reason = text("Reason for the correction", 300, required="Say why it is corrected.")


class TaxForm(DayForm):
    tax_bill_on = day("Date added to the tax bill", "Enter the date.")


class PayoffForm(DayForm):
    """The day for which the statement gives the amount that pays everything (chosen on the
    page, never stored); today or later."""

    class Meta:
        csrf = False  # a GET form that changes nothing

    on = day("Pay everything on")
    future_ok = ("on",)
