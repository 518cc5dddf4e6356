"""content/open311.yaml: what the Open311 GeoReport v2 API says about this municipality."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from content_model.fields import ContentError, Fields, read_yaml

# The web forms a service can stand for (the portal maps each to its form).
FORMS = ("report",)


@dataclass(frozen=True)
class Service:
    service_code: str
    form: str
    service_name: str
    description: str
    keywords: tuple[str, ...]
    group: str
    agency_responsible: str
    service_notice: str


@dataclass(frozen=True)
class Open311:
    jurisdiction_id: str
    changeset: str
    key_service: str
    services: tuple[Service, ...]

    def service(self, code: str) -> Service | None:
        return next((s for s in self.services if s.service_code == code), None)

    def for_form(self, form: str) -> Service | None:
        return next((s for s in self.services if s.form == form), None)


def _service(fields: Fields) -> Service:
    code = fields.text("service_code")
    if not all(c.isalnum() or c in "-_" for c in code):
        raise fields.fail("service_code", "use letters, digits, dashes or underscores")
    form = fields.text("form")
    if form not in FORMS:
        raise fields.fail("form", f"must be one of {', '.join(FORMS)}")
    return Service(
        service_code=code,
        form=form,
        service_name=fields.text("service_name"),
        description=fields.text("description"),
        keywords=tuple(str(k) for k in fields.values("keywords")),
        group=fields.text("group"),
        agency_responsible=fields.text("agency_responsible"),
        service_notice=fields.text("service_notice"),
    )


def load_open311(path: Path) -> Open311:
    fields = Fields(read_yaml(path), path.name)
    changeset = fields.text("changeset")
    try:
        dt.datetime.fromisoformat(changeset)
    except ValueError:
        raise fields.fail(
            "changeset", "must be a date and time like 2026-11-30T08:00:00-05:00"
        ) from None
    services = tuple(_service(s) for s in fields.records("services"))
    if not services:
        raise fields.fail("services", "list at least one service")
    codes = [s.service_code for s in services]
    if len(set(codes)) != len(codes):
        raise ContentError(f"{path.name}: services: two services share a service_code")
    forms = [s.form for s in services]
    if len(set(forms)) != len(forms):
        raise ContentError(f"{path.name}: services: two services stand for the same form")
    result = Open311(
        jurisdiction_id=fields.text("jurisdiction_id"),
        changeset=changeset,
        key_service=fields.text("key_service"),
        services=services,
    )
    fields.refuse_unknown()
    return result
