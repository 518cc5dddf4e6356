"""Small WTForms validators, each testable on its own, with plain-language messages."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import Field
from wtforms.validators import StopValidation, ValidationError

from content_model.language import current_language

# Enough to catch typos (a missing @, a space, no dot in the domain) without
# refusing unusual but valid addresses.
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s.]+$")
PHONE_CHARACTERS = re.compile(r"^[0-9+().\-\s]*(?:(?:ext|x)\.?\s*\d{1,6})?$", re.IGNORECASE)


def coordinate(low: float, high: float, name: str) -> Callable[[object, Field], None]:
    """A latitude or longitude typed as text: a number between `low` and `high`; `name` is
    the field's label ("Latitude"), named in the message in the page's language."""

    def check(form: object, field: Field) -> None:
        text = (field.data or "").strip()
        if not text:
            field.data = None
            return
        try:
            value = float(text.replace(",", "."))
        except ValueError:
            raise StopValidation(
                _("Enter the %(name)s as a decimal number, or leave it empty.", name=_named(name))
            ) from None
        if not low <= value <= high or value != value:  # also refuses NaN
            raise StopValidation(
                _(
                    "The %(name)s must be between %(low)s and %(high)s.",
                    name=_named(name),
                    low=f"{low:g}",
                    high=f"{high:g}",
                )
            )
        field.data = round(value, 6)

    return check


def _named(label: str) -> str:
    """A field's label inside a sentence: 'Latitude' -> 'latitude' ('latitud')."""
    return str(label).lower()


def not_in_future(
    message: str = _l("This date and time is in the future."),
    slack: dt.timedelta = dt.timedelta(minutes=10),
):
    """A date and time that has already happened (a little slack for a phone's clock).

    The form supplies the clock (`form.clock()`, aware local time), so tests can set "now".
    """

    def check(form: object, field: Field) -> None:
        if field.data is None:
            return
        now = form.clock()
        value = field.data
        if value.tzinfo is None:
            value = value.replace(tzinfo=now.tzinfo)
        if value > now + slack:
            raise ValidationError(message)

    return check


def email_address(form: object, field: Field) -> None:
    """An e-mail address, if one is given."""
    value = (field.data or "").strip()
    field.data = value or None
    if value and not EMAIL.match(value):
        raise ValidationError(
            _("Enter an e-mail address like name@example.com, or leave it empty.")
        )


def phone_number(form: object, field: Field) -> None:
    """A phone number with 7 to 15 digits, if one is given."""
    value = (field.data or "").strip()
    field.data = value or None
    if not value:
        return
    digits = re.sub(r"\D", "", re.split(r"(?i)ext|x", value)[0])
    if not PHONE_CHARACTERS.match(value) or not 7 <= len(digits) <= 15:
        raise ValidationError(_("Enter a phone number like (555) 555-0123, or leave it empty."))


def printable_text(form: object, field: Field) -> None:
    """Text without control characters (other than new lines and tabs)."""
    value = field.data or ""
    if re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", value):
        raise ValidationError(_("This text contains characters we cannot store. Please retype it."))


def quantity(form: object, field: Field) -> None:
    """An amount: a number of zero or more, if one is given.

    A comma before one or two digits is a decimal comma ("2,5" is two and a half, as a
    Spanish speaker writes it); any other comma separates thousands ("1,500").
    """
    value = (field.data or "").strip()
    # "1.500" is fifteen hundred where a comma marks the decimals (as the Spanish form
    # teaches, "2,5"), one and a half elsewhere: a Spanish page asks which.
    if current_language() != "en" and re.fullmatch(r"\d{1,3}(\.\d{3})+(,\d*)?", value):
        raise ValidationError(_("Write it without a dot: 1500, or 1,5 for one and a half."))
    if re.fullmatch(r"\d+,\d{1,2}", value):
        value = value.replace(",", ".")
    value = value.replace(",", "")
    field.data = value or None
    if not value:
        return
    try:
        number = float(value)
    except ValueError:
        raise ValidationError(_("Enter the amount as a number, like 5 or 2.5.")) from None
    if not 0 <= number < 1e9:
        raise ValidationError(_("Enter an amount of zero or more."))
