"""Small WTForms validators, each testable on its own, with plain-language messages."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable

from wtforms import Field
from wtforms.validators import StopValidation, ValidationError

# Enough to catch typos (a missing @, a space, no dot in the domain) without
# refusing unusual but valid addresses.
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s.]+$")
PHONE_CHARACTERS = re.compile(r"^[0-9+().\-\s]*(?:(?:ext|x)\.?\s*\d{1,6})?$", re.IGNORECASE)


def coordinate(low: float, high: float, name: str) -> Callable[[object, Field], None]:
    """A latitude or longitude typed as text: a number between `low` and `high`."""

    def check(form: object, field: Field) -> None:
        text = (field.data or "").strip()
        if not text:
            field.data = None
            return
        try:
            value = float(text.replace(",", "."))
        except ValueError:
            raise StopValidation(
                f"Enter the {name} as a decimal number, or leave it empty."
            ) from None
        if not low <= value <= high or value != value:  # also refuses NaN
            raise StopValidation(f"The {name} must be between {low:g} and {high:g}.")
        field.data = round(value, 6)

    return check


def not_in_future(clock: Callable[[], dt.datetime], slack: dt.timedelta = dt.timedelta(minutes=10)):
    """A date and time that has already happened (a little slack for a phone's clock)."""

    def check(form: object, field: Field) -> None:
        if field.data is None:
            return
        now = clock()
        value = field.data
        if value.tzinfo is None:
            value = value.replace(tzinfo=now.tzinfo)
        if value > now + slack:
            raise ValidationError(
                "This date and time is in the future. Enter when you first saw it."
            )

    return check


def email_address(form: object, field: Field) -> None:
    """An e-mail address, if one is given."""
    value = (field.data or "").strip()
    field.data = value or None
    if value and not EMAIL.match(value):
        raise ValidationError("Enter an e-mail address like name@example.com, or leave it empty.")


def phone_number(form: object, field: Field) -> None:
    """A phone number with 7 to 15 digits, if one is given."""
    value = (field.data or "").strip()
    field.data = value or None
    if not value:
        return
    digits = re.sub(r"\D", "", re.split(r"(?i)ext|x", value)[0])
    if not PHONE_CHARACTERS.match(value) or not 7 <= len(digits) <= 15:
        raise ValidationError("Enter a phone number like (555) 555-0123, or leave it empty.")


def printable_text(form: object, field: Field) -> None:
    """Text without control characters (other than new lines and tabs)."""
    value = field.data or ""
    if re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", value):
        raise ValidationError("This text contains characters we cannot store. Please retype it.")
