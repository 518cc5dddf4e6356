"""One batch of the outbox, sent straight from the database: how many go in one call, a
refusal that does not stop the rest, and what a failed message keeps as its error."""

from __future__ import annotations

from helpers import database

from portal.mail.outbox import SendResult, enqueue, send_pending


def queue(app, *recipients: str) -> None:
    from portal.core.db import get_db

    with app.app_context():
        db = get_db()
        for recipient in recipients:
            enqueue(db, case_id=None, purpose="test", recipient=recipient, subject="S", text="T")


def send(app) -> SendResult:
    with app.app_context():
        return send_pending()


def errors(app) -> list[str | None]:
    with database(app.config["DATABASE"]) as conn:
        return [row[0] for row in conn.execute("SELECT last_error FROM outbox ORDER BY id")]


def test_one_call_sends_100_messages_and_leaves_the_rest_queued(app, mail_server):
    queue(app, *(f"resident-{n}@example.test" for n in range(1, 102)))
    assert send(app) == SendResult(sent=100, failed=0, deferred=1)
    assert len(mail_server.messages) == 100
    assert send(app) == SendResult(sent=1, failed=0, deferred=0)
    assert mail_server.messages[-1]["To"] == "resident-101@example.test"


def test_refused_addresses_are_counted_and_the_batch_goes_on(app, mail_server):
    queue(app, "reject-1@example.test", "reject-2@example.test", "pat@example.test")
    assert send(app) == SendResult(sent=1, failed=2, deferred=0)
    assert [m["To"] for m in mail_server.messages] == ["pat@example.test"]


def test_a_message_kept_queued_says_which_error_stopped_it(app, mail_server):
    queue(app, "busy@example.test")
    assert send(app) == SendResult(sent=0, failed=0, deferred=1)
    assert errors(app) == [
        "SMTPRecipientsRefused: {'busy@example.test': (450, b'4.2.1 Mailbox busy, try again later')}"
    ]


def test_the_error_kept_is_cut_at_500_characters(app, mail_server):
    # Nearly the longest address the server's 512-character command line takes.
    queue(app, "busy" + "x" * 440 + "@example.test")
    send(app)
    (error,) = errors(app)
    assert (len(error), error[:30], error[-10:]) == (
        500,
        "SMTPRecipientsRefused: {'busyx",
        " b'4.2.1 M",
    )
