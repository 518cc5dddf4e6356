"""The outbox: mail is queued in the database after a case is stored, then sent.

Sending happens in a background thread of each worker (`dispatch`), so a slow or dead
SMTP server never holds up a person's request; the thread also retries what is queued
every minute, and `flask --app portal outbox send` does the same from cron. A rejected
recipient is marked failed for staff to see; a claimed row is sent by one sender only,
so nothing goes out twice. Without a mail server (local runs), each message is written
to a folder and named in the log instead.
"""

from __future__ import annotations

import atexit
import contextlib
import datetime as dt
import json
import os
import smtplib
import threading
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import sqlite_utils
from flask import Flask, current_app
from flask_mail import Attachment, Connection, Mail, Message

from portal.cases import delete_abandoned_photos
from portal.clock import local_now, local_stamp
from portal.db import connect, get_db

mail = Mail()

MAX_ATTEMPTS = 20
# A row claimed this long ago by a sender that never finished (a crash) is retried.
STALE_CLAIM = dt.timedelta(minutes=15)


class _TimeoutConnection(Connection):
    """Flask-Mail's connection with a socket timeout, so a dead server cannot hang a request."""

    def configure_host(self) -> smtplib.SMTP:
        state, timeout = self.mail, current_app.config["MAIL_TIMEOUT"]
        kind = smtplib.SMTP_SSL if state.use_ssl else smtplib.SMTP
        host = kind(state.server, state.port, timeout=timeout)
        if state.use_tls:
            host.starttls()
        if state.username and state.password:
            host.login(state.username, state.password)
        return host


@dataclass
class Watch:
    """Shared by a courier and the batch it is sending: a request to stop after the
    message in hand, and which message that is (to release it if it cannot finish)."""

    stop: threading.Event = field(default_factory=threading.Event)
    holding: int | None = None


@dataclass
class SendResult:
    sent: int = 0
    failed: int = 0
    deferred: int = 0


def enqueue(
    db: sqlite_utils.Database,
    *,
    case_id: int | None,
    purpose: str,
    recipient: str,
    subject: str,
    text: str,
    html: str | None = None,
    attachments: list[int] | None = None,
) -> bool:
    """Queue one message; the same purpose for the same case and recipient is queued once."""
    cursor = db.execute(
        "INSERT OR IGNORE INTO outbox"
        " (case_id, purpose, recipient, subject, body_text, body_html, attachments, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            case_id,
            purpose,
            recipient,
            subject,
            text,
            html,
            json.dumps(attachments or []),
            local_stamp(),
        ],
    )
    return cursor.rowcount == 1


def _claim(db: sqlite_utils.Database) -> dict[str, Any] | None:
    """Take the oldest queued message for this sender alone."""
    cursor = db.execute(
        "UPDATE outbox SET status = 'sending', claimed_at = ?, attempts = attempts + 1"
        " WHERE id = (SELECT id FROM outbox WHERE status = 'queued' ORDER BY id LIMIT 1)"
        " AND status = 'queued' RETURNING *",
        [local_stamp()],
    )
    row = cursor.fetchone()
    if row is None:
        return None
    return dict(zip([c[0] for c in cursor.description], row, strict=True))


def _message(db: sqlite_utils.Database, row: dict[str, Any]) -> Message:
    message = Message(
        subject=row["subject"],
        recipients=[row["recipient"]],
        body=row["body_text"],
        html=row["body_html"],
        sender=current_app.config["MAIL_DEFAULT_SENDER"],
    )
    for number, photo_id in enumerate(json.loads(row["attachments"]), start=1):
        photo = db["photos"].get(photo_id)
        message.attachments.append(
            Attachment(
                filename=f"photo-{number}.jpg",
                content_type=photo["content_type"],
                data=photo["data"],
                disposition="attachment",
            )
        )
    return message


