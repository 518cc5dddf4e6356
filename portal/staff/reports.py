"""The annual MS4 figures: what the State's permit asks the municipality to count each year.

Every figure counts things that happened in the period, by the day they happened: a case by
the day it was received, a confirmation, an elimination or a referral by the day staff
recorded it (from the audit log), a notice by the day it was given, a letter by the day it
was mailed, an enforcement step by its own date. A later change of status adds to the
period it happens in and never moves a past year's figures; only a record of something that
happened in that year (a call logged late, a letter recorded late) can.
"""

from __future__ import annotations

import datetime as dt
import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import sqlite_utils
from flask import current_app, render_template, request

from portal.core import kinds
from portal.core.clock import local_now, local_today
from portal.core.db import get_db
from portal.core.statuses import INVESTIGATED
from portal.notification.choices import SPOKEN_NOTICES
from portal.report.choices import INDICATORS
from portal.staff.blueprint import bp
from portal.staff.queue import Filters


@dataclass(frozen=True)
class CountedKind:
    """A kind of case the figures count discharges from."""

    key: str  # cases.kind
    label: str  # "resident reports": "Confirmed through resident reports"
    # The status that, with "confirmed illicit discharge", means the discharge was
    # eliminated (for a notification: closed once the release was dealt with, our reading).
    eliminated_status: str


def counted_kinds() -> tuple[CountedKind, ...]:
    """The kinds the figures count discharges from, by rank (a kind is counted when its
    descriptor says how: `counted`)."""
    return tuple(
        CountedKind(kind.key, kind.counted.label, kind.counted.eliminated_status)
        for kind in kinds.all_kinds()
        if kind.counted
    )


# What a report's status says was done with it, counted the first time it was set.
REPORT_OUTCOMES = ("referred", "exempt", "duplicate")


def reporting_year(day: dt.date, starts: tuple[int, int] | None = None) -> tuple[dt.date, dt.date]:
    """The permit year holding `day`: from its first day to the day before the next one."""
    month, first = starts or current_app.extensions["content"].settings.reporting_year_starts
    start = dt.date(day.year, month, first)
    if day < start:
        start = dt.date(day.year - 1, month, first)
    return start, dt.date(start.year + 1, month, first) - dt.timedelta(days=1)


def _replay(state: dict[str, Any], action: str, detail: dict[str, Any]) -> None:
    """Apply one audit-log entry to a case's (status, confirmed) state."""
    if action == "status":  # entries written before one save held everything
        state["status"] = detail.get("to", state["status"])
    elif action == "confirmed":
        state["confirmed"] = int(bool(detail.get("confirmed")))
    else:  # "update", or a save made with a record ("confirmation_letter")
        if "status" in detail:
            state["status"] = detail["status"]["to"]
        if "confirmed_illicit" in detail:
            state["confirmed"] = int(bool(detail["confirmed_illicit"]["to"]))


def milestones(db: sqlite_utils.Database, start: str, end: str) -> dict[int, dict[str, Any]]:
    """For each case whose log has an entry from `start` to before `end` (local days): its
    kind and the day it first reached each milestone (investigated, confirmed, eliminated,
    referred, exempt, duplicate), by replaying its log from the start."""
    cursor = db.execute(
        "SELECT e.case_id, c.kind, e.at, e.action, e.detail FROM events e"
        " JOIN cases c ON c.id = e.case_id WHERE e.at < ? AND e.case_id IN"
        " (SELECT case_id FROM events WHERE at >= ? AND at < ?) ORDER BY e.case_id, e.id",
        [end, start, end],
    )
    eliminated_status = {kind.key: kind.eliminated_status for kind in counted_kinds()}
    found: dict[int, dict[str, Any]] = {}
    state: dict[str, Any] = {}
    for case_id, kind, at, action, detail in cursor:
        if case_id not in found:
            found[case_id] = {"kind": kind}
            state = {"status": "received", "confirmed": 0}
        _replay(state, action, json.loads(detail))
        reached = []
        if state["status"] in INVESTIGATED:
            reached.append("investigated")
        if state["confirmed"]:
            reached.append("confirmed")
            if state["status"] == eliminated_status.get(kind):
                reached.append("eliminated")
        if state["status"] in REPORT_OUTCOMES:
            reached.append(state["status"])
        for milestone in reached:
            found[case_id].setdefault(milestone, at[:10])
    return found


