"""Track-down's tables (CREATE ... IF NOT EXISTS only): a case's investigation steps, a
sample's lab results, and the source found with its elimination.

This feature's own numbered migrations, registered with portal/core/migrations.py and applied
after the portal's (the steps may point at the outfall inventory's structures). Staff only:
nothing here reaches a public page, the status page, the Open311 feed or an export.
"""

from __future__ import annotations

import sqlite_utils
from sqlite_utils import Migrations

from portal.core.migrations import add_columns, register, run

SCHEMA = """
-- One step of tracing a discharge to its source (the Center for Watershed Protection's IDDE
-- Guidance Manual, 2004, track-down chapter): a structure inspected, a dye, smoke or camera
-- test, a sample. Times are local, "2027-03-02T10:30", as the site visits keep theirs.
CREATE TABLE IF NOT EXISTS trackdown_steps (
    id INTEGER PRIMARY KEY,
    case_id INTEGER NOT NULL REFERENCES cases (id),
    kind TEXT NOT NULL CHECK (kind IN ('structure', 'dye', 'smoke', 'camera', 'sample', 'other')),
    done_at TEXT NOT NULL,
    done_by TEXT NOT NULL,
    -- Where: a structure's id (the inventory's, with outfall_id, when it is one of its
    -- structures; else as typed), and/or the street or manhole in words.
    structure_code TEXT,
    outfall_id INTEGER REFERENCES outfalls (id),
    location TEXT,
    findings TEXT NOT NULL,
    -- Which way it points: portal/trackdown/choices.py RESULTS.
    result TEXT NOT NULL,
    -- A sample's chain of custody (NULL for any other step).
    sample_id TEXT,
    collected_by TEXT,
    collected_at TEXT,
    relinquished_to TEXT,
    relinquished_at TEXT,
    received_by TEXT,
    received_at TEXT,
    lab_name TEXT,
    lab_reference TEXT,
    recorded_at TEXT NOT NULL,
    recorded_by TEXT NOT NULL,
    updated_at TEXT,
    updated_by TEXT,
    CHECK (structure_code IS NOT NULL OR location IS NOT NULL),
    CHECK ((kind = 'sample') = (sample_id IS NOT NULL))
);
CREATE INDEX IF NOT EXISTS trackdown_steps_case ON trackdown_steps (case_id, done_at);

-- A sample's results as the lab reported them, one parameter a row. `value` is the lab's
-- own ("0.8", "<0.1", ">2419.6"); a row typed wrong is removed (kept, with who and when).
CREATE TABLE IF NOT EXISTS trackdown_results (
    id INTEGER PRIMARY KEY,
    step_id INTEGER NOT NULL REFERENCES trackdown_steps (id),
    parameter TEXT NOT NULL,
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    unit TEXT,
    reported_on TEXT,
    recorded_at TEXT NOT NULL,
    recorded_by TEXT NOT NULL,
    removed_at TEXT,
    removed_by TEXT
);
CREATE INDEX IF NOT EXISTS trackdown_results_step ON trackdown_results (step_id);

-- The source found on a case (one per case) and, later, its elimination. Dates are ISO days;
-- the annual figures count sources found and eliminated by them.
CREATE TABLE IF NOT EXISTS discharge_sources (
    case_id INTEGER PRIMARY KEY REFERENCES cases (id),
    found_on TEXT NOT NULL,
    description TEXT NOT NULL,
    address TEXT NOT NULL,
    latitude REAL CHECK (latitude IS NULL OR latitude BETWEEN -90 AND 90),
    longitude REAL CHECK (longitude IS NULL OR longitude BETWEEN -180 AND 180),
    parcel_id TEXT,
    respondent_id INTEGER REFERENCES respondents (id),
    eliminated_on TEXT,
    elimination_method TEXT CHECK (elimination_method IS NULL OR elimination_method IN
        ('connection_removed', 'repaired', 'practice_stopped', 'referred', 'other')),
    elimination_notes TEXT,
    recorded_at TEXT NOT NULL,
    recorded_by TEXT NOT NULL,
    updated_at TEXT,
    updated_by TEXT,
    CHECK (eliminated_on IS NULL OR eliminated_on >= found_on),
    CHECK ((eliminated_on IS NULL) = (elimination_method IS NULL))
);
CREATE INDEX IF NOT EXISTS discharge_sources_found ON discharge_sources (found_on);
CREATE INDEX IF NOT EXISTS discharge_sources_eliminated ON discharge_sources (eliminated_on)
    WHERE eliminated_on IS NOT NULL;
"""


# The columns staff change through the forms (a step's outfall_id follows structure_code).
CUSTODY_COLUMNS = (
    "sample_id",
    "collected_by",
    "collected_at",
    "relinquished_to",
    "relinquished_at",
    "received_by",
    "received_at",
    "lab_name",
    "lab_reference",
)
# How the officer got onto private property for a step (the access section: consent, or a
# warrant after a refusal), and who named it.
ACCESS_COLUMNS = ("access", "access_notes")
# A dye test someone else runs is allowed with verbal notice to the officer before it (the
# exemptions section): when, and from whom.
DYE_NOTICE_COLUMNS = ("dye_notice_at", "dye_notice_by")
STEP_COLUMNS = (
    "kind",
    "done_at",
    "done_by",
    "structure_code",
    "location",
    "findings",
    "result",
    *CUSTODY_COLUMNS,
    *ACCESS_COLUMNS,
    *DYE_NOTICE_COLUMNS,
)
SOURCE_COLUMNS = (
    "found_on",
    "description",
    "address",
    "latitude",
    "longitude",
    "parcel_id",
    "respondent_id",
)
ELIMINATION_COLUMNS = ("eliminated_on", "elimination_method", "elimination_notes")

migrations = register(Migrations("trackdown"))


@migrations(name="001_steps_results_and_sources")
def steps_results_and_sources(db: sqlite_utils.Database) -> None:
    """Investigation steps, lab results, the source found and its elimination."""
    run(db, SCHEMA)


@migrations(name="002_steps_removable")
def steps_removable(db: sqlite_utils.Database) -> None:
    """A step recorded in error can be taken off the case: the row stays, marked removed with
    who, when and why (the case's log keeps what it was)."""
    add_columns(
        db,
        [
            ("trackdown_steps", "removed_at", "TEXT"),
            ("trackdown_steps", "removed_by", "TEXT"),
            ("trackdown_steps", "removed_reason", "TEXT"),
        ],
    )


@migrations(name="003_access_and_dye_notice")
def access_and_dye_notice(db: sqlite_utils.Database) -> None:
    """How a step got onto private property (public place, consent, warrant, refused), and the
    verbal notice before a dye test run by someone else: what was kept on paper."""
    add_columns(
        db,
        [
            (
                "trackdown_steps",
                "access",
                "TEXT CHECK (access IS NULL OR access IN"
                " ('public', 'consent', 'warrant', 'refused'))",
            ),
            ("trackdown_steps", "access_notes", "TEXT"),
            ("trackdown_steps", "dye_notice_at", "TEXT"),
            ("trackdown_steps", "dye_notice_by", "TEXT"),
        ],
    )


@migrations(name="004_steps_by_outfall")
def steps_by_outfall(db: sqlite_utils.Database) -> None:
    """The steps taken at an outfall, found by the outfall: the search index reads their cases
    again when the outfall's owner changes (portal/trackdown/search.py)."""
    db.execute(
        "CREATE INDEX IF NOT EXISTS trackdown_steps_outfall ON trackdown_steps (outfall_id)"
        " WHERE outfall_id IS NOT NULL"
    )
