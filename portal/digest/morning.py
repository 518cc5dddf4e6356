"""The morning digest: one mail per officer each business day, made once at the hour the
municipal office opens (office.opens in the content), never on a weekend, a holiday or a
closure (the business-day calendar). The courier's minute sweep calls `queue_digests`;
the first sweep from opening time makes that day's digest, and later sweeps that day do
nothing, so what staff add during the day waits for the next business day's.

Each officer's digest holds their open cases whose follow-up date is that day or has
passed, the cases received since the previous digest (hazardous ones first) and hazardous
ones nobody has looked at yet, of their own and of nobody's, and the enforcement dates of
those cases that are overdue or due within the week, and a line on the outfalls overdue
or due this month for screening (portal/screening/, the same count the queue shows).
The first digest of an install starts the count: it lists follow-ups and enforcement
dates only (each case that came in before it was mailed to the office as it arrived).

Officers are the enabled staff accounts with an e-mail address. While no account has one,
the digest goes to PORTAL_SMO_EMAIL (the office's mailbox) with everything in it."""

from __future__ import annotations

import datetime as dt
from typing import Any

import sqlite_utils
from flask import current_app, render_template

from portal.core import kinds
from portal.core.db import insert, rows, transaction, value
from portal.core.deadlines import BusinessCalendar
from portal.core.statuses import CLOSED
from portal.enforcement.notices import open_dates
from portal.mail import outbox
from portal.screening import digest_outfalls
from portal.staff.danger import danger_rank

PURPOSE = "digest"
# What a digest may hold; one with none of them is not sent.
PARTS = ("follow_ups", "new", "waiting", "dates", "outfalls")
# Enforcement dates further ahead than this wait for a later digest (the deadlines page
# lists them all).
DATES_AHEAD = dt.timedelta(days=7)
# The day's digest is made from opening time until closing time; a server down all those
# hours skips that day, and the next digest lists what came in since the one before.

Row = dict[str, Any]


def due_follow_ups(db: sqlite_utils.Database, assignee: str | None, today: dt.date) -> list[Row]:
    """Open cases with a follow-up date today or earlier, oldest date first, each marked
    overdue when its date has passed: an officer's, or (assignee None) everyone's."""
    closed = sorted(CLOSED)
    marks = ", ".join("?" for _ in closed)
    mine = "assignee = ? AND " if assignee else ""
    due = rows(
        db,
        "SELECT id, reference, kind, status, address, assignee, follow_up_on FROM cases"
        f" WHERE {mine}follow_up_on <= ? AND status NOT IN ({marks}) ORDER BY follow_up_on, id",
        [*([assignee] if assignee else []), today.isoformat(), *closed],
    )
    return [{**row, "overdue": dt.date.fromisoformat(row["follow_up_on"]) < today} for row in due]


def digest_time(calendar: BusinessCalendar, opens: dt.time, closes: dt.time, now: dt.datetime):
    """Whether a day's digest is made at `now` (local): a business day, office hours."""
    return calendar.is_business_day(now.date()) and opens <= now.time() < closes


def _since(db: sqlite_utils.Database, today: dt.date) -> str | None:
    """When the previous digest was made (None: this is the first one, which starts the
    count: what came in before it was mailed to the office as it arrived)."""
    query = "SELECT max(made_at) FROM digests WHERE day < ?"
    return value(db, query, [today.isoformat()])


def _rank(rank: int | None) -> float:
    """A danger rank to sort by: the not hazardous (None) after every rank."""
    return float("inf") if rank is None else rank


def _cases_to_watch(
    db: sqlite_utils.Database, since: str | None, now: str
) -> tuple[list[Row], list[Row]]:
    """Open cases received since the last digest (the most dangerous first, as the queue puts
    them: danger_rank, then the first received), and hazardous ones
    received before it that nobody has acted on yet (each was in an earlier digest)."""
    if since is None:
        return [], []
    closed = sorted(CLOSED)
    marks = ", ".join("?" for _ in closed)
    found = rows(
        db,
        "SELECT c.id, c.reference, c.kind, c.status, c.address, c.assignee, c.received_at,"
        " c.hazard_call,"
        f" c.first_action_at FROM cases c WHERE c.status NOT IN ({marks}) AND c.received_at < ?"
        " AND (c.received_at >= ? OR (c.status = 'received' AND c.first_action_at IS NULL))"
        " ORDER BY c.received_at, c.id",
        [*closed, now, since],
    )
    rules = current_app.extensions["content"].settings.hazard_rules
    new, waiting = [], []
    for case in kinds.attach_details(db, found):
        case["hazards"] = kinds.hazards_of(rules, case)
        case["about"] = case["kind_of"].about(case["details"])
        if case["received_at"] >= since:
            new.append(case)
        elif case["hazards"]:
            waiting.append(case)
    # Stable: the most dangerous first, each rank by time; the not hazardous last.
    new.sort(key=lambda case: _rank(danger_rank(rules, case["hazards"])))
    return new, waiting


