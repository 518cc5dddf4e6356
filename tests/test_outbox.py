"""Mail goes through the outbox: stored first, sent once, kept through an SMTP outage."""

from __future__ import annotations

import datetime as dt
import smtplib
import threading
import time

import pytest
from crashload import Gunicorn, Resident, Tally, free_port, portal_env
from flask.testing import FlaskClient
from helpers import database, open_form, report_data
from mailserver import MailServer, body, wait_for

from portal.mail import courier
from portal.mail.outbox import send_pending


def outbox(app):
    """The outbox as it stands (after a test client's request: once the courier is done)."""
    with database(app.config["DATABASE"]) as conn:
        return conn.execute("SELECT recipient, status, attempts FROM outbox ORDER BY id").fetchall()


def statuses(app) -> list[str]:
    return [status for _, status, _ in outbox(app)]


def plain_client(app) -> FlaskClient:
    """A client whose requests return with their response, not waiting for the courier."""
    return FlaskClient(app, app.response_class, use_cookies=True)


def submit(client, **overrides):
    response = client.post("/report/", data={**open_form(client), **report_data(**overrides)})
    assert response.status_code == 303
    return response


def test_with_smtp_down_reports_are_stored_and_mail_waits(app, client, mail_server, monkeypatch):
    # The courier's round, every minute in production, comes every fifth of a second here.
    monkeypatch.setattr(courier, "ROUND_SECONDS", 0.2)
    mail_server.stop()
    for _ in range(3):
        page = client.get(submit(client).headers["Location"])
        assert "Report received" in page.text
    assert statuses(app) == ["queued"] * 6
    # The server comes back on the same port; the next round sends the queued mail once each.
    mail_server.start()
    wait_for(lambda: statuses(app) == ["sent"] * 6, timeout=30)
    assert len(mail_server.messages) == 6
    assert len(mail_server.to("smo@village.test")) == 3
    app.extensions["courier"].kick()
    assert len(mail_server.messages) == 6, "nothing is sent twice"


def test_the_same_mail_queued_again_after_it_was_sent_goes_out_once(app, client, mail_server):
    """Two couriers may write a case's mail at once (two workers' rounds): the outbox holds
    one message per case, purpose and recipient, so a second writing after the first was
    sent queues nothing and nobody is mailed twice."""
    from portal.core.cases import status_token
    from portal.core.db import get_db
    from portal.mail.compose import queue_case_mail
    from portal.mail.outbox import enqueue

    submit(client)
    assert outbox(app) == [("smo@village.test", "sent", 1), ("pat@example.test", "sent", 1)]
    with app.test_request_context():
        db = get_db()
        (key,) = db.execute("SELECT submission_key FROM cases WHERE id = 1").fetchone()
        queue_case_mail(db, 1, status_token(app.secret_key, key))
        again = {"case_id": 1, "purpose": "ack", "recipient": "pat@example.test"}
        assert enqueue(db, **again, subject="Again", text="Again") is False
        other = {**again, "purpose": "update-1"}
        assert enqueue(db, **other, subject="News", text="News") is True
    app.extensions["courier"].kick()
    assert [m["Subject"] for m in mail_server.messages][2:] == ["News"]
    assert outbox(app)[:2] == [("smo@village.test", "sent", 1), ("pat@example.test", "sent", 1)]


def test_a_rejected_recipient_is_marked_failed_not_retried(app, client, mail_server):
    submit(client, contact_email="rejected@example.test")
    assert [(r, s) for r, s, _ in outbox(app)] == [
        ("smo@village.test", "sent"),
        ("rejected@example.test", "failed"),
    ]
    with app.app_context():
        assert send_pending().sent == 0
    assert outbox(app)[1][2] == 1, "tried once"


def test_an_unreachable_server_does_not_hold_up_the_request(app, client):
    """Connection refused returns at once; the request still ends in the confirmation."""
    app.config["MAIL_PORT"] = MailServer().port  # nobody listens there
    response = submit(client)
    assert client.get(response.headers["Location"]).status_code == 200


