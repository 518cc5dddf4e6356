"""The content model: the files in content/ read, checked and turned into dataclasses.

Both apps read the municipality's words and settings only through `load_content`, so
every file is validated in one place and an error always names the file and field.
"""

from __future__ import annotations

import datetime as dt
import difflib
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import yaml

if TYPE_CHECKING:
    from content_model.open311 import Open311
    from content_model.search_words import SearchWords

CONTENT_DIR = Path(__file__).resolve().parent.parent / "content"

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
LABEL = re.compile(r"^(?:[A-Z]\.|\(\d+\)|\([a-z]\))$")
SECTION_NUMBER = re.compile(r"^\d+-\d+$")
RAW_HTML = re.compile(r"<[a-zA-Z/!]")
# How a field that nothing reads is refused (the checker words its fix by it).
UNKNOWN_FIELD = "is not a field this file has"


class ContentError(ValueError):
    """A content file is missing, malformed or incomplete."""


def slugify(text: str) -> str:
    """Lower-case words joined by hyphens: 'BEST PRACTICES (BMPs)' -> 'best-practices-bmps'."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


class _Fields:
    """One YAML mapping, read field by field; every error names the file and the field.

    It remembers which fields were read, so a field nobody reads (a misspelt
    `saturday_to_fridy: true`, which would otherwise be ignored and leave the Saturday
    rule at its default) is refused by `refuse_unknown` instead of passing unseen.
    """

    def __init__(self, data: Any, file: str, path: str = "", parent: _Fields | None = None):
        if not isinstance(data, dict):
            where = path.rstrip(".") or "the top level"
            raise ContentError(f"{file}: {where}: expected a mapping of fields")
        self.data, self.file, self.path = data, file, path
        self.read: set[str] = set()
        self.children: list[_Fields] = []
        if parent is not None:
            parent.children.append(self)

    def fail(self, key: str, message: str) -> ContentError:
        return ContentError(f"{self.file}: {self.path}{key}: {message}")

    def known(self, *keys: str) -> None:
        """Fields read by other means (a whole mapping passed on as it is)."""
        self.read.update(keys)

    def unknown(self) -> list[ContentError]:
        """A field of this mapping, or of one read through it, that nothing reads."""
        errors = []
        for key in self.data:
            if str(key) not in self.read:
                near = difflib.get_close_matches(str(key), sorted(self.read), n=1)
                hint = f" (did you mean {near[0]}?)" if near else ""
                errors.append(self.fail(str(key), f"{UNKNOWN_FIELD}{hint}"))
        for child in self.children:
            errors += child.unknown()
        return errors

    def refuse_unknown(self) -> None:
        errors = self.unknown()
        if errors:
            raise errors[0]

    def _get(self, key: str, optional: bool) -> Any:
        self.read.add(key)
        value = self.data.get(key)
        if value is None and not optional:
            raise self.fail(key, "is missing")
        return value

    def text(self, key: str, optional: bool = False) -> str | None:
        value = self._get(key, optional)
        if value is None:
            return None
        if not isinstance(value, str | int) or isinstance(value, bool) or not str(value).strip():
            raise self.fail(key, "must be non-empty text")
        return str(value).strip()

    def number(self, key: str, low: float, high: float) -> float:
        value = self._get(key, False)
        if (
            not isinstance(value, int | float)
            or isinstance(value, bool)
            or not low <= value <= high
        ):
            raise self.fail(key, f"must be a number from {low} to {high}")
        return float(value)

    def integer(self, key: str, optional: bool = False) -> int | None:
        value = self._get(key, optional)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            raise self.fail(key, "must be a whole number")
        return value

    def flag(self, key: str, default: bool) -> bool:
        self.read.add(key)
        value = self.data.get(key, default)
        if not isinstance(value, bool):
            raise self.fail(key, "must be true or false")
        return value

    def mapping(self, key: str) -> _Fields:
        return _Fields(self._get(key, False), self.file, f"{self.path}{key}.", self)

    def records(self, key: str, optional: bool = False) -> list[_Fields]:
        value = self._get(key, optional) or []
        if not isinstance(value, list):
            raise self.fail(key, "must be a list")
        path = f"{self.path}{key}"
        return [_Fields(item, self.file, f"{path}[{i}].", self) for i, item in enumerate(value)]

    def values(self, key: str, optional: bool = False) -> list[Any]:
        value = self._get(key, optional) or []
        if not isinstance(value, list):
            raise self.fail(key, "must be a list")
        return value


# libyaml's parser when PyYAML has it: the same safe loading, many times faster (both apps
# check and load the whole pack as they start).
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_yaml(text: str) -> Any:
    return yaml.load(text, Loader=SAFE_LOADER)


def _read_yaml(path: Path) -> Any:
    try:
        return parse_yaml(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ContentError(f"{path.name}: file is missing") from None
    except yaml.YAMLError as error:
        raise ContentError(f"{path.name}: not valid YAML: {error}") from None


# ---------------------------------------------------------------- settings


def tel_uri(number: str | None) -> str:
    """A phone number as a tel: URI target: an international number keeps its +, a North
    American one gets +1 ('(555) 555-0123' -> '+15555550123'), a short code stays ('911')."""
    digits = re.sub(r"\D", "", number or "")
    if (number or "").strip().startswith("+"):
        return f"+{digits}"
    return f"+1{digits[-10:]}" if len(digits) >= 10 else digits


@dataclass(frozen=True)
class Phone:
    label: str
    number: str

    @property
    def tel(self) -> str:
        """The number as a tel: URI target (North American numbers get +1)."""
        return tel_uri(self.number)


@dataclass(frozen=True)
class Office:
    name: str
    street: str
    locality: str
    phone: Phone
    hours: str
    # When the office opens and closes on a business day: notice in person or by
    # telephone (the release notification section) can only be given between these times.
    opens: dt.time
    closes: dt.time
    email: str | None
    fax: str | None
    # Whether a fax notice (release notification section) is also due by closing time;
    # false: a fax is due by the end of the business day (a reading: a fax needs no one in).
    office_hours_apply_to_fax: bool = False
    # Where the office is (optional): the checker holds the service area to contain it.
    latitude: float | None = None
    longitude: float | None = None


@dataclass(frozen=True)
class Holiday:
    """A public holiday rule: a fixed date, or the nth (or last, nth=-1) weekday of a month."""

    name: str
    month: int
    day: int | None = None
    weekday: int | None = None
    nth: int | None = None
    after_first: int | None = None
    shift: bool = True


@dataclass(frozen=True)
class HolidayRules:
    observed: tuple[Holiday, ...]
    closures: tuple[dt.date, ...]
    sunday_to_monday: bool
    saturday_to_friday: bool
    # Where the list of holidays comes from, in words for the pages ("New York's ...").
    source: str = ""
    # How days that cannot be computed (GCL § 24's proclaimed days) get counted, in words
    # for the pages; None when the list has no such days.
    proclaimed: str | None = None


@dataclass(frozen=True)
class OnlineFiling:
    """What the municipality accepts the portal's release notification as (the release
    notification section names only notice in person, by telephone or fax, and a written
    notice mailed)."""

    counts_as_notice: bool
    counts_as_written_confirmation: bool


@dataclass(frozen=True)
class WrittenConfirmation:
    """The written notice that confirms a notice in person or by telephone (the release
    notification section: "addressed and mailed"): what it should contain (a reading, the law
    is silent) and whether a signed printed copy of the receipt will do."""

    contents: tuple[str, ...]
    printed_receipt_accepted: bool


@dataclass(frozen=True)
class StateReporting:
    """The State's two-hour spill reporting rule, given whole wherever its hotline is named:
    "These must be reported to the hotline <within>: <petroleum>; <hazardous>." """

    within: str
    petroleum: str
    hazardous: str


@dataclass(frozen=True)
class ServiceArea:
    """A box around the municipality: where its storm sewers are, roughly."""

    name: str
    south: float
    west: float
    north: float
    east: float
    center_latitude: float
    center_longitude: float
    zoom: int

    def contains(self, latitude: float, longitude: float) -> bool:
        return self.south <= latitude <= self.north and self.west <= longitude <= self.east


@dataclass(frozen=True)
class Colours:
    """The municipality's colours as #rrggbb, for what shows outside the pages (an installed
    app's title bar and splash screen)."""

    brand: str = "#0b4f6c"
    background: str = "#ffffff"


