-- The portal's own tables as version 9 (the last release before numbered migrations) made
-- them: the first migration (portal/core/migrations.py) makes them in a new file, and leaves
-- a file of that version as it is. Each kind's table is its package's (its migrations).
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
    public_note TEXT,
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
    email TEXT
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

-- A release told to the municipality by telephone, in person or by fax (release notification
-- section), logged by staff; a spoken one waits for its written confirmation (an online
-- notification).
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
    confirmed_by INTEGER REFERENCES cases (id)
);
CREATE INDEX IF NOT EXISTS phone_notices_waiting ON phone_notices (confirmation_due)
    WHERE confirmed_by IS NULL;

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
    created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS pending_photos_key ON pending_photos (submission_key);

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
CREATE TABLE IF NOT EXISTS respondents (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    mailing_address TEXT NOT NULL,
    property_address TEXT,
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL
);

-- A violation found on a case, against a respondent, of a section of the ordinance.
CREATE TABLE IF NOT EXISTS violations (
    id INTEGER PRIMARY KEY,
    case_id INTEGER NOT NULL REFERENCES cases (id),
    respondent_id INTEGER NOT NULL REFERENCES respondents (id),
    committed_on TEXT NOT NULL,
    section TEXT NOT NULL,
    description TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    recorded_by TEXT NOT NULL
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
    superseded_by INTEGER REFERENCES notices (id)
);
CREATE INDEX IF NOT EXISTS notices_violation ON notices (violation_id);
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
    tax_bill_on TEXT
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
    recorded_by TEXT NOT NULL
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
