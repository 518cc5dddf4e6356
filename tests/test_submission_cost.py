"""What a text-only report costs the database, pinned so it cannot creep back up."""

from __future__ import annotations

import pytest
from helpers import hidden_fields, open_form, report_data

from portal import create_app

# Storing, in one transaction: BEGIN, the key's lookup, the reference, cases, reports,
# pending photos, COMMIT. The mail (8 more statements, a second commit) is the courier's,
# after the response. It was 30 before table columns were cached, rows read with one
# query each and the reference counter answered with RETURNING.
STATEMENTS_PER_TEXT_REPORT = 7


@pytest.fixture
def traced(tmp_path):
    """An app whose one pooled connection records every statement the request runs."""
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "p.sqlite3"),
            "SMO_EMAIL": "smo@village.test",
            "MAIL_FOLDER": str(tmp_path / "mail"),
            "RATELIMIT_ENABLED": False,
        }
    )
    statements: list[str] = []
    pool = app.extensions["db_pool"]
    db = pool.take()
    db.conn.set_trace_callback(statements.append)
    pool.give_back(db)
    return app, statements


def test_a_text_only_report_costs_a_fixed_number_of_statements(traced):
    app, statements = traced
    client = app.test_client()
    for attempt in range(2):  # the first request may fill per-connection caches
        hidden = open_form(client)
        statements.clear()
        response = client.post("/report/", data={**hidden, **report_data()})
        assert response.status_code == 303, attempt
    # SQLite reports the work of triggers (the staff search index) within a statement: as
    # lines with a leading "-- ", and the statement again as each trigger starts. That is
    # SQLite's work inside one of the portal's statements, which are what is counted here.
    own = []
    for statement in statements:
        if not statement.startswith("-- ") and (not own or own[-1] != statement):
            own.append(statement)
    assert "PRAGMA" not in " ".join(own).upper()
    assert len(own) == STATEMENTS_PER_TEXT_REPORT, "\n".join(own)
    # One commit, so the person waits for one fsync (synchronous = FULL).
    assert [s for s in own if s.startswith(("BEGIN", "COMMIT"))] == ["BEGIN IMMEDIATE", "COMMIT"]


def test_a_commit_is_on_disk_before_the_person_is_answered(traced):
    """WAL with synchronous = FULL: each commit syncs the log (NORMAL would only at a
    checkpoint, and a power cut could take a reference already shown)."""
    app, _ = traced
    pool = app.extensions["db_pool"]
    db = pool.take()
    try:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert db.execute("PRAGMA synchronous").fetchone() == (2,)  # 2 = FULL
        assert db.execute("PRAGMA foreign_keys").fetchone() == (1,)
    finally:
        pool.give_back(db)


def test_a_page_that_only_redirects_signs_no_new_csrf_token(traced, monkeypatch):
    import flask_wtf.csrf

    app, _ = traced
    client = app.test_client()
    signed = []
    original = flask_wtf.csrf.generate_csrf
    monkeypatch.setattr(
        flask_wtf.csrf, "generate_csrf", lambda *a, **k: signed.append(1) or original(*a, **k)
    )
    hidden = open_form(client)
    assert signed, "the form page carries a token"
    signed.clear()
    assert client.post("/report/", data={**hidden, **report_data()}).status_code == 303
    assert signed == []
    # Shown again (an error), the form still carries a valid token.
    again = client.post("/report/", data={**open_form(client), **report_data(description="")})
    assert again.status_code == 422
    token = hidden_fields(again.text)["csrf_token"]
    assert (
        client.post(
            "/report/", data={**hidden_fields(again.text), **report_data(), "csrf_token": token}
        ).status_code
        == 303
    )
