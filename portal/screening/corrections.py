"""Voiding and correcting a saved screening. A voided screening stays (shown, marked void
with who, when and why) but is no longer the outfall's last screening, on a due list or in
the annual counts; a case opened from it stays as it is (the officer closes it on the case
if it was opened in error). A correction changes the fields; `screening_changes` keeps the
old and new values of each, with who, when and why."""

from __future__ import annotations

import json
from typing import Any

import sqlite_utils

from portal.core.clock import local_stamp
from portal.core.db import insert, rows, transaction
from portal.staff.danger import forget_hazards
from portal.staff.workflow import log

# The screening's columns a correction may change (photos are added, not corrected).
CORRECTABLE = (
    "screened_at",
    "inspector",
    "hours_since_rain",
    "rain_inches",
    "flow",
    "observations",
    "notes",
    "overall",
    "wet_weather",
    "air_temperature_f",
    "land_use",
    "known_industries",
    "submerged_water",
    "submerged_sediment",
    "pool_quality",
    "benthic_growth",
    "flow_trap",
    "call_reason",
)


class AlreadyVoid(ValueError):
    """The screening was voided already (by a colleague, or a second tap)."""


def void(db: sqlite_utils.Database, screening: dict[str, Any], actor: str, reason: str) -> None:
    """Mark the screening void (one audit entry; the case following it up is told in its log)."""
    now = local_stamp()
    with transaction(db):
        done = db.execute(
            "UPDATE screenings SET voided_at = ?, voided_by = ?, void_reason = ?"
            " WHERE id = ? AND voided_at IS NULL",
            [now, actor, reason, screening["id"]],
        ).rowcount
        if not done:
            raise AlreadyVoid("This screening was voided already.")
        _entry(db, screening["id"], now, actor, "voided", reason, {}, {})
        if screening["case_id"]:
            log(
                db,
                screening["case_id"],
                actor,
                "screening_voided",
                screening=screening["id"],
                reason=reason,
            )


def correct(
    db: sqlite_utils.Database,
    screening: dict[str, Any],
    values: dict[str, Any],
    actor: str,
    reason: str,
) -> dict[str, tuple[Any, Any]]:
    """Store the corrected `values` (columns of CORRECTABLE); the fields changed, as
    {column: (old, new)} (empty: nothing differed, nothing stored)."""
    stored = {**screening, "observations": json.dumps(screening["observations"], sort_keys=True)}
    changed = {
        name: (stored[name], values[name])
        for name in CORRECTABLE
        if name in values
        and stored[name] != values[name]
        and not _unasked(stored[name], values[name])
    }
    if not changed:
        return {}
    now = local_stamp()
    with transaction(db):
        sets = ", ".join(f"{name} = ?" for name in changed)
        db.execute(
            f"UPDATE screenings SET {sets} WHERE id = ?",
            [new for _, new in changed.values()] + [screening["id"]],
        )
        _entry(
            db,
            screening["id"],
            now,
            actor,
            "corrected",
            reason,
            {k: old for k, (old, _) in changed.items()},
            {k: new for k, (_, new) in changed.items()},
        )
        if screening["case_id"]:
            log(
                db,
                screening["case_id"],
                actor,
                "screening_corrected",
                screening=screening["id"],
                reason=reason,
            )
        _case_follows(db, {**screening, **values})
    return changed


def _unasked(old: Any, new: Any) -> bool:
    """A list the sheet did not have when it was saved (NULL) left with nothing ticked: still
    not recorded, not corrected to "none"."""
    return old is None and new == "[]"


def _case_follows(db: sqlite_utils.Database, screening: dict[str, Any]) -> None:
    """The case opened from the screening says what the corrected sheet says, and its hazard
    is worked out again from it (a case only linked to the screening has its own words)."""
    from portal.screening.cases import findings

    seen = screening["observations"]
    seen = json.loads(seen) if isinstance(seen, str) else seen
    case_id = db.execute(
        "UPDATE screening_cases SET overall = ?, screened_at = ?, findings = ?, observations = ?"
        " WHERE screening_id = ? RETURNING case_id",
        [
            screening["overall"],
            screening["screened_at"],
            findings({**screening, "observations": seen}),
            json.dumps(seen, sort_keys=True),
            screening["id"],
        ],
    ).fetchone()
    if case_id:
        forget_hazards(db, case_id[0])


def _entry(db, screening_id, at, actor, action, reason, old, new) -> None:
    insert(
        db,
        "screening_changes",
        {
            "screening_id": screening_id,
            "at": at,
            "actor": actor,
            "action": action,
            "reason": reason,
            "old": json.dumps(old, sort_keys=True, ensure_ascii=False),
            "new": json.dumps(new, sort_keys=True, ensure_ascii=False),
        },
    )


def history(db: sqlite_utils.Database, screening_id: int) -> list[dict[str, Any]]:
    """The screening's voids and corrections, oldest first, old and new values decoded."""
    changes = rows(
        db, "SELECT * FROM screening_changes WHERE screening_id = ? ORDER BY id", [screening_id]
    )
    for change in changes:
        change["old"], change["new"] = json.loads(change["old"]), json.loads(change["new"])
    return changes
