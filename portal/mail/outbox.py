"""The outbox: mail is queued in the database after a case is stored, then sent.

Sending happens in the courier, a thread of each worker (portal/mail/courier.py), so a slow
or dead SMTP server never holds up a person's request; it also retries what is queued
every minute. A rejected
recipient is marked failed for staff to see; a claimed row is sent by one sender only,
so nothing goes out twice. Without a mail server (local runs), each message is written
to a folder and named in the log instead.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import smtplib
import threading
from dataclasses import dataclass, field
from email import charset
from pathlib import Path
from typing import Any

import sqlite_utils
from flask import current_app
from flask_mail import Attachment, Connection, Mail, Message

from portal.core.clock import local_now, local_stamp
from portal.core.db import get_db, one, value

mail = Mail()
# Flask-Mail sends UTF-8 bodies as written (8bit); an SMTP server refuses a whole message
# with a line over 998 bytes (RFC 5321), so a report typed as one long paragraph never
# reached the officer. Quoted-printable keeps every line under 77 characters, and a mail
# program shows the words as typed. (Set after Flask-Mail's import, which sets its own.)
charset.add_charset("utf-8", charset.SHORTEST, charset.QP, "utf-8")

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
    return one(
        db,
        "UPDATE outbox SET status = 'sending', claimed_at = ?, attempts = attempts + 1"
        " WHERE id = (SELECT id FROM outbox WHERE status = 'queued' ORDER BY id LIMIT 1)"
        " AND status = 'queued' RETURNING *",
        [local_stamp()],
    )


def _message(db: sqlite_utils.Database, row: dict[str, Any]) -> Message:
    message = Message(
        subject=row["subject"],
        recipients=[row["recipient"]],
        body=row["body_text"],
        html=row["body_html"],
        sender=current_app.config["MAIL_DEFAULT_SENDER"],
    )
    for number, photo_id in enumerate(json.loads(row["attachments"]), start=1):
        photo = one(db, "SELECT content_type, data FROM photos WHERE id = ?", [photo_id])
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
    result.deferred = value(db, "SELECT count(*) FROM outbox WHERE status = 'queued'")
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
