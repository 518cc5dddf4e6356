"""Track-down's part of the annual figures (portal/staff/figures.py): the illicit discharges
still being traced at the end of the period, and for each discharge eliminated in it the
days it took (officer's week 2026-12-03, the IDDE table: "Discharges still being tracked
down, time to eliminate").

Both read a case's confirmation and elimination as the "Illicit discharges" lines do
(portal/staff/annual_figures.py `replayed`), so the three agree. Our readings, said on the
page: a discharge is still being traced when it was confirmed by the end of the period, was
not eliminated by then, and its case was still open then; the days to eliminate run from
the day the discharge was found (the day its case was received, or for a discharge staff
found and typed in later, the day they found it) to the day it counts as eliminated, in
calendar days.
"""

from __future__ import annotations

import datetime as dt
import json
import statistics

import sqlite_utils
from flask import Flask

from portal.core.db import rows
from portal.core.statuses import STATUSES
from portal.staff.annual_figures import happened_at, replayed
from portal.staff.figures import Figure, Section, SectionSource, Window, add_section, records


def init_figures(app: Flask) -> None:
    """Under the illicit discharges (rank 10), before the outfalls (15)."""
    add_section(app, SectionSource(12, trackdown_sections))


def found_days(db: sqlite_utils.Database, ids: list[int]) -> dict[int, tuple[str, str]]:
    """{case id: (reference, the ISO day the discharge was found)} (our reading, above)."""
    happened = happened_at(db)
    return {
        row["id"]: (row["reference"], (happened.get(row["id"]) or row["received_at"])[:10])
        for row in rows(
            db,
            "SELECT id, reference, received_at FROM cases"
            " WHERE id IN (SELECT value FROM json_each(?))",
            [json.dumps(sorted(ids))],
        )
    }


def _days(first: str, last: str) -> int:
    return (dt.date.fromisoformat(last) - dt.date.fromisoformat(first)).days


def trackdown_sections(
    db: sqlite_utils.Database, window: Window, now: dt.datetime
) -> list[Section]:
    start, end = window
    # Every case, as it stood at the end of the period.
    found, states = replayed(db, "", end)
    open_at_end = {
        case_id: case["confirmed"]
        for case_id, case in found.items()
        if "confirmed" in case
        and not ("eliminated" in case and case["eliminated"] < end)
        and not getattr(STATUSES.get(states[case_id]["status"]), "closed", False)
    }
    eliminated = {
        case_id: case["eliminated"]
        for case_id, case in found.items()
        if "eliminated" in case and start <= case["eliminated"] < end
    }
    cases = found_days(db, [*open_at_end, *eliminated])
    taken = {case_id: _days(cases[case_id][1], day) for case_id, day in eliminated.items()}

    def words(case_id: int) -> str:
        n = taken[case_id]
        return f"{cases[case_id][0]}: {n} day{'s' if n != 1 else ''}"

    summary = None
    if taken:
        days = sorted(taken.values())
        summary = f"{len(days)}: median {statistics.median(days):g} days ({days[0]} to {days[-1]})"
    return [
        Section(
            "Discharges still being traced, and the days to eliminate",
            (
                Figure(
                    "trackdown.open_at_end",
                    "Discharges confirmed and still being traced at the end of the period",
                    records(
                        ((i, cases[i][0], day) for i, day in open_at_end.items()),
                        "staff.case",
                        "case_id",
                    ),
                ),
                Figure(
                    "trackdown.days_to_eliminate",
                    "Discharges eliminated in the period: the days each took from found to"
                    " eliminated",
                    records(
                        ((i, words(i), day) for i, day in eliminated.items()),
                        "staff.case",
                        "case_id",
                    ),
                    value=summary,
                ),
            ),
            level=3,
            notes=(
                "Still being traced: a discharge confirmed by the end of the period, not"
                " eliminated by then, whose case was still open then (our reading; one passed"
                " to another agency counts until it is eliminated). Each is listed by the day"
                " it was confirmed.",
                "Days to eliminate: from the day the discharge was found (the day its case was"
                " received; for one staff found and recorded later, the day they found it) to"
                " the day it counts as eliminated, in calendar days (our reading). Each"
                " discharge is listed with its days, on the day it was eliminated.",
            ),
        )
    ]