class _Postman:
    """Delivers one batch of messages: over one SMTP connection (opened when first needed),
    or, with no mail server configured, into the mail folder for a developer to read."""

    def __init__(self) -> None:
        self.connection: _TimeoutConnection | None = None

    def deliver(self, message: Message, row: dict[str, Any]) -> None:
        if not current_app.config["MAIL_SERVER"]:
            folder = Path(current_app.config["MAIL_FOLDER"])
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"{row['id']:06d}-{row['purpose']}.eml"
            path.write_bytes(message.as_bytes())
            current_app.logger.warning(
                "mail to %s (%s) written to %s", row["recipient"], row["subject"], path
            )
            return
        if self.connection is None:
            self.connection = _TimeoutConnection(current_app.extensions["mail"])
            self.connection.__enter__()
        try:
            self.connection.send(message)
        except smtplib.SMTPRecipientsRefused:
            raise  # the server refused an address; the connection itself is fine
        except Exception:
            self.close()
            raise

    def close(self) -> None:
        if self.connection is not None:
            connection, self.connection = self.connection, None
            # Already gone, if it failed: nothing left to close.
            with contextlib.suppress(smtplib.SMTPException, OSError):
                connection.__exit__(None, None, None)


def _permanent(error: Exception) -> bool:
    """A refusal that sending again will not change (5xx: no such mailbox, say)."""
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        return all(code >= 500 for code, _ in error.recipients.values())
    if isinstance(error, smtplib.SMTPResponseException):
        return error.smtp_code >= 500
    return False


def send_pending(
    db: sqlite_utils.Database | None = None, limit: int = 100, watch: Watch | None = None
) -> SendResult:
    """Send what is queued, oldest first; return how many went, failed and wait."""
    db = db or get_db()
    result = SendResult()
    # julianday() compares the moments, whatever offset each was written with (DST).
    db.execute(
        "UPDATE outbox SET status = 'queued'"
        " WHERE status = 'sending' AND julianday(claimed_at) < julianday(?)",
        [(local_now() - STALE_CLAIM).isoformat(timespec="seconds")],
    )
    postman = _Postman()
    try:
        _send_batch(db, postman, result, limit, watch or Watch())
    finally:
        postman.close()
    (result.deferred,) = db.execute(
        "SELECT count(*) FROM outbox WHERE status = 'queued'"
    ).fetchone()
    return result


def _send_batch(
    db: sqlite_utils.Database, postman: _Postman, result: SendResult, limit: int, watch: Watch
) -> None:
    for _ in range(limit):
        if watch.stop.is_set():
            break
        row = _claim(db)
        if row is None:
            break
        # Once its row says 'sent', 'queued' or 'failed', releasing it changes nothing.
        watch.holding = row["id"]
        try:
            postman.deliver(_message(db, row), row)
        except (TimeoutError, smtplib.SMTPException, OSError) as error:
            # An unreachable server is retried however long it is down; a server that
            # keeps answering "try later" for one message gives up after MAX_ATTEMPTS.
            answered = isinstance(
                error, smtplib.SMTPResponseException | smtplib.SMTPRecipientsRefused
            )
            final = _permanent(error) or (answered and row["attempts"] >= MAX_ATTEMPTS)
            db.execute(
                "UPDATE outbox SET status = ?, last_error = ? WHERE id = ?",
                [
                    "failed" if final else "queued",
                    f"{type(error).__name__}: {error}"[:500],
                    row["id"],
                ],
            )
            if final:
                result.failed += 1
                continue
            # The server is unreachable: later messages would fail the same way.
            break
        db.execute(
            "UPDATE outbox SET status = 'sent', sent_at = ?, last_error = NULL WHERE id = ?",
            [local_stamp(), row["id"]],
        )
        result.sent += 1


RETRY_SECONDS = 60


