"""Reading an outfall inventory from the files municipalities keep it in: GeoJSON, CSV with
latitude and longitude columns, and ESRI shapefiles (zipped, or a .shp with its .shx and
.dbf beside it). Every function here but `apply` is pure, and can be tested on its own.

Coordinates are taken as longitude and latitude in degrees on WGS 84 (EPSG:4326, GeoJSON's
own), or on NAD83 (EPSG:4269: the two differ by about a metre here, well within a GPS
fix). A file in a projected system (State Plane feet, UTM metres) is refused whole, with
what to export instead: the portal does not reproject.

One row that cannot be taken is refused alone, with its number, the field and why; the
rest are imported. An id found on two rows of one file refuses both (which is right cannot
be told). A re-import updates by id: a cell left empty keeps what is stored (a file
without a column changes nothing of it), and structures missing from the file stay.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import math
import re
import struct
import warnings
import zipfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

import shapefile

from content_model.site import ServiceArea
from portal.outfalls.choices import VOCABULARIES, accepted, code_for, plain

MAX_CODE = 40
MAX_TEXT = 2000
# Compared after rounding: 7 decimals of a degree is about a centimetre.
PLACES = 7


class FileRefused(Exception):
    """The whole file cannot be read (its kind, its columns, its coordinate system)."""


@dataclass(frozen=True)
class Row:
    """One row, feature or record of a file: its number as the file's reader counts it,
    its cells by the file's own column names, and the point its geometry gives (if any)."""

    number: int
    cells: dict[str, Any]
    point: tuple[float, float] | None = None  # (latitude, longitude)
    problem: str | None = None  # a geometry that is not a point


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
class Record:
    """A row that passed: the values it gives (empty cells left out) by column name."""

    number: int
    code: str
    values: dict[str, Any]


@dataclass
class Sheet:
    """What a file holds: its rows, what the reader calls one ("row", "feature"), the
    columns read and the ones no field uses."""

    rows: list[Row]
    unit: str
    columns: dict[str, str] = field(default_factory=dict)  # our field -> the file's column
    ignored: list[str] = field(default_factory=list)


# The file's column names each field is found under, compared after `_key()` (lower case,
# letters and digits only: "Outfall ID" and "outfall_id" are both "outfallid"). First wins.
COLUMNS = {
    "code": ("id", "outfallid", "outfall", "outfallno", "outfallnumber", "facilityid",
             "assetid", "structureid", "structid", "unitid", "gisid", "code", "name"),
    "latitude": ("latitude", "lat", "y", "pointy", "ycoord", "latdd", "latitudedd", "gpslat"),
    "longitude": ("longitude", "lon", "lng", "long", "x", "pointx", "xcoord", "londd",
                  "longdd", "longitudedd", "gpslon", "gpslong"),
    "structure_type": ("structuretype", "type", "featuretype", "assettype", "structure",
                       "feature", "class", "category"),
    "conveyance": ("conveyance", "conveyancetype", "outfalltype", "outfallkind", "kind"),
    "material": ("material", "pipematerial", "mat", "materialtype", "pipemat"),
    "shape": ("shape", "pipeshape", "shapetype"),
    "size_in": ("sizein", "size", "diameter", "diameterin", "dia", "diam", "diamin", "pipesize",
                "pipediameter", "width", "widthin"),
    "height_in": ("heightin", "height", "rise"),
    "receiving_water": ("receivingwater", "receiving", "receivingwaters", "waterbody",
                        "receivingstream",
        "recvwater",
        "rcvwater", "stream", "watercourse", "outfallto"),
    "drainage_area": ("drainagearea", "sewershed", "drainage", "subwatershed", "catchment",
                      "watershed", "drainarea", "subbasin", "basin"),
    "condition": ("condition", "cond", "conditionrating"),
    "location": ("location", "address", "street", "streetaddress", "locationdescription",
                 "description", "desc", "loc"),
    "notes": ("notes", "note", "comments", "comment", "remarks", "remark"),
    "last_screened_on": ("lastscreened", "lastscreening", "lastscreeneddate", "lastscreenedon",
                         "datescreened", "screeningdate", "lastscreendate", "lastinspected",
                         "lastinspection", "inspectiondate", "lastdryweather",
                         # A shapefile's field names have at most 10 characters (dBASE), so
                         # ArcGIS cuts LAST_SCREENED to LAST_SCREE (fresh review, 2026-12-01).
                         "lastscree", "lastscreen", "lastscrn", "lastinsp", "screendate",
                         "scrndate", "inspdate", "lastdw"),
    # The day the structure entered the inventory: mapped, installed or inventoried (the
    # annual figures count it from then; without it, from the day it was entered here).
    "inventoried_on": ("inventoriedon", "inventoried", "inventorydate", "mappedon", "mapped",
                       "datemapped", "mapdate", "installed", "installedon", "installdate",
                       "dateinstalled", "installdat", "installda"),
}  # fmt: skip
# The fields a staff member reads and edits, in the order of the forms.
TEXT_FIELDS = ("location", "receiving_water", "drainage_area", "notes")
SIZE_FIELDS = ("size_in", "height_in")
STORED_FIELDS = ("structure_type", "latitude", "longitude", "location", "conveyance",
                 "material", "shape", "size_in", "height_in", "receiving_water",
                 "drainage_area", "condition", "notes", "inventoried_on")  # fmt: skip
