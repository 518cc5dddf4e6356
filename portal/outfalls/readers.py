"""Reading an outfall inventory from the files municipalities keep it in, into a Sheet of
rows: GeoJSON, CSV with latitude and longitude columns, and ESRI shapefiles (zipped, or a .shp
with its .shx and .dbf beside it). Pure: each reader can be tested on its own.

Coordinates are taken as longitude and latitude in degrees on WGS 84 (EPSG:4326, GeoJSON's
own), or on NAD83 (EPSG:4269: the two differ by about a metre here, well within a GPS
fix). A file in a projected system (State Plane feet, UTM metres) is refused whole, with
what to export instead: the portal does not reproject. The rows are checked in
portal/outfalls/checking.py.
"""

from __future__ import annotations

import csv
import io
import json
import re
import struct
import warnings
import zipfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

import shapefile


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
    "code": (
        "id",
        "outfallid",
        "outfall",
        "outfallno",
        "outfallnumber",
        "facilityid",
        "assetid",
        "structureid",
        "structid",
        "unitid",
        "gisid",
        "code",
        "name",
    ),
    "latitude": ("latitude", "lat", "y", "pointy", "ycoord", "latdd", "latitudedd", "gpslat"),
    "longitude": (
        "longitude",
        "lon",
        "lng",
        "long",
        "x",
        "pointx",
        "xcoord",
        "londd",
        "longdd",
        "longitudedd",
        "gpslon",
        "gpslong",
    ),
    "structure_type": (
        "structuretype",
        "type",
        "featuretype",
        "assettype",
        "structure",
        "feature",
        "class",
        "category",
    ),
    "conveyance": ("conveyance", "conveyancetype", "outfalltype", "outfallkind", "kind"),
    "material": ("material", "pipematerial", "mat", "materialtype", "pipemat"),
    "shape": ("shape", "pipeshape", "shapetype"),
    "size_in": (
        "sizein",
        "size",
        "diameter",
        "diameterin",
        "dia",
        "diam",
        "diamin",
        "pipesize",
        "pipediameter",
        "width",
        "widthin",
    ),
    "height_in": ("heightin", "height", "rise"),
    "receiving_water": (
        "receivingwater",
        "receiving",
        "receivingwaters",
        "waterbody",
        "receivingstream",
        "recvwater",
        "rcvwater",
        "stream",
        "watercourse",
        "outfallto",
    ),
    "drainage_area": (
        "drainagearea",
        "sewershed",
        "drainage",
        "subwatershed",
        "catchment",
        "watershed",
        "drainarea",
        "subbasin",
        "basin",
    ),
    "condition": ("condition", "cond", "conditionrating"),
    "location": (
        "location",
        "address",
        "street",
        "streetaddress",
        "locationdescription",
        "description",
        "desc",
        "loc",
    ),
    "notes": ("notes", "note", "comments", "comment", "remarks", "remark"),
    "last_screened_on": (
        "lastscreened",
        "lastscreening",
        "lastscreeneddate",
        "lastscreenedon",
        "datescreened",
        "screeningdate",
        "lastscreendate",
        "lastinspected",
        "lastinspection",
        "inspectiondate",
        "lastdryweather",
        # A shapefile's field names have at most 10 characters (dBASE), so
        # ArcGIS cuts LAST_SCREENED to LAST_SCREE (fresh review, 2026-12-01).
        "lastscree",
        "lastscreen",
        "lastscrn",
        "lastinsp",
        "screendate",
        "scrndate",
        "inspdate",
        "lastdw",
    ),
    # The day the structure entered the inventory: mapped, installed or inventoried (the
    # annual figures count it from then; without it, from the day it was entered here).
    "inventoried_on": (
        "inventoriedon",
        "inventoried",
        "inventorydate",
        "mappedon",
        "mapped",
        "datemapped",
        "mapdate",
        "installed",
        "installedon",
        "installdate",
        "dateinstalled",
        "installdat",
        "installda",
    ),
}


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
DAMAGED = (
    shapefile.ShapefileException,
    struct.error,
    KeyError,
    ValueError,
    IndexError,
    EOFError,
    OverflowError,
)


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
        raise FileRefused(
            "The shapefile cannot be read (is it damaged?): its .shp does not"
            " start as a shapefile does. Export it again."
        )
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
