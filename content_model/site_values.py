"""The values site.yaml holds, each type beside the reader that builds it from its fields:
the loader (content_model/site.py) and the content checker (content_model/check/site.py)
read a value with the same function, so both judge it alike."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from content_model.fields import Fields

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def N_(text: str) -> str:
    """Marks words for the catalogues (`make messages`) that templates translate when shown."""
    return text


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
    # The holidays a Sunday does not move (shift: false), named for the pages where the
    # count is explained ("Flag Day"); required when there are any (reading R2).
    not_moved: str | None = None


@dataclass(frozen=True)
class OnlineFiling:
    """What the municipality accepts the portal's release notification as (the release
    notification section names only notice in person, by telephone or fax, and a written
    notice mailed)."""

    counts_as_notice: bool
    counts_as_written_confirmation: bool

    @property
    def name(self) -> str:
        """What public pages and mail call the filing: the law's own word ("notification",
        the release notification section) only when the municipality accepts it as the notice."""
        return N_("release notification") if self.counts_as_notice else N_("record of a release")

    @property
    def short(self) -> str:
        """The same in one word ("Check your record")."""
        return N_("notification") if self.counts_as_notice else N_("record")


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

    def outside(self, latitude: float, longitude: float) -> str:
        """Why a place is refused, in the words the import, the edit form and the content
        check share."""
        return (
            f"{latitude:.5f}, {longitude:.5f} is outside the service area ({self.name}:"
            f" latitude {self.south:g} to {self.north:g}, longitude {self.west:g} to"
            f" {self.east:g})"
        )


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
    """What marks a resident's report as hazardous: indicator codes, smell codes, words; and
    how dangerous what it points to is (a key of DANGERS), for the queue's order."""

    name: str
    indicators: tuple[str, ...]
    odors: tuple[str, ...]
    words: tuple[str, ...]
    danger: str = "hazardous"


# How dangerous a hazard is, most dangerous first: the staff queue's order (portal/staff/
# danger.py's danger_rank). The ordinance defines hazardous materials but ranks none above
# another: this order is our reading of what an officer goes to first, said so on the queue
# page.
DANGERS = {
    "fire": "a fire or explosion risk",
    "health": "vapor, or someone feeling ill",
    "fuel": "fuel or petroleum",
    "hazardous": "other hazardous materials",
}


def read_hazard_rule(fields: Fields) -> HazardRule:
    def strings(key: str) -> tuple[str, ...]:
        return tuple(str(v).strip().lower() for v in fields.values(key, optional=True))

    danger = fields.text("danger", optional=True) or "hazardous"
    if danger not in DANGERS:
        raise fields.fail("danger", f"must be one of {', '.join(DANGERS)}")
    rule = HazardRule(
        fields.text("name"), strings("indicators"), strings("odors"), strings("words"), danger
    )
    if not (rule.indicators or rule.odors or rule.words):
        raise fields.fail("words", "a rule needs indicators, odors or words")
    return rule


def read_phone(fields: Fields) -> Phone:
    return Phone(label=fields.text("label"), number=fields.text("number"))


def read_holiday(fields: Fields) -> Holiday:
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


def read_clock_time(fields: Fields, key: str) -> dt.time:
    text = fields.text(key)
    try:
        return dt.time.fromisoformat(text)
    except ValueError:
        raise fields.fail(key, f"{text!r} is not a time like 16:00") from None


def read_closure(fields: Fields, index: int, value: Any) -> dt.date:
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        raise fields.fail(f"closures[{index}]", f"{value!r} is not a date (YYYY-MM-DD)") from None


def read_service_area(fields: Fields) -> ServiceArea:
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


def read_colours(fields: Fields) -> Colours:
    fields.known("colours")  # may be null
    if fields.data.get("colours") is None:
        return Colours()
    colours = fields.mapping("colours")
    values = {key: colours.text(key) for key in ("brand", "background")}
    for key, value in values.items():
        if not HEX_COLOUR.match(value):
            raise colours.fail(key, f"must be a colour like #0b4f6c, not {value!r}")
    return Colours(**values)


def read_map_tiles(fields: Fields) -> MapTiles | None:
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


def read_timezone(fields: Fields) -> ZoneInfo:
    name = fields.text("timezone")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise fields.fail("timezone", f"{name!r} is not a known time zone") from None


def read_month_day(fields: Fields, key: str) -> tuple[int, int]:
    """A month and day that every year has: the permit year cannot start on a day missing
    in three years of four (the annual report would have no year to show)."""
    text = fields.text(key)
    try:
        day = dt.date.fromisoformat(f"2000-{text}")  # a leap year: 02-29 parses, to be named
    except ValueError:
        raise fields.fail(key, f"{text!r} is not a month and day like 01-03") from None
    if (day.month, day.day) == (2, 29):
        raise fields.fail(
            key, "February 29 is not a date in three years of four, so no year could start on it"
        )
    return day.month, day.day


def read_texts(fields: Fields, key: str) -> tuple[str, ...]:
    """A required, non-empty list of non-empty texts."""
    values = fields.values(key)
    if not values or not all(isinstance(v, str) and v.strip() for v in values):
        raise fields.fail(key, "must be a list of non-empty texts")
    return tuple(v.strip() for v in values)


def read_location(office: Fields) -> dict[str, float]:
    """The office's optional `location: {latitude, longitude}`."""
    office.known("location")  # may be null
    if office.data.get("location") is None:
        return {}
    where = office.mapping("location")
    return {
        "latitude": where.number("latitude", -90, 90),
        "longitude": where.number("longitude", -180, 180),
    }