HEX_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")


@dataclass(frozen=True)
class MapTiles:
    """Where map pictures come from: an {z}/{x}/{y} URL template and the credit it requires."""

    url: str
    attribution: str
    attribution_url: str | None
    max_zoom: int


@dataclass(frozen=True)
class HazardRule:
    """What marks a resident's report as hazardous: indicator codes, smell codes, words."""

    name: str
    indicators: tuple[str, ...]
    odors: tuple[str, ...]
    words: tuple[str, ...]


def _hazard_rule(fields: _Fields) -> HazardRule:
    def strings(key: str) -> tuple[str, ...]:
        return tuple(str(v).strip().lower() for v in fields.values(key, optional=True))

    rule = HazardRule(
        fields.text("name"), strings("indicators"), strings("odors"), strings("words")
    )
    if not (rule.indicators or rule.odors or rule.words):
        raise fields.fail("words", "a rule needs indicators, odors or words")
    return rule


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
    state_reporting: StateReporting
    holidays: HolidayRules
    timezone: ZoneInfo
    service_area: ServiceArea
    referral_agencies: tuple[str, ...]
    reporting_year_starts: tuple[int, int]
    map_tiles: MapTiles | None
    hazard_rules: tuple[HazardRule, ...]
    colours: Colours = Colours()

    @property
    def notice_fax(self) -> str | None:
        """Where a notice by fax (the release notification section) can be sent: the office's
        fax, else the officer's. None: no number is published, so fax is not offered."""
        return self.office.fax or self.smo_fax


