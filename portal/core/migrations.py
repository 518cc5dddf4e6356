"""The portal's schema, as numbered migrations (sqlite-utils' `Migrations`, recorded in the
file's _sqlite_migrations table): its own tables here, each kind's in its package (the kind
descriptor's `migrations`), any other feature's registered with `register`.

A new file and a file of version 9 (the last release before these, portal/core/schema_v9.sql)
take the same path: every migration is written to leave alone what is there already, so a
file a later version 10 made (before migrations were recorded) is brought up the same way.
A migration that changes a table in a way ALTER TABLE cannot uses sqlite-utils'
`table.transform()`, which builds the table again with its rows and foreign keys kept.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

import sqlite_utils
from sqlite_utils import Migrations

from portal.core import kinds
from portal.core.statuses import STATUSES

VERSION_9 = Path(__file__).with_name("schema_v9.sql")

migrations = Migrations("portal")
_SETS: list[Migrations] = []


def register(more: Migrations) -> Migrations:
    """A feature's own set of migrations, applied after the portal's (its tables may point
    at the portal's)."""
    if more not in _SETS:
        _SETS.append(more)
    return more


def registered() -> tuple[Migrations, ...]:
    return tuple(_SETS)


def statements(script: str) -> list[str]:
    """The statements of a script, one by one (executescript() would commit halfway)."""
    lines = [line for line in script.splitlines() if not line.strip().startswith("--")]
    found, pending = [], ""
    for part in "\n".join(lines).split(";"):
        pending += part
        # A trigger's body holds statements of its own: it runs on to its END.
        if re.search(r"\bBEGIN\b", pending) and not pending.rstrip().endswith("END"):
            pending += ";"
            continue
        if pending.strip():
            found.append(pending.strip())
        pending = ""
    return found


def run(db: sqlite_utils.Database, script: str) -> None:
    for statement in statements(script):
        db.execute(statement)


def add_columns(db: sqlite_utils.Database, columns: Iterable[tuple[str, str, str]]) -> set:
    """ALTER TABLE ADD COLUMN for each (table, column, definition) the table lacks; the
    (table, column) pairs added."""
    added = set()
    for table, column, definition in columns:
        if db[table].exists() and column not in db[table].columns_dict:
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {definition}")
            added.add((table, column))
    return added


@migrations(name="001_tables_of_version_9")
def tables_of_version_9(db: sqlite_utils.Database) -> None:
    run(db, VERSION_9.read_text(encoding="utf-8"))


# Columns added to a table after it was first made (before and after version 9): a file of
# any of those versions gets the ones it lacks.
ADDED_COLUMNS = [
    ("cases", "duplicate_of", "INTEGER REFERENCES cases (id)"),
    ("cases", "referred_to", "TEXT"),
    ("cases", "exempt_reason", "TEXT"),
    ("cases", "confirmed_illicit", "INTEGER NOT NULL DEFAULT 0"),
    ("cases", "first_action_at", "TEXT"),
    ("cases", "mail_queued_at", "TEXT"),
    ("staff", "totp_secret", "TEXT"),
    ("staff", "totp_last_step", "INTEGER"),
    ("events", "client", "TEXT"),
    ("cases", "revision", "INTEGER NOT NULL DEFAULT 0"),
    ("cases", "follow_up_on", "TEXT"),
    ("staff", "email", "TEXT"),
    ("staff", "letter_name", "TEXT"),
    ("staff", "letter_title", "TEXT"),
    ("respondents", "phone", "TEXT"),
    ("respondents", "email", "TEXT"),
    (
        "respondents",
        "role",
        "TEXT CHECK (role IS NULL OR role IN ('owner', 'operator', 'both', 'other'))",
    ),
    ("respondents", "merged_into", "INTEGER REFERENCES respondents (id)"),
    ("respondents", "merged_at", "TEXT"),
    ("violations", "place", "TEXT"),
    ("violations", "found_on", "TEXT"),
    ("violations", "owner_name", "TEXT"),
    ("violations", "owner_address", "TEXT"),
    ("notices", "service_method", "TEXT"),
    ("notices", "issued_facts", "TEXT"),
    ("notice_steps", "late_appeal_accepted", "INTEGER"),
    ("notice_steps", "protest_decided_on", "TEXT"),
    ("notice_steps", "protest_payment_due_on", "TEXT"),
    ("payments", "voided_at", "TEXT"),
    ("payments", "voided_by", "TEXT"),
    ("payments", "void_reason", "TEXT"),
    ("payments", "corrects", "INTEGER REFERENCES payments (id)"),
    ("cases", "public_update", "TEXT"),
    ("cases", "public_changed_at", "TEXT"),
    ("cases", "closed_at", "TEXT"),
    ("staff", "enrol_code_hash", "TEXT"),
    ("staff", "enrol_code_until", "REAL"),
    ("pending_photos", "client", "TEXT"),
    ("phone_notices", "case_id", "INTEGER REFERENCES cases (id)"),
    ("phone_notices", "letter_mailed_on", "TEXT"),
    ("phone_notices", "letter_received_on", "TEXT"),
    ("phone_notices", "letter_from", "TEXT"),
    ("phone_notices", "letter_recorded_by", "TEXT"),
    ("phone_notices", "letter_recorded_at", "TEXT"),
]


@migrations(name="002_columns_added_to_tables")
def columns_added_to_tables(db: sqlite_utils.Database) -> None:
    added = add_columns(db, ADDED_COLUMNS)
    # The best-known time of the last public change: before these columns, internal actions
    # moved updated_at too; and when a closed case was closed.
    if ("cases", "public_changed_at") in added:
        db.execute("UPDATE cases SET public_changed_at = updated_at")
    if ("cases", "closed_at") in added:
        closed = [key for key, status in STATUSES.items() if status.closed]
        marks = ", ".join("?" for _ in closed)
        db.execute(f"UPDATE cases SET closed_at = updated_at WHERE status IN ({marks})", closed)


@migrations(name="003_tables_of_version_10")
def tables_of_version_10(db: sqlite_utils.Database) -> None:
    """Staff sessions on the server, sign-in failures, the morning digests made, respondents'
    earlier offenses and history; the indexes the queue, the figures and the notices use."""
    run(
        db,
        """
-- Staff sessions (portal/accounts/sessions.py): the signed cookie holds a random id, this
-- table only its SHA-256, so deleting a row ends the session whatever copies exist.
-- Times are Unix seconds: only ever compared with the idle and absolute limits.
CREATE TABLE IF NOT EXISTS staff_sessions (
    id_hash TEXT PRIMARY KEY,
    staff_id INTEGER NOT NULL REFERENCES staff (id),
    -- 'code': the password was right, the second step is awaited; 'signed-in'.
    stage TEXT NOT NULL CHECK (stage IN ('code', 'signed-in')),
    started REAL NOT NULL,
    seen REAL NOT NULL,
    next_url TEXT,
    -- An authenticator being set up, until a code from it confirms it (never in the cookie).
    enrol_secret TEXT,
    client TEXT
);
CREATE INDEX IF NOT EXISTS staff_sessions_staff ON staff_sessions (staff_id);

-- Wrong passwords and codes per username, whatever address they come from
-- (portal/accounts/guessing.py); a name no account has counts the same way.
CREATE TABLE IF NOT EXISTS sign_in_failures (
    username TEXT PRIMARY KEY COLLATE NOCASE,
    failures INTEGER NOT NULL,
    last_at REAL NOT NULL,
    wait_until REAL NOT NULL DEFAULT 0,
    clients TEXT NOT NULL DEFAULT '[]'
);

-- The morning digest of each business day, made once (portal/digest/morning.py): the next
-- one lists the cases received since this one was made.
CREATE TABLE IF NOT EXISTS digests (
    day TEXT PRIMARY KEY,
    made_at TEXT NOT NULL,
    queued INTEGER NOT NULL DEFAULT 0
);

-- An earlier offense known from the paper files (before the portal), with no case of its own.
-- outcome: notice (a notice of violation not overturned), conviction, or overturned.
CREATE TABLE IF NOT EXISTS prior_offenses (
    id INTEGER PRIMARY KEY,
    respondent_id INTEGER NOT NULL REFERENCES respondents (id),
    committed_on TEXT NOT NULL,
    section TEXT NOT NULL,
    reference TEXT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('notice', 'conviction', 'overturned')),
    notes TEXT,
    recorded_at TEXT NOT NULL,
    recorded_by TEXT NOT NULL,
    removed_at TEXT,
    removed_by TEXT,
    removed_reason TEXT
);
CREATE INDEX IF NOT EXISTS prior_offenses_respondent ON prior_offenses (respondent_id);

-- What staff did to a respondent's record (edits, merges, earlier offenses): who, when, what.
CREATE TABLE IF NOT EXISTS respondent_events (
    id INTEGER PRIMARY KEY,
    respondent_id INTEGER NOT NULL REFERENCES respondents (id),
    at TEXT NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    detail TEXT NOT NULL DEFAULT '{}',
    client TEXT
);
CREATE INDEX IF NOT EXISTS respondent_events_respondent ON respondent_events (respondent_id, id);

CREATE INDEX IF NOT EXISTS events_at ON events (at);
CREATE INDEX IF NOT EXISTS pending_photos_client ON pending_photos (client, created_at);
CREATE INDEX IF NOT EXISTS phone_notices_case ON phone_notices (case_id) WHERE case_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS phone_notices_letter_waiting ON phone_notices (confirmation_due)
    WHERE letter_mailed_on IS NULL;
""",
    )


@migrations(name="004_filings_linked_not_confirming")
def filings_linked_not_confirming(db: sqlite_utils.Database) -> None:
    """Before version 10, a filing linked to a call was taken for its written confirmation:
    it is now only linked (the mailed letter is recorded on its own)."""
    db.execute(
        "UPDATE phone_notices SET case_id = confirmed_by, confirmed_by = NULL"
        " WHERE confirmed_by IS NOT NULL"
    )


@migrations(name="005_kinds_checked_in_code")
def kinds_checked_in_code(db: sqlite_utils.Database) -> None:
    """cases.kind loses its CHECK (report or notification): the kinds are those registered
    (portal/core/kinds.py), checked in code. SQLite cannot drop a CHECK in place, so the
    column is copied, the table built again without the old one (table.transform(), which
    keeps the rows, the ids and every foreign key to cases), and its indexes made again."""
    table = db["cases"]
    if "CHECK (kind IN" not in table.schema:
        return
    order = list(table.columns_dict)
    indexes = [
        sql
        for (sql,) in db.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'cases'"
            " AND sql IS NOT NULL"
        ).fetchall()
    ]
    for index in table.indexes:
        if not index.name.startswith("sqlite_autoindex"):
            db.execute(f'DROP INDEX "{index.name}"')
    table.add_column("kind_key", str)
    db.execute("UPDATE cases SET kind_key = kind")
    table.transform(
        drop={"kind"}, rename={"kind_key": "kind"}, not_null={"kind"}, column_order=order
    )
    for sql in indexes:
        db.execute(sql)


