"""The outfall inventory's and the screenings' tables (CREATE ... IF NOT EXISTS only).

Kept here, beside the code that writes them, as this feature's own numbered migrations
(registered with portal/core/migrations.py, applied after the portal's). Nothing in these
tables is personal: the inventory may be published as open data (portal/outfalls/open_data.py).
"""

from __future__ import annotations

import sqlite_utils
from sqlite_utils import Migrations

from portal.core.migrations import add_columns, register, run

SCHEMA = """
-- The MS4's structures: outfalls first, and (optionally) catch basins, manholes and the
-- like. `code` is the id the municipality already uses (its GIS or spreadsheet), unique
-- whatever its case; the importer updates a structure by it.
CREATE TABLE IF NOT EXISTS outfalls (
    id INTEGER PRIMARY KEY,
    code TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(code) BETWEEN 1 AND 40),
    structure_type TEXT NOT NULL DEFAULT 'outfall',
    latitude REAL NOT NULL CHECK (latitude BETWEEN -90 AND 90),
    longitude REAL NOT NULL CHECK (longitude BETWEEN -180 AND 180),
    -- Where it is, in words (a street, "behind the school").
    location TEXT,
    -- The Outfall Reconnaissance Inventory's words: closed pipe, open drainage, in-stream.
    conveyance TEXT,
    material TEXT,
    shape TEXT,
    -- Diameter (or width) and height, in inches.
    size_in REAL CHECK (size_in IS NULL OR size_in > 0),
    height_in REAL CHECK (height_in IS NULL OR height_in > 0),
    receiving_water TEXT,
    drainage_area TEXT,
    condition TEXT,
    notes TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    -- Who last changed it: a staff username, or "import <file name>".
    updated_by TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS outfalls_place ON outfalls (latitude, longitude);
CREATE INDEX IF NOT EXISTS outfalls_type ON outfalls (structure_type, code);

CREATE TABLE IF NOT EXISTS outfall_photos (
    id INTEGER PRIMARY KEY,
    outfall_id INTEGER NOT NULL REFERENCES outfalls (id),
    position INTEGER NOT NULL,
    content_type TEXT NOT NULL,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    data BLOB NOT NULL,
    added_at TEXT NOT NULL,
    added_by TEXT NOT NULL,
    UNIQUE (outfall_id, position)
);

-- A dry-weather screening of one outfall, as the field sheet has it (the Center for
-- Watershed Protection's Outfall Reconnaissance Inventory). `sheet_key` makes a sheet sent
-- twice (a retry on a weak signal) one screening. `overall` is the call a later step opens
-- a case from (suspect, obvious); `case_id` is that case, once there is one.
CREATE TABLE IF NOT EXISTS screenings (
    id INTEGER PRIMARY KEY,
    outfall_id INTEGER NOT NULL REFERENCES outfalls (id),
    sheet_key TEXT NOT NULL UNIQUE,
    screened_at TEXT NOT NULL,
    inspector TEXT NOT NULL,
    hours_since_rain REAL CHECK (hours_since_rain IS NULL OR hours_since_rain >= 0),
    rain_inches REAL CHECK (rain_inches IS NULL OR rain_inches >= 0),
    flow TEXT NOT NULL CHECK (flow IN ('none', 'trickle', 'moderate', 'substantial')),
    -- Every observation, as a JSON object of the sheet's field names (portal/screening/sheet.py).
    observations TEXT NOT NULL DEFAULT '{}',
    notes TEXT,
    overall TEXT NOT NULL CHECK (overall IN ('unlikely', 'potential', 'suspect', 'obvious')),
    case_id INTEGER REFERENCES cases (id),
    recorded_at TEXT NOT NULL,
    recorded_by TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS screenings_outfall ON screenings (outfall_id, screened_at);
CREATE INDEX IF NOT EXISTS screenings_follow_up ON screenings (overall)
    WHERE overall IN ('suspect', 'obvious') AND case_id IS NULL;

CREATE TABLE IF NOT EXISTS screening_photos (
    id INTEGER PRIMARY KEY,
    screening_id INTEGER NOT NULL REFERENCES screenings (id),
    position INTEGER NOT NULL,
    content_type TEXT NOT NULL,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    data BLOB NOT NULL,
    UNIQUE (screening_id, position)
);
"""


migrations = register(Migrations("outfalls"))


@migrations(name="001_inventory_and_screenings")
def inventory_and_screenings(db: sqlite_utils.Database) -> None:
    """The inventory, its photos, the screenings and theirs (as version 11 made them)."""
    run(db, SCHEMA)


@migrations(name="002_last_screened_on_paper")
def last_screened_on_paper(db: sqlite_utils.Database) -> None:
    """The day an outfall was last screened before the portal (on paper or in a spreadsheet),
    as the import gives it: the rotation counts from the later of it and the portal's own."""
    add_columns(db, [("outfalls", "last_screened_on", "TEXT")])


CORRECTIONS = """
-- Each void or correction of a screening: who, when, why, and the fields it changed with
-- their values before and after (JSON objects of the screenings' column names). The
-- screening itself holds the current values; this is its audit log.
CREATE TABLE IF NOT EXISTS screening_changes (
    id INTEGER PRIMARY KEY,
    screening_id INTEGER NOT NULL REFERENCES screenings (id),
    at TEXT NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL CHECK (action IN ('voided', 'corrected')),
    reason TEXT NOT NULL CHECK (length(reason) BETWEEN 1 AND 2000),
    old TEXT NOT NULL DEFAULT '{}',
    new TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX IF NOT EXISTS screening_changes_of ON screening_changes (screening_id, id);
"""