REQUIRED_PHONES = ("emergency", "police", "spill_hotline")


def _phone(fields: _Fields) -> Phone:
    return Phone(label=fields.text("label"), number=fields.text("number"))


def _holiday(fields: _Fields) -> Holiday:
    month = fields.integer("month")
    if not 1 <= month <= 12:
        raise fields.fail("month", "must be 1 to 12")

    def weekday_of(key: str) -> int | None:
        name = fields.text(key, optional=True)
        if name is None:
            return None
        if name.lower() not in WEEKDAYS:
            raise fields.fail(key, f"must be a weekday name, not {name!r}")
        return WEEKDAYS.index(name.lower())

    day, weekday, nth = (
        fields.integer("day", True),
        weekday_of("weekday"),
        fields.integer("nth", True),
    )
    after_first = weekday_of("after_first")
    if day is not None:
        try:
            dt.date(2000, month, day)  # a leap year, so February 29 passes
        except ValueError:
            raise fields.fail("day", f"month {month} has no day {day}") from None
    elif weekday is None or (nth is None) == (after_first is None):
        raise fields.fail("day", "give a day, or a weekday with nth or after_first")
    elif nth is not None and nth not in (-1, 1, 2, 3, 4):
        raise fields.fail("nth", "must be 1 to 4, or -1 for the last")
    return Holiday(
        name=fields.text("name"),
        month=month,
        day=day,
        weekday=weekday,
        nth=nth,
        after_first=after_first,
        shift=fields.flag("shift", True),
    )


def _clock_time(fields: _Fields, key: str) -> dt.time:
    text = fields.text(key)
    try:
        return dt.time.fromisoformat(text)
    except ValueError:
        raise fields.fail(key, f"{text!r} is not a time like 16:00") from None


def _closure(fields: _Fields, index: int, value: Any) -> dt.date:
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        raise fields.fail(f"closures[{index}]", f"{value!r} is not a date (YYYY-MM-DD)") from None