def _in(day: str | None, start: str, end: str) -> bool:
    return day is not None and start <= day < end


def _discharges(
    found: dict[int, dict[str, Any]], start: str, end: str
) -> dict[str, dict[str, int]]:
    """Milestones reached in the period, by kind of case."""
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for case in found.values():
        for milestone, day in case.items():
            if milestone != "kind" and _in(day, start, end):
                counts[case["kind"]][milestone] += 1
    return counts


def annual_counts(
    db: sqlite_utils.Database, start: dt.date, end: dt.date, now: dt.datetime | None = None
) -> dict[str, Any]:
    """Every figure of the annual report for what happened from `start` to `end` inclusive;
    `now` tells a deadline still to come from one missed (default: the clock)."""
    now = now or local_now()
    window = [start.isoformat(), (end + dt.timedelta(days=1)).isoformat()]
    received = dict(
        db.execute(
            "SELECT kind, count(*) FROM cases WHERE received_at >= ? AND received_at < ?"
            " GROUP BY kind",
            window,
        ).fetchall()
    )
    by_indicator = dict(
        db.execute(
            "SELECT j.value, count(*) FROM cases c JOIN reports r ON r.case_id = c.id,"
            " json_each(r.indicators) j WHERE c.received_at >= ? AND c.received_at < ?"
            " GROUP BY j.value",
            window,
        ).fetchall()
    )
    found = _discharges(milestones(db, *window), *window)
    reports = found["report"]
    return {
        "reports": received.get("report", 0),
        "by_indicator": [(code, label, by_indicator.get(code, 0)) for code, label in INDICATORS],
        "investigated": reports["investigated"],
        "referred": reports["referred"],
        "exempt": reports["exempt"],
        "duplicates": reports["duplicate"],
        # Discharges by where they were found (counted_kinds()): confirmed and eliminated.
        "discharges": [
            (kind.label, found[kind.key]["confirmed"], found[kind.key]["eliminated"])
            for kind in counted_kinds()
        ],
        "confirmed": sum(found[kind.key]["confirmed"] for kind in counted_kinds()),
        "eliminated": sum(found[kind.key]["eliminated"] for kind in counted_kinds()),
        "notifications": received.get("notification", 0),
        **release_notices(db, window, now),
        **enforcement(db, window),
    }


