"""The annual figures as filed: what the report showed on the day the officer recorded it as
sent to the State, kept so a closed period's figures can be told apart from what was filed
once later entries about the past (a paper screening day, a void, a finding typed late) are
counted in their own period."""

from __future__ import annotations

import json
from typing import Any

import sqlite_utils

from portal.core.db import insert, one, rows, transaction
from portal.core.display import day as day_words
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


def filed_since(db: sqlite_utils.Database, day: str) -> list[dict[str, Any]]:
    """The periods filed with the State that a change dated `day` (ISO) alters: every one
    ending on or after it (an outfall retired, screened on paper or in the inventory from
    that day counts differently in each), oldest first, each with its last filing."""
    return rows(
        db,
        "SELECT period_start, period_end, max(filed_at) AS filed_at FROM annual_filings"
        " WHERE period_end >= ? GROUP BY period_start, period_end ORDER BY period_start",
        [day],
    )


def filed_note(db: sqlite_utils.Database, day: str) -> str:
    """What the officer is told on saving a change dated `day` that alters figures already
    filed ("" when it alters none): the records stay correctable, and the annual report
    shows each changed figure beside what was filed (officer's week 2026-12-03 F11)."""
    periods = filed_since(db, day)
    if not periods:
        return ""
    listed = "; ".join(
        f"{day_words(p['period_start'])} to {day_words(p['period_end'])}"
        f" (filed {day_words(p['filed_at'][:10])})"
        for p in periods
    )
    return (
        f" This changes figures already filed with the State: {listed}. The annual report"
        " shows each changed figure with what was filed."
    )
