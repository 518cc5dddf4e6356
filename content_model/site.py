"""content/site.yaml: the municipality's names, office, phones, holidays, readings and map."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from content_model.fields import ContentError, Fields, read_yaml
from content_model.site_values import (
    N_,
    WEEKDAYS,
    Colours,
    HazardRule,
    Holiday,
    HolidayRules,
    MapTiles,
    Office,
    OnlineFiling,
    Phone,
    ServiceArea,
    StateReporting,
    WrittenConfirmation,
    read_clock_time,
    read_closure,
    read_colours,
    read_hazard_rule,
    read_holiday,
    read_location,
    read_map_tiles,
    read_month_day,
    read_phone,
    read_service_area,
    read_texts,
    read_timezone,
    tel_uri,
)

# The value types live beside their readers; their users import them from here too.
__all__ = [
    "N_",
    "WEEKDAYS",
    "Colours",
    "HazardRule",
    "Holiday",
    "HolidayRules",
    "MapTiles",
    "Office",
    "OnlineFiling",
    "Phone",
    "ServiceArea",
    "Settings",
    "StateReporting",
    "WrittenConfirmation",
    "load_settings",
    "tel_uri",
    "unknown_settings",
]


@dataclass(frozen=True)
class Settings:
    name: str
    short_name: str
    kind: str
    state: str
    code_title: str
    office: Office
    smo_title: str
    smo_email: str | None
    smo_fax: str | None
    phones: dict[str, Phone]
    public_url: str | None
    portal_origin: str | None
    unofficial_notice: str
    legal_notice: str
    penalties: str
    online_filing: OnlineFiling
    written_confirmation: WrittenConfirmation
    record_keeping_reading: str
    # Who keeps that record: a reading of "commercial or industrial establishment" by the
    # filer's kind of place (portal.notification.records.RECORD_KEEPING_KINDS).
    record_keepers_reading: str
    # Which releases the section's duties are for, where the filer is not sure or says it
    # could not reach a drain (portal.notification.duties).
    release_duties_reading: str
    # What the report form says about who sees the reporter's details and what of a report
    # may be published (issue 35: reports staff choose, without personal data).
    report_privacy: str
    state_reporting: StateReporting
    holidays: HolidayRules
    timezone: ZoneInfo
    service_area: ServiceArea
    referral_agencies: tuple[str, ...]
    reporting_year_starts: tuple[int, int]
    map_tiles: MapTiles | None
    hazard_rules: tuple[HazardRule, ...]
    colours: Colours = field(default_factory=Colours)

    @property
    def notice_fax(self) -> str | None:
        """Where a notice by fax (the release notification section) can be sent: the office's
        fax, else the officer's. None: no number is published, so fax is not offered."""
        return self.office.fax or self.smo_fax


REQUIRED_PHONES = ("emergency", "police", "spill_hotline")


def load_settings(path: Path, data: Any = None) -> Settings:
    """site.yaml, or `data` read from it (with a translation's words in place)."""
    settings, fields = _settings(path, data)
    fields.refuse_unknown()
    return settings


def unknown_settings(path: Path) -> list[ContentError]:
    """Each field of site.yaml that nothing reads (the checker names every one)."""
    return _settings(path)[1].unknown()


def _settings(path: Path, data: Any = None) -> tuple[Settings, Fields]:
    fields = Fields(read_yaml(path) if data is None else data, path.name)
    town, office, smo = (
        fields.mapping("municipality"),
        fields.mapping("office"),
        fields.mapping("smo"),
    )
    phones_map = fields.mapping("phones")
    phones = {key: read_phone(phones_map.mapping(key)) for key in phones_map.data}
    for key in REQUIRED_PHONES:
        if key not in phones:
            raise phones_map.fail(key, "is missing")
    holidays = fields.mapping("holidays")
    online = fields.mapping("online_filing")
    confirmation = fields.mapping("written_confirmation")
    state = fields.mapping("state_reporting")
    settings = Settings(
        name=town.text("name"),
        short_name=town.text("short_name"),
        kind=town.text("kind"),
        state=town.text("state"),
        code_title=town.text("code_title"),
        office=Office(
            name=office.text("name"),
            street=office.text("street"),
            locality=office.text("locality"),
            phone=Phone(office.text("phone_label"), office.text("phone")),
            hours=office.text("hours"),
            opens=read_clock_time(office, "opens"),
            closes=read_clock_time(office, "closes"),
            email=office.text("email", optional=True),
            fax=office.text("fax", optional=True),
            office_hours_apply_to_fax=office.flag("office_hours_apply_to_fax", False),
            **read_location(office),
        ),
        smo_title=smo.text("title"),
        smo_email=smo.text("email", optional=True),
        smo_fax=smo.text("fax", optional=True),
        phones=phones,
        public_url=fields.text("public_url", optional=True),
        portal_origin=fields.text("portal_origin", optional=True),
        unofficial_notice=fields.text("unofficial_notice"),
        legal_notice=fields.text("legal_notice"),
        penalties=fields.text("penalties"),
        online_filing=OnlineFiling(
            counts_as_notice=online.flag("counts_as_notice", False),
            counts_as_written_confirmation=online.flag("counts_as_written_confirmation", False),
        ),
        written_confirmation=WrittenConfirmation(
            contents=read_texts(confirmation, "contents"),
            # The municipality's decision: off unless the content turns it on.
            printed_receipt_accepted=confirmation.flag("printed_receipt_accepted", False),
        ),
        record_keeping_reading=fields.text("record_keeping_reading"),
        record_keepers_reading=fields.text("record_keepers_reading"),
        release_duties_reading=fields.text("release_duties_reading"),
        report_privacy=fields.text("report_privacy"),
        state_reporting=StateReporting(
            within=state.text("within"),
            petroleum=state.text("petroleum"),
            hazardous=state.text("hazardous"),
        ),
        holidays=HolidayRules(
            observed=tuple(read_holiday(item) for item in holidays.records("observed")),
            closures=tuple(
                read_closure(holidays, i, v)
                for i, v in enumerate(holidays.values("closures", True))
            ),
            sunday_to_monday=holidays.flag("sunday_to_monday", True),
            # GCL § 24 has no Saturday rule: off unless the content turns it on.
            saturday_to_friday=holidays.flag("saturday_to_friday", False),
            source=holidays.text("source"),
            proclaimed=holidays.text("proclaimed", optional=True),
            not_moved=holidays.text("not_moved", optional=True),
        ),
        timezone=read_timezone(fields),
        service_area=read_service_area(fields.mapping("service_area")),
        referral_agencies=tuple(str(a) for a in fields.values("referral_agencies")),
        reporting_year_starts=read_month_day(fields, "reporting_year_starts"),
        map_tiles=read_map_tiles(fields),
        hazard_rules=tuple(read_hazard_rule(rule) for rule in fields.records("hazard_rules")),
        colours=read_colours(fields),
    )
    rules = settings.holidays
    if rules.sunday_to_monday and not rules.not_moved and any(not h.shift for h in rules.observed):
        # The pages say a Sunday holiday moves to the Monday: they must name the exceptions.
        raise holidays.fail("not_moved", "must name the holidays with shift: false")
    return settings, fields