# What an import may change: the fields, and (added beside those stored, never over them)
# a day the structure was screened on paper.
PAPER_DAY = "last_screened_on"
IMPORTED_FIELDS = (*STORED_FIELDS, PAPER_DAY)
# The days a row gives, each refused alone: the rest of the row is imported all the same.
DAY_FIELDS = (PAPER_DAY, "inventoried_on")
# A shapefile's geometry column is called "Shape" in ArcGIS exports, holding "Point".
GEOMETRY_WORDS = {"point", "point z", "point m", "point zm", "multipoint"}


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", str(name).lower())


def match_columns(names: Iterable[str]) -> tuple[dict[str, str], list[str]]:
    """({our field: the file's column}, the file's columns left unread)."""
    by_key: dict[str, str] = {}
    for name in names:
        by_key.setdefault(_key(name), name)
    found: dict[str, str] = {}
    for our, aliases in COLUMNS.items():
        for alias in aliases:
            if alias in by_key and by_key[alias] not in found.values():
                found[our] = by_key[alias]
                break
    ignored = [name for name in names if name not in found.values()]
    return found, ignored


# ---------------------------------------------------------------- reading files


def read_file(name: str, data: bytes) -> Sheet:
    """The rows of a file, by its name's ending: .geojson/.json, .csv/.txt, or .zip (a
    shapefile's parts). Raises FileRefused with what is wrong with the whole file."""
    suffix = PurePath(name).suffix.lower()
    if suffix in (".geojson", ".json"):
        return read_geojson(data)
    if suffix in (".csv", ".txt"):
        return read_csv(data)
    if suffix == ".zip":
        return read_shapefile(_zipped_parts(data))
    raise FileRefused(
        f"{PurePath(name).name}: not a kind of file read here. Give GeoJSON (.geojson), CSV"
        " with latitude and longitude columns (.csv), or a zipped shapefile (.zip holding"
        " the .shp, .shx and .dbf)."
    )


def _text(data: bytes) -> str:
    # Excel saves CSV in the Windows code page unless told otherwise; UTF-8 first.
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def read_csv(data: bytes) -> Sheet:
    """A CSV file with a header row; rows are numbered as a spreadsheet shows them (the
    header is row 1)."""
    text = _text(data)
    first = text.split("\n", 1)[0]
    delimiter = max(",;\t", key=first.count)
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    try:
        header = next(reader)
    except StopIteration:
        raise FileRefused("The file is empty.") from None
    except csv.Error as error:
        raise FileRefused(f"The file is not CSV that can be read: {error}.") from None
    header = [name.strip() for name in header]
    rows = []
    try:
        for number, cells in enumerate(reader, start=2):
            if not any(cell.strip() for cell in cells):
                continue  # a blank line
            rows.append(Row(number, dict(zip(header, cells, strict=False))))
    except csv.Error as error:
        raise FileRefused(f"Row {reader.line_num} cannot be read as CSV: {error}.") from None
    return _sheet(rows, header, "row")


_GEOGRAPHIC_CRS = re.compile(r"(CRS84|EPSG::?(4326|4269))$", re.IGNORECASE)