def test_without_a_mail_server_messages_are_written_to_a_folder(tmp_path, build, caplog):
    from portal import create_app

    folder = tmp_path / "instance" / "mail"  # made, parents and all
    app = create_app(
        {
            "DATABASE": str(tmp_path / "db.sqlite3"),
            "MAIL_FOLDER": str(folder),
            "SMO_EMAIL": "smo@village.test",
            "WTF_CSRF_ENABLED": False,
        }
    )
    client = app.test_client()
    submit(client)
    wait_for(lambda: folder.is_dir() and len(list(folder.iterdir())) == 2)  # in the background
    files = sorted(p.name for p in folder.iterdir())
    assert files == ["000001-smo.eml", "000002-ack.eml"]
    assert "New illicit discharge report IDR-" in (folder / files[0]).read_text()

    def logged() -> list[str]:
        return [r.getMessage() for r in caplog.records if "written to" in r.getMessage()]

    wait_for(lambda: len(logged()) == 2)
    ack = logged()[1]
    assert ack.startswith("mail to pat@example.test (We received your report IDR-")
    assert ack.endswith(f") written to {folder}/000002-ack.eml")


def test_the_person_is_answered_while_the_mail_server_is_still_taking_the_mail(app, mail_server):
    gate = mail_server.recorder.gate = threading.Event()  # the server holds each message
    try:
        response = submit(plain_client(app))
        assert response.status_code == 303
        # The courier holds the first message at the server; the answer has gone already.
        wait_for(lambda: "sending" in statuses(app))
        assert mail_server.recorder.messages == []
    finally:
        gate.set()
    assert len(mail_server.messages) == 2
    assert statuses(app) == ["sent", "sent"]


def test_a_stopping_worker_finishes_the_message_in_hand_and_claims_no_more(tmp_path):
    """gunicorn stops workers with SIGTERM; the courier must not leave a message claimed
    ('sending') for STALE_CLAIM, nor be cut off halfway through a delivery."""
    mail = MailServer(delay=2.0).start()  # each message takes 2 s to be accepted
    env = portal_env(tmp_path) | {
        "PORTAL_MAIL_SERVER": "127.0.0.1",
        "PORTAL_MAIL_PORT": str(mail.port),
    }
    server = Gunicorn(free_port(), env, tmp_path)
    path = env["PORTAL_DATABASE"]

    def statuses() -> list[str]:
        with database(path) as conn:
            return [row[0] for row in conn.execute("SELECT status FROM outbox ORDER BY id")]

    try:
        server.start()
        server.wait_ready()
        tally = Tally()
        Resident(1, server.url, tally, threading.Event(), limit=1).run()
        assert len(tally.successes) == 1, tally.samples
        wait_for(lambda: "sending" in statuses(), timeout=10)
        began = time.monotonic()
        server.stop()  # SIGTERM to master and worker, as systemd or a deploy does
        stopped_after = time.monotonic() - began
    finally:
        server.stop()
        mail.stop()
    assert statuses() == ["sent", "queued"], server.log()
    assert len(mail.messages) == 1 and mail.messages[0]["To"] == "smo@crash.test"
    assert stopped_after < 5, "stopped within gunicorn's graceful timeout, not killed"


# Times people type into forms (when they saw it, when it began...), not the portal's clock.
TOLD_BY_PEOPLE = {
    "observed_at",
    "discovered_at",
    "began_at",
    "ended_at",
    "told_at",
    "dec_called_at",
    "emergency_called_at",
    "prior_notice_at",
    "first_action_at",
}


