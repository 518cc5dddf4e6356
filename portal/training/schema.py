"""The staff training log's table, as this feature's own numbered migrations (registered with
portal/core/migrations.py, applied after the portal's)."""

from __future__ import annotations

import sqlite_utils
from sqlite_utils import Migrations

from portal.core.migrations import register, run

migrations = register(Migrations("training"))


@migrations(name="001_staff_training")
def staff_training(db: sqlite_utils.Database) -> None:
    """One training session: its day, what it was on, who was trained (one name a line),
    who gave it, how long, and who recorded it when."""
    run(
        db,
        """
CREATE TABLE IF NOT EXISTS staff_training (
    id INTEGER PRIMARY KEY,
    trained_on TEXT NOT NULL,
    topic TEXT NOT NULL CHECK (length(topic) BETWEEN 1 AND 500),
    trainees TEXT NOT NULL CHECK (length(trainees) BETWEEN 1 AND 4000),
    given_by TEXT,
    hours REAL CHECK (hours IS NULL OR hours > 0),
    recorded_at TEXT NOT NULL,
    recorded_by TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS staff_training_on ON staff_training (trained_on);
""",
    )
