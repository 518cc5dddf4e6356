"""Field kinds the portal's forms share, with their plain-language messages."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import (
    DateTimeLocalField,
    Field,
    RadioField,
    SelectMultipleField,
    StringField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length, Optional, ValidationError
from wtforms.widgets import CheckboxInput, ListWidget

from portal.intake.validators import coordinate, not_in_future, printable_text

DATETIME_FORMAT = "%Y-%m-%dT%H:%M"


def options(pairs: list[tuple[str, str]]) -> list[SelectChoice]:
    """Choices for a form, each label shown in the page's language."""
    return [SelectChoice(value, _l(label)) for value, label in pairs]


class CheckboxesField(SelectMultipleField):
    """A group of checkboxes (any number may be ticked)."""

    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()

    def pre_validate(self, form: object) -> None:
        # A tampered value is a malformed request, said plainly rather than with a 500.
        allowed = {value for value, *_ in self.choices}
        if any(value not in allowed for value in self.data or []):
            raise ValidationError(_("Choose from the options shown."))


class ChoiceField(RadioField):
    """A radio group; unanswered is allowed unless a DataRequired says otherwise."""

    def pre_validate(self, form: object) -> None:
        if self.data in (None, "", "None"):
            self.data = None
            return
        if self.data not in {value for value, *_ in self.choices}:
            raise ValidationError(_("Choose one of the options shown."))


def choice(label: str, pairs: list[tuple[str, str]], required: str | None = None) -> ChoiceField:
    validators = [DataRequired(required)] if required else [Optional()]
    return ChoiceField(label, choices=options(pairs), validators=validators)


def _strip(value: str | None) -> str | None:
    return value.strip() if isinstance(value, str) else value


def too_long(limit: int) -> str:
    # Made with the form's class, shown in the page's language.
    return _l("Keep this to %(limit)s characters or fewer.", limit=f"{limit:,}")


def _text_validators(limit: int, required: str | None, extra: tuple[Callable, ...]) -> list:
    first = [DataRequired(required)] if required else []
    return [*first, *extra, Length(max=limit, message=too_long(limit)), printable_text]


def text(label: str, limit: int, *extra: Callable, required: str | None = None) -> StringField:
    return StringField(label, _text_validators(limit, required, extra), filters=[_strip])


def long_text(
    label: str, limit: int, *extra: Callable, required: str | None = None
) -> TextAreaField:
    return TextAreaField(label, _text_validators(limit, required, extra), filters=[_strip])


def moment(
    label: str, required: str | None = None, future: str | None = None
) -> DateTimeLocalField:
    """A local date and time that has already happened; `required` is the message if empty."""
    first = [DataRequired(required)] if required else [Optional()]
    late = not_in_future(future) if future else not_in_future()
    return DateTimeLocalField(label, format=DATETIME_FORMAT, validators=[*first, late])


def coordinate_field(label: str, low: float, high: float) -> StringField:
    """Latitude or longitude typed as text (or filled by the location picker)."""
    validators = [Length(max=30, message=too_long(30)), coordinate(low, high, label)]
    return StringField(label, validators, filters=[_strip])


def field_attrs(field: Field, hint: bool = False, **extra: Any) -> dict[str, Any]:
    """HTML attributes tying an input to its hint and error text for screen readers."""
    described = [f"{field.id}-hint"] if hint else []
    if field.errors:
        described.append(f"{field.id}-error")
        extra["aria-invalid"] = "true"
    if described:
        extra["aria-describedby"] = " ".join(described)
    return extra