class Courier:
    """A daemon thread per worker process that sends the outbox when woken, and retries
    whatever is still queued every RETRY_SECONDS (so an SMTP outage heals by itself).
    It also queues the mail of any case stored without it (a worker killed in between),
    and deletes photos of forms never sent.

    When the process ends (gunicorn stops a worker with SIGTERM, which ends in a normal
    interpreter exit), `stop` lets it finish the message in hand, or releases that message
    for the next sender, instead of leaving it claimed until STALE_CLAIM has passed.
    """

    # Couriers with a thread, so a test can stop every one it started (`stop_all`).
    running: ClassVar[weakref.WeakSet[Courier]] = weakref.WeakSet()

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.wake = threading.Event()
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None
        self.watch = Watch()
        self.pid = 0

    def kick(self) -> None:
        with self.lock:
            # A forked worker inherits the object but not the thread: start its own.
            if self.thread is None or not self.thread.is_alive() or self.pid != os.getpid():
                if self.pid != os.getpid():
                    atexit.register(self.stop)
                self.pid = os.getpid()
                self.watch = Watch()
                self.thread = threading.Thread(
                    target=self._run, args=(self.watch,), name="outbox", daemon=True
                )
                self.thread.start()
                Courier.running.add(self)
        self.wake.set()

    def stop(self, timeout: float | None = None) -> None:
        """End the thread after the message in hand; release it if that takes longer than
        `timeout` seconds (by default, what one delivery may take)."""
        with self.lock:
            watch, thread = self.watch, self.thread if self.pid == os.getpid() else None
            watch.stop.set()
            self.wake.set()
            Courier.running.discard(self)
        if thread is None:
            return
        # Sending one message gives up after MAIL_TIMEOUT (per SMTP step); gunicorn's
        # graceful timeout (30 s by default) leaves room for that.
        thread.join(2 * self.app.config["MAIL_TIMEOUT"] + 1 if timeout is None else timeout)
        if thread.is_alive() and watch.holding is not None:
            db = connect(self.app.config["DATABASE"])
            try:
                db.execute(
                    "UPDATE outbox SET status = 'queued', attempts = attempts - 1"
                    " WHERE id = ? AND status = 'sending'",
                    [watch.holding],
                )
            finally:
                db.conn.close()

    @classmethod
    def stop_all(cls) -> None:
        for courier in list(cls.running):
            courier.stop()

    def _run(self, watch: Watch) -> None:
        while not watch.stop.is_set():
            self.wake.wait(timeout=RETRY_SECONDS)
            self.wake.clear()
            if watch.stop.is_set():
                break
            db = connect(self.app.config["DATABASE"])
            try:
                sweep_and_send(self.app, db, watch)
            except Exception:  # keep the thread alive; the mail stays queued
                self.app.logger.exception("sending the outbox failed")
            finally:
                db.conn.close()


def sweep_and_send(app: Flask, db: sqlite_utils.Database, watch: Watch | None = None) -> SendResult:
    """Queue the mail of cases stored without it, delete photos of forms never sent,
    then send everything queued."""
    from portal.enforcement.digest import queue_digest
    from portal.messages import queue_forgotten_mail  # messages queues through this module

    # A request context: links in the mail need url_for, outside any request here.
    with app.test_request_context(base_url=app.config["PUBLIC_URL"] or "http://localhost"):
        queue_forgotten_mail(db)
        queue_digest(db)  # the morning's enforcement dates, once a day
        delete_abandoned_photos(db, local_now())
        return send_pending(db, watch=watch)


def dispatch() -> None:
    """Get newly queued mail on its way without making the request wait for SMTP."""
    if current_app.config["OUTBOX_DELIVERY"] == "inline":
        send_pending(limit=5)
    else:
        current_app.extensions["courier"].kick()


def init_outbox(app: Flask) -> None:
    mail.init_app(app)
    app.extensions["courier"] = Courier(app)

    @app.cli.group("outbox")
    def outbox_cli() -> None:
        """Send or inspect queued mail."""

    @outbox_cli.command("send")
    def send_command() -> None:
        """Queue any forgotten mail, then send every queued message (failures stay queued)."""
        result = sweep_and_send(current_app._get_current_object(), get_db())
        print(f"sent {result.sent}, failed {result.failed}, still queued {result.deferred}")

    @outbox_cli.command("status")
    def status_command() -> None:
        """Count messages by status."""
        for status, count in get_db().execute(
            "SELECT status, count(*) FROM outbox GROUP BY status ORDER BY status"
        ):
            print(f"{status}: {count}")