def read_geojson(data: bytes) -> Sheet:
    """A GeoJSON FeatureCollection (or one Feature) of points, numbered from 1."""
    try:
        document = json.loads(_text(data))
    except ValueError as error:
        raise FileRefused(f"The file is not valid JSON: {error}.") from None
    if not isinstance(document, dict):
        raise FileRefused("The file is not GeoJSON: expected a FeatureCollection.")
    crs = document.get("crs")
    name = crs.get("properties", {}).get("name", "") if isinstance(crs, dict) else ""
    if name and not _GEOGRAPHIC_CRS.search(str(name)):
        raise FileRefused(_projected(f"its coordinate system is {name}"))
    if document.get("type") == "Feature":
        features = [document]
    elif document.get("type") == "FeatureCollection" and isinstance(document.get("features"), list):
        features = document["features"]
    else:
        raise FileRefused("The file is not GeoJSON: expected a FeatureCollection of points.")
    rows, names = [], []
    for number, feature in enumerate(features, start=1):
        if not isinstance(feature, dict):
            rows.append(Row(number, {}, None, "not a GeoJSON feature"))
            continue
        properties = feature.get("properties")
        cells = properties if isinstance(properties, dict) else {}
        for key in cells:
            if key not in names:
                names.append(key)
        point, problem = _geojson_point(feature.get("geometry"))
        rows.append(Row(number, cells, point, problem))
    return _sheet(rows, names, "feature")


def _geojson_point(geometry: Any) -> tuple[tuple[float, float] | None, str | None]:
    if geometry is None:
        return None, None  # the properties may carry latitude and longitude
    if not isinstance(geometry, dict):
        return None, "the geometry cannot be read"
    kind, coordinates = geometry.get("type"), geometry.get("coordinates")
    if kind == "MultiPoint" and isinstance(coordinates, list) and len(coordinates) == 1:
        kind, coordinates = "Point", coordinates[0]
    if kind != "Point":
        return None, f"a point is needed, and this is a {kind or 'shape of no type'}"
    if (
        not isinstance(coordinates, list)
        or len(coordinates) < 2
        or not all(_is_number(c) for c in coordinates[:2])
    ):
        return None, "the point has no longitude and latitude"
    return (float(coordinates[1]), float(coordinates[0])), None


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _zipped_parts(data: bytes) -> dict[str, bytes]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise FileRefused("The .zip file cannot be opened.") from None
    shps = [n for n in archive.namelist() if n.lower().endswith(".shp")]
    if len(shps) != 1:
        raise FileRefused(
            "The .zip must hold one shapefile (one .shp with its .shx and .dbf);"
            f" it holds {len(shps)} .shp files."
        )
    stem = shps[0][:-4]
    parts = {}
    for name in archive.namelist():
        base, dot, ending = name.rpartition(".")
        if dot and base == stem and ending.lower() in ("shp", "shx", "dbf", "prj", "cpg"):
            info = archive.getinfo(name)
            if info.file_size > 50 * 1024 * 1024:
                raise FileRefused(f"{name} is too large to read here.")
            parts[ending.lower()] = archive.read(name)
    return parts


def shapefile_parts(path: str) -> dict[str, bytes]:
    """The parts of a shapefile on disk, read from beside its .shp (for the command)."""
    from pathlib import Path

    shp = Path(path)
    parts = {}
    for sibling in shp.parent.glob(f"{shp.stem}.*"):
        ending = sibling.suffix.lower().lstrip(".")
        if ending in ("shp", "shx", "dbf", "prj", "cpg"):
            parts[ending] = sibling.read_bytes()
    return parts


# What pyshp raises on a damaged file: its own error, or a short read or a bad number deep
# inside it (a fuzzed file showed each).
DAMAGED = (shapefile.ShapefileException, struct.error, KeyError, ValueError, IndexError,
           EOFError, OverflowError)  # fmt: skip


SHP_FILE_CODE = struct.pack(">i", 9994)


def read_shapefile(parts: Mapping[str, bytes]) -> Sheet:
    """A point shapefile from its parts ({"shp": ..., "shx": ..., "dbf": ..., "prj": ...}),
    records numbered from 1."""
    missing = [ending for ending in ("shp", "shx", "dbf") if ending not in parts]
    if missing:
        raise FileRefused(
            "A shapefile comes in parts, and "
            + ", ".join(f".{m}" for m in missing)
            + " is missing: give the .shp, .shx and .dbf together (zip them)."
        )
    # Every .shp starts with the file code 9994 (big-endian); without it (a zip of zeros,
    # fresh review 2026-12-01) the file is damaged, whatever pyshp would make of it.
    if parts["shp"][:4] != SHP_FILE_CODE:
        raise FileRefused("The shapefile cannot be read (is it damaged?): its .shp does not"
                          " start as a shapefile does. Export it again.")  # fmt: skip
    prj = parts.get("prj", b"").decode("latin-1").strip()
    if prj and not prj.upper().startswith("GEOGCS"):
        system = re.match(r'\s*PROJCS\["([^"]+)"', prj)
        raise FileRefused(_projected(f"it is in {system.group(1) if system else 'a projection'}"))
    encoding = parts.get("cpg", b"").decode("ascii", errors="ignore").strip() or "utf-8"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a damaged header: the reading below decides
            reader = shapefile.Reader(
                shp=io.BytesIO(parts["shp"]),
                shx=io.BytesIO(parts["shx"]),
                dbf=io.BytesIO(parts["dbf"]),
                encoding=_python_encoding(encoding),
                encodingErrors="replace",
            )
            names = [f[0] for f in reader.fields[1:]]
            rows = []
            for number, item in enumerate(reader.iterShapeRecords(), start=1):
                point, problem = _shape_point(item.shape)
                rows.append(Row(number, item.record.as_dict(), point, problem))
    except DAMAGED as error:
        raise FileRefused(f"The shapefile cannot be read (is it damaged?): {error}.") from None
    return _sheet(rows, names, "record")