def test_every_stored_time_is_local_with_its_offset(app, client, mail_server, content):
    """00:30 in the municipality is still the day before in UTC on the server, or not:
    either way every *_at column says the municipality's time, with its offset."""
    from helpers import jpeg, post, sign_in

    post(client, report_data(description=""), photos=[("kept.jpg", jpeg())])  # kept, unsent
    submit(client)  # a case, its mail queued and sent
    sign_in(client, app)  # an account, a sign-in
    zone = content.settings.timezone
    now = dt.datetime.now(zone)
    checked = 0
    with database(app.config["DATABASE"]) as conn:
        # sqlite-utils keeps its own record of the migrations applied, in UTC: not ours.
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type='table' AND name != '_sqlite_migrations'"
            )
        ]
        for table in tables:
            columns = [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]
            for column in [c for c in columns if c.endswith("_at")]:
                for (value,) in conn.execute(
                    f"SELECT {column} FROM {table} WHERE {column} IS NOT NULL"
                ):
                    stamp = dt.datetime.fromisoformat(value)
                    assert stamp.utcoffset() == stamp.astimezone(zone).utcoffset(), (
                        table,
                        column,
                        value,
                    )
                    if column not in TOLD_BY_PEOPLE:
                        assert abs(stamp - now) < dt.timedelta(minutes=5), (table, column, value)
                        checked += 1
    # received_at, updated_at, mail_queued_at; outbox created, claimed, sent (x2);
    # the pending photo; the account's created_at and last_login_at.
    assert checked >= 12


def test_the_sweep_deletes_photos_of_forms_never_sent_after_a_day(app, content):
    from portal.core.clock import local_now
    from portal.core.db import get_db
    from portal.mail.courier import sweep_and_send

    zone = content.settings.timezone
    with app.app_context():
        db = get_db()
        now = local_now()
        ages = {
            "old": dt.timedelta(hours=25),
            "fresh": dt.timedelta(hours=23),
            # Written with another offset (UTC): compared as a moment, not as text.
            "old-utc": dt.timedelta(hours=24, minutes=5),
        }
        for name, age in ages.items():
            when = now - age
            stamp = when.astimezone(dt.UTC) if name.endswith("utc") else when.astimezone(zone)
            db["pending_photos"].insert(
                {
                    "id": name,
                    "submission_key": f"key-{name}",
                    "filename": "a.jpg",
                    "content_type": "image/jpeg",
                    "width": 1,
                    "height": 1,
                    "sha256": "x",
                    "data": b"x",
                    "created_at": stamp.isoformat(timespec="seconds"),
                }
            )
        sweep_and_send(app, db, jobs=False)  # a wake-up after a commit: the mail alone
        kept = sorted(row[0] for row in db.execute("SELECT id FROM pending_photos"))
        sweep_and_send(app, db)  # the round
        left = [row[0] for row in db.execute("SELECT id FROM pending_photos")]
    assert kept == ["fresh", "old", "old-utc"]
    assert left == ["fresh"]


def test_a_message_that_cannot_finish_in_time_is_released_for_the_next_sender(
    app, client, mail_server
):
    mail_server.recorder.delay = 3.0  # longer than the courier is given to finish
    submit(plain_client(app))
    wait_for(lambda: "sending" in statuses(app))
    courier = app.extensions["courier"]
    thread = courier.thread
    courier.stop(timeout=0.5)
    # Queued again, its attempt not counted: the next worker sends it at once,
    # not STALE_CLAIM later.
    assert [(s, a) for _, s, a in outbox(app)] == [("queued", 0), ("queued", 0)]
    thread.join(10)  # in a real exit the process ends with the stop; a test waits it out


def test_a_worker_that_dies_after_the_commit_loses_no_mail(app, client, mail_server):
    """The person is answered after one commit; the mail is written by the courier after
    the response. A worker that dies in between (its courier never gets to run) loses
    nothing: the next worker's courier writes the mail from the stored case and sends it."""
    from portal import create_app

    class Dead:
        """The courier of a worker killed right after its response went out."""

        def start(self) -> None: ...

        def kick(self) -> None: ...

    app.extensions["courier"] = Dead()
    location = submit(client).headers["Location"]
    token = location.rstrip("/").rsplit("/", 1)[1]
    assert client.get(location).status_code == 200, "answered, with its reference"
    assert outbox(app) == [] and mail_server.messages == []
    with database(app.config["DATABASE"]) as conn:
        assert conn.execute("SELECT mail_queued_at FROM cases").fetchall() == [(None,)]

    # The next worker (a new process on the same database file and settings).
    restarted = create_app(dict(app.config))
    restarted.extensions["courier"].kick()
    wait_for(lambda: len(mail_server.messages) == 2)
    assert sorted(m["To"] for m in mail_server.messages) == ["pat@example.test", "smo@village.test"]
    ack = mail_server.to("pat@example.test")[0]
    assert f"https://portal.village.test/status/{token}/" in body(ack)
    assert statuses(app) == ["sent", "sent"]


