"""Enforcement's columns in the staff CSV (officer's week 2026-12-03 F10): for a case under
enforcement, whom it is against, the owner of the property and its notices' numbers, so the
spreadsheet answers "which cases have a notice, against whom" without opening each."""

from __future__ import annotations

from typing import Any

import sqlite_utils

from portal.core.db import rows

Row = dict[str, Any]


def _joined(values: list[Any]) -> str | None:
    """Distinct values in the order first met, joined: a case may have several violations."""
    seen = list(dict.fromkeys(v for v in values if v))
    return "; ".join(seen) or None


def export_values(db: sqlite_utils.Database, case_ids: list[int]) -> dict[int, Row]:
    """{case id: its enforcement columns}, for the cases with a violation recorded."""
    if not case_ids:
        return {}
    marks = ", ".join("?" for _ in case_ids)
    found = rows(
        db,
        "SELECT v.case_id, r.name AS respondent, v.owner_name,"
        " (SELECT group_concat(n.number, '; ') FROM notices n"
        "  WHERE n.violation_id = v.id AND n.issued_on IS NOT NULL) AS numbers"
        " FROM violations v JOIN respondents r ON r.id = v.respondent_id"
        f" WHERE v.case_id IN ({marks}) ORDER BY v.case_id, v.id",
        case_ids,
    )
    by_case: dict[int, list[Row]] = {}
    for row in found:
        by_case.setdefault(row["case_id"], []).append(row)
    return {
        case_id: {
            "enforcement_respondent": _joined([r["respondent"] for r in these]),
            "enforcement_owner": _joined([r["owner_name"] for r in these]),
            "enforcement_notices": _joined([r["numbers"] for r in these]),
        }
        for case_id, these in by_case.items()
    }


EXPORT_COLUMNS: tuple[tuple[str, Any], ...] = (
    ("Respondent", lambda c: c.get("enforcement_respondent")),
    ("Owner of the property", lambda c: c.get("enforcement_owner")),
    ("Notices of violation issued", lambda c: c.get("enforcement_notices")),
)
