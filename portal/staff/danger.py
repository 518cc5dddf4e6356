"""What puts a case first in the queue: a hazard, or something overdue. Worked out in SQL,
so the whole queue is sorted and filtered by it, not one page at a time.

A case's hazards come from its kind's rule (`Kind.hazards`): a resident's report's and a staff
finding's from the content's rules (portal/report/hazards.py), which read what was written; a
notification's from the facility's own answer. Each case's are worked out once and kept in
report_hazards (every kind's, despite its name) with a fingerprint of the rules, and worked
out again for a new case or new rules, with the case's danger rank (danger_rank below).

The queue puts the most dangerous first and, among cases equally dangerous, the one waiting
longest: the oldest filed (rank). The ordinance defines hazardous materials but ranks none
above another, and sets no order for the officer's work: this order is our reading, said so
on the queue page.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from content_model.site import HazardRule
from content_model.site_values import DANGERS
from portal.core import kinds
from portal.core.db import rows, transaction, value
from portal.core.deadlines import BusinessCalendar
from portal.core.statuses import CLOSED


def fingerprint(rules: Iterable[HazardRule]) -> str:
    """A short digest of the rules: a change of rules shows as a change of fingerprint."""
    text = json.dumps([[r.name, r.indicators, r.odors, r.words, r.danger] for r in rules])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def danger_rank(rules: Iterable[HazardRule], hazards: Iterable[str]) -> int | None:
    """How dangerous a case is, 0 the most: the place in DANGERS (a fire or explosion risk,
    vapor or someone feeling ill, fuel or petroleum, other hazardous materials) of the most
    dangerous of its hazards; a hazard no content rule names (a filer's "hazardous", the
    officer's flag) is of other hazardous materials. None: not hazardous."""
    tiers = list(DANGERS)
    named = {rule.name: rule.danger for rule in rules}
    ranks = [tiers.index(named.get(name, "hazardous")) for name in hazards]
    return min(ranks, default=None)


def danger_order() -> list[str]:
    """The ranks in words, most dangerous first (the queue page says its order)."""
    return list(DANGERS.values())


def refresh_hazards(db: sqlite_utils.Database, rules: tuple[HazardRule, ...]) -> int:
    """Work out the hazards of every case not yet worked out with these rules, each by its
    kind's own rule (`Kind.hazards`, from its details); returns how many were. Cheap when
    nothing is new: two lookups in indexes."""
    mark = fingerprint(rules)
    # Cases are numbered as they come: a new one is above the last worked out.
    stale = value(
        db,
        "SELECT (SELECT max(id) FROM cases)"
        " > coalesce((SELECT max(case_id) FROM report_hazards), 0)"
        " OR EXISTS (SELECT 1 FROM report_hazards WHERE rules < ? OR rules > ?)",
        [mark, mark],
    )
    if not stale:
        return 0
    with transaction(db):
        found = kinds.attach_details(
            db,
            rows(
                db,
                "SELECT c.id, c.kind, c.hazard_call FROM cases c LEFT JOIN report_hazards h"
                " ON h.case_id = c.id WHERE h.rules IS NOT ?",
                [mark],
            ),
        )
        worked_out = [(r["id"], kinds.hazards_of(rules, r)) for r in found]
        db.conn.executemany(
            "INSERT OR REPLACE INTO report_hazards (case_id, hazards, danger, rules)"
            " VALUES (?, ?, ?, ?)",
            [
                (case_id, json.dumps(hazards), danger_rank(rules, hazards), mark)
                for case_id, hazards in worked_out
            ],
        )
    return len(found)


def untouched_before(calendar: BusinessCalendar, now: dt.datetime) -> str:
    """The first local day whose new cases are not yet a business day old: a case received
    before it and never acted on is "untouched over a business day"."""
    day = now.date()
    while calendar.end_of_day(calendar.next_business_day(day), now.tzinfo) >= now:
        day -= dt.timedelta(days=1)
    return (day + dt.timedelta(days=1)).isoformat()


@dataclass(frozen=True)
class Moments:
    """Now, as the SQL below compares it with stored local times."""

    now: str  # "2027-03-02T16:30:00-05:00"
    today: str  # "2027-03-02"
    untouched_before: str  # a day, see untouched_before

    @classmethod
    def at(cls, calendar: BusinessCalendar, now: dt.datetime) -> Moments:
        return cls(
            now.isoformat(timespec="seconds"),
            now.date().isoformat(),
            untouched_before(calendar, now),
        )


_OPEN = f"c.status NOT IN ({', '.join(repr(s) for s in sorted(CLOSED))})"
# A filing the facility called hazardous is in report_hazards too (its kind's rule).
HAZARDOUS = "(h.danger IS NOT NULL)"
# No notice logged by the end of the due day: the due day (notice_due's date part, before
# its closing time) is before today.
NOTICE_OVERDUE = "(n.notice_met IS NULL AND n.notice_due < ?)"
CONFIRMATION_OVERDUE = (
    "(n.confirmation_due IS NOT NULL AND n.confirmation_met IS NULL AND n.confirmation_due < ?)"
)
# Each flag a case can have, as SQL over cases c, reports r, notifications n and
# report_hazards h: (name, condition, the parameters it takes from Moments).
_FLAGS: list[tuple[str, str, tuple[str, ...]]] = [
    (
        "untouched",
        "c.first_action_at IS NULL AND c.status = 'received' AND c.received_at < ?",
        ("untouched_before",),
    ),
    ("hazardous", HAZARDOUS, ()),
    # The release notification's two rules, notification/compliance.py's notice_overdue
    # and confirmation_overdue, in the SQL the whole queue is sorted by (the workspace
    # imports no feature); the tests hold each pair at the last moment of its day.
    ("notice-overdue", f"n.case_id IS NOT NULL AND {NOTICE_OVERDUE}", ("today",)),
    ("confirmation-overdue", CONFIRMATION_OVERDUE, ("now",)),
    ("follow-up-overdue", f"c.follow_up_on < ? AND {_OPEN}", ("today",)),
    ("follow-up-due", f"c.follow_up_on = ? AND {_OPEN}", ("today",)),
]
OVERDUE = ("untouched", "notice-overdue", "confirmation-overdue", "follow-up-overdue")


def _condition(names: Iterable[str], moments: Moments) -> tuple[str, list[Any]]:
    # coalesce: a missing value (no follow-up date) makes a part false, never NULL, so
    # NOT (...) holds for every case that is not in danger.
    parts, params = [], []
    for name, sql, needs in _FLAGS:
        if name in names:
            parts.append(f"coalesce(({sql}), 0)")
            params.extend(getattr(moments, need) for need in needs)
    return " OR ".join(parts), params


def _candidates(moments: Moments) -> tuple[str, list[Any]]:
    """SQL: the ids of every case that may have a hazard or something overdue, each set
    read from an index (or the small notifications table), so the queue finds them without
    reading every case."""
    return (
        "c.id IN (SELECT case_id FROM report_hazards WHERE danger IS NOT NULL"
        " UNION ALL SELECT case_id FROM notifications n WHERE"
        f" {NOTICE_OVERDUE} OR {CONFIRMATION_OVERDUE}"
        " UNION ALL SELECT id FROM cases WHERE follow_up_on < ?"
        " UNION ALL SELECT id FROM cases WHERE status = 'received' AND first_action_at IS NULL"
        " AND received_at < ?)",
        [moments.today, moments.now, moments.today, moments.untouched_before],
    )


def flag_columns(moments: Moments) -> tuple[str, list[Any]]:
    """SELECT columns: one 0/1 column per flag, named flag_<name>."""
    columns, params = [], []
    for name, sql, needs in _FLAGS:
        columns.append(f'({sql}) AS "flag_{name}"')
        params.extend(getattr(moments, need) for need in needs)
    return ", ".join(columns), params


def rank(moments: Moments) -> tuple[str, list[Any]]:
    """ORDER BY terms for the cases in danger: the hazardous by their danger rank (0 the
    most dangerous), then those with something overdue; in each, the one waiting longest
    (filed first) first."""
    overdue, params = _condition(OVERDUE, moments)
    after = len(DANGERS)
    return (
        f"CASE WHEN {HAZARDOUS} THEN h.danger WHEN {overdue} THEN {after} ELSE {after + 1} END,"
        " c.received_at, c.id",
        params,
    )


def only(flag: str, moments: Moments) -> tuple[str, list[Any]]:
    """A WHERE condition: open cases with a hazard ("hazard"), something overdue
    ("overdue"), or either ("danger")."""
    names = {"hazard": ("hazardous",), "overdue": OVERDUE}.get(flag, ("hazardous", *OVERDUE))
    condition, params = _condition(names, moments)
    among, among_params = _candidates(moments)
    return f"{among} AND {_OPEN} AND ({condition})", [*among_params, *params]


def not_in_danger(moments: Moments) -> tuple[str, list[Any]]:
    """A WHERE condition: every case `only("danger")` leaves out, read as it comes."""
    condition, params = _condition(("hazardous", *OVERDUE), moments)
    return f"NOT ({_OPEN} AND ({condition}))", params


def flags_of(row: dict[str, Any]) -> list[str]:
    """The flags a queue row (with flag_* columns) has, in display order."""
    return [name for name, _, _ in _FLAGS if row.get(f"flag_{name}")]


def forget_hazards(db: sqlite_utils.Database, case_id: int) -> None:
    """The case's hazards to be worked out again at the next refresh: what they were read
    from has changed (a screening corrected after its case was opened, the officer's flag)."""
    db.execute("UPDATE report_hazards SET rules = '' WHERE case_id = ?", [case_id])
