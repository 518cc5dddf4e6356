"""The annual figures as filed: what the report showed on the day the officer recorded it as
sent to the State, kept so a closed period's figures can be told apart from what was filed
once later entries about the past (a paper screening day, a void, a finding typed late) are
counted in their own period."""

from __future__ import annotations

import json
from typing import Any

import sqlite_utils

from portal.core.db import insert, one, transaction
from portal.staff.figures import Report


def record(
    db: sqlite_utils.Database, start: str, end: str, report: Report, actor: str, stamp: str
) -> int:
    """Keep the report's figures as filed for the period [start, end] (ISO days)."""
    figures = {key: f.shown for key, f in report.by_key.items()}
    with transaction(db):
        return insert(
            db,
            "annual_filings",
            {
                "period_start": start,
                "period_end": end,
                "filed_at": stamp,
                "filed_by": actor,
                "figures": json.dumps(figures),
            },
        )


def latest(db: sqlite_utils.Database, start: str, end: str) -> dict[str, Any] | None:
    """The last filing recorded for exactly this period, its figures as a dict."""
    row = one(
        db,
        "SELECT * FROM annual_filings WHERE period_start = ? AND period_end = ?"
        " ORDER BY id DESC LIMIT 1",
        [start, end],
    )
    if row:
        row["figures"] = json.loads(row["figures"])
    return row


def changed(filing: dict[str, Any] | None, report: Report) -> dict[str, str]:
    """{figure key: the value filed} for each figure that differs now (a figure added since
    was not filed: it shows "not filed")."""
    if not filing:
        return {}
    filed = filing["figures"]
    return {
        key: filed.get(key, "not filed")
        for key, f in report.by_key.items()
        if filed.get(key, "not filed") != f.shown and not (f.optional and not f.count)
    }
