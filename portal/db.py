"""The portal's one SQLite file: connection, schema and transactions."""

from __future__ import annotations

import os
import re
import sqlite3
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlite_utils
from flask import Flask, current_app, g

from portal import search_index
from portal.outfalls import schema as outfalls_schema
from portal.statuses import STATUSES

# Version of the schema below; bump it and add a step to MIGRATIONS when it changes.
# 7: enforcement; 9: the Open311 keys and filings (8 is the staff desk's, merged apart);
# 10: enforcement records that stay true (places, respondents' contacts and merges, earlier
# offenses from paper files, service of a notice, corrected payments, signatures),
# staff sessions on the server, sign-in failures, enrolment codes, the public update,
# release notices as recorded (a notice's filing and mailed letter), report_hazards for
# the queue, notice_met that can be unknown (see _relax_notice_met), events by time,
# the morning digests made (digests).
# 11: the outfall inventory and dry-weather screenings (PACKAGE_SCHEMAS below).
# 12: a correction by the respondent on a notice's steps (corrected_on, checked when and by
# whom), so a violation corrected in time stops its dates without an abatement by the municipality.
SCHEMA_VERSION = 12

SCHEMA = """
-- One row per thing the public sent: a resident report or a business notification.
-- Kind-specific details live in their own table; what the staff queue, the status
-- page and (later) Open311 share lives here.
CREATE TABLE IF NOT EXISTS cases (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('report', 'notification')),
    reference TEXT NOT NULL UNIQUE,
    token_hash TEXT NOT NULL UNIQUE,
    submission_key TEXT NOT NULL UNIQUE,
    submission_digest TEXT NOT NULL,
    received_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'received',
    -- For the person who sent it: their status page and update mail, never published.
    public_note TEXT,
    -- What anyone may read (the Open311 feed): empty unless staff write one.
    public_update TEXT,
    -- When the public last saw a change (status or public update), and when it was closed:
    -- Open311's updated_datetime, which internal notes and site visits never move.
    public_changed_at TEXT,
    closed_at TEXT,
    assignee TEXT,
    language TEXT NOT NULL DEFAULT 'en',
    service_code TEXT NOT NULL,
    latitude REAL CHECK (latitude IS NULL OR latitude BETWEEN -90 AND 90),
    longitude REAL CHECK (longitude IS NULL OR longitude BETWEEN -180 AND 180),
    address TEXT,
    in_service_area INTEGER,
    contact_name TEXT,
    contact_email TEXT,
    contact_phone TEXT,
    -- What staff decide (see ADDED_COLUMNS for files made before these existed).
    duplicate_of INTEGER REFERENCES cases (id),
    referred_to TEXT,
    exempt_reason TEXT,
    confirmed_illicit INTEGER NOT NULL DEFAULT 0,
    first_action_at TEXT,
    -- Set with the case's outbox rows; a case without it still needs its mail queued.
    mail_queued_at TEXT,
    -- Counts staff saves: a save made on an older revision is refused (portal/staff/workflow.py).
    revision INTEGER NOT NULL DEFAULT 0,
    -- When staff mean to look at the case again (a local date, YYYY-MM-DD).
    follow_up_on TEXT,
    CHECK (latitude IS NOT NULL OR address IS NOT NULL)
);
CREATE INDEX IF NOT EXISTS cases_received ON cases (received_at);
CREATE INDEX IF NOT EXISTS cases_kind_received ON cases (kind, received_at);
CREATE INDEX IF NOT EXISTS cases_status_received ON cases (status, received_at);
CREATE INDEX IF NOT EXISTS cases_assignee ON cases (assignee);
CREATE INDEX IF NOT EXISTS cases_place ON cases (latitude, longitude);
CREATE INDEX IF NOT EXISTS cases_mail_waiting ON cases (id) WHERE mail_queued_at IS NULL;
CREATE INDEX IF NOT EXISTS cases_follow_up ON cases (follow_up_on) WHERE follow_up_on IS NOT NULL;

-- Staff accounts: created with `flask --app portal staff add`, never by default.
CREATE TABLE IF NOT EXISTS staff (
    id INTEGER PRIMARY KEY,
    username TEXT NOT NULL UNIQUE COLLATE NOCASE,
    password_hash TEXT NOT NULL,
    disabled INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    last_login_at TEXT,
    -- The second factor (portal/staff/totp.py): set once a code from it is confirmed.
    totp_secret TEXT,
    totp_last_step INTEGER,
    -- Where assignments and the daily digest go (none: the officer gets no mail).
    email TEXT,
    -- The name and title the officer signs enforcement letters with.
    letter_name TEXT,
    letter_title TEXT,
    -- The one-time code `staff add` or `staff reset-2fa` printed, which the officer needs
    -- to set up an authenticator (SHA-256 only), and until when it works (Unix seconds).
    enrol_code_hash TEXT,
    enrol_code_until REAL
);

-- Staff sessions (portal/staff/sessions.py): the signed cookie holds a random id, this
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
-- (portal/staff/guessing.py); a name no account has counts the same way.
CREATE TABLE IF NOT EXISTS sign_in_failures (
    username TEXT PRIMARY KEY COLLATE NOCASE,
    failures INTEGER NOT NULL,
    last_at REAL NOT NULL,
    wait_until REAL NOT NULL DEFAULT 0,
    clients TEXT NOT NULL DEFAULT '[]'
);

-- Single-use codes for a lost phone, stored as SHA-256 hashes only.
CREATE TABLE IF NOT EXISTS staff_recovery_codes (
    id INTEGER PRIMARY KEY,
    staff_id INTEGER NOT NULL REFERENCES staff (id),
    code_hash TEXT NOT NULL,
    used_at TEXT,
    UNIQUE (staff_id, code_hash)
);

-- The audit log: who changed what on a case, and when.
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY,
    case_id INTEGER NOT NULL REFERENCES cases (id),
    at TEXT NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    detail TEXT NOT NULL DEFAULT '{}',
    -- The address the change came from (none for the command line).
    client TEXT
);
CREATE INDEX IF NOT EXISTS events_case ON events (case_id, id);
-- The annual figures count what happened in a period, from the log (portal/staff/reports.py).
CREATE INDEX IF NOT EXISTS events_at ON events (at);

-- A release told to the municipality by telephone, in person or by fax (release notification
-- section), logged by staff: this is the notice the law asks for. A spoken one waits for its
-- written confirmation, a letter mailed to the municipality (letter_mailed_on); an online
-- filing about the same release is linked to it (case_id), and is not that letter.
CREATE TABLE IF NOT EXISTS phone_notices (
    id INTEGER PRIMARY KEY,
    told_at TEXT NOT NULL,
    how TEXT NOT NULL CHECK (how IN ('phone', 'in-person', 'fax')),
    facility_name TEXT NOT NULL,
    facility_address TEXT,
    caller_name TEXT NOT NULL,
    caller_phone TEXT,
    caller_email TEXT,
    material TEXT NOT NULL,
    hazardous TEXT,
    note TEXT,
    taken_by TEXT NOT NULL,
    logged_at TEXT NOT NULL,
    confirmation_due TEXT,
    -- Before version 10: the filing taken for the written confirmation; moved to case_id.
    confirmed_by INTEGER REFERENCES cases (id),
    -- The online filing about the same release (linked by staff, in both audit logs).
    case_id INTEGER REFERENCES cases (id),
    -- The mailed written confirmation: the day it was mailed (the postmark; the law counts
    -- "mailed ... within three business days") and the day it arrived, as staff recorded it.
    letter_mailed_on TEXT,
    letter_received_on TEXT,
    -- Who signed or sent it, as the letter says.
    letter_from TEXT,
    letter_recorded_by TEXT,
    letter_recorded_at TEXT
);
CREATE INDEX IF NOT EXISTS phone_notices_letter_waiting ON phone_notices (confirmation_due)
    WHERE letter_mailed_on IS NULL;
CREATE INDEX IF NOT EXISTS phone_notices_case ON phone_notices (case_id) WHERE case_id IS NOT NULL;

-- The morning digest of each business day, made once (portal/staff/digest.py): the next
-- one lists the cases received since this one was made.
CREATE TABLE IF NOT EXISTS digests (
    day TEXT PRIMARY KEY,
    made_at TEXT NOT NULL,
    queued INTEGER NOT NULL DEFAULT 0
);

-- Internal notes: staff only, never on the status page.
CREATE TABLE IF NOT EXISTS notes (
    id INTEGER PRIMARY KEY,
    case_id INTEGER NOT NULL REFERENCES cases (id),
    at TEXT NOT NULL,
    author TEXT NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS notes_case ON notes (case_id, id);

-- A site visit staff recorded on a case; its photos are staff-only (never on public pages).
CREATE TABLE IF NOT EXISTS inspections (
    id INTEGER PRIMARY KEY,
    case_id INTEGER NOT NULL REFERENCES cases (id),
    visited_at TEXT NOT NULL,
    inspector TEXT NOT NULL,
    findings TEXT NOT NULL CHECK (length(findings) BETWEEN 1 AND 4000),
    sampled INTEGER NOT NULL DEFAULT 0,
    lab_reference TEXT,
    recorded_at TEXT NOT NULL,
    recorded_by TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS inspections_case ON inspections (case_id, visited_at);

CREATE TABLE IF NOT EXISTS inspection_photos (
    id INTEGER PRIMARY KEY,
    inspection_id INTEGER NOT NULL REFERENCES inspections (id),
    position INTEGER NOT NULL,
    content_type TEXT NOT NULL,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    data BLOB NOT NULL,
    UNIQUE (inspection_id, position)
);

CREATE TABLE IF NOT EXISTS reports (
    case_id INTEGER PRIMARY KEY REFERENCES cases (id),
    indicators TEXT NOT NULL,
    color TEXT,
    odor TEXT,
    description TEXT NOT NULL CHECK (length(description) BETWEEN 1 AND 4000),
    location_type TEXT,
    observed_at TEXT NOT NULL,
    still_happening TEXT,
    happened_before TEXT,
    source_description TEXT,
    source_vehicle TEXT,
    source_notes TEXT
);

-- The content's hazard rules each report meets (a JSON list of names), with a fingerprint of
-- the rules they were worked out with: the queue sorts hazards first in SQL, and works them
-- out again for a new report or new rules (portal/staff/danger.py). Its own table, so
-- writing it does not touch the search index's triggers on reports.
CREATE TABLE IF NOT EXISTS report_hazards (
    case_id INTEGER PRIMARY KEY REFERENCES cases (id),
    hazards TEXT NOT NULL,
    rules TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS report_hazards_rules ON report_hazards (rules);
CREATE INDEX IF NOT EXISTS report_hazards_found ON report_hazards (case_id)
    WHERE hazards != '[]';

-- A facility's release notification (release notification section). Kept until retain_until.
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
    -- As recorded: 1 a notice was given in time, 0 only late; NULL none recorded yet
    -- (never guessed from the filing, unless the content accepts the filing as the notice).
    notice_met INTEGER,
    confirmation_due TEXT,
    confirmation_met INTEGER,
    retain_until TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS photos (
    id INTEGER PRIMARY KEY,
    case_id INTEGER NOT NULL REFERENCES cases (id),
    position INTEGER NOT NULL,
    content_type TEXT NOT NULL,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    data BLOB NOT NULL,
    UNIQUE (case_id, position)
);

-- Photos already checked while the form still has errors, so nobody uploads twice.
CREATE TABLE IF NOT EXISTS pending_photos (
    id TEXT PRIMARY KEY,
    submission_key TEXT NOT NULL,
    filename TEXT NOT NULL,
    content_type TEXT NOT NULL,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    data BLOB NOT NULL,
    created_at TEXT NOT NULL,
    -- The address that sent it: unsent photos are capped per address and hour.
    client TEXT
);
CREATE INDEX IF NOT EXISTS pending_photos_key ON pending_photos (submission_key);
CREATE INDEX IF NOT EXISTS pending_photos_client ON pending_photos (client, created_at);

CREATE TABLE IF NOT EXISTS reference_counters (
    prefix TEXT NOT NULL,
    year INTEGER NOT NULL,
    last INTEGER NOT NULL,
    PRIMARY KEY (prefix, year)
);

-- Mail waits here until an SMTP server has accepted it.
CREATE TABLE IF NOT EXISTS outbox (
    id INTEGER PRIMARY KEY,
    case_id INTEGER REFERENCES cases (id),
    purpose TEXT NOT NULL,
    recipient TEXT NOT NULL,
    subject TEXT NOT NULL,
    body_text TEXT NOT NULL,
    body_html TEXT,
    attachments TEXT NOT NULL DEFAULT '[]',
    status TEXT NOT NULL DEFAULT 'queued'
        CHECK (status IN ('queued', 'sending', 'sent', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    created_at TEXT NOT NULL,
    claimed_at TEXT,
    sent_at TEXT,
    UNIQUE (case_id, purpose, recipient)
);
CREATE INDEX IF NOT EXISTS outbox_status ON outbox (status);

-- Enforcement (portal/enforcement/): staff only, never on a public page, status page or export.
-- The person or business a violation is recorded against; their history accumulates.
-- (property_address: the place given with a respondent before a violation had its own place.)
CREATE TABLE IF NOT EXISTS respondents (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    mailing_address TEXT NOT NULL,
    property_address TEXT,
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL,
    phone TEXT,
    email TEXT,
    -- owner, operator, both (owner and operator) or other (another responsible person).
    role TEXT CHECK (role IS NULL OR role IN ('owner', 'operator', 'both', 'other')),
    -- A duplicate record merged into another: its violations moved there, its log kept.
    merged_into INTEGER REFERENCES respondents (id),
    merged_at TEXT
);

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

-- A violation found on a case, against a respondent, of a section of the ordinance.
CREATE TABLE IF NOT EXISTS violations (
    id INTEGER PRIMARY KEY,
    case_id INTEGER NOT NULL REFERENCES cases (id),
    respondent_id INTEGER NOT NULL REFERENCES respondents (id),
    committed_on TEXT NOT NULL,
    section TEXT NOT NULL,
    description TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    recorded_by TEXT NOT NULL,
    -- Where the violation is (an address or a description of the place), the day the
    -- officer found it, and the owner of that property when the respondent is not.
    place TEXT,
    found_on TEXT,
    owner_name TEXT,
    owner_address TEXT
);
CREATE INDEX IF NOT EXISTS violations_respondent ON violations (respondent_id, committed_on);
CREATE INDEX IF NOT EXISTS violations_case ON violations (case_id);

-- A notice of violation: a draft until issued, then frozen (the trigger below); a correction
-- is a new notice that supersedes it.
CREATE TABLE IF NOT EXISTS notices (
    id INTEGER PRIMARY KEY,
    violation_id INTEGER NOT NULL REFERENCES violations (id),
    number TEXT UNIQUE,
    orders TEXT NOT NULL DEFAULT '{}',
    deadline TEXT,
    drafted_at TEXT NOT NULL,
    drafted_by TEXT NOT NULL,
    issued_on TEXT,
    issued_at TEXT,
    issued_by TEXT,
    supersedes INTEGER REFERENCES notices (id),
    superseded_by INTEGER REFERENCES notices (id),
    -- issued_on is the day the notice was served or mailed (its issuance), and this is how;
    -- issued_facts what the letter printed (JSON: respondent, place, dates, signer), kept as
    -- issued whatever later edits change.
    service_method TEXT,
    issued_facts TEXT
);
CREATE INDEX IF NOT EXISTS notices_violation ON notices (violation_id);
CREATE TRIGGER IF NOT EXISTS notices_service_frozen BEFORE UPDATE ON notices
WHEN OLD.issued_on IS NOT NULL AND (NEW.service_method IS NOT OLD.service_method
    OR NEW.issued_facts IS NOT OLD.issued_facts)
BEGIN SELECT RAISE(ABORT, 'an issued notice cannot change'); END;
CREATE TRIGGER IF NOT EXISTS notices_frozen BEFORE UPDATE ON notices
WHEN OLD.issued_on IS NOT NULL AND (
    NEW.number IS NOT OLD.number OR NEW.orders IS NOT OLD.orders
    OR NEW.deadline IS NOT OLD.deadline OR NEW.issued_on IS NOT OLD.issued_on
    OR NEW.violation_id IS NOT OLD.violation_id OR NEW.supersedes IS NOT OLD.supersedes
    OR (OLD.superseded_by IS NOT NULL AND NEW.superseded_by IS NOT OLD.superseded_by))
BEGIN SELECT RAISE(ABORT, 'an issued notice cannot change'); END;
CREATE TRIGGER IF NOT EXISTS notices_kept BEFORE DELETE ON notices
WHEN OLD.issued_on IS NOT NULL
BEGIN SELECT RAISE(ABORT, 'an issued notice cannot be deleted'); END;

-- What follows an issued notice, step by step (one row per notice; dates YYYY-MM-DD).
CREATE TABLE IF NOT EXISTS notice_steps (
    notice_id INTEGER PRIMARY KEY REFERENCES notices (id),
    conditions TEXT NOT NULL DEFAULT '{}',
    attorney_recommendation TEXT,
    attorney_recommended_on TEXT,
    smo_concurs INTEGER,
    appeal_filed_on TEXT,
    hearing_on TEXT,
    decided_on TEXT,
    upheld INTEGER,
    decision_filed_on TEXT,
    decision_mailed_on TEXT,
    certified_mail_number TEXT,
    access_requested_on TEXT,
    access_answer TEXT CHECK (access_answer IS NULL OR access_answer IN ('granted', 'refused')),
    access_answer_on TEXT,
    warrant_sought_on TEXT,
    court_order_sought_on TEXT,
    completed_on TEXT,
    work_cents INTEGER CHECK (work_cents IS NULL OR work_cents >= 0),
    admin_cents INTEGER CHECK (admin_cents IS NULL OR admin_cents >= 0),
    cost_notice_mailed_on TEXT,
    cost_notice_received_on TEXT,
    protest_filed_on TEXT,
    payment_count INTEGER CHECK (payment_count IS NULL OR payment_count BETWEEN 1 AND 120),
    tax_bill_on TEXT,
    -- An appeal filed after the period that the Board accepted all the same (1).
    late_appeal_accepted INTEGER,
    -- The Board's decision on a protest filed in time, and the day it sets for payment.
    protest_decided_on TEXT,
    protest_payment_due_on TEXT,
    -- The respondent corrected the violation on this day, as the officer checked (when, who).
    corrected_on TEXT,
    correction_checked_on TEXT,
    correction_checked_by TEXT
);

-- Alternative remedies assigned in lieu of a civil penalty, with their completion dates.
CREATE TABLE IF NOT EXISTS remedies (
    id INTEGER PRIMARY KEY,
    notice_id INTEGER NOT NULL REFERENCES notices (id),
    kind TEXT NOT NULL,
    details TEXT,
    due_on TEXT NOT NULL,
    completed_on TEXT,
    assigned_at TEXT NOT NULL,
    assigned_by TEXT NOT NULL
);

-- Payments toward the cost of abatement (cents).
CREATE TABLE IF NOT EXISTS payments (
    id INTEGER PRIMARY KEY,
    notice_id INTEGER NOT NULL REFERENCES notices (id),
    paid_on TEXT NOT NULL,
    cents INTEGER NOT NULL CHECK (cents > 0),
    recorded_at TEXT NOT NULL,
    recorded_by TEXT NOT NULL,
    -- A payment voided (wrongly recorded) stays, with who, when and why; a correction voids
    -- the payment and records the right one, which names it in `corrects`.
    voided_at TEXT,
    voided_by TEXT,
    void_reason TEXT,
    corrects INTEGER REFERENCES payments (id)
);
CREATE INDEX IF NOT EXISTS payments_notice ON payments (notice_id, paid_on);

-- Open311 API keys (portal/open311/keys.py): issued by `flask --app portal open311 keys
-- add`, stored as SHA-256 hashes only; a revoked key stays, so its filings keep a name.
CREATE TABLE IF NOT EXISTS open311_keys (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    key_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    revoked_at TEXT,
    requests INTEGER NOT NULL DEFAULT 0,
    filed INTEGER NOT NULL DEFAULT 0,
    last_used_at TEXT
);

-- A case filed through the Open311 API: which key filed it, and the photo address it
-- gave (kept as a link for staff; the portal never fetches it).
CREATE TABLE IF NOT EXISTS open311_filings (
    case_id INTEGER PRIMARY KEY REFERENCES cases (id),
    key_id INTEGER NOT NULL REFERENCES open311_keys (id),
    media_url TEXT
);
"""