def _service_area(fields: _Fields) -> ServiceArea:
    center = fields.mapping("center")
    area = ServiceArea(
        name=fields.text("name"),
        south=fields.number("south", -90, 90),
        west=fields.number("west", -180, 180),
        north=fields.number("north", -90, 90),
        east=fields.number("east", -180, 180),
        center_latitude=center.number("latitude", -90, 90),
        center_longitude=center.number("longitude", -180, 180),
        zoom=int(center.number("zoom", 1, 19)),
    )
    if area.south >= area.north or area.west >= area.east:
        raise fields.fail("south", "the box must have south < north and west < east")
    if not area.contains(area.center_latitude, area.center_longitude):
        raise center.fail("latitude", "the center must lie inside the box")
    return area


def _colours(fields: _Fields) -> Colours:
    fields.known("colours")  # may be null
    if fields.data.get("colours") is None:
        return Colours()
    colours = fields.mapping("colours")
    values = {key: colours.text(key) for key in ("brand", "background")}
    for key, value in values.items():
        if not HEX_COLOUR.match(value):
            raise colours.fail(key, f"must be a colour like #0b4f6c, not {value!r}")
    return Colours(**values)


def _map_tiles(fields: _Fields) -> MapTiles | None:
    fields.known("map_tiles")  # may be null
    if fields.data.get("map_tiles") is None:
        return None  # no map: the report form does not offer one
    tiles = fields.mapping("map_tiles")
    url = tiles.text("url")
    if not url.startswith("https://") or not all(p in url for p in ("{z}", "{x}", "{y}")):
        raise tiles.fail("url", "must be an https:// address with {z}, {x} and {y} in it")
    max_zoom = tiles.integer("max_zoom")
    if not 1 <= max_zoom <= 22:
        raise tiles.fail("max_zoom", "must be 1 to 22")
    return MapTiles(
        url=url,
        attribution=tiles.text("attribution"),
        attribution_url=tiles.text("attribution_url", optional=True),
        max_zoom=max_zoom,
    )


def _timezone(fields: _Fields) -> ZoneInfo:
    name = fields.text("timezone")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise fields.fail("timezone", f"{name!r} is not a known time zone") from None


def _month_day(fields: _Fields, key: str) -> tuple[int, int]:
    text = fields.text(key)
    try:
        day = dt.date.fromisoformat(f"2001-{text}")  # a year that is not a leap year
    except ValueError:
        raise fields.fail(key, f"{text!r} is not a month and day like 01-03") from None
    return day.month, day.day


def _texts(fields: _Fields, key: str) -> tuple[str, ...]:
    """A required, non-empty list of non-empty texts."""
    values = fields.values(key)
    if not values or not all(isinstance(v, str) and v.strip() for v in values):
        raise fields.fail(key, "must be a list of non-empty texts")
    return tuple(v.strip() for v in values)


def _location(office: _Fields) -> dict[str, float]:
    """The office's optional `location: {latitude, longitude}`."""
    office.known("location")  # may be null
    if office.data.get("location") is None:
        return {}
    where = office.mapping("location")
    return {
        "latitude": where.number("latitude", -90, 90),
        "longitude": where.number("longitude", -180, 180),
    }


def load_settings(path: Path) -> Settings:
    settings, fields = _settings(path)
    fields.refuse_unknown()
    return settings


def unknown_settings(path: Path) -> list[ContentError]:
    """Each field of site.yaml that nothing reads (the checker names every one)."""
    return _settings(path)[1].unknown()


