"""The annual MS4 figures: what the State's permit asks the municipality to count each year,
each figure as the records behind it (portal/staff/figures.py).

Every figure counts things that happened in the period, by the day they happened: a case by
the day it was received, a confirmation, an elimination or a referral by the day staff
recorded it (from the audit log) or, where track-down recorded it, by the day the discharge
was eliminated, a notice by the day it was given, a letter by the day it was mailed, an
enforcement step by its own date. A later change of status adds to the period it happens in
and never moves a past year's figures; only a record of something that happened in that
year (a call logged late, a letter recorded late) can.
"""

from __future__ import annotations

import datetime as dt
import json
from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

import sqlite_utils
from flask import current_app, g

from portal.core import kinds
from portal.core.statuses import INVESTIGATED
from portal.notification import compliance
from portal.report.choices import INDICATORS
from portal.staff.figures import (
    Figure,
    Record,
    Report,
    Section,
    Window,
    feature_sections,
    records,
)

# What a report's status says was done with it, counted the first time it was set.
REPORT_OUTCOMES = ("referred", "exempt", "duplicate")
# The resident reports' figures from their milestones: (key, milestone, label).
REPORT_FIGURES = (
    ("investigated", "investigated", "Investigated"),
    ("referred", "referred", "Referred to another agency"),
    ("exempt", "exempt", "Found to be exempt discharges"),
    ("duplicates", "duplicate", "Duplicates of another report"),
)
HOW_WORDS = {"phone": "By telephone", "in-person": "In person", "fax": "By fax"}


def reporting_year(day: dt.date, starts: tuple[int, int] | None = None) -> tuple[dt.date, dt.date]:
    """The permit year holding `day`: from its first day to the day before the next one."""
    month, first = starts or current_app.extensions["content"].settings.reporting_year_starts
    start = dt.date(day.year, month, first)
    if day < start:
        start = dt.date(day.year - 1, month, first)
    return start, dt.date(start.year + 1, month, first) - dt.timedelta(days=1)


def window_of(start: dt.date, end: dt.date) -> Window:
    """[first day, the day after the last) as ISO dates: every comparison is a string's."""
    return [start.isoformat(), (end + dt.timedelta(days=1)).isoformat()]


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


def elimination_days(app: Any) -> Callable[[sqlite_utils.Database], dict[int, str]] | None:
    """The feature that records when a discharge was eliminated (track-down), if any: a
    function giving {case id: ISO day}. Registered with `app.extensions["elimination_days"]`."""
    return app.extensions.get("elimination_days")


def milestones(db: sqlite_utils.Database, start: str, end: str) -> dict[int, dict[str, Any]]:
    """For each case whose log has an entry from `start` to before `end` (local days), or
    whose discharge was eliminated then: its kind and the day it first reached each
    milestone (investigated, confirmed, eliminated, referred, exempt, duplicate), by
    replaying its log from the start. A discharge whose elimination was recorded with its
    day counts as eliminated on the later of that day and its confirmation."""
    recorded = elimination_days(current_app)
    eliminated_on = recorded(db) if recorded else {}
    marks = [c for c, day in eliminated_on.items() if day < end]
    # A kind may date a case's opening entry by when it happened (Counted.happened_at).
    happened = {
        case_id: at
        for kind in kinds.all_kinds()
        if kind.counted and kind.counted.happened_at
        for case_id, at in kind.counted.happened_at(db).items()
    }
    cursor = db.execute(
        "WITH b (case_id, at) AS (SELECT CAST(key AS INTEGER), value FROM json_each(?)),"
        " ev AS (SELECT e.id, e.case_id, CASE WHEN b.at IS NOT NULL AND e.id ="
        " (SELECT min(f.id) FROM events f WHERE f.case_id = e.case_id) THEN b.at ELSE e.at"
        " END AS at, e.action, e.detail FROM events e LEFT JOIN b ON b.case_id = e.case_id)"
        " SELECT ev.case_id, c.kind, ev.at, ev.action, ev.detail FROM ev"
        " JOIN cases c ON c.id = ev.case_id WHERE ev.at < ? AND (ev.case_id IN"
        " (SELECT case_id FROM ev WHERE at >= ? AND at < ?)"
        " OR ev.case_id IN (SELECT value FROM json_each(?))) ORDER BY ev.case_id, ev.id",
        [json.dumps(happened), end, start, end, json.dumps(marks)],
    )
    eliminated_status = {k.key: k.counted.eliminated_status for k in kinds.all_kinds() if k.counted}
    found: dict[int, dict[str, Any]] = {}
    state: dict[str, Any] = {}
    states: dict[int, dict[str, Any]] = {}
    for case_id, kind, at, action, detail in cursor:
        if case_id not in found:
            found[case_id] = {"kind": kind}
            state = states[case_id] = {"status": "received", "confirmed": 0}
        _replay(state, action, json.loads(detail))
        reached = []
        if state["status"] in INVESTIGATED:
            reached.append("investigated")
        if state["confirmed"]:
            reached.append("confirmed")
            if case_id not in eliminated_on and state["status"] == eliminated_status.get(kind):
                reached.append("eliminated")
        if state["status"] in REPORT_OUTCOMES:
            reached.append(state["status"])
        for milestone in reached:
            found[case_id].setdefault(milestone, at[:10])
    # A discharge no longer confirmed at the period's end (the lab said otherwise) is not
    # counted in it; what happened after the end never changes a closed period.
    for case_id, last in states.items():
        if not last["confirmed"]:
            found[case_id].pop("confirmed", None)
            found[case_id].pop("eliminated", None)
    for case_id, day in eliminated_on.items():
        confirmed = found.get(case_id, {}).get("confirmed")
        if confirmed:
            found[case_id]["eliminated"] = max(day, confirmed)
    return found


