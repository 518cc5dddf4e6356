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
        every_years=years, public=public, route_start_name=start_name, route_start=start,
        first_within_days=first, follow_up_within_days=follow_up, permit_term_starts=term,
    )  # fmt: skip


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
