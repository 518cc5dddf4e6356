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
from portal.core.db import rows
from portal.core.statuses import INVESTIGATED
from portal.report.choices import INDICATORS
from portal.staff.figures import (
    Figure,
    Record,
    Report,
    Section,
    SectionSource,
    Window,
    feature_sections,
    records,
)
from portal.staff.figures_period import window_of

# What a report's status says was done with it, counted the first time it was set.
REPORT_OUTCOMES = ("referred", "exempt", "duplicate")
# The resident reports' figures from their milestones: (key, milestone, label).
REPORT_FIGURES = (
    ("investigated", "investigated", "Investigated"),
    ("referred", "referred", "Referred to another agency"),
    ("exempt", "exempt", "Found to be exempt discharges"),
    ("duplicates", "duplicate", "Duplicates of another report"),
)


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


def happened_at(db: sqlite_utils.Database) -> dict[int, str]:
    """{case id: local ISO time} of the cases whose kind dates the opening entry by when it
    happened (Counted.happened_at: a discharge staff found on paper and typed later)."""
    return {
        case_id: at
        for kind in kinds.all_kinds()
        if kind.counted and kind.counted.happened_at
        for case_id, at in kind.counted.happened_at(db).items()
    }


def milestones(db: sqlite_utils.Database, start: str, end: str) -> dict[int, dict[str, Any]]:
    """For each case whose log has an entry from `start` to before `end` (local days), or
    whose discharge was eliminated then: its kind and the day it first reached each
    milestone (investigated, confirmed, eliminated, referred, exempt, duplicate), by
    replaying its log from the start. A discharge whose elimination was recorded with its
    day counts as eliminated on the later of that day and its confirmation."""
    return replayed(db, start, end)[0]


def replayed(
    db: sqlite_utils.Database, start: str, end: str
) -> tuple[dict[int, dict[str, Any]], dict[int, dict[str, Any]]]:
    """`milestones`, and each of those cases' state (status, confirmed) at `end`."""
    recorded = elimination_days(current_app)
    eliminated_on = recorded(db) if recorded else {}
    marks = [c for c, day in eliminated_on.items() if day < end]
    happened = happened_at(db)
    events = rows(
        db,
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
    for event in events:
        case_id, kind, at = event["case_id"], event["kind"], event["at"]
        if case_id not in found:
            found[case_id] = {"kind": kind}
            state = states[case_id] = {"status": "received", "confirmed": 0}
        _replay(state, event["action"], json.loads(event["detail"]))
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
    return found, states


def _references(db: sqlite_utils.Database, ids: Iterable[int]) -> dict[int, str]:
    return {
        row["id"]: row["reference"]
        for row in rows(
            db,
            "SELECT id, reference FROM cases WHERE id IN (SELECT value FROM json_each(?))",
            [json.dumps(sorted(set(ids)))],
        )
    }


def _cases(references: dict[int, str], days: dict[int, str]) -> tuple[Record, ...]:
    return records(((i, references[i], day) for i, day in days.items()), "staff.case", "case_id")


def _discharges(db: sqlite_utils.Database, window: Window) -> dict[str, Any]:
    """What the discharge and resident-report sections share, worked out once per report."""
    memo = g.setdefault("annual_discharges", {})
    if tuple(window) in memo:
        return memo[tuple(window)]
    start, end = window
    found = milestones(db, start, end)
    received = defaultdict(dict)
    for row in rows(
        db,
        "SELECT id, kind, received_at FROM cases WHERE received_at >= ? AND received_at < ?",
        window,
    ):
        received[row["kind"]][row["id"]] = row["received_at"][:10]
    by_milestone: dict[str, dict[str, dict[int, str]]] = defaultdict(lambda: defaultdict(dict))
    for case_id, case in found.items():
        for milestone, day in case.items():
            if milestone != "kind" and start <= day < end:
                by_milestone[case["kind"]][milestone][case_id] = day
    indicator_rows = rows(
        db,
        "SELECT j.value AS code, c.id, substr(c.received_at, 1, 10) AS day FROM cases c"
        " JOIN reports r ON r.case_id = c.id, json_each(r.indicators) j"
        " WHERE c.received_at >= ? AND c.received_at < ?",
        window,
    )
    ids = set(found) | {i for days in received.values() for i in days}
    references = _references(db, ids | {row["id"] for row in indicator_rows})
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
    memo[tuple(window)] = {
        "discharges": discharges,
        "by_milestone": by_milestone,
        "received": received,
        "references": references,
        "indicator_rows": indicator_rows,
    }
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
    for row in parts["indicator_rows"]:
        by_indicator[row["code"]][row["id"]] = row["day"]
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


# The report's own parts, by rank; a feature's section comes where its rank puts it (the
# outfalls' 15, the release notifications' 40, enforcement's 50).
OWN = (SectionSource(10, discharge_sections), SectionSource(20, report_sections))


def annual_report(
    db: sqlite_utils.Database, start: dt.date, end: dt.date, now: dt.datetime
) -> Report:
    """Every figure of the annual report for what happened from `start` to `end` inclusive;
    `now` tells a deadline still to come from one missed."""
    window = window_of(start, end)
    g.pop("annual_discharges", None)  # worked out afresh for each report
    parts = sorted([*OWN, *feature_sections(current_app)], key=lambda source: source.rank)
    sections: list[Section] = []
    for source in parts:
        sections += source.build(db, window, now)
    return Report.of(sections)
