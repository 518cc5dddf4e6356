"""content/outfalls.yaml: how often each outfall is screened, and whether the inventory is
public. The file is optional: a pack without it gets the defaults below (a pack adopted
before the inventory existed keeps working), and a file that is there is checked whole."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from content_model.fields import CONTENT_DIR, Fields, read_yaml

FILE = "outfalls.yaml"
# Where the portal serves the inventory when it is public (the site's proxy passes it on).
OPEN_DATA_PATH = "/open-data/"
# The State's MS4 permit asks that every outfall be screened at least once in five years.
DEFAULT_EVERY_YEARS = 5
# Our readings where the permit is silent (content/outfalls.yaml says them): an outfall never
# screened is due `every_years` after its inventory day (None here: portal/outfalls/rotation.py,
# NEVER_SCREENED_CYCLE; a pack may give a number of days instead); a suspect or obvious call
# is screened again within 30 days, not a whole cycle later.
DEFAULT_FIRST_WITHIN_DAYS = None
DEFAULT_FOLLOW_UP_WITHIN_DAYS = 30
# Our reading of "dry weather" (the Outfall Reconnaissance Inventory is made in dry weather;
# the permit does not define it): at least 72 hours since a rain of more than 0.1 inch, the
# definition many MS4 programmes' dry-weather screening plans use. A sheet made sooner is a
# wet-weather visit, kept but not counted as a dry-weather screening.
DEFAULT_DRY_WEATHER_HOURS = 72
DEFAULT_DRY_WEATHER_RAIN_INCHES = 0.1
# The earliest day a screening may be dated (a sanity limit on typing: "1901" is a slip).
DEFAULT_EARLIEST_SCREENING = dt.date(1990, 1, 1)


@dataclass(frozen=True)
class OutfallSettings:
    """The rotation (every outfall screened at least once in `every_years`) and whether
    the inventory's GeoJSON is open to anyone (`public`) or to signed-in staff only."""

    every_years: int = DEFAULT_EVERY_YEARS
    public: bool = False
    # Days after entering the inventory an outfall never screened is due (0: at once; None:
    # `every_years` after it, our reading).
    first_within_days: int | None = DEFAULT_FIRST_WITHIN_DAYS
    # Days after a suspect or obvious call the outfall is due to be screened again.
    follow_up_within_days: int = DEFAULT_FOLLOW_UP_WITHIN_DAYS
    # Where a printed route starts when no start is given: a name and a place (optional).
    route_start_name: str | None = None
    route_start: tuple[float, float] | None = None
    # The first day of the MS4 permit term the annual figures count screenings in (None:
    # the `every_years` up to the end of the period reported on, our reading).
    permit_term_starts: dt.date | None = None
    # Hours after a rain of more than `dry_weather_rain_inches` before a visit is in dry weather.
    dry_weather_hours: int = DEFAULT_DRY_WEATHER_HOURS
    dry_weather_rain_inches: float = DEFAULT_DRY_WEATHER_RAIN_INCHES
    # The earliest day the sheet accepts (older sheets are refused as a slip of the keys).
    earliest_screening: dt.date = DEFAULT_EARLIEST_SCREENING

    def wet_weather(self, hours: float | None, inches: float | None) -> bool:
        """A visit fewer than `dry_weather_hours` after a rain of more than
        `dry_weather_rain_inches` (or of an amount not recorded). Hours not recorded: not
        wet (our reading: the sheet is made for dry weather, the officer chose to screen)."""
        if hours is None or hours >= self.dry_weather_hours:
            return False
        return inches is None or inches > self.dry_weather_rain_inches


def load_outfall_settings(directory: Path | str | None = None) -> OutfallSettings:
    """Read content/outfalls.yaml if the pack has one; every error names the file and field."""
    path = Path(directory or CONTENT_DIR) / FILE
    if not path.exists():
        return OutfallSettings()
    fields = Fields(read_yaml(path), FILE)
    screening = fields.mapping("screening")
    years = screening.integer("every_years")
    if not 1 <= years <= 20:
        raise screening.fail("every_years", "must be a whole number of years from 1 to 20")
    first = _days(screening, "never_screened_due_within_days", DEFAULT_FIRST_WITHIN_DAYS)
    follow_up = _days(screening, "rescreen_suspect_within_days", DEFAULT_FOLLOW_UP_WITHIN_DAYS)
    dry_hours = screening.integer("dry_weather_hours", optional=True)
    if dry_hours is None:
        dry_hours = DEFAULT_DRY_WEATHER_HOURS
    elif not 1 <= dry_hours <= 720:
        raise screening.fail("dry_weather_hours", "must be a whole number of hours from 1 to 720")
    dry_rain = DEFAULT_DRY_WEATHER_RAIN_INCHES
    if screening.data.get("dry_weather_rain_inches") is not None:
        dry_rain = screening.number("dry_weather_rain_inches", 0, 10)
    else:
        screening.known("dry_weather_rain_inches")
    earliest = _day(screening, "earliest_screening") or DEFAULT_EARLIEST_SCREENING
    open_data = fields.mapping("open_data")
    public = open_data.flag("public", False)
    start, start_name = None, None
    fields.known("route_start")
    if fields.data.get("route_start") is not None:
        route = fields.mapping("route_start")
        start_name = route.text("name")
        start = (route.number("latitude", -90, 90), route.number("longitude", -180, 180))
    term = _day(fields, "permit_term_starts")
    fields.refuse_unknown()
    return OutfallSettings(
        every_years=years,
        public=public,
        route_start_name=start_name,
        route_start=start,
        first_within_days=first,
        follow_up_within_days=follow_up,
        permit_term_starts=term,
        dry_weather_hours=dry_hours,
        dry_weather_rain_inches=dry_rain,
        earliest_screening=earliest,
    )


def _day(fields: Fields, key: str) -> dt.date | None:
    """An optional day, written 2024-01-03 (YAML reads it as a date, or as text quoted)."""
    fields.known(key)
    value = fields.data.get(key)
    if value is None or (isinstance(value, dt.date) and not isinstance(value, dt.datetime)):
        return value
    try:
        return dt.date.fromisoformat(str(value).strip())
    except ValueError:
        raise fields.fail(key, "must be a day written like 2024-01-03") from None


def _days(fields: Fields, key: str, default: int | None) -> int | None:
    """An optional number of days from 0 to 3650 (ten years); left out or null, `default`."""
    days = fields.integer(key, optional=True)
    if days is None:
        return default
    if not 0 <= days <= 3650:
        raise fields.fail(key, "must be a whole number of days from 0 to 3650")
    return days
