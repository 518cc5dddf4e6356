"""The review's low findings that are not tested with their larger neighbours: token pages
rate limited together (L9), and `check` naming the risk of a proxy setting (L8)."""

from __future__ import annotations

import pytest

from portal import create_app
from portal.core.settings import problems


def test_every_page_a_token_opens_counts_against_one_limit(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "p.sqlite3"),
                      "STATUS_RATE_LIMIT": "4 per minute", "MAIL_SUPPRESS_SEND": True})  # fmt: skip
    client = app.test_client()
    guesses = ["/status/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/status.json",
               "/report/sent/BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB/",
               "/status/CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC/",
               "/status/DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD/status.json",
               "/report/sent/EEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE/"]  # fmt: skip
    assert [client.get(url).status_code for url in guesses] == [404, 404, 404, 404, 429]


@pytest.mark.parametrize(("hops", "warned"), [(0, False), (1, True), (2, True)])
def test_check_says_gunicorn_must_listen_only_for_the_proxy(hops, warned):
    found = [p for p in problems({"PROXY_HOPS": hops}) if p.setting == "PORTAL_PROXY_HOPS"]
    assert bool(found) == warned
    if warned:
        assert not found[0].fatal and "--bind 127.0.0.1" in found[0].text


def test_a_file_from_before_gets_its_public_times_from_updated_at(tmp_path):
    """Cases stored before the public times were kept: their last known change stands in."""
    import sqlite3

    from portal.core.db import connect

    path = tmp_path / "old.sqlite3"
    connect(path).conn.close()
    with sqlite3.connect(path) as conn:
        for column in ("public_changed_at", "closed_at"):
            conn.execute(f"ALTER TABLE cases DROP COLUMN {column}")
        for status, n in (("resolved", 1), ("investigating", 2)):
            conn.execute(
                "INSERT INTO cases (kind, reference, token_hash, submission_key,"
                " submission_digest, received_at, updated_at, status, service_code, address)"
                " VALUES ('report', ?, ?, ?, 'd', '2026-03-01T09:00:00-05:00',"
                " '2026-03-05T10:00:00-05:00', ?, 'illicit-discharge', 'Main St')",
                [f"IDR-2026-000{n}", f"t{n}", f"k{n}", status],
            )
        conn.execute("PRAGMA user_version = 9")
    conn.close()
    db = connect(path)
    found = db.execute(
        "SELECT status, public_changed_at, closed_at FROM cases ORDER BY reference"
    ).fetchall()
    db.conn.close()
    assert found == [
        ("resolved", "2026-03-05T10:00:00-05:00", "2026-03-05T10:00:00-05:00"),
        ("investigating", "2026-03-05T10:00:00-05:00", None),
    ]
