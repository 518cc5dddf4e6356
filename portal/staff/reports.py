"""The annual MS4 figures: what the State's permit asks the municipality to count each year."""

from __future__ import annotations

import datetime as dt
from typing import Any

import sqlite_utils
from flask import current_app, render_template, request

from portal.clock import local_today
from portal.db import get_db
from portal.report.choices import INDICATORS
from portal.staff import bp
from portal.staff.queue import Filters
from portal.statuses import INVESTIGATED


def reporting_year(day: dt.date, starts: tuple[int, int] | None = None) -> tuple[dt.date, dt.date]:
    """The permit year holding `day`: from its first day to the day before the next one."""
    month, first = starts or current_app.extensions["content"].settings.reporting_year_starts
    start = dt.date(day.year, month, first)
    if day < start:
        start = dt.date(day.year - 1, month, first)
    return start, dt.date(start.year + 1, month, first) - dt.timedelta(days=1)


def annual_counts(db: sqlite_utils.Database, start: dt.date, end: dt.date) -> dict[str, Any]:
    """Every figure of the annual report for cases received from `start` to `end` inclusive."""
    window = [start.isoformat(), (end + dt.timedelta(days=1)).isoformat()]
    in_window = "c.received_at >= ? AND c.received_at < ?"

    def count(kind: str, condition: str = "1 = 1", params: list | None = None) -> int:
        sql = (
            f"SELECT count(*) FROM cases c LEFT JOIN notifications n ON n.case_id = c.id"
            f" WHERE c.kind = ? AND {in_window} AND {condition}"
        )
        return db.execute(sql, [kind, *window, *(params or [])]).fetchone()[0]

    by_indicator = dict(
        db.execute(
            "SELECT j.value, count(*) FROM cases c JOIN reports r ON r.case_id = c.id,"
            f" json_each(r.indicators) j WHERE {in_window} GROUP BY j.value",
            window,
        ).fetchall()
    )
    marks = ", ".join("?" for _ in INVESTIGATED)
    return {
        "reports": count("report"),
        "by_indicator": [(code, label, by_indicator.get(code, 0)) for code, label in INDICATORS],
        "investigated": count("report", f"c.status IN ({marks})", list(INVESTIGATED)),
        "confirmed": count("report", "c.confirmed_illicit = 1"),
        "eliminated": count("report", "c.confirmed_illicit = 1 AND c.status = 'resolved'"),
        "referred": count("report", "c.status = 'referred'"),
        "exempt": count("report", "c.status = 'exempt'"),
        "duplicates": count("report", "c.status = 'duplicate'"),
        "notifications": count("notification"),
        "notifications_late": count("notification", "n.notice_met = 0"),
        "notifications_confirmed": count(
            "notification", "(c.status = 'confirmed' OR n.confirmation_due IS NOT NULL)"
        ),
        **_spoken_notices(db, window),
    }


def _spoken_notices(db: sqlite_utils.Database, window: list[str]) -> dict[str, int]:
    """Notices staff logged from a call or a visit, and how many were confirmed in writing."""
    logged, spoken, confirmed = db.execute(
        "SELECT count(*), count(confirmation_due), count(confirmed_by) FROM phone_notices"
        " WHERE told_at >= ? AND told_at < ?",
        window,
    ).fetchone()
    return {"notices_logged": logged, "notices_spoken": spoken, "notices_confirmed": confirmed}


def date_window(filters: Filters) -> tuple[dt.date, dt.date]:
    """The dates asked for, each defaulting to the current reporting year's."""
    default_start, default_end = reporting_year(local_today())
    return filters.start or default_start, filters.end or default_end


@bp.route("/annual-report/")
def annual_report():
    filters = Filters.from_args(request.args)
    start, end = date_window(filters)
    previous = reporting_year(reporting_year(local_today())[0] - dt.timedelta(days=1))
    return render_template(
        "staff/annual_report.html",
        start=start,
        end=end,
        counts=annual_counts(get_db(), start, end),
        previous=previous,
        errors=filters.errors,
    )
