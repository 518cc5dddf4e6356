"""Issued papers are records: each enforcement paper (the notice of violation, the cost
notice, the request for access to abate, a statement of account) is kept as it was printed
when the step that sends it is recorded, and its reprint is that copy. A fact recorded later
(a receipt, a protest and the Board's decision, a payment) is an event of its own; it never
rewrites a paper, and a step that would change what a mailed paper printed is refused
(`refusal`). The database refuses to change or delete a kept paper."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from portal.core.clock import local_stamp
from portal.core.db import insert, one, rows
from portal.core.display import day
from portal.enforcement.violations import violation
from portal.staff.workflow import log


@dataclass(frozen=True)
class Kind:
    """A kind of paper: its title; the notice_steps column recording the day it was sent
    (None: its own form records it); the columns whose values it printed, which cannot
    change once it is sent; and how its reprint is marked ("as mailed on ...")."""

    title: str
    sent_by: str | None
    printed: tuple[str, ...] = ()
    mark: str = "as mailed on"


KINDS = {
    "notice": Kind("Notice of violation", None, mark="as issued on"),
    "cost-notice": Kind(
        "Cost notice",
        "cost_notice_mailed_on",
        ("completed_on", "work_cents", "admin_cents", "cost_notice_mailed_on", "payment_count"),
    ),
    "access": Kind("Request for access to abate", "access_requested_on", ("access_requested_on",)),
    "statement": Kind("Statement of account", None),
}


def _decoded(found: dict[str, Any]) -> dict[str, Any]:
    found["facts"] = json.loads(found["facts"])
    found["kind_title"] = KINDS[found["kind"]].title
    found["mark"] = KINDS[found["kind"]].mark
    return found


def kept(db: sqlite_utils.Database, notice_id: int, kind: str | None = None) -> list[dict]:
    """The papers kept for a notice (of one kind), in the order they were sent."""
    where, params = "notice_id = ?", [notice_id]
    if kind:
        where, params = f"{where} AND kind = ?", [notice_id, kind]
    found = rows(db, f"SELECT * FROM issued_papers WHERE {where} ORDER BY mailed_on, id", params)
    return [_decoded(p) for p in found]


def latest(db: sqlite_utils.Database, notice_id: int, kind: str) -> dict[str, Any] | None:
    """The paper of this kind last sent on a notice; None: none was kept (not sent yet, or
    sent before the portal kept papers)."""
    found = kept(db, notice_id, kind)
    return found[-1] if found else None


def paper(db: sqlite_utils.Database, notice_id: int, paper_id: int) -> dict[str, Any] | None:
    found = one(
        db, "SELECT * FROM issued_papers WHERE id = ? AND notice_id = ?", [paper_id, notice_id]
    )
    return _decoded(found) if found else None


def keep(
    db: sqlite_utils.Database,
    actor: str,
    notice: dict[str, Any],
    kind: str,
    mailed_on: dt.date,
    html: str,
    facts: dict[str, Any],
) -> int:
    """Keep a paper as printed (inside the caller's transaction, with the step that sends
    it), logged on the case."""
    paper_id = insert(
        db,
        "issued_papers",
        {
            "notice_id": notice["id"],
            "kind": kind,
            "mailed_on": mailed_on.isoformat(),
            "recorded_at": local_stamp(),
            "recorded_by": actor,
            "facts": json.dumps(facts, ensure_ascii=False, default=str),
            "html": html,
        },
    )
    case_id = violation(db, notice["violation_id"])["case_id"]
    log(db, case_id, actor, "notice_paper_kept", number=notice["number"], kind=kind, paper=paper_id)
    return paper_id


def _stored(value: Any) -> Any:
    return value.isoformat() if isinstance(value, dt.date) else value


def sent_by(step_values: dict[str, Any], steps: dict[str, Any]) -> list[str]:
    """The kinds of paper a step's values send now: the day it is sent is recorded for the
    first time (a cost notice, a request for access)."""
    return [
        name
        for name, kind in KINDS.items()
        if kind.sent_by and step_values.get(kind.sent_by) and not steps.get(kind.sent_by)
    ]


def refusal(step_values: dict[str, Any], steps: dict[str, Any]) -> str | None:
    """Why a step's values may not be saved: they would change what a paper already sent
    printed (its dates, amounts or payments). None: nothing sent changes.

    A different amount after the cost notice is mailed is the Board's decision on the owner's
    protest (recorded as an event of its own), never a rewrite of the notice."""
    for kind in KINDS.values():
        sent = steps.get(kind.sent_by) if kind.sent_by else None
        if not sent:
            continue
        changed = [
            c for c in kind.printed if c in step_values and _stored(step_values[c]) != steps.get(c)
        ]
        if not changed:
            continue
        words = f"The {kind.title.lower()} was sent on {day(sent)}"
        if kind.sent_by == "cost_notice_mailed_on":
            return (
                f"{words} and is kept as mailed: the completion date, the cost and the payments"
                " it printed cannot change. A different amount is the Board's decision on the"
                " owner's protest: record it with the Board's decision on the protest, below."
            )
        return f"{words} and is kept as sent: the date it printed cannot change."
    return None
