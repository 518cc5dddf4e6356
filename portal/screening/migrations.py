"""The screening case's table, as numbered migrations (portal/core/migrations.py says how they
run; a kind's set is applied before the outfall feature's, whose `screenings` it points at)."""

from __future__ import annotations

import sqlite_utils
from sqlite_utils import Migrations

from portal.core.migrations import add_columns, run

migrations = Migrations("screening_case")


@migrations(name="001_screening_cases")
def screening_cases(db: sqlite_utils.Database) -> None:
    """A case opened from a suspect or obvious screening: one per screening. The outfall's id
    and what the sheet saw are copied in words, so the search index and the exports read them
    from this table as they read a report's."""
    run(
        db,
        """
CREATE TABLE IF NOT EXISTS screening_cases (
    case_id INTEGER PRIMARY KEY REFERENCES cases (id),
    screening_id INTEGER NOT NULL UNIQUE REFERENCES screenings (id),
    outfall_id INTEGER NOT NULL REFERENCES outfalls (id),
    outfall_code TEXT NOT NULL,
    overall TEXT NOT NULL,
    screened_at TEXT NOT NULL,
    findings TEXT NOT NULL
);
""",
    )


@migrations(name="002_what_the_screening_saw")
def what_the_screening_saw(db: sqlite_utils.Database) -> None:
    """What the sheet saw, as stored (its observations, JSON), beside the words: the case's
    hazard is read from it by the rules a report's is (portal/screening/hazards.py). Cases
    opened before get their screening's."""
    added = add_columns(db, [("screening_cases", "observations", "TEXT NOT NULL DEFAULT '{}'")])
    if added and db["screenings"].exists():
        db.execute(
            "UPDATE screening_cases SET observations = coalesce((SELECT s.observations"
            " FROM screenings s WHERE s.id = screening_cases.screening_id), '{}')"
        )


@migrations(name="003_cases_by_outfall")
def cases_by_outfall(db: sqlite_utils.Database) -> None:
    """The cases opened from an outfall's screenings, found by the outfall: the search index
    reads them again when the outfall's owner changes (portal/screening/kind.py)."""
    db.execute("CREATE INDEX IF NOT EXISTS screening_cases_outfall ON screening_cases (outfall_id)")