def _python_encoding(name: str) -> str:
    name = name.lower().replace("ansi ", "cp").replace("utf8", "utf-8")
    try:
        "".encode(name)
    except LookupError:
        return "utf-8"
    return name


def _shape_point(shape: Any) -> tuple[tuple[float, float] | None, str | None]:
    if shape.shapeType == shapefile.NULL:
        return None, None
    points = shape.points
    if shape.shapeTypeName.upper().startswith(("POINT", "MULTIPOINT")) and len(points) == 1:
        lon, lat = points[0][:2]
        return (float(lat), float(lon)), None
    return None, f"a point is needed, and this is a {shape.shapeTypeName.lower()}"


def _projected(what: str) -> str:
    return (
        f"The file cannot be read: {what}, and only longitude and latitude in degrees"
        " (WGS 84, EPSG:4326, or NAD83, EPSG:4269) are read here. Export it again in WGS 84"
        " (in ArcGIS: Project, or Export Features with the output coordinate system set;"
        " in QGIS: Export, Save Features As, CRS EPSG:4326)."
    )


def _sheet(rows: list[Row], names: list[str], unit: str) -> Sheet:
    columns, ignored = match_columns(names)
    if "code" not in columns:
        raise FileRefused(
            "No column holds the structures' ids: name it id or outfall_id (columns found: "
            + (", ".join(names) or "none")
            + ")."
        )
    has_geometry = any(row.point or row.problem for row in rows)
    if not has_geometry and not ("latitude" in columns and "longitude" in columns):
        raise FileRefused(
            "No coordinates: give latitude and longitude columns (in degrees), or points."
        )
    return Sheet(rows, unit, columns, ignored)


# ---------------------------------------------------------------- checking rows


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
_TO_INCHES = {"": 1, "in": 1, "inch": 1, "inches": 1, '"': 1, "″": 1, "ft": 12, "'": 12,
              "mm": 1 / 25.4, "cm": 1 / 2.54}  # fmt: skip


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
            refusals.append(Refusal(record.number, columns["code"],
                f"{record.code} is also on {sheet.unit}{many} {others} of this file:"
                " keep one and import again", record.code))  # fmt: skip
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
        if not text:
            continue
        found = code_for(name, text)
        if found is None:
            what = "type" if name == "structure_type" else name.replace("_", " ")
            return refuse(name, f"unknown {what} {text!r} (accepted: {accepted(name)})", code)
        values[name] = found
    for name, what in (("size_in", "size"), ("height_in", "height")):
        text = _cell(row.cells, columns.get(name))
        if not text:
            continue
        try:
            size, second = parse_size(text)
        except ValueError:
            return refuse(name, f"{text!r} is not a {what} in inches (like 24, 24 in,"
                          " 600 mm or 24x36)", code)  # fmt: skip
        values[name] = size
        if second is not None and name == "size_in":
            values["height_in"] = second
    for name in TEXT_FIELDS:
        text = _cell(row.cells, columns.get(name))
        if len(text) > MAX_TEXT:
            return refuse(name, f"longer than {MAX_TEXT} characters", code)
        if text:
            values[name] = text
    return Record(row.number, code, values)


# ---------------------------------------------------------------- comparing and storing


@dataclass
class Plan:
    """What an import does: records to add, to update (with the fields that change), and
    those already stored as the file has them."""

    added: list[Record] = field(default_factory=list)
    updated: list[tuple[Record, int, dict[str, Any]]] = field(default_factory=list)
    unchanged: list[Record] = field(default_factory=list)


def _same(stored: Any, given: Any) -> bool:
    if isinstance(given, float) and stored is not None:
        return round(float(stored), PLACES) == round(given, PLACES)
    return stored == given


