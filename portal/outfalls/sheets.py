"""What an outfall inventory file holds once read, whatever its format: a Sheet of Rows,
the columns each field is found under, and the refusal of a whole file.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any


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
    # Whether the receiving water is impaired (303(d)) or a priority waterbody: yes or no.
    "impaired_water": (
        "impairedwater",
        "impaired",
        "impairedwaters",
        "impairedwaterbody",
        "impaired303d",
        "impairedorpriority",
        "priorityorimpaired",
        "prioritywater",
        "prioritywaterbody",
        "priorityimpaired",
        "impairedpriority",
        "303d",
        "303dlisted",
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
    ),
    # Who owns it (the municipality, the State, a private owner): a private outfall is part of
    # the inventory all the same, and who can be asked to fix it.
    "owner": ("owner", "ownership", "ownedby", "ownername", "ownertype"),
}
# A shapefile's field names hold at most ten characters (dBASE), and ArcGIS cuts longer ones
# there: OUTFALL_TYPE arrives as OUTFALLTYP, LAST_SCREENED as LAST_SCREE, INSTALLDATE as
# INSTALLDAT. A name of exactly that length is read as the start of a longer alias, when the
# aliases it starts are all one field's (otherwise it is listed as not read).
DBASE_NAME_LENGTH = 10


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
    for name in names:
        if len(str(name)) != DBASE_NAME_LENGTH or name in found.values():
            continue
        cut = _key(name)
        fields = {
            our
            for our, aliases in COLUMNS.items()
            if any(len(alias) > len(cut) and alias.startswith(cut) for alias in aliases)
        }
        if len(fields) == 1 and (our := fields.pop()) not in found:
            found[our] = name
    ignored = [name for name in names if name not in found.values()]
    return found, ignored


def projected(what: str) -> str:
    return (
        f"The file cannot be read: {what}, and only longitude and latitude in degrees"
        " (WGS 84, EPSG:4326, or NAD83, EPSG:4269) are read here. Export it again in WGS 84"
        " (in ArcGIS: Project, or Export Features with the output coordinate system set;"
        " in QGIS: Export, Save Features As, CRS EPSG:4326)."
    )


def checked_sheet(rows: list[Row], names: list[str], unit: str) -> Sheet:
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