def _officers(db: sqlite_utils.Database) -> list[tuple[str | None, str]]:
    """(username, address) of each officer; (None, the office mailbox) while there is none."""
    officers = rows(
        db,
        "SELECT username, email FROM staff WHERE disabled = 0 AND email IS NOT NULL"
        " ORDER BY username",
    )
    office = current_app.config["SMO_EMAIL"]
    return [(o["username"], o["email"]) for o in officers] or ([(None, office)] if office else [])


def _theirs(username: str | None, cases: list[Row]) -> list[Row]:
    """An officer's share: their cases and those of nobody (the office mailbox: all)."""
    return [c for c in cases if username is None or c["assignee"] in (None, username)]


def _enforcement_dates(db: sqlite_utils.Database, today: dt.date) -> list:
    """Open enforcement dates overdue or due within DATES_AHEAD, soonest first."""
    terms = current_app.extensions["enforcement"].terms
    dates = open_dates(db, terms, current_app.extensions["calendar"], today)
    return [(d, notice) for d, notice in dates if d.overdue or d.due <= today + DATES_AHEAD]


def queue_digests(db: sqlite_utils.Database, now: dt.datetime) -> int:
    """Make today's digest if it is due and not made yet: one mail per officer with something
    in it. Return how many were queued (checked and made in one transaction, so two workers
    make it once)."""
    settings = current_app.extensions["content"].settings
    calendar = current_app.extensions["calendar"]
    if not digest_time(calendar, settings.office.opens, settings.office.closes, now):
        return 0
    from portal.mail.compose import public_url_for

    today, stamp = now.date(), now.isoformat(timespec="seconds")
    purpose = f"{PURPOSE}-{today.isoformat()}"
    queued = 0
    with transaction(db):
        if value(db, "SELECT 1 FROM digests WHERE day = ?", [today.isoformat()]):
            return 0
        since = _since(db, today)
        new, waiting = _cases_to_watch(db, since, stamp)
        all_dates = _enforcement_dates(db, today)
        assignees = {c["id"]: c["assignee"] for c in rows(db, "SELECT id, assignee FROM cases")}
        outfalls = digest_outfalls(today)  # the screening rotation (portal/screening/)
        links: dict[int, str] = {}

        def link(case_id: int) -> str:
            return links.setdefault(case_id, public_url_for("staff.case", case_id=case_id))

        for username, address in _officers(db):
            sent = "SELECT 1 FROM outbox WHERE purpose = ? AND recipient = ?"
            if value(db, sent, [purpose, address]):
                continue  # queued before this table existed
            context = {
                "username": username,
                "today": today,
                "since": since,
                "follow_ups": due_follow_ups(db, username, today),
                "new": _theirs(username, new),
                "waiting": _theirs(username, waiting),
                "dates": [
                    (d, n)
                    for d, n in all_dates
                    if username is None or assignees.get(n["case_id"]) in (None, username)
                ],
                "outfalls": outfalls,
            }
            if not any(context[part] for part in PARTS):
                continue
            for part in ("follow_ups", "new", "waiting"):
                for case in context[part]:
                    case["link"] = link(case["id"])
            context["notice_links"] = {
                notice["id"]: public_url_for("enforcement.notice_page", notice_id=notice["id"])
                for _, notice in context["dates"]
            }
            context["all_dates"] = public_url_for("enforcement.enforcement_deadlines")
            queued += outbox.enqueue(
                db,
                case_id=None,
                purpose=purpose,
                recipient=address,
                subject=subject(**context),
                text=render_template("mail/digest.txt", **context),
                html=render_template("mail/digest.html", **context),
            )
        insert(db, "digests", {"day": today.isoformat(), "made_at": stamp, "queued": queued})
    return queued


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def subject(
    today: dt.date, follow_ups: list, new: list, waiting: list, dates: list, outfalls=None, **_
) -> str:
    """What the digest holds, in a line: "Morning digest, Tuesday, December 1: 2 follow-ups
    due, 3 new cases (1 hazardous), 1 enforcement date"."""
    parts = []
    if follow_ups:
        parts.append(_count(len(follow_ups), "follow-up due", "follow-ups due"))
    if new:
        hazardous = sum(bool(case["hazards"]) for case in new)
        parts.append(
            _count(len(new), "new case", "new cases")
            + (f" ({hazardous} hazardous)" if hazardous else "")
        )
    if waiting:
        parts.append(_count(len(waiting), "hazardous case waiting", "hazardous cases waiting"))
    if dates:
        overdue = sum(d.overdue for d, _ in dates)
        parts.append(
            _count(len(dates), "enforcement date", "enforcement dates")
            + (f" ({overdue} overdue)" if overdue else "")
        )
    if outfalls:
        late = outfalls["overdue"]
        parts.append(
            _count(late + outfalls["due"], "outfall to screen", "outfalls to screen")
            + (f" ({late} overdue)" if late else "")
        )
    return f"Morning digest, {today:%A}, {today:%B} {today.day}: " + ", ".join(parts)
