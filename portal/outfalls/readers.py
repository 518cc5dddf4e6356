"""Reading an outfall inventory from the files municipalities keep it in, into a Sheet of
rows: GeoJSON and CSV with latitude and longitude columns here, ESRI shapefiles in
shapefiles.py, the Sheet they give in sheets.py. Pure: each reader can be tested on its own.

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
from pathlib import PurePath
from typing import Any

from portal.outfalls.shapefiles import read_shapefile, zipped_parts
from portal.outfalls.sheets import FileRefused, Row, Sheet, checked_sheet, projected

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
        return read_shapefile(zipped_parts(data))
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
    return checked_sheet(rows, header, "row")


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
        raise FileRefused(projected(f"its coordinate system is {name}"))
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
    return checked_sheet(rows, names, "feature")


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
