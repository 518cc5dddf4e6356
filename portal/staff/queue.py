"""The queue: every report and notification, the most dangerous and the overdue first, each
the one waiting longest first (or newest first), filtered, flagged, paged."""

from __future__ import annotations

import datetime as dt
import json
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import sqlite_utils
from flask import current_app, render_template, request

from portal.accounts.accounts import usernames
from portal.accounts.auth import current_staff
from portal.core import kinds, search_index
from portal.core.clock import local_now
from portal.core.db import get_db, rows, value
from portal.core.statuses import CLOSED, STATUSES

# Imported as a module: the notification package registers these pages on the workspace's
# blueprint, and may be the one importing the workspace.
from portal.staff import danger
from portal.staff.blueprint import bp
from portal.staff.figures_period import window_of
from portal.staff.matches import matches

PER_PAGE = 50
NEARBY_METERS = 150
NEARBY_DAYS = 90
METERS_PER_DEGREE = 111_320


@dataclass
class Filters:
    """What the queue is narrowed to; read from the query string, never trusted."""

    kind: str = ""
    status: str = ""
    assignee: str = ""
    start: dt.date | None = None
    end: dt.date | None = None
    q: str = ""
    page: int = 1
    # "danger": hazardous by danger rank, then overdue, the oldest filed first in each (the
    # one waiting longest), then the rest newest first (portal/staff/danger.py); "newest".
    sort: str = "danger"
    # "hazard" or "overdue": only open cases with one (portal/staff/danger.py).
    flag: str = ""
    errors: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_args(cls, args) -> Filters:
        filters = cls()
        known_kinds = {kind.key for kind in kinds.all_kinds()}
        filters.kind = args.get("kind", "") if args.get("kind") in known_kinds else ""
        known = {*STATUSES, "open"}
        filters.status = args.get("status", "") if args.get("status") in known else ""
        filters.assignee = args.get("assignee", "")[:60]
        filters.q = " ".join(args.get("q", "").split())[:100]
        filters.sort = "newest" if args.get("sort") == "newest" else "danger"
        filters.flag = args.get("flag", "") if args.get("flag") in ("hazard", "overdue") else ""
        for name in ("start", "end"):
            text = args.get(name, "")
            if text:
                try:
                    setattr(filters, name, dt.date.fromisoformat(text))
                except ValueError:
                    filters.errors[name] = "Enter a date like 2026-05-14."
        try:
            filters.page = max(1, min(int(args.get("page", "1")), 100_000))
        except ValueError:
            filters.page = 1
        return filters

    def query(self) -> tuple[str, list[Any]]:
        """The WHERE clause and its parameters (values always bound, never formatted in)."""
        where, params = ["1 = 1"], []
        if self.kind:
            where.append("c.kind = ?")
            params.append(self.kind)
        if self.status == "open":
            where.append(f"c.status NOT IN ({', '.join('?' for _ in CLOSED)})")
            params.extend(sorted(CLOSED))
        elif self.status:
            where.append("c.status = ?")
            params.append(self.status)
        if self.assignee == "-":
            where.append("c.assignee IS NULL")
        elif self.assignee:
            where.append("c.assignee = ?")
            params.append(self.assignee)
        if self.start:
            where.append("c.received_at >= ?")
            params.append(window_of(self.start, self.start)[0])
        if self.end:
            where.append("c.received_at < ?")
            params.append(window_of(self.end, self.end)[1])
        if self.q:
            condition, values = search_index.condition(self.q)
            where.append(condition)
            params.extend(values)
        return " AND ".join(where), params

    def args(self, **changes: Any) -> dict[str, Any]:
        """These filters as query-string arguments (for links to other pages of results)."""
        values = {
            "kind": self.kind,
            "status": self.status,
            "assignee": self.assignee,
            "q": self.q,
            "start": self.start.isoformat() if self.start else "",
            "end": self.end.isoformat() if self.end else "",
            "page": self.page,
            "sort": "" if self.sort == "danger" else self.sort,
            "flag": self.flag,
        } | changes
        return {key: value for key, value in values.items() if value not in ("", None, 1)}


def cases_from() -> str:
    """SQL: the cases `c`, each joined with its details by its kind's alias (r, n, ...)."""
    return f" FROM cases c{kinds.joins()}"


def find_cases(
    db: sqlite_utils.Database, filters: Filters, moments: danger.Moments
) -> tuple[list[dict[str, Any]], int]:
    """One page of cases in the order asked for, with their flags, and how many match.

    The page's ids are chosen first, then its cases read in full: SQLite sorts whole result
    rows, and working out every case's rank to sort ten thousand of them cost more than the
    rest of the page. Danger first is two reads: the cases in danger (found through
    indexes) in danger.rank's order, then the others newest first, reading only as far down
    as the page needs.
    """
    where, params = filters.query()
    if filters.flag:
        only, only_params = danger.only(filters.flag, moments)
        where, params = f"{where} AND {only}", [*params, *only_params]
    tables = f"{cases_from()} LEFT JOIN report_hazards h ON h.case_id = c.id"
    total = value(db, f"SELECT count(*){tables} WHERE {where}", params)
    newest = "c.received_at DESC, c.id DESC"

    def page_of(condition: tuple[str, list], order: tuple[str, list], size: int, skip: int):
        """Ids of the cases matching the filters and `condition`, in `order`."""
        return [
            row["id"]
            for row in rows(
                db,
                f"SELECT c.id{tables} WHERE {where} AND {condition[0]} ORDER BY {order[0]}"
                " LIMIT ? OFFSET ?",
                [*params, *condition[1], *order[1], size, skip],
            )
        ]

    skip = (filters.page - 1) * PER_PAGE
    if filters.sort != "danger":
        ids = page_of(("1 = 1", []), (newest, []), PER_PAGE, skip)
    else:
        urgent = danger.only("danger", moments)
        rank, rank_params = danger.rank(moments)
        ids, count = [], 0
        if skip:  # how many cases in danger come before this page
            count = value(
                db, f"SELECT count(*){tables} WHERE {where} AND {urgent[0]}", [*params, *urgent[1]]
            )
        if not skip or skip < count:
            ids = page_of(urgent, (rank, rank_params), PER_PAGE, skip)
            count = max(count, skip + len(ids))
        if len(ids) < PER_PAGE:
            rest = danger.not_in_danger(moments)
            ids += page_of(rest, (newest, []), PER_PAGE - len(ids), max(0, skip - count))
    flags, flag_params = danger.flag_columns(moments)
    marks = ", ".join("?" for _ in ids)
    found = {
        row["id"]: row
        for row in rows(
            db,
            "SELECT c.id, c.kind, c.reference, c.received_at, c.status, c.assignee, c.address,"
            " c.latitude, c.longitude, c.first_action_at, c.duplicate_of, c.follow_up_on,"
            f" h.hazards, {flags}{tables} WHERE c.id IN ({marks})",
            [*flag_params, *ids],
        )
    }
    return kinds.attach_details(db, [found[case_id] for case_id in ids]), total