# Feature packages that keep their tables beside their code: each a script of CREATE ...
# IF NOT EXISTS statements, run after SCHEMA. (Outfalls: to become a migration step.)
PACKAGE_SCHEMAS = [outfalls_schema.SCHEMA]


# Every connection's settings (bench/baseline.py uses the same, to be a fair yardstick).
# synchronous = FULL: a commit is on disk before the person is shown its reference. In WAL
# mode NORMAL syncs only at checkpoints, so a power cut or a crash of the machine (not of
# the process) could take the last commits with it: a reference shown, then gone. The
# cost, one fsync per commit, is measured in docs/benchmarks.md.
PRAGMAS = (
    "PRAGMA foreign_keys = ON",
    "PRAGMA busy_timeout = 30000",
    "PRAGMA journal_mode = WAL",
    "PRAGMA synchronous = FULL",
)


def connect(path: str | Path) -> sqlite_utils.Database:
    """Open the database file in WAL mode, creating the schema on first use."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    # Autocommit at the driver level: `transaction()` below says where each one begins.
    conn = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
    db = sqlite_utils.Database(conn)
    for pragma in PRAGMAS:
        db.execute(pragma)
    _migrate(db)
    return db


# Columns added to a table after it was first created: (table, column, definition).
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
    ("notice_steps", "corrected_on", "TEXT"),
    ("notice_steps", "correction_checked_on", "TEXT"),
    ("notice_steps", "correction_checked_by", "TEXT"),
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
# Filled once, when the column is added to a file made before it: (table, column, SQL).
BACKFILLS = [
    # The best-known time of the last change; before this, internal actions moved it too.
    ("cases", "public_changed_at", "UPDATE cases SET public_changed_at = updated_at"),
    ("cases", "closed_at", "UPDATE cases SET closed_at = updated_at WHERE status IN ({closed})"),
]


def _migrate(db: sqlite_utils.Database) -> None:
    """Bring a file of any earlier version up to SCHEMA_VERSION, in one transaction.

    Missing columns are added first; then every CREATE ... IF NOT EXISTS runs, which
    adds new tables and indexes and leaves existing ones alone.
    """
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version >= SCHEMA_VERSION:
        return
    with transaction(db):
        tables = set(db.table_names())
        added = set()
        for table, column, definition in ADDED_COLUMNS:
            if table in tables and column not in db[table].columns_dict:
                db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {definition}")
                added.add((table, column))
        closed = ", ".join(f"'{key}'" for key, status in STATUSES.items() if status.closed)
        for table, column, sql in BACKFILLS:
            if (table, column) in added:
                db.execute(sql.format(closed=closed))
        if "phone_notices" in tables:
            # Before version 10, a filing linked to a call was taken for its written
            # confirmation: it is now only linked (the letter is recorded on its own).
            db.execute(
                "UPDATE phone_notices SET case_id = confirmed_by, confirmed_by = NULL"
                " WHERE confirmed_by IS NOT NULL"
            )
        if "notifications" in tables:
            _relax_notice_met(db)
        # Statement by statement: executescript() would commit halfway.
        for statement in _statements(SCHEMA + "".join(PACKAGE_SCHEMAS)):
            db.execute(statement)
        search_index.create(db, rebuild="case_search" not in tables)
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _relax_notice_met(db: sqlite_utils.Database) -> None:
    """Before version 10, notifications.notice_met was required, so a notice not yet given
    was stored as given in time. SQLite cannot drop NOT NULL in place: the table is built
    again from SCHEMA (the search triggers and view first dropped; they are made again)."""
    required = {row[1]: row[3] for row in db.execute("PRAGMA table_info(notifications)")}
    if not required.get("notice_met"):
        return
    # The search index's triggers (on every table it reads) use the view: with the view
    # gone, renaming a table would fail on them. search_index.create() makes all again.
    for (name,) in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'trigger'"
        " AND (tbl_name = 'notifications' OR name LIKE 'case_search%')"
    ).fetchall():
        db.execute(f'DROP TRIGGER "{name}"')
    db.execute("DROP VIEW IF EXISTS case_search_text")
    [create] = [s for s in _statements(SCHEMA) if "EXISTS notifications (" in s]
    db.execute(create.replace("EXISTS notifications (", "EXISTS notifications_v10 ("))
    columns = ", ".join(f'"{name}"' for name in required)
    db.execute(f"INSERT INTO notifications_v10 ({columns}) SELECT {columns} FROM notifications")
    db.execute("DROP TABLE notifications")
    db.execute("ALTER TABLE notifications_v10 RENAME TO notifications")
    # What the filing said of its own notice is no longer taken as given: a notice counts
    # once logged and linked, in time as the default reading has it (a call by closing
    # time, a fax by the end of the due day). No mailed letter was recorded before.
    if "phone_notices" not in db.table_names():
        db.execute("UPDATE notifications SET confirmation_met = NULL, notice_met = NULL")
        return
    db.execute(
        "UPDATE notifications SET confirmation_met = NULL, notice_met = (SELECT max(CASE"
        " WHEN p.how = 'fax' THEN substr(p.told_at, 1, 10) <= substr(notice_due, 1, 10)"
        " ELSE p.told_at <= notice_due END) FROM phone_notices p"
        " WHERE p.case_id = notifications.case_id)"
    )


def _statements(script: str) -> list[str]:
    lines = [line for line in script.splitlines() if not line.strip().startswith("--")]
    statements, pending = [], ""
    for part in "\n".join(lines).split(";"):
        pending += part
        # A trigger's body holds statements of its own: it runs on to its END.
        if re.search(r"\bBEGIN\b", pending) and not pending.rstrip().endswith("END"):
            pending += ";"
            continue
        if pending.strip():
            statements.append(pending.strip())
        pending = ""
    return statements


@contextmanager
def transaction(db: sqlite_utils.Database) -> Iterator[sqlite_utils.Database]:
    """One write transaction: everything inside commits together or not at all.

    BEGIN IMMEDIATE takes the write lock up front, so two workers numbering
    references at once wait for each other instead of failing halfway.
    Inside it, write with `insert()` below or `db.execute`, never with
    sqlite-utils' table methods, which commit on their own.
    """
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def one_row(db: sqlite_utils.Database, sql: str, params: list[Any]) -> dict[str, Any] | None:
    """The first row a query returns, as a dict (sqlite-utils names the columns), or None."""
    return next(db.query(sql, params), None)


# Each table's columns, by connection: the schema is settled when a connection opens, and
# asking sqlite-utils on every insert costs three statements (a PRAGMA among them).
_COLUMNS: weakref.WeakKeyDictionary[sqlite_utils.Database, dict[str, frozenset[str]]] = (
    weakref.WeakKeyDictionary()
)


def table_columns(db: sqlite_utils.Database, table: str) -> frozenset[str]:
    known = _COLUMNS.setdefault(db, {})
    if table not in known:
        known[table] = frozenset(db[table].columns_dict)
    return known[table]


def insert(db: sqlite_utils.Database, table: str, record: dict[str, Any]) -> int:
    """Insert one row without committing (for use inside `transaction`); return its id."""
    known = table_columns(db, table)
    unknown = set(record) - set(known)
    if unknown:
        raise KeyError(f"{table} has no columns {sorted(unknown)}")
    columns = ", ".join(f'"{name}"' for name in record)
    marks = ", ".join("?" for _ in record)
    cursor = db.execute(
        f'INSERT INTO "{table}" ({columns}) VALUES ({marks})', list(record.values())
    )
    return cursor.lastrowid


class Pool:
    """Open connections kept between requests.

    Opening a connection costs its PRAGMAs, and closing the last one of a WAL database
    checkpoints the whole log to disk: per request, that was most of a submission's
    time. A connection goes back here after its request, idle, never mid-transaction.
    """

    def __init__(self, path: str, size: int = 8) -> None:
        self.path, self.size = path, size
        self.idle: list[sqlite_utils.Database] = []
        self.lock = threading.Lock()
        self.pid = os.getpid()

    def take(self) -> sqlite_utils.Database:
        with self.lock:
            if self.pid != os.getpid():  # a forked worker must not share its parent's files
                self.idle, self.pid = [], os.getpid()
            if self.idle:
                return self.idle.pop()
        return connect(self.path)

    def give_back(self, db: sqlite_utils.Database) -> None:
        if db.conn.in_transaction:  # an interrupted request: never reuse half a transaction
            db.conn.rollback()
        with self.lock:
            if len(self.idle) < self.size and self.pid == os.getpid():
                self.idle.append(db)
                return
        db.conn.close()


def get_db() -> sqlite_utils.Database:
    """The request's database connection, from the app's pool on first use."""
    if "db" not in g:
        g.db = current_app.extensions["db_pool"].take()
    return g.db


def init_db(app: Flask) -> None:
    # Create or migrate the schema now, so a bad path or a locked file fails at start-up.
    connect(app.config["DATABASE"]).conn.close()
    app.extensions["db_pool"] = Pool(app.config["DATABASE"])

    @app.teardown_appcontext
    def release_db(error: BaseException | None) -> None:
        db = g.pop("db", None)
        if db is not None:
            current_app.extensions["db_pool"].give_back(db)