def sets() -> list[Migrations]:
    """Every set, in the order they are applied: the portal's, each kind's, then each other
    feature's (a feature's tables may point at a kind's, as a screening leads to a case)."""
    from_kinds = [k.migrations for k in kinds.all_kinds() if k.migrations is not None]
    return [migrations, *from_kinds, *(m for m in registered() if m not in from_kinds)]


def pending(db: sqlite_utils.Database) -> bool:
    return any(each.pending(db) for each in sets())


def apply(db: sqlite_utils.Database) -> None:
    """Apply every pending migration of every set, inside the caller's transaction."""
    for each in sets():
        each.apply(db)


@migrations(name="006_corrections_by_the_respondent")
def corrections_by_the_respondent(db: sqlite_utils.Database) -> None:
    """A notice's steps record a correction by the respondent (the day, when the officer
    checked it and who), so a violation corrected in time stops its dates without an
    abatement by the municipality."""
    add_columns(
        db,
        [
            ("notice_steps", "corrected_on", "TEXT"),
            ("notice_steps", "correction_checked_on", "TEXT"),
            ("notice_steps", "correction_checked_by", "TEXT"),
        ],
    )


@migrations(name="007_annual_filings")
def annual_filings(db: sqlite_utils.Database) -> None:
    """The annual figures as the officer filed them with the State, so the report shows what
    changed since in a closed period (an entry about the past made later)."""
    run(
        db,
        """
CREATE TABLE IF NOT EXISTS annual_filings (
    id INTEGER PRIMARY KEY,
    period_start TEXT NOT NULL,
    period_end TEXT NOT NULL,
    filed_at TEXT NOT NULL,
    filed_by TEXT NOT NULL,
    -- {figure key: the value shown ("3", "$1,100.00")} as the report stood when filed.
    figures TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS annual_filings_period ON annual_filings (period_start, period_end, id);
""",
    )


