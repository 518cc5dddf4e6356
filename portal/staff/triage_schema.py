"""The officer's triage of a case: the hazard flag set or cleared by hand, the danger rank
the queue sorts by, and the calls the municipality itself made about a hazardous case (to 911, to
the State's spill hotline) with the spill number the State gave. A set of its own, applied
after the kinds' (it adds to the report kind's report_hazards)."""

from __future__ import annotations

import sqlite_utils
from sqlite_utils import Migrations

from portal.core.migrations import add_columns, register, run

migrations = register(Migrations("triage"))


@migrations(name="001_hazard_flag_danger_and_calls")
def hazard_flag_danger_and_calls(db: sqlite_utils.Database) -> None:
    """cases.hazard_call: 'set' or 'cleared' by staff, NULL as the rules read it (who and
    when are in the case's events). report_hazards.danger: the case's danger rank (NULL: not
    hazardous); every case's is worked out again at the next refresh. village_calls: one row
    a call the municipality made."""
    add_columns(
        db,
        [
            (
                "cases",
                "hazard_call",
                "TEXT CHECK (hazard_call IS NULL OR hazard_call IN ('set', 'cleared'))",
            ),
            ("report_hazards", "danger", "INTEGER"),
        ],
    )
    db.execute("UPDATE report_hazards SET rules = ''")
    run(
        db,
        """
CREATE INDEX IF NOT EXISTS report_hazards_danger ON report_hazards (danger)
    WHERE danger IS NOT NULL;
CREATE TABLE IF NOT EXISTS village_calls (
    id INTEGER PRIMARY KEY,
    case_id INTEGER NOT NULL REFERENCES cases (id),
    -- Whom: 'emergency' (911), 'spill_hotline' (the State's), 'other' (named in `other`).
    called TEXT NOT NULL CHECK (called IN ('emergency', 'spill_hotline', 'other')),
    other TEXT,
    called_at TEXT NOT NULL,
    called_by TEXT NOT NULL,
    -- The State's spill number, when it gave one.
    spill_number TEXT,
    notes TEXT,
    recorded_at TEXT NOT NULL,
    recorded_by TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS village_calls_case ON village_calls (case_id, called_at);
""",
    )
