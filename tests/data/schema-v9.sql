-- The schema of a database file made by the portal at commit 6b790ff (schema version 9, the
-- last deployed release), as its sqlite_master lists it, in order: tests/test_migrations.py
-- builds a real version-9 file from it (PRAGMA user_version = 9) and upgrades it.
CREATE TABLE cases (
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
    duplicate_of INTEGER REFERENCES cases (id),
    referred_to TEXT,
    exempt_reason TEXT,
    confirmed_illicit INTEGER NOT NULL DEFAULT 0,
    first_action_at TEXT,
    mail_queued_at TEXT,
    revision INTEGER NOT NULL DEFAULT 0,
    follow_up_on TEXT,
    CHECK (latitude IS NOT NULL OR address IS NOT NULL)
);
CREATE INDEX cases_received ON cases (received_at);
CREATE INDEX cases_kind_received ON cases (kind, received_at);
CREATE INDEX cases_status_received ON cases (status, received_at);
CREATE INDEX cases_assignee ON cases (assignee);
CREATE INDEX cases_place ON cases (latitude, longitude);
CREATE INDEX cases_mail_waiting ON cases (id) WHERE mail_queued_at IS NULL;
CREATE INDEX cases_follow_up ON cases (follow_up_on) WHERE follow_up_on IS NOT NULL;
CREATE TABLE staff (
    id INTEGER PRIMARY KEY,
    username TEXT NOT NULL UNIQUE COLLATE NOCASE,
    password_hash TEXT NOT NULL,
    disabled INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    last_login_at TEXT,
    totp_secret TEXT,
    totp_last_step INTEGER,
    email TEXT
);
CREATE TABLE staff_recovery_codes (
    id INTEGER PRIMARY KEY,
    staff_id INTEGER NOT NULL REFERENCES staff (id),
    code_hash TEXT NOT NULL,
    used_at TEXT,
    UNIQUE (staff_id, code_hash)
);
CREATE TABLE events (
    id INTEGER PRIMARY KEY,
    case_id INTEGER NOT NULL REFERENCES cases (id),
    at TEXT NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    detail TEXT NOT NULL DEFAULT '{}',
    client TEXT
);
CREATE INDEX events_case ON events (case_id, id);
CREATE TABLE phone_notices (
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
CREATE INDEX phone_notices_waiting ON phone_notices (confirmation_due)
    WHERE confirmed_by IS NULL;
CREATE TABLE notes (
    id INTEGER PRIMARY KEY,
    case_id INTEGER NOT NULL REFERENCES cases (id),
    at TEXT NOT NULL,
    author TEXT NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX notes_case ON notes (case_id, id);
CREATE TABLE inspections (
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
CREATE INDEX inspections_case ON inspections (case_id, visited_at);
CREATE TABLE inspection_photos (
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
CREATE TABLE reports (
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
CREATE TABLE notifications (
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
CREATE TABLE photos (
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
CREATE TABLE pending_photos (
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
CREATE INDEX pending_photos_key ON pending_photos (submission_key);
CREATE TABLE reference_counters (
    prefix TEXT NOT NULL,
    year INTEGER NOT NULL,
    last INTEGER NOT NULL,
    PRIMARY KEY (prefix, year)
);
CREATE TABLE outbox (
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
CREATE INDEX outbox_status ON outbox (status);
CREATE TABLE respondents (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    mailing_address TEXT NOT NULL,
    property_address TEXT,
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL
);
CREATE TABLE violations (
    id INTEGER PRIMARY KEY,
    case_id INTEGER NOT NULL REFERENCES cases (id),
    respondent_id INTEGER NOT NULL REFERENCES respondents (id),
    committed_on TEXT NOT NULL,
    section TEXT NOT NULL,
    description TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    recorded_by TEXT NOT NULL
);
CREATE INDEX violations_respondent ON violations (respondent_id, committed_on);
CREATE INDEX violations_case ON violations (case_id);
CREATE TABLE notices (
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
CREATE INDEX notices_violation ON notices (violation_id);
CREATE TRIGGER notices_frozen BEFORE UPDATE ON notices
WHEN OLD.issued_on IS NOT NULL AND (
    NEW.number IS NOT OLD.number OR NEW.orders IS NOT OLD.orders
    OR NEW.deadline IS NOT OLD.deadline OR NEW.issued_on IS NOT OLD.issued_on
    OR NEW.violation_id IS NOT OLD.violation_id OR NEW.supersedes IS NOT OLD.supersedes
    OR (OLD.superseded_by IS NOT NULL AND NEW.superseded_by IS NOT OLD.superseded_by))
BEGIN SELECT RAISE(ABORT, 'an issued notice cannot change'); END;
CREATE TRIGGER notices_kept BEFORE DELETE ON notices
WHEN OLD.issued_on IS NOT NULL
BEGIN SELECT RAISE(ABORT, 'an issued notice cannot be deleted'); END;
CREATE TABLE notice_steps (
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
CREATE TABLE remedies (
    id INTEGER PRIMARY KEY,
    notice_id INTEGER NOT NULL REFERENCES notices (id),
    kind TEXT NOT NULL,
    details TEXT,
    due_on TEXT NOT NULL,
    completed_on TEXT,
    assigned_at TEXT NOT NULL,
    assigned_by TEXT NOT NULL
);
CREATE TABLE payments (
    id INTEGER PRIMARY KEY,
    notice_id INTEGER NOT NULL REFERENCES notices (id),
    paid_on TEXT NOT NULL,
    cents INTEGER NOT NULL CHECK (cents > 0),
    recorded_at TEXT NOT NULL,
    recorded_by TEXT NOT NULL
);
CREATE INDEX payments_notice ON payments (notice_id, paid_on);
CREATE TABLE open311_keys (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    key_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    revoked_at TEXT,
    requests INTEGER NOT NULL DEFAULT 0,
    filed INTEGER NOT NULL DEFAULT 0,
    last_used_at TEXT
);
CREATE TABLE open311_filings (
    case_id INTEGER PRIMARY KEY REFERENCES cases (id),
    key_id INTEGER NOT NULL REFERENCES open311_keys (id),
    media_url TEXT
);
CREATE VIRTUAL TABLE case_search USING fts5(body, compact, tokenize='trigram');
CREATE VIEW case_search_text AS SELECT c.id AS id, coalesce(c.reference, '') || ' ' || coalesce(c.address, '') || ' ' || coalesce(c.contact_name, '') || ' ' || coalesce(c.contact_email, '') || ' ' || coalesce(c.contact_phone, '') || ' ' || coalesce(c.referred_to, '') || ' ' || coalesce(r.description, '') || ' ' || coalesce(r.color, '') || ' ' || coalesce(r.source_description, '') || ' ' || coalesce(r.source_vehicle, '') || ' ' || coalesce(r.source_notes, '') || ' ' || coalesce(n.facility_name, '') || ' ' || coalesce(n.facility_address, '') || ' ' || coalesce(n.materials, '') || ' ' || coalesce(n.permit_number, '') || ' ' || coalesce(n.dec_spill_number, '') || ' ' || coalesce(n.responsible_title, '') || ' ' || coalesce(n.cause, '') || ' ' || coalesce(n.cleanup, '') || ' ' || coalesce((SELECT group_concat(body, ' ') FROM notes WHERE case_id = c.id), '') || ' ' || coalesce((SELECT group_concat(findings || ' ' || coalesce(lab_reference, ''), ' ') FROM inspections WHERE case_id = c.id), '') AS body FROM cases c LEFT JOIN reports r ON r.case_id = c.id LEFT JOIN notifications n ON n.case_id = c.id;
CREATE TRIGGER case_search_cases_0 AFTER UPDATE OF reference, address, contact_name, contact_email, contact_phone, referred_to ON cases BEGIN DELETE FROM case_search WHERE rowid = NEW.id; INSERT INTO case_search (rowid, body, compact) SELECT id, body, lower(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(body, ' ', ''), char(10), ''), char(9), ''), '-', ''), '(', ''), ')', ''), '.', ''), ',', ''), '/', ''), '+', ''), '#', ''), ':', ''), ';', ''), '''', ''), '"', ''), '_', '')) FROM case_search_text WHERE id = NEW.id; END;
CREATE TRIGGER case_search_reports_1 AFTER INSERT ON reports BEGIN DELETE FROM case_search WHERE rowid = NEW.case_id; INSERT INTO case_search (rowid, body, compact) SELECT id, body, lower(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(body, ' ', ''), char(10), ''), char(9), ''), '-', ''), '(', ''), ')', ''), '.', ''), ',', ''), '/', ''), '+', ''), '#', ''), ':', ''), ';', ''), '''', ''), '"', ''), '_', '')) FROM case_search_text WHERE id = NEW.case_id; END;
CREATE TRIGGER case_search_reports_2 AFTER UPDATE ON reports BEGIN DELETE FROM case_search WHERE rowid = NEW.case_id; INSERT INTO case_search (rowid, body, compact) SELECT id, body, lower(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(body, ' ', ''), char(10), ''), char(9), ''), '-', ''), '(', ''), ')', ''), '.', ''), ',', ''), '/', ''), '+', ''), '#', ''), ':', ''), ';', ''), '''', ''), '"', ''), '_', '')) FROM case_search_text WHERE id = NEW.case_id; END;
CREATE TRIGGER case_search_notifications_3 AFTER INSERT ON notifications BEGIN DELETE FROM case_search WHERE rowid = NEW.case_id; INSERT INTO case_search (rowid, body, compact) SELECT id, body, lower(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(body, ' ', ''), char(10), ''), char(9), ''), '-', ''), '(', ''), ')', ''), '.', ''), ',', ''), '/', ''), '+', ''), '#', ''), ':', ''), ';', ''), '''', ''), '"', ''), '_', '')) FROM case_search_text WHERE id = NEW.case_id; END;
CREATE TRIGGER case_search_notifications_4 AFTER UPDATE ON notifications BEGIN DELETE FROM case_search WHERE rowid = NEW.case_id; INSERT INTO case_search (rowid, body, compact) SELECT id, body, lower(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(body, ' ', ''), char(10), ''), char(9), ''), '-', ''), '(', ''), ')', ''), '.', ''), ',', ''), '/', ''), '+', ''), '#', ''), ':', ''), ';', ''), '''', ''), '"', ''), '_', '')) FROM case_search_text WHERE id = NEW.case_id; END;
CREATE TRIGGER case_search_notes_5 AFTER INSERT ON notes BEGIN DELETE FROM case_search WHERE rowid = NEW.case_id; INSERT INTO case_search (rowid, body, compact) SELECT id, body, lower(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(body, ' ', ''), char(10), ''), char(9), ''), '-', ''), '(', ''), ')', ''), '.', ''), ',', ''), '/', ''), '+', ''), '#', ''), ':', ''), ';', ''), '''', ''), '"', ''), '_', '')) FROM case_search_text WHERE id = NEW.case_id; END;
CREATE TRIGGER case_search_notes_6 AFTER UPDATE ON notes BEGIN DELETE FROM case_search WHERE rowid = NEW.case_id; INSERT INTO case_search (rowid, body, compact) SELECT id, body, lower(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(body, ' ', ''), char(10), ''), char(9), ''), '-', ''), '(', ''), ')', ''), '.', ''), ',', ''), '/', ''), '+', ''), '#', ''), ':', ''), ';', ''), '''', ''), '"', ''), '_', '')) FROM case_search_text WHERE id = NEW.case_id; END;
CREATE TRIGGER case_search_notes_7 AFTER DELETE ON notes BEGIN DELETE FROM case_search WHERE rowid = OLD.case_id; INSERT INTO case_search (rowid, body, compact) SELECT id, body, lower(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(body, ' ', ''), char(10), ''), char(9), ''), '-', ''), '(', ''), ')', ''), '.', ''), ',', ''), '/', ''), '+', ''), '#', ''), ':', ''), ';', ''), '''', ''), '"', ''), '_', '')) FROM case_search_text WHERE id = OLD.case_id; END;
CREATE TRIGGER case_search_inspections_8 AFTER INSERT ON inspections BEGIN DELETE FROM case_search WHERE rowid = NEW.case_id; INSERT INTO case_search (rowid, body, compact) SELECT id, body, lower(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(body, ' ', ''), char(10), ''), char(9), ''), '-', ''), '(', ''), ')', ''), '.', ''), ',', ''), '/', ''), '+', ''), '#', ''), ':', ''), ';', ''), '''', ''), '"', ''), '_', '')) FROM case_search_text WHERE id = NEW.case_id; END;
CREATE TRIGGER case_search_inspections_9 AFTER UPDATE ON inspections BEGIN DELETE FROM case_search WHERE rowid = NEW.case_id; INSERT INTO case_search (rowid, body, compact) SELECT id, body, lower(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(body, ' ', ''), char(10), ''), char(9), ''), '-', ''), '(', ''), ')', ''), '.', ''), ',', ''), '/', ''), '+', ''), '#', ''), ':', ''), ';', ''), '''', ''), '"', ''), '_', '')) FROM case_search_text WHERE id = NEW.case_id; END;
CREATE TRIGGER case_search_inspections_10 AFTER DELETE ON inspections BEGIN DELETE FROM case_search WHERE rowid = OLD.case_id; INSERT INTO case_search (rowid, body, compact) SELECT id, body, lower(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(body, ' ', ''), char(10), ''), char(9), ''), '-', ''), '(', ''), ')', ''), '.', ''), ',', ''), '/', ''), '+', ''), '#', ''), ':', ''), ';', ''), '''', ''), '"', ''), '_', '')) FROM case_search_text WHERE id = OLD.case_id; END;
CREATE TRIGGER case_search_forget AFTER DELETE ON cases BEGIN DELETE FROM case_search WHERE rowid = OLD.id; END;
