"""The report's tables, as numbered migrations (portal/core/migrations.py says how they run)."""

from __future__ import annotations

import sqlite_utils
from sqlite_utils import Migrations

from portal.core.migrations import run

migrations = Migrations("report")


@migrations(name="001_reports")
def reports(db: sqlite_utils.Database) -> None:
    """One row per report, as version 9 made it."""
    run(
        db,
        """
CREATE TABLE IF NOT EXISTS reports (
    case_id INTEGER PRIMARY KEY REFERENCES cases (id),
    indicators TEXT NOT NULL,
    color TEXT,
    odor TEXT,
    description TEXT NOT NULL CHECK (length(description) BETWEEN 1 AND 4000),
    location_type TEXT,
    observed_at TEXT NOT NULL,
    still_happening TEXT,
    happened_before TEXT,
    source_description TEXT,
    source_vehicle TEXT,
    source_notes TEXT
);
""",
    )


@migrations(name="002_report_hazards")
def report_hazards(db: sqlite_utils.Database) -> None:
    """The content's hazard rules each report meets (a JSON list of names), with a
    fingerprint of the rules they were worked out with: the queue sorts hazards first in SQL,
    and works them out again for a new report or new rules (portal/staff/danger.py). Its own
    table, so writing it does not touch the search index's triggers on reports."""
    run(
        db,
        """
CREATE TABLE IF NOT EXISTS report_hazards (
    case_id INTEGER PRIMARY KEY REFERENCES cases (id),
    hazards TEXT NOT NULL,
    rules TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS report_hazards_rules ON report_hazards (rules);
CREATE INDEX IF NOT EXISTS report_hazards_found ON report_hazards (case_id)
    WHERE hazards != '[]';
""",
    )