def _references(db: sqlite_utils.Database, ids: Iterable[int]) -> dict[int, str]:
    return dict(
        db.execute(
            "SELECT id, reference FROM cases WHERE id IN (SELECT value FROM json_each(?))",
            [json.dumps(sorted(set(ids)))],
        ).fetchall()
    )


def _cases(references: dict[int, str], days: dict[int, str]) -> tuple[Record, ...]:
    return records(((i, references[i], day) for i, day in days.items()), "staff.case", "case_id")


def _rows(db: sqlite_utils.Database, sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
    return db.execute(sql, params).fetchall()


def _notice_records(rows: Iterable[tuple[Any, ...]]) -> tuple[Record, ...]:
    """Notices of violation from (notice id, number, day) rows."""
    named = ((i, number or f"Notice {i} (draft)", day) for i, number, day in rows)
    return records(named, "enforcement.notice_page", "notice_id")


def _phone_records(rows: Iterable[tuple[Any, ...]]) -> tuple[Record, ...]:
    """Notices staff logged, from (id, how, facility, day) rows."""
    named = ((i, f"{HOW_WORDS.get(how, how)}: {facility}", day) for i, how, facility, day in rows)
    return records(named, "staff.phone_notice", "notice_id")


def _discharges(db: sqlite_utils.Database, window: Window) -> dict[str, Any]:
    """What the discharge and resident-report sections share, worked out once per report."""
    memo = g.setdefault("annual_discharges", {})
    if tuple(window) in memo:
        return memo[tuple(window)]
    start, end = window
    found = milestones(db, start, end)
    received = defaultdict(dict)
    for case_id, kind, at in _rows(
        db,
        "SELECT id, kind, received_at FROM cases WHERE received_at >= ? AND received_at < ?",
        window,
    ):
        received[kind][case_id] = at[:10]
    by_milestone: dict[str, dict[str, dict[int, str]]] = defaultdict(lambda: defaultdict(dict))
    for case_id, case in found.items():
        for milestone, day in case.items():
            if milestone != "kind" and start <= day < end:
                by_milestone[case["kind"]][milestone][case_id] = day
    indicator_rows = _rows(
        db,
        "SELECT j.value, c.id, substr(c.received_at, 1, 10) FROM cases c JOIN reports r"
        " ON r.case_id = c.id, json_each(r.indicators) j WHERE c.received_at >= ?"
        " AND c.received_at < ?",
        window,
    )
    ids = set(found) | {i for days in received.values() for i in days}
    references = _references(db, ids | {row[1] for row in indicator_rows})
    counted = [k for k in kinds.all_kinds() if k.counted]
    discharges: list[Figure] = []
    for kind in counted:
        mine = by_milestone[kind.key]
        discharges += [
            Figure(
                f"discharges.{kind.key}.confirmed",
                f"Confirmed, found through {kind.counted.label}",
                _cases(references, mine["confirmed"]),
            ),
            Figure(
                f"discharges.{kind.key}.eliminated",
                f"Eliminated, found through {kind.counted.label}",
                _cases(references, mine["eliminated"]),
            ),
        ]
    everything = {
        m: {i: d for k in counted for i, d in by_milestone[k.key][m].items()}
        for m in ("confirmed", "eliminated")
    }
    discharges += [
        Figure(
            "discharges.confirmed", "Confirmed in all", _cases(references, everything["confirmed"])
        ),
        Figure(
            "discharges.eliminated",
            "Eliminated in all",
            _cases(references, everything["eliminated"]),
        ),
    ]
    memo[tuple(window)] = {"discharges": discharges, "by_milestone": by_milestone,
                           "received": received, "references": references,
                           "indicator_rows": indicator_rows}  # fmt: skip
    return memo[tuple(window)]


def discharge_sections(
    db: sqlite_utils.Database, window: Window, now: dt.datetime
) -> list[Section]:
    """Illicit discharges by how they were found."""
    notes = tuple(k.counted.note for k in kinds.all_kinds() if k.counted and k.counted.note)
    return [
        Section("Illicit discharges", tuple(_discharges(db, window)["discharges"]), notes=notes)
    ]


def report_sections(db: sqlite_utils.Database, window: Window, now: dt.datetime) -> list[Section]:
    """The resident reports' own figures."""
    parts = _discharges(db, window)
    references, received = parts["references"], parts["received"]
    reports = parts["by_milestone"]["report"]
    by_indicator: dict[str, dict[int, str]] = defaultdict(dict)
    for code, case_id, day in parts["indicator_rows"]:
        by_indicator[code][case_id] = day
    return [
        Section(
            "Resident reports",
            (
                Figure(
                    "reports.received", "Reports received", _cases(references, received["report"])
                ),
                *(
                    Figure(f"reports.{key}", label, _cases(references, reports[milestone]))
                    for key, milestone, label in REPORT_FIGURES
                ),
            ),
        ),
        Section(
            "Reports by what was seen",
            tuple(
                Figure(f"indicators.{code}", label, _cases(references, by_indicator[code]))
                for code, label in INDICATORS
            ),
        ),
    ]


def release_sections(db: sqlite_utils.Database, window: Window, now: dt.datetime) -> list[Section]:
    """Notices and written confirmations (release notifications), as staff recorded them: a
    notice by the day it was given, its deadline by the day it fell due."""
    content = current_app.extensions["content"].settings
    online = content.online_filing
    stamp = now.isoformat(timespec="seconds")
    today = now.date().isoformat()
    filings = _rows(
        db,
        "SELECT id, reference, substr(received_at, 1, 10) FROM cases WHERE kind ="
        " 'notification' AND received_at >= ? AND received_at < ?",
        window,
    )
    logged = _rows(
        db,
        "SELECT id, how, facility_name, substr(told_at, 1, 10) FROM phone_notices"
        " WHERE told_at >= ? AND told_at < ?",
        window,
    )
    # Filings whose notice fell due in the period: given in time, late, or not logged by
    # the end of the due day (counted late); a deadline not yet come is neither.
    due = _rows(
        db,
        "SELECT c.id, c.reference, substr(n.notice_due, 1, 10), n.notice_met FROM"
        " notifications n JOIN cases c ON c.id = n.case_id WHERE n.notice_due >= ?"
        " AND n.notice_due < ?",
        window,
    )

    def filing(rows: Iterable[tuple[Any, ...]]) -> tuple[Record, ...]:
        return _cases({r[0]: r[1] for r in rows}, {r[0]: r[2] for r in rows})

    on_time = [r for r in due if r[3] == 1]
    late = [r for r in due if r[3] == 0]
    missed = [r for r in due if r[3] is None and r[2] < today]
    to_come = [r for r in due if r[3] is None and r[2] >= today]
    # Where the content accepts the filing as the confirmation, as the filing's row stores it.
    by_filing = compliance.confirmed_by_filing_sql("p")
    # Spoken notices whose mailed confirmation fell due in the period: mailed in time (it
    # counts by the day it was mailed), late, confirmed by the filing, or not at all.
    letters = _rows(
        db,
        "SELECT id, how, facility_name, substr(confirmation_due, 1, 10), CASE"
        " WHEN letter_mailed_on <= substr(confirmation_due, 1, 10) THEN 'on time'"
        " WHEN letter_mailed_on IS NOT NULL THEN 'late'"
        f" WHEN {by_filing} THEN 'filing' WHEN confirmation_due < ? THEN 'missed'"
        " ELSE 'to come' END FROM phone_notices p"
        " WHERE confirmation_due >= ? AND confirmation_due < ?",
        [stamp, *window],
    )
    mailed = _rows(
        db,
        "SELECT id, how, facility_name, letter_mailed_on FROM phone_notices"
        " WHERE letter_mailed_on >= ? AND letter_mailed_on < ?",
        window,
    )

    def letters_where(state: str) -> tuple[Record, ...]:
        return _phone_records(row[:4] for row in letters if row[4] == state)

    filed_words = (
        "Filings made online (a record, not the notice)"
        if not online.counts_as_notice
        else "Filings made online (a record; accepted as the notice)"
    )
    kind = content.kind
    return [
        Section(
            "Release notifications",
            (
                Figure("releases.filings", filed_words, filing(filings)),
                Figure("releases.notices", "Notices logged by staff", _phone_records(logged)),
                *(
                    Figure(
                        f"releases.notices.{how}",
                        f"– {HOW_WORDS[how]}",
                        _phone_records(r for r in logged if r[1] == how),
                    )
                    for how in HOW_WORDS
                ),
            ),
            notes=(f"Releases the {kind} was told of.",),
        ),
        Section(
            "Notice by the next business day",
            (
                Figure("notice.due", "Filings whose notice fell due in the period", filing(due)),
                Figure("notice.on_time", "Notice given in time", filing(on_time)),
                Figure("notice.late", "Notice given late", filing(late)),
                Figure(
                    "notice.missed",
                    "No notice logged by the deadline (counted late)",
                    filing(missed),
                ),
                Figure("notice.to_come", "Deadline still to come", filing(to_come), optional=True),
            ),
            level=3,
        ),
        Section(
            "Written confirmation, mailed within three business days",
            (
                Figure(
                    "letters.due",
                    "Telephone and in-person notices whose confirmation fell due",
                    _phone_records(row[:4] for row in letters),
                ),
                Figure("letters.on_time", "Letter mailed in time", letters_where("on time")),
                Figure("letters.late", "Letter mailed late", letters_where("late")),
                *(
                    (
                        Figure(
                            "letters.by_filing",
                            "Confirmed by the online filing",
                            letters_where("filing"),
                        ),
                    )
                    if compliance.filing_can_confirm(online)
                    else ()
                ),
                Figure("letters.missed", "No letter recorded", letters_where("missed")),
                Figure(
                    "letters.to_come",
                    "Due date still to come",
                    letters_where("to come"),
                    optional=True,
                ),
                Figure("letters.mailed", "Letters mailed in the period", _phone_records(mailed)),
            ),
            level=3,
        ),
    ]


def enforcement_sections(
    db: sqlite_utils.Database, window: Window, now: dt.datetime
) -> list[Section]:
    """Enforcement in the period, each step by its own date, from the enforcement tables."""

    def notices(column: str, table: str = "notice_steps", extra: str = "") -> tuple[Record, ...]:
        key = "id" if table == "notices" else "notice_id"
        return _notice_records(
            _rows(
                db,
                f"SELECT t.{key}, n.number, substr(t.{column}, 1, 10) FROM {table} t JOIN notices n"
                f" ON n.id = t.{key} WHERE t.{column} >= ? AND t.{column} < ?{extra}",
                window,
            )
        )

    charged = _rows(
        db,
        "SELECT notice_id, coalesce(work_cents, 0) + coalesce(admin_cents, 0) FROM notice_steps"
        " WHERE cost_notice_mailed_on >= ? AND cost_notice_mailed_on < ?",
        window,
    )
    # A voided payment (typed twice, or replaced by its correction) was never paid.
    paid = _rows(
        db,
        "SELECT sum(cents) FROM payments WHERE paid_on >= ? AND paid_on < ? AND voided_at IS NULL",
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
                    cents=sum(c for _, c in charged),
                ),
                Figure(
                    "enforcement.recovered",
                    "Abatement costs recovered (payments, interest included)",
                    notices("paid_on", "payments", " AND t.voided_at IS NULL"),
                    cents=paid[0][0] or 0,
                ),
            ),
            notes=("Fines are set by a court on conviction; the portal does not record them.",),
        ),
    ]


# The core's parts of the report, by rank (a feature's section comes where its rank puts it).
CORE = (
    (10, discharge_sections),
    (20, report_sections),
    (40, release_sections),
    (50, enforcement_sections),
)


def annual_report(
    db: sqlite_utils.Database, start: dt.date, end: dt.date, now: dt.datetime
) -> Report:
    """Every figure of the annual report for what happened from `start` to `end` inclusive;
    `now` tells a deadline still to come from one missed."""
    window = window_of(start, end)
    g.pop("annual_discharges", None)  # worked out afresh for each report
    parts = [(rank, build) for rank, build in CORE]
    parts += [(source.rank, source.build) for source in feature_sections(current_app)]
    sections: list[Section] = []
    for _, build in sorted(parts, key=lambda part: part[0]):
        sections += build(db, window, now)
    return Report.of(sections)