def _settings(path: Path) -> tuple[Settings, _Fields]:
    fields = _Fields(_read_yaml(path), path.name)
    town, office, smo = (
        fields.mapping("municipality"),
        fields.mapping("office"),
        fields.mapping("smo"),
    )
    phones_map = fields.mapping("phones")
    phones = {key: _phone(phones_map.mapping(key)) for key in phones_map.data}
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
            opens=_clock_time(office, "opens"),
            closes=_clock_time(office, "closes"),
            email=office.text("email", optional=True),
            fax=office.text("fax", optional=True),
            office_hours_apply_to_fax=office.flag("office_hours_apply_to_fax", False),
            **_location(office),
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
            contents=_texts(confirmation, "contents"),
            # The municipality's decision: off unless the content turns it on.
            printed_receipt_accepted=confirmation.flag("printed_receipt_accepted", False),
        ),
        record_keeping_reading=fields.text("record_keeping_reading"),
        state_reporting=StateReporting(
            within=state.text("within"),
            petroleum=state.text("petroleum"),
            hazardous=state.text("hazardous"),
        ),
        holidays=HolidayRules(
            observed=tuple(_holiday(item) for item in holidays.records("observed")),
            closures=tuple(
                _closure(holidays, i, v) for i, v in enumerate(holidays.values("closures", True))
            ),
            sunday_to_monday=holidays.flag("sunday_to_monday", True),
            # GCL § 24 has no Saturday rule: off unless the content turns it on.
            saturday_to_friday=holidays.flag("saturday_to_friday", False),
            source=holidays.text("source"),
            proclaimed=holidays.text("proclaimed", optional=True),
        ),
        timezone=_timezone(fields),
        service_area=_service_area(fields.mapping("service_area")),
        referral_agencies=tuple(str(a) for a in fields.values("referral_agencies")),
        reporting_year_starts=_month_day(fields, "reporting_year_starts"),
        map_tiles=_map_tiles(fields),
        hazard_rules=tuple(_hazard_rule(rule) for rule in fields.records("hazard_rules")),
        colours=_colours(fields),
    )
    return settings, fields


# ---------------------------------------------------------------- the ordinance


@dataclass(frozen=True)
class Provision:
    """A paragraph of the law, or a lettered or numbered subdivision with its own items."""

    label: str | None
    text: str
    anchor: str | None
    items: tuple[Provision, ...]


@dataclass(frozen=True)
class Definition:
    term: str
    slug: str
    body: tuple[Provision, ...]


@dataclass(frozen=True)
class Section:
    number: str
    title: str
    body: tuple[Provision, ...]
    definitions: tuple[Definition, ...]

    @property
    def anchor(self) -> str:
        return f"sec-{self.number}"


@dataclass(frozen=True)
class ChapterHead:
    history: str
    references_heading: str
    references: tuple[str, ...]
    adoption: str


@dataclass(frozen=True)
class Ordinance:
    chapter: str
    article: str
    title: str
    head: ChapterHead
    sections: tuple[Section, ...]
    # The section that does each job, by role ("release_notification": "N-12" in Chapter N): pages,
    # forms and mail cite a section through its role, never by a number of their own.
    roles: dict[str, str]

    @property
    def spill_section(self) -> str:
        """The section that tells a facility how to report a spill or release."""
        return self.roles["release_notification"]

    @cached_property
    def by_number(self) -> dict[str, Section]:
        return {section.number: section for section in self.sections}

    @property
    def definitions(self) -> tuple[Definition, ...]:
        return tuple(d for section in self.sections for d in section.definitions)

    def defined(self, slug: str) -> str | None:
        """The words of a defined term ('hazardous-materials'), or None if the law has none."""
        for definition in self.definitions:
            if definition.slug == slug:
                return " ".join(part.text for part in definition.body)
        return None


# The roles every ordinance must name a section for (pages and mail cite them).
REQUIRED_ROLES = (
    "definitions",
    "enforcement_officer",
    "exemptions",
    "release_notification",
    "penalties",
)


def _provisions(fields: _Fields, key: str, anchor: str | None) -> tuple[Provision, ...]:
    """Read a list of provisions; labelled ones get an anchor such as 'sec-N-6-a-1'."""
    result = []
    for item in fields.records(key, optional=True):
        label = item.text("label", optional=True)
        if label is not None and not LABEL.match(label):
            raise item.fail("label", f"{label!r} is not a label like A., (1) or (a)")
        own = f"{anchor}-{slugify(label)}" if label and anchor else None
        result.append(Provision(label, item.text("text"), own, _provisions(item, "items", own)))
    return tuple(result)


def load_ordinance(path: Path) -> Ordinance:
    return ordinance_from(_read_yaml(path), path.name)