@migrations(name="008_convictions_recorded")
def convictions_recorded(db: sqlite_utils.Database) -> None:
    """A notice's steps record the day the court convicted the respondent: the penalties rise
    on conviction, so only a recorded conviction counts toward a later offense number unless
    the content reads otherwise. Notices already stored have none recorded."""
    add_columns(db, [("notice_steps", "convicted_on", "TEXT")])


@migrations(name="009_issued_papers")
def issued_papers(db: sqlite_utils.Database) -> None:
    """Papers are records: each enforcement paper as it was printed when the step that sends
    it was recorded (portal/enforcement/papers.py), and the Board's decision on a cost
    protest with its outcome, amount and certified-mail number. Papers mailed before this
    have no kept copy: none is made up for them (their reprint says so)."""
    run(
        db,
        """
CREATE TABLE IF NOT EXISTS issued_papers (
    id INTEGER PRIMARY KEY,
    notice_id INTEGER NOT NULL REFERENCES notices (id),
    kind TEXT NOT NULL CHECK (kind IN ('notice', 'cost-notice', 'access', 'statement')),
    -- The day it was served or mailed (the date it prints), and who recorded it when.
    mailed_on TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    recorded_by TEXT NOT NULL,
    -- {name: value}: the dates and amounts it printed that the rules read back (JSON).
    facts TEXT NOT NULL DEFAULT '{}',
    -- The paper itself, as printed.
    html TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS issued_papers_notice ON issued_papers (notice_id, kind, id);
CREATE TRIGGER IF NOT EXISTS issued_papers_frozen BEFORE UPDATE ON issued_papers
BEGIN SELECT RAISE(ABORT, 'a paper as issued cannot change'); END;
CREATE TRIGGER IF NOT EXISTS issued_papers_kept BEFORE DELETE ON issued_papers
BEGIN SELECT RAISE(ABORT, 'a paper as issued cannot be deleted'); END;
""",
    )
    add_columns(
        db,
        [
            # upheld, reduced (to protest_decided_cents) or withdrawn (nothing owed).
            ("notice_steps", "protest_outcome", "TEXT"),
            ("notice_steps", "protest_decided_cents", "INTEGER"),
            ("notice_steps", "protest_mail_number", "TEXT"),
        ],
    )
