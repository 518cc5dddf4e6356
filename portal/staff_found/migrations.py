"""The staff finding's table, as numbered migrations (portal/core/migrations.py says how they
run: a kind's set after the portal's own)."""

from __future__ import annotations

import sqlite_utils
from sqlite_utils import Migrations

from portal.core.migrations import run

migrations = Migrations("staff_found")


@migrations(name="001_staff_findings")
def staff_findings(db: sqlite_utils.Database) -> None:
    """A discharge staff found themselves: one row per case. What was seen uses the resident
    report's indicator codes (JSON), so the hazard rules and the figures read both alike."""
    run(
        db,
        """
CREATE TABLE IF NOT EXISTS staff_findings (
    case_id INTEGER PRIMARY KEY REFERENCES cases (id),
    indicators TEXT NOT NULL DEFAULT '[]',
    description TEXT NOT NULL,
    found_at TEXT NOT NULL,
    found_by TEXT NOT NULL,
    how_found TEXT NOT NULL,
    -- What the officer said when recording it; the case's own confirmed_illicit moves after.
    confirmed_when_found INTEGER NOT NULL DEFAULT 0,
    recorded_by TEXT NOT NULL
);
""",
    )