def ordinance_from(data: Any, file: str = "ordinance.yaml") -> Ordinance:
    """The ordinance from its parsed YAML (`file` names it in errors)."""
    fields = _Fields(data, file)
    head = fields.mapping("head")
    chapter = fields.text("chapter")
    sections, seen = [], set()
    for item in fields.records("sections"):
        number = item.text("number")
        if not SECTION_NUMBER.match(number) or not number.startswith(f"{chapter}-"):
            raise item.fail("number", f"{number!r} is not a section of chapter {chapter}")
        if number in seen:
            raise item.fail("number", f"{number} appears twice")
        seen.add(number)
        definitions = tuple(
            Definition(d.text("term"), slugify(d.text("term")), _provisions(d, "body", None))
            for d in item.records("definitions", optional=True)
        )
        sections.append(
            Section(
                number=number,
                title=item.text("title"),
                body=_provisions(item, "body", f"sec-{number}"),
                definitions=definitions,
            )
        )
    if not sections:
        raise fields.fail("sections", "must list the sections")
    roles_map = fields.mapping("roles")
    roles = {role: roles_map.text(role) for role in REQUIRED_ROLES} | {
        str(role): str(number) for role, number in roles_map.data.items()
    }
    roles_map.known(*map(str, roles_map.data))  # a pack may name roles of its own
    for role, number in roles.items():
        if number not in seen:
            raise roles_map.fail(role, f"§ {number} is not in the ordinance")
    result = Ordinance(
        chapter=chapter,
        article=fields.text("article"),
        title=fields.text("title"),
        head=ChapterHead(
            history=head.text("history"),
            references_heading=head.text("references_heading"),
            references=tuple(str(r) for r in head.values("references")),
            adoption=head.text("adoption"),
        ),
        sections=tuple(sections),
        roles=roles,
    )
    fields.refuse_unknown()
    return result


# ---------------------------------------------------------------- exempt discharges


@dataclass(frozen=True)
class ExemptDischarge:
    name: str
    slug: str
    note: str
    keywords: tuple[str, ...] = ()
    learn: str | None = None  # the slug of a learn page that says more


@dataclass(frozen=True)
class Question:
    """A common question, answered plainly, with a learn page that says more (optional)."""

    question: str
    answer: str
    learn: str | None = None


@dataclass(frozen=True)
class ConditionalAllowance:
    label: str
    title: str
    note: str


@dataclass(frozen=True)
class ExemptList:
    section: str
    intro: str
    entries: tuple[ExemptDischarge, ...]
    conditional: tuple[ConditionalAllowance, ...]
    caveat: str
    questions: tuple[Question, ...] = ()


def load_exempt(path: Path, ordinance: Ordinance) -> ExemptList:
    fields = _Fields(_read_yaml(path), path.name)
    section = fields.text("section")
    if section not in ordinance.by_number:
        raise fields.fail("section", f"§ {section} is not in the ordinance")
    law_text = " ".join(_all_text(ordinance.by_number[section].body))
    entries = []
    for item in fields.records("entries"):
        name = item.text("name")
        # Each entry quotes the law: a name the law does not use is a typo to catch here.
        if name not in law_text:
            raise item.fail("name", f"{name!r} is not in the words of § {section}")
        entries.append(
            ExemptDischarge(
                name, slugify(name), item.text("note"), _keywords(item), item.text("learn", True)
            )
        )
    conditional = tuple(
        ConditionalAllowance(c.text("label"), c.text("title"), c.text("note"))
        for c in fields.records("conditional")
    )
    questions = tuple(
        Question(q.text("question"), q.text("answer"), q.text("learn", True))
        for q in fields.records("questions", optional=True)
    )
    result = ExemptList(
        section,
        fields.text("intro"),
        tuple(entries),
        conditional,
        fields.text("caveat"),
        questions,
    )
    fields.refuse_unknown()
    return result


