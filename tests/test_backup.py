"""Backups taken while reports keep arriving hold every record committed before them."""

from __future__ import annotations

import shutil
import threading
import time

from helpers import database, open_form, report_data

from portal import create_app
from portal.core.backup import backup


def test_a_backup_under_load_restores_every_record_committed_before_it(app, tmp_path):
    committed: list[tuple[float, str]] = []  # (time the 303 arrived, submission key)
    stop = threading.Event()

    def keep_submitting() -> None:
        client = app.test_client()  # a client per thread: each has its own session
        while not stop.is_set():
            form = open_form(client)
            response = client.post("/report/", data={**form, **report_data()})
            if response.status_code == 303:
                committed.append((time.monotonic(), form["submission_key"]))

    workers = [threading.Thread(target=keep_submitting) for _ in range(3)]
    for worker in workers:
        worker.start()
    try:
        # A deadline: a portal that stopped accepting reports fails the test, never hangs it.
        deadline = time.monotonic() + 60
        while len(committed) < 15:
            assert time.monotonic() < deadline, f"only {len(committed)} reports in 60 s"
            assert any(w.is_alive() for w in workers), "every submitting thread died"
            time.sleep(0.05)
        started = time.monotonic()
        counts = backup(app.config["DATABASE"], tmp_path / "copy.sqlite3")
        time.sleep(0.3)  # keep the load on after the copy too
    finally:
        stop.set()
        for worker in workers:
            worker.join(timeout=30)
            assert not worker.is_alive(), "a submitting thread did not finish"
    before = {key for at, key in committed if at < started}
    assert len(before) >= 15 and len(committed) > len(before), "the copy was taken under load"

    # Restore: the copy becomes the portal's database.
    restored = tmp_path / "restored.sqlite3"
    shutil.copy(tmp_path / "copy.sqlite3", restored)
    with database(restored) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        keys = {row[0] for row in db.execute("SELECT submission_key FROM cases")}
        orphans = db.execute(
            "SELECT count(*) FROM cases c LEFT JOIN reports r ON r.case_id = c.id WHERE r.case_id IS NULL"
        ).fetchone()[0]
    assert before <= keys, f"missing {len(before - keys)} records committed before the backup"
    assert orphans == 0 and counts["cases"] == len(keys)
    portal = create_app({"DATABASE": str(restored)})
    assert portal.test_client().get("/report/").status_code == 200


def test_the_backup_command(app, client, tmp_path):
    client.post("/report/", data={**open_form(client), **report_data()})
    runner = app.test_cli_runner()
    result = runner.invoke(args=["backup", str(tmp_path / "b.sqlite3")])
    assert result.exit_code == 0, result.output
    assert "integrity ok" in result.output and "cases 1" in result.output
    again = runner.invoke(args=["backup", str(tmp_path / "b.sqlite3")])
    assert again.exit_code != 0 and "exists" in again.output
