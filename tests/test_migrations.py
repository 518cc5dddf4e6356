"""The schema as numbered migrations: a real version-9 file (the last release before them,
made from that release's own schema, tests/data/schema-v9.sql) upgrades with its data, its
foreign keys and its search index; a new file takes the same path; nothing runs twice."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from portal.core import migrations
from portal.core.db import connect

VERSION_9 = Path(__file__).parent / "data" / "schema-v9.sql"
AT = "2026-11-02T11:00:00-05:00"


def version_9_file(path: Path) -> Path:
    """A file as the version-9 portal left it, with a report, a filing, a call linked to the
    filing (then taken for its written confirmation), notes, photos and a visit."""
    conn = sqlite3.connect(path)
    conn.executescript(VERSION_9.read_text(encoding="utf-8"))
    conn.execute("PRAGMA user_version = 9")
    conn.execute("PRAGMA foreign_keys = ON")
    with conn:
        conn.execute(
            "INSERT INTO cases (id, kind, reference, token_hash, submission_key,"
            " submission_digest, received_at, updated_at, status, service_code, address,"
            " contact_name, latitude, longitude) VALUES"
            " (1, 'report', 'IDR-2026-0001', 'a', 'ka', 'd', ?, '2026-11-05T10:00:00-05:00',"
            "  'resolved', 'illicit-discharge', '12 Elm Street', 'Maria Lopez', 42.16, -76.82),"
            " (2, 'notification', 'REL-2026-0001', 'b', 'kb', 'd', ?, ?, 'received', 'release',"
            "  'Depot Road', NULL, NULL, NULL),"
            " (3, 'notification', 'REL-2026-0002', 'c', 'kc', 'd', ?, ?, 'received', 'release',"
            "  'Depot Road', NULL, NULL, NULL)",
            [AT, AT, AT, AT, AT],
        )
        conn.execute(
            "INSERT INTO reports (case_id, indicators, description, observed_at) VALUES"
            " (1, '[\"suds\"]', 'Grey foam pouring from a pipe', ?)",
            [AT],
        )
        filing = (
            "'no', 'no', 'no', 'Depot Fuel', '12 Depot Road', 'commercial', 'none',"
            " '2026-11-02T09:00:00-05:00', 'yes', 'Diesel', 'no', 'hose', 'pads', 'hoses',"
            " 'none', '2026-11-04T16:00:00-05:00', 1, '2029-11-02'"
        )
        for case_id in (2, 3):
            conn.execute(
                "INSERT INTO notifications (case_id, danger, hazardous, petroleum, facility_name,"
                " facility_address, facility_kind, permit, discovered_at, is_over, materials,"
                " reached_drain, cause, cleanup, prevention, prior_notice, notice_due, notice_met,"
                f" retain_until) VALUES ({case_id}, {filing})"
            )
        conn.execute(
            "INSERT INTO phone_notices (told_at, how, facility_name, caller_name, material,"
            " taken_by, logged_at, confirmation_due, confirmed_by) VALUES"
            " ('2026-11-04T17:30:00-05:00', 'fax', 'Depot Fuel', 'Sam', 'Diesel', 'smo',"
            " '2026-11-04T17:40:00-05:00', NULL, 2)"
        )
        conn.execute(
            "INSERT INTO events (case_id, at, actor, action, detail) VALUES"
            " (1, '2026-11-05T10:00:00-05:00', 'smo', 'status', '{\"to\": \"resolved\"}')"
        )
        conn.execute(
            "INSERT INTO notes (case_id, at, author, body) VALUES (1, ?, 'smo', 'Plumber called')",
            [AT],
        )
        conn.execute(
            "INSERT INTO photos (case_id, position, content_type, width, height, sha256, data)"
            " VALUES (1, 1, 'image/jpeg', 4, 3, 'ab', x'ffd8')"
        )
        conn.execute(
            "INSERT INTO reference_counters (prefix, year, last) VALUES ('IDR', 2026, 1),"
            " ('REL', 2026, 2)"
        )
    conn.close()
    return path


def test_a_version_9_file_upgrades_with_its_data_keys_and_index(tmp_path):
    path = version_9_file(tmp_path / "v9.sqlite3")
    db = connect(path)
    # Its rows, as they were.
    assert [
        tuple(r)
        for r in db.execute("SELECT id, kind, reference, status, address FROM cases ORDER BY id")
    ] == [
        (1, "report", "IDR-2026-0001", "resolved", "12 Elm Street"),
        (2, "notification", "REL-2026-0001", "received", "Depot Road"),
        (3, "notification", "REL-2026-0002", "received", "Depot Road"),
    ]
    assert db.execute("SELECT description FROM reports").fetchall() == [
        ("Grey foam pouring from a pipe",)
    ]
    assert db.execute("SELECT count(*) FROM photos WHERE case_id = 1").fetchone() == (1,)
    # The kind is checked in code now: the table lost its CHECK, kept its other rules.
    schema = db["cases"].schema
    assert "CHECK (kind IN" not in schema
    assert "CHECK (latitude IS NOT NULL OR address IS NOT NULL)" in schema
    assert db["cases"].columns_dict["kind"] is str
    # Foreign keys: every table still points at cases, and nothing points nowhere.
    assert db.execute("PRAGMA foreign_key_check").fetchall() == []
    for table in ("events", "notes", "photos", "reports", "notifications", "inspections"):
        assert [fk.other_table for fk in db[table].foreign_keys] == ["cases"], table
    with pytest.raises(sqlite3.IntegrityError):
        db.execute("INSERT INTO notes (case_id, at, author, body) VALUES (99, 'x', 'y', 'z')")
    # What version 10 changed: public times from updated_at, a closed case's closing time,
    # the call only linked to the filing, notice_met as recorded (the fax at 5:30 p.m. on the
    # due day is in time; the other filing has no notice at all).
    assert db.execute(
        "SELECT id, public_changed_at, closed_at FROM cases WHERE id = 1"
    ).fetchone() == (1, "2026-11-05T10:00:00-05:00", "2026-11-05T10:00:00-05:00")
    assert db.execute("SELECT case_id, confirmed_by FROM phone_notices").fetchall() == [(2, None)]
    assert db.execute(
        "SELECT case_id, notice_met FROM notifications ORDER BY case_id"
    ).fetchall() == [(2, 1), (3, None)]

    # The search index finds each case by its own words and by its notes.
    def search(words):
        return db.execute(
            "SELECT rowid FROM case_search WHERE case_search MATCH ? ORDER BY rowid", [words]
        ).fetchall()

    assert search("foam") == [(1,)]
    assert search("Plumber") == [(1,)]
    assert search("Depot Fuel") == [(2,), (3,)]
    names = {name for (name,) in db.execute("SELECT name FROM _sqlite_migrations")}
    assert "005_kinds_checked_in_code" in names and "002_notice_met_as_recorded" in names
    db.conn.close()


def test_a_new_file_and_an_upgraded_one_have_the_same_schema(tmp_path):
    def shape(path):
        db = connect(path)
        tables = {
            name: [tuple(r)[1:] for r in db.execute(f"PRAGMA table_info('{name}')")]
            for name in db.table_names()
            if not name.startswith(("case_search", "sqlite_"))
        }
        indexes = set(
            db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
            ).fetchall()
        )
        db.conn.close()
        return tables, indexes

    new_tables, new_indexes = shape(tmp_path / "new.sqlite3")
    old_tables, old_indexes = shape(version_9_file(tmp_path / "v9.sqlite3"))
    assert new_tables == old_tables
    assert new_indexes == old_indexes


def test_migrations_run_once_and_again_change_nothing(tmp_path):
    """A file version 10 made before migrations were recorded has the whole schema and no
    record: every migration finds its work done."""
    path = tmp_path / "portal.sqlite3"
    db = connect(path)
    before = db.execute("SELECT sql FROM sqlite_master ORDER BY name").fetchall()
    applied = db.execute("SELECT count(*) FROM _sqlite_migrations").fetchone()[0]
    assert not migrations.pending(db)
    db.execute("DELETE FROM _sqlite_migrations")
    db.conn.close()
    db = connect(path)
    assert db.execute("SELECT count(*) FROM _sqlite_migrations").fetchone()[0] == applied
    assert db.execute("SELECT sql FROM sqlite_master ORDER BY name").fetchall() == before
    db.conn.close()


def test_the_portals_migrations_come_before_each_kinds():
    names = [each.name for each in migrations.sets()]
    assert names[:3] == ["portal", "report", "notification"]