@migrations(name="003_screening_corrections_and_weather")
def screening_corrections_and_weather(db: sqlite_utils.Database) -> None:
    """A screening can be voided (kept, marked, out of the rotation and the counts) and
    corrected (its audit log, screening_changes); and says whether it was made in wet
    weather (out of the dry-weather count). Sheets saved before: wet when fewer than 72
    hours after a rain of more than 0.1 inch or of an amount not recorded (the defaults of
    content/outfalls.yaml's dry_weather_hours and dry_weather_rain_inches)."""
    added = add_columns(
        db,
        [
            ("screenings", "voided_at", "TEXT"),
            ("screenings", "voided_by", "TEXT"),
            ("screenings", "void_reason", "TEXT"),
            ("screenings", "wet_weather", "INTEGER NOT NULL DEFAULT 0"),
        ],
    )
    if ("screenings", "wet_weather") in added:
        db.execute(
            "UPDATE screenings SET wet_weather = 1 WHERE hours_since_rain < 72"
            " AND (rain_inches IS NULL OR rain_inches > 0.1)"
        )
    run(db, CORRECTIONS)


INVENTORY_HISTORY = """
-- Every change to a structure, by whom and when: the inventory's audit log, and its history.
-- `effective_on` is the day the change holds from (a retirement's own day; an edit's, the day
-- it was made), so the annual figures read each structure as it was at the end of a period.
-- `field` is a column of outfalls ("structure_type", "retired_on", ...), "added" for a new
-- structure, or "paper_screening" for a screening day on paper added, corrected or removed.
CREATE TABLE IF NOT EXISTS outfall_changes (
    id INTEGER PRIMARY KEY,
    outfall_id INTEGER NOT NULL REFERENCES outfalls (id),
    field TEXT NOT NULL,
    old_value TEXT,
    new_value TEXT,
    effective_on TEXT NOT NULL,
    reason TEXT,
    changed_at TEXT NOT NULL,
    changed_by TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS outfall_changes_of ON outfall_changes (outfall_id, field, effective_on);

-- Screenings made before the portal, on paper or in a spreadsheet: one row a day, as many
-- as there were (an import adds the file's day beside those stored, never over them).
CREATE TABLE IF NOT EXISTS outfall_paper_screenings (
    id INTEGER PRIMARY KEY,
    outfall_id INTEGER NOT NULL REFERENCES outfalls (id),
    screened_on TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    recorded_by TEXT NOT NULL,
    UNIQUE (outfall_id, screened_on)
);
"""


@migrations(name="004_inventory_history")
def inventory_history(db: sqlite_utils.Database) -> None:
    """Retirement, the day a structure entered the inventory, every paper screening day (not
    one overwritten column) and the dated changes the annual figures read the past from."""
    run(db, INVENTORY_HISTORY)
    add_columns(
        db,
        [
            ("outfalls", "inventoried_on", "TEXT"),
            ("outfalls", "retired_on", "TEXT"),
            ("outfalls", "retired_reason", "TEXT"),
        ],
    )
    if "last_screened_on" in db["outfalls"].columns_dict:
        db.execute(
            "INSERT OR IGNORE INTO outfall_paper_screenings (outfall_id, screened_on,"
            " recorded_at, recorded_by) SELECT id, last_screened_on, updated_at, updated_by"
            " FROM outfalls WHERE last_screened_on IS NOT NULL"
        )
        db.execute("ALTER TABLE outfalls DROP COLUMN last_screened_on")


@migrations(name="005_owner_and_words_kept_as_other")
def owner_and_words_kept_as_other(db: sqlite_utils.Database) -> None:
    """Who owns a structure (a private outfall is a real case), and for each field of the
    lists (kind, conveyance, material, shape, condition) the words a value stored as "other"
    was given in (a GIS file's "Asbestos cement"): portal/outfalls/choices.py's OTHER."""
    add_columns(
        db,
        [
            ("outfalls", "owner", "TEXT"),
            *(
                ("outfalls", column, "TEXT")
                for column in (
                    "structure_type_other",
                    "conveyance_other",
                    "material_other",
                    "shape_other",
                    "condition_other",
                )
            ),
        ],
    )


@migrations(name="006_the_field_sheet_whole")
def the_field_sheet_whole(db: sqlite_utils.Database) -> None:
    """The inventory's fields the sheet's first version left out (portal/screening/ori.py):
    the air temperature (°F), the land use (a JSON list), the known industries, whether the
    outfall is submerged in water and in sediment, poor pool quality and pipe benthic growth
    (JSON lists), an intermittent flow trap, and why a call is lower than what was seen.
    Sheets saved before keep NULL in each: "Not recorded" (the measured flow is in
    `observations`, as the estimate is)."""
    add_columns(
        db,
        [
            ("screenings", "air_temperature_f", "REAL"),
            ("screenings", "land_use", "TEXT"),
            ("screenings", "known_industries", "TEXT"),
            ("screenings", "submerged_water", "TEXT"),
            ("screenings", "submerged_sediment", "TEXT"),
            ("screenings", "pool_quality", "TEXT"),
            ("screenings", "benthic_growth", "TEXT"),
            ("screenings", "flow_trap", "TEXT"),
            ("screenings", "call_reason", "TEXT"),
        ],
    )


@migrations(name="007_impaired_or_priority_water")
def impaired_or_priority_water(db: sqlite_utils.Database) -> None:
    """Whether the receiving water is impaired (on the State's 303(d) list) or a priority
    waterbody, as the municipality records it: 'yes', 'no', or NULL for not recorded (every
    structure stored before). The annual figures count the outfalls to such waters."""
    add_columns(
        db,
        [
            (
                "outfalls",
                "impaired_water",
                "TEXT CHECK (impaired_water IS NULL OR impaired_water IN ('yes', 'no'))",
            )
        ],
    )
