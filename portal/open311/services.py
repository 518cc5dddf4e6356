"""The services the API offers and their definitions, generated from the web forms
themselves: a question, a choice or a limit changed on the form changes the API with it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import current_app
from wtforms import (
    DateTimeLocalField,
    Field,
    RadioField,
    SelectFieldBase,
    SelectMultipleField,
    TextAreaField,
)
from wtforms.validators import DataRequired, Length

from content_model.open311 import Open311, Service
from portal.core.clock import local_now
from portal.intake.forms import PublicForm
from portal.report.forms import ReportForm

# Each service's form, and which of its fields are the specification's own parameters
# (every other field of the form, past the base form's, is an attribute).
FORMS: dict[str, type[PublicForm]] = {"report": ReportForm}
STANDARD = {
    "description": "description",
    "address": "address_string",
    "contact_email": "email",
    "contact_phone": "phone",
    "contact_name": "first_name",  # first_name and last_name, joined
    "latitude": "lat",
    "longitude": "long",
}
DATETIME_HINT = "A W3C date and time with its offset, like 2026-05-14T09:30:00-04:00."


def open311() -> Open311:
    return current_app.extensions["content"].open311


def blank_form(service: Service) -> PublicForm:
    return FORMS[service.form](formdata=None, meta={"csrf": False}, clock=local_now)


def service_entry(service: Service) -> dict[str, Any]:
    """One entry of the service list, as the specification names its fields."""
    return {
        "service_code": service.service_code,
        "service_name": service.service_name,
        "description": service.description,
        "metadata": True,  # every service has questions: its definition lists them
        "type": "realtime",  # a request gets its id at once
        "keywords": ", ".join(service.keywords),
        "group": service.group,
    }


@dataclass(frozen=True)
class Attribute:
    code: str
    datatype: str
    required: bool
    description: str
    datatype_description: str
    values: tuple[tuple[str, str], ...]
    limit: int | None


def _datatype(field: Field) -> str:
    if isinstance(field, SelectMultipleField):
        return "multivaluelist"
    if isinstance(field, RadioField | SelectFieldBase):
        return "singlevaluelist"
    if isinstance(field, DateTimeLocalField):
        return "datetime"
    return "text" if isinstance(field, TextAreaField) else "string"


def attributes(service: Service) -> list[Attribute]:
    """The form's own questions (not the base form's, not the standard parameters)."""
    form = blank_form(service)
    found = []
    for field in form:
        if field.name in STANDARD or hasattr(PublicForm, field.name) or field.name == "csrf_token":
            continue
        datatype = _datatype(field)
        lengths = [v.max for v in field.validators if isinstance(v, Length)]
        limit = lengths[0] if lengths else None
        values = tuple(
            (c.value, str(c.label)) for c in getattr(field, "choices", None) or [] if c.value
        )
        if datatype == "datetime":
            hint = DATETIME_HINT
        elif limit:
            hint = f"Up to {limit:,} characters."
        else:
            hint = "Choose from the values listed." if values else ""
        found.append(
            Attribute(
                code=field.name,
                datatype=datatype,
                required=any(isinstance(v, DataRequired) for v in field.validators),
                description=str(field.label.text),
                datatype_description=hint,
                values=values,
                limit=limit,
            )
        )
    return found


def definition(service: Service) -> dict[str, Any]:
    """The specification's service definition: its attributes in the form's order."""
    return {
        "service_code": service.service_code,
        "attributes": [
            {
                "variable": True,
                "code": a.code,
                "datatype": a.datatype,
                "required": a.required,
                "datatype_description": a.datatype_description,
                "order": order,
                "description": a.description,
                "values": [{"key": key, "name": name} for key, name in a.values],
            }
            for order, a in enumerate(attributes(service), start=1)
        ],
    }
