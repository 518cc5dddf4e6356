"""The training log's rows: one session added, the sessions listed, the people in each."""

from __future__ import annotations

from typing import Any

import sqlite_utils

from portal.core.db import insert, rows, transaction


def people(trainees: str) -> list[str]:
    """The names of a session, one a line (or separated by semicolons), blanks left out."""
    return [
        name.strip() for line in trainees.splitlines() for name in line.split(";") if name.strip()
    ]


def add(db: sqlite_utils.Database, values: dict[str, Any], *, actor: str, stamp: str) -> int:
    with transaction(db):
        return insert(db, "staff_training", {**values, "recorded_at": stamp, "recorded_by": actor})


def sessions(db: sqlite_utils.Database, start: str = "", end: str = "9999") -> list[dict[str, Any]]:
    """The sessions from `start` to before `end` (ISO days), latest first, each with its
    `people`."""
    found = rows(
        db,
        "SELECT * FROM staff_training WHERE trained_on >= ? AND trained_on < ?"
        " ORDER BY trained_on DESC, id DESC",
        [start, end],
    )
    for row in found:
        row["people"] = people(row["trainees"])
    return found