def distance_m(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle distance in meters (haversine)."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6_371_000 * math.asin(math.sqrt(a))


def nearby(
    db: sqlite_utils.Database,
    case: dict[str, Any],
    *,
    before_only: bool = False,
    meters: float = NEARBY_METERS,
    days: int = NEARBY_DAYS,
) -> list[dict[str, Any]]:
    """Other cases within `meters` and `days` of this one (only earlier ones: before_only)."""
    return list(_nearby(db, case, before_only, meters, days))


def has_nearby(db: sqlite_utils.Database, case: dict[str, Any]) -> bool:
    """Whether an earlier case lies near this one: stops at the first (a queue page asks
    this of every line, and a busy spot can hold hundreds of cases)."""
    return next(_nearby(db, case, True, NEARBY_METERS, NEARBY_DAYS), None) is not None


def _nearby(
    db: sqlite_utils.Database, case: dict[str, Any], before_only: bool, meters: float, days: int
) -> Iterator[dict[str, Any]]:
    if case["latitude"] is None:
        return
    lat, lon = case["latitude"], case["longitude"]
    dlat = meters / METERS_PER_DEGREE
    dlon = meters / (METERS_PER_DEGREE * max(math.cos(math.radians(lat)), 0.01))
    received = dt.datetime.fromisoformat(case["received_at"])
    start = (received - dt.timedelta(days=days)).isoformat()
    end = case["received_at"] if before_only else (received + dt.timedelta(days=days)).isoformat()
    # "Earlier" breaks ties in the same second by id, so of two cases only the later is flagged.
    earlier = " AND (received_at < ? OR id < ?)" if before_only else ""
    cursor = db.execute(
        "SELECT id, reference, kind, status, received_at, latitude, longitude, address"
        " FROM cases WHERE id != ? AND latitude BETWEEN ? AND ? AND longitude BETWEEN ? AND ?"
        f" AND received_at >= ? AND received_at <= ?{earlier} ORDER BY received_at",
        [
            case["id"],
            lat - dlat,
            lat + dlat,
            lon - dlon,
            lon + dlon,
            start,
            end,
            *([case["received_at"], case["id"]] if before_only else []),
        ],
    )
    columns = [c[0] for c in cursor.description]
    try:
        for row in cursor:
            other = dict(zip(columns, row, strict=True))
            other["distance"] = distance_m(lat, lon, other["latitude"], other["longitude"])
            if other["distance"] <= meters:
                yield other
    finally:
        cursor.close()


FLAG_LABELS = {
    "untouched": "New, untouched over a business day",
    "hazardous": "Hazardous",
    "notice-overdue": "No notice logged by the deadline",
    "confirmation-overdue": "Written confirmation overdue",
    "possible-duplicate": "Possible duplicate",
    "follow-up-due": "Follow-up due today",
    "follow-up-overdue": "Follow-up overdue",
}


def status_groups() -> list[tuple[kinds.Kind, list[str]]]:
    """The status filter's groups: each kind with the statuses no earlier kind listed."""
    seen: set[str] = set()
    groups = []
    for kind in kinds.all_kinds():
        own = [s for s in kind.statuses if s not in seen]
        seen.update(own)
        groups.append((kind, own))
    return groups


@bp.route("/")
def queue():
    db = get_db()
    filters = Filters.from_args(request.args)
    now = local_now()
    danger.refresh_hazards(db, current_app.extensions["content"].settings.hazard_rules)
    moments = danger.Moments.at(current_app.extensions["calendar"], now)
    lines, total = find_cases(db, filters, moments)
    found = matches(db, filters.q, [row["id"] for row in lines])
    for row in lines:
        row["hazards"] = json.loads(row["hazards"] or "[]")
        row["flags"] = danger.flags_of(row)
        if row["duplicate_of"] is None and row["status"] != "duplicate" and has_nearby(db, row):
            row["flags"].append("possible-duplicate")
        row["matches"] = found.get(row["id"], [])
    pages = max(1, math.ceil(total / PER_PAGE))
    return render_template(
        "staff/queue.html",
        rows=lines,
        total=total,
        pages=pages,
        filters=filters,
        staff_names=usernames(db),
        me=current_staff()["username"],
        kinds=kinds.all_kinds(),
        status_groups=status_groups(),
        flag_labels=FLAG_LABELS,
        danger_order=danger.danger_order(),
    )
