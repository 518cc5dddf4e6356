"""Checking an inventory's rows (portal/outfalls/readers.py's Sheet) before anything is
stored: each row becomes a Record to store or a Refusal with its number, the field and why;
the rest are imported. An id found on two rows of one file refuses both (which is right
cannot be told). Sizes and days are read in the forms people write them; a word no list
knows is kept as "other" with its words (an Other, listed in the report). Pure.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from content_model.site import ServiceArea
from portal.outfalls.choices import NOT_RECORDED, OTHER, VOCABULARIES, code_for, labels, plain
from portal.outfalls.readers import Row, Sheet

MAX_CODE = 40
MAX_TEXT = 2000
# The words of a value kept as "other" (a material, a kind): a few words, not a note.
MAX_OTHER = 200
# Compared after rounding: 7 decimals of a degree is about a centimetre.
PLACES = 7


@dataclass(frozen=True)
class Refusal:
    number: int
    field: str
    reason: str
    code: str | None = None
    # Only this cell was refused: the rest of the row was imported (a bad date).
    cell_only: bool = False

    @property
    def words(self) -> str:
        """The reason, and for a cell refused alone, that the row came in without it."""
        if self.cell_only:
            return f"{self.reason} (left out; the rest of the row is imported)"
        return self.reason


@dataclass(frozen=True)
class Other:
    """A word no list knows, kept: the row's number, the file's column, its words and the
    label it is stored under ("Other material")."""

    number: int
    field: str
    text: str
    code: str
    stored_as: str
    kind: bool = False  # the structure's kind: "other" is off the screening rotation

    @property
    def words(self) -> str:
        said = f"{self.text!r} kept as {self.stored_as}, with the file's words"
        if self.kind:
            said += " (only outfalls are on the screening rotation: set its kind on its page)"
        return said


@dataclass(frozen=True)
class Record:
    """A row that passed: the values it gives (empty cells left out) by column name, and
    the words it gave that were kept as "other"."""

    number: int
    code: str
    values: dict[str, Any]
    others: list[Other] = field(default_factory=list)


# Whether the receiving water is impaired or a priority waterbody: "yes", "no" or not recorded.
IMPAIRED = "impaired_water"
# How files say it (compared after `plain()`): a GIS yes/no field, a dBASE logical (True).
YES_WORDS = {"yes", "y", "true", "t", "1", "impaired", "priority", "303d", "303 d"}
NO_WORDS = {"no", "n", "false", "f", "0", "not impaired"}
# The fields a staff member reads and edits, in the order of the forms.
TEXT_FIELDS = ("location", "owner", "receiving_water", "drainage_area", "notes")
SIZE_FIELDS = ("size_in", "height_in")
STORED_FIELDS = (
    "structure_type",
    OTHER["structure_type"],
    "latitude",
    "longitude",
    "location",
    "owner",
    "conveyance",
    OTHER["conveyance"],
    "material",
    OTHER["material"],
    "shape",
    OTHER["shape"],
    "size_in",
    "height_in",
    "receiving_water",
    IMPAIRED,
    "drainage_area",
    "condition",
    OTHER["condition"],
    "notes",
    "inventoried_on",
)
# What an import may change: the fields, and (added beside those stored, never over them)
# a day the structure was screened on paper.
PAPER_DAY = "last_screened_on"
IMPORTED_FIELDS = (*STORED_FIELDS, PAPER_DAY)
# The days a row gives, each refused alone: the rest of the row is imported all the same.
DAY_FIELDS = (PAPER_DAY, "inventoried_on")
# A shapefile's geometry column is called "Shape" in ArcGIS exports, holding "Point".
GEOMETRY_WORDS = {"point", "point z", "point m", "point zm", "multipoint"}


def _cell(cells: Mapping[str, Any], column: str | None) -> str:
    if column is None:
        return ""
    value = cells.get(column)
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()


_SIZE = re.compile(
    r"^(?P<a>\d+(?:\.\d+)?)\s*(?P<ua>in(?:ch(?:es)?)?|\"|″|ft|'|mm|cm)?"
    r"(?:\s*[x×]\s*(?P<b>\d+(?:\.\d+)?)\s*(?P<ub>in(?:ch(?:es)?)?|\"|″|ft|'|mm|cm)?)?$",
    re.IGNORECASE,
)
_TO_INCHES = {
    "": 1,
    "in": 1,
    "inch": 1,
    "inches": 1,
    '"': 1,
    "″": 1,
    "ft": 12,
    "'": 12,
    "mm": 1 / 25.4,
    "cm": 1 / 2.54,
}


def parse_size(text: str) -> tuple[float, float | None]:
    """Inches from "24", '24"', "2 ft", "600 mm", "24x36" (width, height): raises ValueError."""
    match = _SIZE.match(text.strip())
    if not match:
        raise ValueError(text)
    unit_a = (match["ua"] or match["ub"] or "").lower()
    unit_b = (match["ub"] or match["ua"] or "").lower()
    first = round(float(match["a"]) * _TO_INCHES[unit_a], 2)
    second = round(float(match["b"]) * _TO_INCHES[unit_b], 2) if match["b"] else None
    if first <= 0 or (second is not None and second <= 0):
        raise ValueError(text)
    return first, second


_US_DAY = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$")
# Milliseconds since 1970 (how ArcGIS writes a date field into GeoJSON): from 1990 to 2100.
_EPOCH_MS = re.compile(r"^\d{12,13}$")


def parse_day(text: str) -> dt.date:
    """A day as files give it: 2024-05-17 (a time after it is ignored), 5/17/2024 (month
    first, as in the United States), 20240517 (a shapefile's date field), or milliseconds
    since 1970 (ArcGIS's GeoJSON). Raises ValueError."""
    text = text.strip()
    if match := _US_DAY.match(text):
        month, day, year = (int(part) for part in match.groups())
        return dt.date(year, month, day)
    if _EPOCH_MS.match(text):
        return dt.datetime.fromtimestamp(int(text) / 1000, dt.UTC).date()
    if re.match(r"^\d{8}$", text):
        return dt.date(int(text[:4]), int(text[4:6]), int(text[6:]))
    return dt.date.fromisoformat(re.split(r"[T ]", text, maxsplit=1)[0])


def _coordinate(text: str, name: str, low: float, high: float) -> float:
    cleaned = text.replace("°", "").strip()
    try:
        value = float(cleaned)
    except ValueError:
        raise ValueError(f"{name} {text!r} is not a number of degrees") from None
    if not math.isfinite(value) or not low <= value <= high:
        hint = ""
        if abs(value) > 1000:
            hint = " (is the file in State Plane feet or UTM metres? export it in degrees)"
        elif name == "latitude" and abs(value) > 90:
            hint = " (latitude and longitude swapped?)"
        raise ValueError(f"{name} {text} is not between {low:g} and {high:g}{hint}")
    return value


def check_rows(
    sheet: Sheet, area: Any, today: dt.date | None = None
) -> tuple[list[Record], list[Refusal]]:
    """Each row as a record to store, or refused with its field and reason (`area`: an Area
    or the content's service area; `today`: a last screening after it is refused)."""
    columns = sheet.columns
    records: list[Record] = []
    refusals: list[Refusal] = []
    for row in sheet.rows:
        outcome, cells = _check_row(row, columns, area, today)
        (records if isinstance(outcome, Record) else refusals).append(outcome)
        refusals.extend(cells)
    # An id on two rows refuses both: which one is right cannot be told from the file.
    seen: dict[str, list[int]] = {}
    for record in records:
        seen.setdefault(record.code.casefold(), []).append(record.number)
    twice = {code: numbers for code, numbers in seen.items() if len(numbers) > 1}
    if twice:
        kept = []
        for record in records:
            numbers = twice.get(record.code.casefold())
            if numbers is None:
                kept.append(record)
                continue
            others = ", ".join(str(n) for n in numbers if n != record.number)
            many = "s" if len(numbers) > 2 else ""
            refusals.append(
                Refusal(
                    record.number,
                    columns["code"],
                    f"{record.code} is also on {sheet.unit}{many} {others} of this file:"
                    " keep one and import again",
                    record.code,
                )
            )
        records = kept
    refusals.sort(key=lambda refusal: refusal.number)
    return records, refusals


def _check_row(
    row: Row, columns: dict[str, str], area: ServiceArea, today: dt.date | None = None
) -> tuple[Record | Refusal, list[Refusal]]:
    """One row as a record, or refused naming the file's own column (or "geometry"), with
    the cells refused alone (the record is stored without them)."""
    outcome = _check_fields(row, columns, area)
    if not isinstance(outcome, Record):
        return outcome, []
    cells = []
    impaired = _cell(row.cells, columns.get(IMPAIRED))
    if plain(impaired) in YES_WORDS | NO_WORDS:
        outcome.values[IMPAIRED] = "yes" if plain(impaired) in YES_WORDS else "no"
    elif plain(impaired) not in NOT_RECORDED:
        reason = f"{impaired!r} is not yes or no (is the receiving water impaired or a priority?)"
        cells.append(Refusal(row.number, columns[IMPAIRED], reason, outcome.code, cell_only=True))
    for name in DAY_FIELDS:
        text = _cell(row.cells, columns.get(name))
        if not text:
            continue
        try:
            day = parse_day(text)
        except ValueError:
            reason = f"{text!r} is not a day (like 2024-05-17 or 5/17/2024)"
        else:
            if today is None or day <= today:
                outcome.values[name] = day.isoformat()
                continue
            reason = f"{day.isoformat()} is in the future"
        cells.append(Refusal(row.number, columns[name], reason, outcome.code, cell_only=True))
    return outcome, cells


def _check_fields(row: Row, columns: dict[str, str], area: ServiceArea) -> Record | Refusal:
    """The row's id, place and fields (every one but the days), or the first one refused."""

    def refuse(name: str, reason: str, code: str | None) -> Refusal:
        return Refusal(row.number, columns.get(name, name), reason, code)

    code = _cell(row.cells, columns.get("code"))
    if not code:
        return refuse("code", "missing: every structure needs its id", None)
    if len(code) > MAX_CODE:
        return refuse("code", f"longer than {MAX_CODE} characters", code[:MAX_CODE])
    if row.problem:
        return refuse("geometry", row.problem, code)
    where = "geometry" if row.point is not None else "coordinates"
    if where == "coordinates" and "latitude" in columns and "longitude" in columns:
        where = f"{columns['latitude']}, {columns['longitude']}"
    values: dict[str, Any] = {}
    others: list[Other] = []
    try:
        if row.point is not None:
            latitude = _coordinate(str(row.point[0]), "latitude", -90, 90)
            longitude = _coordinate(str(row.point[1]), "longitude", -180, 180)
        else:
            lat_text = _cell(row.cells, columns.get("latitude"))
            lon_text = _cell(row.cells, columns.get("longitude"))
            if not lat_text or not lon_text:
                return refuse(where, "missing latitude or longitude", code)
            latitude = _coordinate(lat_text, "latitude", -90, 90)
            longitude = _coordinate(lon_text, "longitude", -180, 180)
    except ValueError as error:
        return refuse(where, str(error), code)
    if not area.contains(latitude, longitude):
        swapped = " (latitude and longitude swapped?)" if area.contains(longitude, latitude) else ""
        return refuse(where, area.outside(latitude, longitude) + swapped, code)
    values["latitude"], values["longitude"] = round(latitude, PLACES), round(longitude, PLACES)
    for name in VOCABULARIES:
        text = _cell(row.cells, columns.get(name))
        if name == "shape" and plain(text) in GEOMETRY_WORDS:
            text = ""
        if plain(text) in NOT_RECORDED:
            continue
        found = code_for(name, text)
        if found is None:
            if len(text) > MAX_OTHER:
                return refuse(name, f"longer than {MAX_OTHER} characters", code)
            found, values[OTHER[name]] = "other", text
            label = labels(name)["other"]
            kind = name == "structure_type"
            others.append(Other(row.number, columns[name], text, code, label, kind))
        values[name] = found
    for name, what in (("size_in", "size"), ("height_in", "height")):
        text = _cell(row.cells, columns.get(name))
        if not text:
            continue
        try:
            size, second = parse_size(text)
        except ValueError:
            return refuse(
                name, f"{text!r} is not a {what} in inches (like 24, 24 in, 600 mm or 24x36)", code
            )
        values[name] = size
        if second is not None and name == "size_in":
            values["height_in"] = second
    for name in TEXT_FIELDS:
        text = _cell(row.cells, columns.get(name))
        if len(text) > MAX_TEXT:
            return refuse(name, f"longer than {MAX_TEXT} characters", code)
        if text:
            values[name] = text
    return Record(row.number, code, values, others)