def release_notices(db: sqlite_utils.Database, window: list[str], now: dt.datetime) -> dict:
    """Notices and written confirmations (release notification section), as staff recorded
    them: a notice by the day it was given, its deadline by the day it fell due."""
    stamp = now.isoformat(timespec="seconds")
    logged = dict(
        db.execute(
            "SELECT how, count(*) FROM phone_notices WHERE told_at >= ? AND told_at < ?"
            " GROUP BY how",
            window,
        ).fetchall()
    )
    # Filings whose notice fell due in the period: given in time, late, or not logged by
    # the end of the due day (counted late); a deadline not yet come is neither.
    today = now.date().isoformat()
    on_time, late, missed, to_come = db.execute(
        "SELECT count(*) FILTER (WHERE notice_met = 1), count(*) FILTER (WHERE notice_met = 0),"
        " count(*) FILTER (WHERE notice_met IS NULL AND notice_due < ?),"
        " count(*) FILTER (WHERE notice_met IS NULL AND notice_due >= ?)"
        " FROM notifications WHERE notice_due >= ? AND notice_due < ?",
        [today, today, *window],
    ).fetchone()
    online = current_app.extensions["content"].settings.online_filing
    # Where the content accepts the filing as the confirmation, a filing made after the call.
    by_filing = (
        "(p.case_id IS NOT NULL AND (SELECT received_at FROM cases WHERE id = p.case_id)"
        " >= p.told_at)"
        if online.counts_as_written_confirmation
        else "0"
    )
    # Spoken notices whose mailed confirmation fell due in the period: mailed in time (it
    # counts by the day it was mailed), late, confirmed by the filing, or not at all.
    due_day = "substr(confirmation_due, 1, 10)"
    waiting = f"letter_mailed_on IS NULL AND NOT {by_filing}"
    letters = db.execute(
        f"SELECT count(*) FILTER (WHERE letter_mailed_on <= {due_day}),"
        f" count(*) FILTER (WHERE letter_mailed_on > {due_day}),"
        f" count(*) FILTER (WHERE letter_mailed_on IS NULL AND {by_filing}),"
        f" count(*) FILTER (WHERE {waiting} AND confirmation_due < ?),"
        f" count(*) FILTER (WHERE {waiting} AND confirmation_due >= ?)"
        " FROM phone_notices p WHERE confirmation_due >= ? AND confirmation_due < ?",
        [stamp, stamp, *window],
    ).fetchone()
    (mailed,) = db.execute(
        "SELECT count(*) FROM phone_notices WHERE letter_mailed_on >= ? AND letter_mailed_on < ?",
        window,
    ).fetchone()
    return {
        "notices_by_how": [(how, logged.get(how, 0)) for how in ("phone", "in-person", "fax")],
        "notices_logged": sum(logged.values()),
        "notice_due": on_time + late + missed + to_come,
        "notice_on_time": on_time,
        "notice_late": late,
        "notice_missed": missed,
        "notice_to_come": to_come,
        "confirmation_due": sum(letters),
        "letter_on_time": letters[0],
        "letter_late": letters[1],
        "confirmed_by_filing": letters[2],
        "letter_missed": letters[3],
        "letter_to_come": letters[4],
        "letters_mailed": mailed,
        "spoken_notices": sum(n for how, n in logged.items() if how in SPOKEN_NOTICES),
    }


def _sum(db: sqlite_utils.Database, sql: str, window: Iterable[str]) -> int:
    return db.execute(sql, list(window)).fetchone()[0] or 0


def enforcement(db: sqlite_utils.Database, window: list[str]) -> dict[str, int]:
    """Enforcement in the period, each step by its own date, from the enforcement tables."""

    def between(column: str) -> str:
        return f"{column} >= ? AND {column} < ?"

    return {
        "notices_issued": _sum(
            db,
            f"SELECT count(*) FROM notices WHERE {between('issued_on')} AND supersedes IS NULL",
            window,
        ),
        "corrections_issued": _sum(
            db,
            f"SELECT count(*) FROM notices WHERE {between('issued_on')} AND supersedes IS NOT NULL",
            window,
        ),
        "appeals_filed": _sum(
            db, f"SELECT count(*) FROM notice_steps WHERE {between('appeal_filed_on')}", window
        ),
        "appeals_upheld": _sum(
            db,
            f"SELECT count(*) FROM notice_steps WHERE {between('decided_on')} AND upheld = 1",
            window,
        ),
        "appeals_overturned": _sum(
            db,
            f"SELECT count(*) FROM notice_steps WHERE {between('decided_on')} AND upheld = 0",
            window,
        ),
        "remedies_assigned": _sum(
            db, f"SELECT count(*) FROM remedies WHERE {between('assigned_at')}", window
        ),
        "remedies_completed": _sum(
            db, f"SELECT count(*) FROM remedies WHERE {between('completed_on')}", window
        ),
        "abatements_completed": _sum(
            db, f"SELECT count(*) FROM notice_steps WHERE {between('completed_on')}", window
        ),
        "costs_charged_cents": _sum(
            db,
            "SELECT sum(coalesce(work_cents, 0) + coalesce(admin_cents, 0)) FROM notice_steps"
            f" WHERE {between('cost_notice_mailed_on')}",
            window,
        ),
        "costs_recovered_cents": _sum(
            # A voided payment (typed twice, or replaced by its correction) was never paid.
            db,
            f"SELECT sum(cents) FROM payments WHERE {between('paid_on')} AND voided_at IS NULL",
            window,
        ),
    }


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
        how_words={"phone": "By telephone", "in-person": "In person", "fax": "By fax"},
    )