def _keywords(fields: _Fields) -> tuple[str, ...]:
    """An optional `keywords` list: words or phrases people use for the thing."""
    keywords = tuple(str(k).strip() for k in fields.values("keywords", optional=True))
    if not all(keywords):
        raise fields.fail("keywords", "must be a list of words or phrases")
    return keywords


def _all_text(provisions: tuple[Provision, ...]) -> list[str]:
    return [t for p in provisions for t in (p.text, *_all_text(p.items))]


# ---------------------------------------------------------------- education pages


@dataclass(frozen=True)
class LearnPage:
    slug: str
    title: str
    summary: str
    order: int
    sections: tuple[str, ...]
    body: str
    # Words people search with that the text does not use ("oil change"): indexed, not shown.
    keywords: tuple[str, ...] = ()


FRONT_MATTER = re.compile(r"\A---\n(.*?)\n---\n(.*)\Z", re.DOTALL)
SUMMARY_LIMIT = 160


def load_learn_page(path: Path, ordinance: Ordinance) -> LearnPage:
    source = path.read_text(encoding="utf-8")
    name = f"learn/{path.name}"
    match = FRONT_MATTER.match(source)
    if not match:
        raise ContentError(f"{name}: front matter: must start with a '---' block")
    try:
        meta = parse_yaml(match.group(1))
    except yaml.YAMLError as error:
        raise ContentError(f"{name}: front matter: not valid YAML: {error}") from None
    fields = _Fields(meta, name)
    summary = fields.text("summary")
    if len(summary) > SUMMARY_LIMIT:
        raise fields.fail("summary", f"is {len(summary)} characters; keep it to {SUMMARY_LIMIT}")
    sections = tuple(str(s) for s in fields.values("sections"))
    for number in sections:
        if number not in ordinance.by_number:
            raise fields.fail("sections", f"§ {number} is not in the ordinance")
    body = match.group(2).strip()
    if not body:
        raise fields.fail("body", "is empty")
    if RAW_HTML.search(body):
        raise fields.fail("body", "must be Markdown without raw HTML")
    result = LearnPage(
        slug=path.stem,
        title=fields.text("title"),
        summary=summary,
        order=fields.integer("order"),
        sections=sections,
        body=body,
        keywords=_keywords(fields),
    )
    fields.refuse_unknown()
    return result


# ---------------------------------------------------------------- everything


@dataclass(frozen=True)
class Content:
    settings: Settings
    ordinance: Ordinance
    exempt: ExemptList
    pages: tuple[LearnPage, ...]
    open311: Open311
    # content/search.yaml (optional): words and shortcuts for the site's search.
    search: SearchWords = field(default_factory=lambda: _no_search_words())

    @cached_property
    def page_by_slug(self) -> dict[str, LearnPage]:
        return {page.slug: page for page in self.pages}


def load_content(directory: Path | str | None = None) -> Content:
    """Read and validate every file in the content directory."""
    root = Path(directory) if directory else CONTENT_DIR
    settings = load_settings(root / "site.yaml")
    ordinance = load_ordinance(root / "ordinance.yaml")
    exempt = load_exempt(root / "exempt-discharges.yaml", ordinance)
    files = sorted((root / "learn").glob("*.md"))
    if not files:
        raise ContentError("learn/: no education pages (*.md) found")
    pages = tuple(
        sorted((load_learn_page(f, ordinance) for f in files), key=lambda p: (p.order, p.slug))
    )
    slugs = {page.slug for page in pages}
    for kind, items in (("entries", exempt.entries), ("questions", exempt.questions)):
        for i, item in enumerate(items):
            if item.learn is not None and item.learn not in slugs:
                raise ContentError(
                    f"exempt-discharges.yaml: {kind}[{i}].learn: no page learn/{item.learn}.md"
                )
    from content_model.open311 import load_open311  # it reads fields as this module does
    from content_model.search_words import load_search_words

    return Content(
        settings,
        ordinance,
        exempt,
        pages,
        load_open311(root / "open311.yaml"),
        load_search_words(root / "search.yaml", ordinance),
    )


def _no_search_words() -> SearchWords:
    from content_model.search_words import SearchWords

    return SearchWords()
