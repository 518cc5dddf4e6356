"""Enforcement's part of the annual figures (portal/staff/figures.py): each step by its own
date, from the enforcement tables."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

import sqlite_utils
from flask import Flask

from portal.core.db import rows, value
from portal.enforcement import costs
from portal.enforcement.notices import printed_facts
from portal.staff.figures import (
    Figure,
    Record,
    Section,
    SectionSource,
    Window,
    add_section,
    records,
)


def init_figures(app: Flask) -> None:
    """Last in the report (rank 50), after the release notifications (40)."""
    add_section(app, SectionSource(50, enforcement_sections))


def _notice_records(found: Iterable[dict[str, Any]]) -> tuple[Record, ...]:
    """Notices of violation from rows of a notice's id, number and day."""
    named = ((r["id"], r["number"] or f"Notice {r['id']} (draft)", r["day"]) for r in found)
    return records(named, "enforcement.notice_page", "notice_id")


def enforcement_sections(
    db: sqlite_utils.Database, window: Window, now: dt.datetime
) -> list[Section]:
    """Enforcement in the period, each step by its own date, from the enforcement tables."""

    def notices(column: str, table: str = "notice_steps", extra: str = "") -> tuple[Record, ...]:
        key = "id" if table == "notices" else "notice_id"
        return _notice_records(
            rows(
                db,
                f"SELECT t.{key} AS id, n.number, substr(t.{column}, 1, 10) AS day"
                f" FROM {table} t JOIN notices n ON n.id = t.{key}"
                f" WHERE t.{column} >= ? AND t.{column} < ?{extra}",
                window,
            )
        )

    # Each cost notice mailed in the period, at the amount it stated as kept when mailed, or
    # as the Board decided a protest of it: never a figure typed over the mailed one.
    mailed = rows(
        db,
        "SELECT * FROM notice_steps WHERE cost_notice_mailed_on >= ? AND cost_notice_mailed_on < ?",
        window,
    )
    charged = sum(
        costs.charge_owed(steps, printed_facts(db, steps["notice_id"])) or 0 for steps in mailed
    )
    # A voided payment (typed twice, or replaced by its correction) was never paid.
    paid = value(
        db,
        "SELECT coalesce(sum(cents), 0) FROM payments"
        " WHERE paid_on >= ? AND paid_on < ? AND voided_at IS NULL",
        window,
    )
    return [
        Section(
            "Enforcement",
            (
                Figure(
                    "enforcement.notices",
                    "Notices of violation issued",
                    notices("issued_on", "notices", " AND t.supersedes IS NULL"),
                ),
                Figure(
                    "enforcement.corrections",
                    "Corrected notices issued (replacing one issued before)",
                    notices("issued_on", "notices", " AND t.supersedes IS NOT NULL"),
                ),
                Figure("enforcement.appeals", "Appeals filed", notices("appeal_filed_on")),
                Figure(
                    "enforcement.upheld",
                    "Appeals decided: notice upheld",
                    notices("decided_on", extra=" AND t.upheld = 1"),
                ),
                Figure(
                    "enforcement.overturned",
                    "Appeals decided: notice not upheld",
                    notices("decided_on", extra=" AND t.upheld = 0"),
                ),
                Figure(
                    "enforcement.remedies",
                    "Alternative remedies assigned",
                    notices("assigned_at", "remedies"),
                ),
                Figure(
                    "enforcement.remedies_done",
                    "Alternative remedies completed",
                    notices("completed_on", "remedies"),
                ),
                Figure("enforcement.abated", "Abatement work completed", notices("completed_on")),
                Figure(
                    "enforcement.charged",
                    "Abatement costs charged (cost notices mailed)",
                    notices("cost_notice_mailed_on"),
                    cents=charged,
                ),
                Figure(
                    "enforcement.recovered",
                    "Abatement costs recovered (payments, interest included)",
                    notices("paid_on", "payments", " AND t.voided_at IS NULL"),
                    cents=paid,
                ),
            ),
            notes=("Fines are set by a court on conviction; the portal does not record them.",),
        ),
    ]
