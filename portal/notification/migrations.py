"""The release notification's table, as numbered migrations (portal/core/migrations.py)."""

from __future__ import annotations

import sqlite_utils
from sqlite_utils import Migrations

from portal.core.migrations import run

migrations = Migrations("notification")


@migrations(name="001_notifications")
def notifications(db: sqlite_utils.Database) -> None:
    """A facility's release notification, as version 9 made it. Kept until retain_until."""
    run(
        db,
        """
CREATE TABLE IF NOT EXISTS notifications (
    case_id INTEGER PRIMARY KEY REFERENCES cases (id),
    danger TEXT NOT NULL,
    hazardous TEXT NOT NULL,
    petroleum TEXT NOT NULL,
    emergency_called TEXT,
    emergency_called_at TEXT,
    dec_called TEXT,
    dec_called_at TEXT,
    dec_spill_number TEXT,
    facility_name TEXT NOT NULL,
    facility_address TEXT NOT NULL,
    facility_kind TEXT NOT NULL,
    permit TEXT NOT NULL,
    permit_number TEXT,
    responsible_title TEXT,
    discovered_at TEXT NOT NULL,
    began_at TEXT,
    is_over TEXT NOT NULL,
    ended_at TEXT,
    materials TEXT NOT NULL,
    quantity REAL CHECK (quantity IS NULL OR quantity >= 0),
    unit TEXT,
    reached_drain TEXT NOT NULL,
    amount_reached TEXT,
    cause TEXT NOT NULL,
    cleanup TEXT NOT NULL,
    prevention TEXT NOT NULL,
    prior_notice TEXT NOT NULL,
    prior_notice_at TEXT,
    prior_notice_to TEXT,
    notice_due TEXT NOT NULL,
    notice_met INTEGER NOT NULL,
    confirmation_due TEXT,
    confirmation_met INTEGER,
    retain_until TEXT NOT NULL
);
""",
    )


@migrations(name="002_notice_met_as_recorded")
def notice_met_as_recorded(db: sqlite_utils.Database) -> None:
    """notice_met becomes what staff recorded: 1 a notice given in time, 0 only late, NULL
    none recorded yet. Before, it was required, so a notice not yet given was stored as given
    in time; SQLite cannot drop NOT NULL in place (table.transform() builds the table again).
    What a filing said of its own notice is no longer taken as given: a notice counts once
    logged and linked, in time as the default reading has it (a call by closing time, a fax
    by the end of the due day). No mailed letter was recorded before."""
    table = db["notifications"]
    if not next(c for c in table.columns if c.name == "notice_met").notnull:
        return
    table.transform(not_null={"notice_met": False})
    db.execute(
        "UPDATE notifications SET confirmation_met = NULL, notice_met = (SELECT max(CASE"
        " WHEN p.how = 'fax' THEN substr(p.told_at, 1, 10) <= substr(notice_due, 1, 10)"
        " ELSE p.told_at <= notice_due END) FROM phone_notices p"
        " WHERE p.case_id = notifications.case_id)"
    )