def plan(records: list[Record], stored: Mapping[str, Mapping[str, Any]]) -> Plan:
    """Compare the file's records with what is stored (`stored`: by id, case-folded, each
    with its row `id` and its fields)."""
    result = Plan()
    for record in records:
        current = stored.get(record.code.casefold())
        if current is None:
            result.added.append(record)
            continue
        changes = {
            name: value
            for name, value in record.values.items()
            if not (
                value in current.get("paper_days", ())
                if name == PAPER_DAY
                else _same(current.get(name), value)
            )
        }
        if changes:
            result.updated.append((record, current["id"], changes))
        else:
            result.unchanged.append(record)
    return result


# A new id this close to a stored structure with another id is taken for a renamed one
# (renamed in the portal, then the old GIS file imported again), not a second structure.
SAME_PLACE_M = 5.0
# About 11 m of latitude and 8 m of longitude here: the neighbouring cells hold every
# structure within SAME_PLACE_M.
_CELL = 10_000


def _cell_of(latitude: float, longitude: float) -> tuple[int, int]:
    return round(latitude * _CELL), round(longitude * _CELL)


def same_place(
    planned: Plan,
    stored: Mapping[str, Mapping[str, Any]],
    codes_in_file: set[str],
    id_column: str,
    distance: Any,
) -> list[Refusal]:
    """Take out of `planned.added` each new id within SAME_PLACE_M of a structure stored
    under another id (in service, and not in this file), and refuse it naming that one.
    `distance(lat, lon, lat, lon)` gives metres."""
    cells: dict[tuple[int, int], list[Mapping[str, Any]]] = {}
    for key, row in stored.items():
        if key not in codes_in_file and not row.get("retired_on"):
            cells.setdefault(_cell_of(row["latitude"], row["longitude"]), []).append(row)
    refusals, kept = [], []
    for record in planned.added:
        lat, lon = record.values["latitude"], record.values["longitude"]
        a, b = _cell_of(lat, lon)
        near = [
            (distance(lat, lon, row["latitude"], row["longitude"]), row["code"])
            for da in (-1, 0, 1) for db in (-1, 0, 1) for row in cells.get((a + da, b + db), ())
        ]  # fmt: skip
        near = sorted(pair for pair in near if pair[0] <= SAME_PLACE_M)
        if not near:
            kept.append(record)
            continue
        metres, other = near[0]
        refusals.append(Refusal(record.number, id_column,
            f"a new id {metres:.1f} m from {other}, stored under that id: if {other} is"
            f" {record.code} renamed, give the file's row the id {other} (or rename it back"
            f" on its page); if {record.code} is another structure at that place, import"
            " again with \"Add new ids beside a stored structure\" ticked (--beside)",
            record.code))  # fmt: skip
    planned.added = kept
    return refusals


@dataclass
class Report:
    """What an import did (or would do, checking only), for the page and the command."""

    file: str
    unit: str
    read: int
    added: int
    updated: int
    unchanged: int
    refusals: list[Refusal]
    ignored: list[str]
    not_in_file: int
    checked_only: bool = False
    refused_file: str | None = None

    @property
    def rows_refused(self) -> int:
        """The rows refused whole (a cell refused alone left its row in)."""
        return len({r.number for r in self.refusals if not r.cell_only})

    def lines(self) -> list[str]:
        """The report as plain lines (the command prints them; the page shows the same)."""
        if self.refused_file:
            return [f"{self.file}: nothing imported.", self.refused_file]
        units = self.unit if self.read == 1 else f"{self.unit}s"
        verb = "would be" if self.checked_only else ""
        head = f"{self.file}: {self.read} {units} read" + (
            " (checked only: nothing was changed)" if self.checked_only else ""
        )
        counts = (
            f"{'would add' if verb else 'added'} {self.added},"
            f" {'would update' if verb else 'updated'} {self.updated},"
            f" unchanged {self.unchanged}, refused {self.rows_refused}"
        )
        cells = len(self.refusals) - sum(not r.cell_only for r in self.refusals)
        if cells:
            counts += f", cells left out {cells}"
        lines = [head, counts]
        for refusal in self.refusals:
            which = (
                f" ({refusal.code})"
                if refusal.code and refusal.reason[:1] != refusal.code[:1]
                else ""
            )
            lines.append(f"  {self.unit} {refusal.number}{which}, {refusal.field}: {refusal.words}")
        if self.ignored:
            lines.append("Columns not read: " + ", ".join(self.ignored))
        if self.not_in_file:
            many = self.not_in_file != 1
            are = "are" if many else "is"
            lines.append(
                f"{self.not_in_file} structure{'s' * many} in the inventory {are}"
                " not in this file and stay as they are."
            )
        return lines
