"""What you sent is kept: the portal under gunicorn is killed (-9) while residents send
reports; every report it confirmed is stored whole, and nothing is stored half."""

from __future__ import annotations

import hashlib
import re
import sqlite3
import threading
import time
import urllib.error
import urllib.request
from collections import Counter

from crashload import PHOTO_SIZE, Gunicorn, Resident, Tally, free_port, portal_env

CLIENTS = 20
MAX_EACH = 60  # submissions per client, whatever the clock says
KILL_AFTER = 2.5  # seconds of load before the kill
LOAD_SECONDS = 6.0  # of load in all...
AFTER_RESTART = 2.0  # ...but at least this long once the restarted server answers
ENOUGH = 20  # confirmed reports wanted on each side of the kill
REFERENCE = re.compile(r"^IDR-(\d{4})-(\d{4,})$")


def test_every_confirmed_report_survives_a_kill_9(tmp_path):
    server = Gunicorn(free_port(), portal_env(tmp_path), tmp_path)
    tally, stop = Tally(), threading.Event()
    residents = [Resident(n, server.url, tally, stop, MAX_EACH) for n in range(CLIENTS)]
    try:
        server.start()
        server.wait_ready()
        began = time.monotonic()
        for resident in residents:
            resident.start()
        # At least KILL_AFTER of load, and enough confirmed reports to judge (a machine
        # busy with other work confirms fewer per second: one fsync each, synchronous=FULL).
        deadline = time.monotonic() + 30
        time.sleep(KILL_AFTER)
        while len(tally.successes) <= ENOUGH and time.monotonic() < deadline:
            time.sleep(0.1)
        killed_at = time.monotonic()
        server.kill()
        down_at = time.monotonic()
        server.start()
        server.wait_ready()
        back_at = time.monotonic()
        time.sleep(max(0, max(began + LOAD_SECONDS, back_at + AFTER_RESTART) - time.monotonic()))
        deadline = time.monotonic() + 30
        while (
            sum(s.at >= killed_at for s in tally.successes) <= ENOUGH
            and time.monotonic() < deadline
        ):
            time.sleep(0.1)
        stop.set()
        for resident in residents:
            resident.join(timeout=20)
        assert not any(r.is_alive() for r in residents), "a client did not stop"
        load_seconds = time.monotonic() - began
        # Confirmation links shown before the crash still open, served by the new processes.
        survivors = [s for s in tally.successes if s.at < killed_at]
        lost_links = [s for s in survivors if status_of(server, s.token) != 200]
    finally:
        stop.set()
        server.stop()
    assert server.process.returncode is not None

    before = len(survivors)
    after = len(tally.successes) - before
    summary = (
        f"crash: {before} confirmed before the kill, {after} after "
        f"({sum(s.photo for s in tally.successes)} with a photo, "
        f"{sum(s.retried for s in tally.successes)} confirmed on a retry); "
        f"{tally.connection_errors} connection errors, {tally.retried_posts} POSTs retried, "
        f"{tally.abandoned_posts} abandoned; kill+restart {back_at - killed_at:.1f} s "
        f"(kill {down_at - killed_at:.2f} s); load {load_seconds:.1f} s"
    )
    print(summary)
    assert not tally.statuses, f"{summary}\nunexpected answers {tally.statuses}:\n" + "\n".join(
        tally.samples
    )
    assert before > ENOUGH and after > ENOUGH, summary
    assert not lost_links, f"status pages gone after the restart: {lost_links[:3]}"
    check_database(tmp_path / "portal.sqlite3", tally, summary, server.env)
    assert "Traceback" not in server.log(tail=0), server.log()


def sweep_forgotten_mail(path, env: dict[str, str]) -> None:
    """What the courier of the next worker does: the mail of every case stored without it."""
    from portal import create_app
    from portal.mail.courier import courier_connection, sweep_and_send

    settings = {k.removeprefix("PORTAL_"): v for k, v in env.items() if k.startswith("PORTAL_")}
    app = create_app({**settings, "DATABASE": str(path), "RATELIMIT_ENABLED": False})
    db = courier_connection(app)
    try:
        sweep_and_send(app, db, jobs=False)
    finally:
        db.conn.close()


def status_of(server: Gunicorn, token: str) -> int:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(f"{server.url}/report/sent/{token}/", timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def check_database(path, tally: Tally, summary: str, env: dict[str, str]) -> None:
    sweep_forgotten_mail(path, env)
    db = sqlite3.connect(path)
    try:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        cases = {
            row[0]: row
            for row in db.execute(
                "SELECT submission_key, id, token_hash, reference, kind FROM cases"
            )
        }
        descriptions = dict(db.execute("SELECT case_id, description FROM reports"))
        photos = Counter(case_id for (case_id,) in db.execute("SELECT case_id FROM photos"))
        mail = Counter(
            (case_id, purpose)
            for case_id, purpose in db.execute("SELECT case_id, purpose FROM outbox")
        )

        # Every report the portal confirmed is there, whole: its case, its details, its photo,
        # and the mail to the SMO and to the resident.
        keys = Counter(s.submission_key for s in tally.successes)
        assert all(count == 1 for count in keys.values()), "one form confirmed twice"
        for sent in tally.successes:
            assert sent.submission_key in cases, f"confirmed but not stored: {sent}\n{summary}"
            _, case_id, stored_hash, _, kind = cases[sent.submission_key]
            assert kind == "report"
            assert stored_hash == hashlib.sha256(sent.token.encode()).hexdigest(), sent
            assert descriptions.get(case_id) == sent.description, sent
            assert photos[case_id] == (1 if sent.photo else 0), sent
            assert mail[case_id, "smo"] == mail[case_id, "ack"] == 1, sent
        sizes = set(db.execute("SELECT width, height FROM photos"))
        assert sizes <= {PHOTO_SIZE}, sizes

        # Nothing half-written: no case without its report, no photo without its case,
        # and references numbered without a gap or a repeat.
        ids = {row[1] for row in cases.values()}
        assert set(descriptions) == ids, "a case without its report, or a report without a case"
        assert set(photos) <= ids, "a photo without its case"
        assert all(count <= 3 for count in photos.values())
        assert set(db.execute("SELECT case_id, count(*) FROM photos GROUP BY case_id")) == {
            (case_id, count) for case_id, count in photos.items()
        }
        references = [row[3] for row in cases.values()]
        matches = [REFERENCE.match(reference) for reference in references]
        assert all(matches), [r for r, m in zip(references, matches, strict=True) if not m]
        numbers = sorted(int(m.group(2)) for m in matches)
        assert len({m.group(1) for m in matches}) == 1, "one year's sequence"
        assert numbers == list(range(1, len(numbers) + 1)), "references with gaps or repeats"
        (last,) = db.execute("SELECT last FROM reference_counters WHERE prefix = 'IDR'").fetchone()
        assert last == len(numbers)

        # The outbox holds each message once.
        twice = db.execute(
            "SELECT case_id, purpose, recipient, count(*) FROM outbox"
            " GROUP BY case_id, purpose, recipient HAVING count(*) > 1"
        ).fetchall()
        assert twice == []
        # Every case stored has its mail queued once: a kill between a case's commit and
        # its outbox rows is healed by the next courier's sweep.
        unmailed = sorted(
            reference
            for _, case_id, _, reference, _ in cases.values()
            if not (mail[case_id, "smo"] == mail[case_id, "ack"] == 1)
        )
        assert not unmailed, f"stored without its mail queued: {unmailed}"
        never_answered = len(cases) - len(tally.successes)
        print(f"crash: {len(cases)} cases stored, {never_answered} never answered, all mail queued")
    finally:
        db.close()