def test_a_try_later_answer_keeps_the_mail_queued_until_it_is_taken(app, client, mail_server):
    """450 (greylisting, a full mailbox) is not a refusal: the message waits and goes when
    the server takes it; only a 5xx answer marks it failed."""
    submit(client, contact_email="busy@example.test")
    assert [(r, s) for r, s, _ in outbox(app)] == [
        ("smo@village.test", "sent"),
        ("busy@example.test", "queued"),
    ]
    with database(app.config["DATABASE"]) as conn:
        (error,) = conn.execute("SELECT last_error FROM outbox WHERE id = 2").fetchone()
    assert "450" in error
    mail_server.recorder.busy = False
    with app.app_context():
        assert send_pending().sent == 1
    assert outbox(app)[1] == ("busy@example.test", "sent", 2)
    assert len(mail_server.to("busy@example.test")) == 1


def test_a_server_that_keeps_saying_try_later_is_given_20_tries(app, client, mail_server):
    submit(client, contact_email="busy@example.test")  # the first try, the courier's
    with app.app_context():
        for _ in range(18):
            send_pending()
    assert outbox(app)[1] == ("busy@example.test", "queued", 19)
    with app.app_context():
        result = send_pending()
    assert (result.failed, result.deferred) == (1, 0)
    assert outbox(app)[1] == ("busy@example.test", "failed", 20)
    assert mail_server.recorder.tries.count("busy@example.test") == 20


def _claimed(app, minutes_ago: float) -> int:
    """A message a sender claimed (status 'sending') that long ago and never finished."""
    from portal.core.clock import local_now

    with app.app_context():
        stamp = (local_now() - dt.timedelta(minutes=minutes_ago)).isoformat(timespec="seconds")
    with database(app.config["DATABASE"]) as conn:
        return conn.execute(
            "INSERT INTO outbox (purpose, recipient, subject, body_text, status, attempts,"
            " created_at, claimed_at) VALUES ('test', ?, 'Claimed', 'Body', 'sending', 1, ?, ?)",
            [f"claimed-{minutes_ago}@example.test", stamp, stamp],
        ).lastrowid


def test_a_claim_older_than_15_minutes_is_sent_again_and_a_younger_one_is_left(app, mail_server):
    """A sender that crashed mid-delivery left its claim: after 15 minutes the message goes
    again. One still within them may be a busy sender's: sending it too would send twice."""
    crashed, busy = _claimed(app, 16), _claimed(app, 14)
    with app.app_context():
        assert send_pending().sent == 1
    with database(app.config["DATABASE"]) as conn:
        rows = dict(conn.execute("SELECT id, status FROM outbox"))
    assert rows == {crashed: "sent", busy: "sending"}
    assert [m["To"] for m in mail_server.messages] == ["claimed-16@example.test"]


@pytest.mark.parametrize(
    ("error", "final"),
    [
        (smtplib.SMTPRecipientsRefused({"a@x.test": (500, b"no"), "b@x.test": (550, b"no")}), True),
        (
            smtplib.SMTPRecipientsRefused({"a@x.test": (499, b"later"), "b@x.test": (550, b"no")}),
            False,
        ),
        (smtplib.SMTPDataError(500, b"refused"), True),
        (smtplib.SMTPDataError(499, b"later"), False),
        (smtplib.SMTPServerDisconnected("gone"), False),
    ],
)
def test_only_an_answer_of_500_or_more_for_every_address_is_a_refusal_for_good(error, final):
    from portal.mail.outbox import _permanent

    assert _permanent(error) is final
