"""Reading an ESRI shapefile (zipped, or a .shp with its .shx and .dbf beside it) into a
Sheet: its records, their attributes and their points.
"""

from __future__ import annotations

import io
import re
import struct
import warnings
import zipfile
from collections.abc import Mapping
from typing import Any

import shapefile

from portal.outfalls.sheets import FileRefused, Row, Sheet, checked_sheet, projected


def zipped_parts(data: bytes) -> dict[str, bytes]:
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
# A shapefile holds no empty number: ArcGIS writes a numeric field left empty as 0 (an open
# channel's DIAMETER), so 0 there is no value. No field read here means anything by 0 (a size
# of 0 inches is no size, and a place at latitude 0 is no place in a service area).
NUMERIC = ("N", "F")


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
    # Every .shp starts with the file code 9994 (big-endian); without it (a zip of zeros, say)
    # the file is damaged, whatever pyshp would make of it.
    if parts["shp"][:4] != SHP_FILE_CODE:
        raise FileRefused(
            "The shapefile cannot be read (is it damaged?): its .shp does not"
            " start as a shapefile does. Export it again."
        )
    prj = parts.get("prj", b"").decode("latin-1").strip()
    if prj and not prj.upper().startswith("GEOGCS"):
        system = re.match(r'\s*PROJCS\["([^"]+)"', prj)
        raise FileRefused(projected(f"it is in {system.group(1) if system else 'a projection'}"))
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
            numbers = {f[0] for f in reader.fields[1:] if f[1] in NUMERIC}
            rows = []
            for number, item in enumerate(reader.iterShapeRecords(), start=1):
                point, problem = _shape_point(item.shape)
                cells = {
                    name: None if name in numbers and value == 0 else value
                    for name, value in item.record.as_dict().items()
                }
                rows.append(Row(number, cells, point, problem))
    except DAMAGED as error:
        raise FileRefused(f"The shapefile cannot be read (is it damaged?): {error}.") from None
    return checked_sheet(rows, names, "record")


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
