"""The outbox against SMTP servers of other manners: one that asks to sign in, one that
never answers, and what a message carries when it goes (its HTML, sender and photos)."""

from __future__ import annotations

import socket

from helpers import database, jpeg, open_form, post, report_data
from mailserver import body, free_port

from portal.mail.outbox import mail


def submit(client, **overrides):
    response = client.post("/report/", data={**open_form(client), **report_data(**overrides)})
    assert response.status_code == 303
    return response


def statuses(app) -> list[str]:
    with database(app.config["DATABASE"]) as conn:
        return [row[0] for row in conn.execute("SELECT status FROM outbox ORDER BY id")]


def test_the_portal_signs_in_to_a_server_that_asks_for_it(app, client, mail_server):
    from aiosmtpd.controller import Controller
    from aiosmtpd.smtp import AuthResult

    signed_in = []

    def authenticator(server, session, envelope, mechanism, data):
        signed_in.append((data.login, data.password))
        return AuthResult(success=True)

    guarded = Controller(
        mail_server.recorder,
        hostname="127.0.0.1",
        port=free_port(),
        authenticator=authenticator,
        auth_require_tls=False,
    )
    guarded.start()
    try:
        app.config.update(MAIL_PORT=guarded.port, MAIL_USERNAME="portal", MAIL_PASSWORD="s3cret")
        mail.init_app(app)  # Flask-Mail reads its settings when bound
        submit(client)
        assert len(mail_server.messages) == 2
    finally:
        guarded.stop()
    assert signed_in == [(b"portal", b"s3cret")], "one connection for the batch, signed in once"


def test_a_server_that_never_answers_gives_up_after_the_mail_timeout(app, client, mail_server):
    """A server that takes the connection and says nothing would hold the courier for good
    without MAIL_TIMEOUT: the mail stays queued, the courier is free again."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        app.config.update(MAIL_PORT=silent.getsockname()[1], MAIL_TIMEOUT=1)
        mail.init_app(app)  # Flask-Mail reads its settings when bound
        submit(client)  # returns once the courier is idle again
        assert statuses(app) == ["queued", "queued"]
    assert "timed out" in (outbox_errors(app)[0] or "")


def outbox_errors(app) -> list[str | None]:
    with database(app.config["DATABASE"]) as conn:
        return [row[0] for row in conn.execute("SELECT last_error FROM outbox ORDER BY id")]


def test_a_message_goes_as_written_with_its_html_its_sender_and_its_photos(
    app, client, mail_server
):
    # Not bound again: the outbox names the sender from the setting as it stands.
    app.config["MAIL_DEFAULT_SENDER"] = "no-reply@village.test"
    assert (
        post(client, report_data(), photos=[("a.jpg", jpeg()), ("b.jpg", jpeg())]).status_code
        == 303
    )
    (smo,) = mail_server.to("smo@village.test")
    assert smo["From"] == "no-reply@village.test"
    assert "<title>Report IDR-" in body(smo, "html")
    files = [
        (part.get_filename(), part.get_content_type(), part.get_content_disposition())
        for part in smo.iter_attachments()
    ]
    assert smo.get_payload()[1]["Content-Disposition"] == 'attachment; filename="photo-1.jpg"'
    assert files == [
        ("photo-1.jpg", "image/jpeg", "attachment"),
        ("photo-2.jpg", "image/jpeg", "attachment"),
    ]


def test_a_portal_told_to_use_ssl_sends_nothing_in_the_clear(app, client, mail_server):
    app.config["MAIL_USE_SSL"] = True  # the test server speaks plain SMTP only
    mail.init_app(app)  # Flask-Mail reads its settings when bound
    submit(client)
    assert statuses(app) == ["queued", "queued"]
    assert mail_server.messages == []


def test_a_user_name_without_a_password_does_not_sign_in(app, client, mail_server):
    app.config.update(MAIL_USERNAME="portal", MAIL_PASSWORD=None)  # this server has no AUTH
    mail.init_app(app)  # Flask-Mail reads its settings when bound
    submit(client)
    assert statuses(app) == ["sent", "sent"]


def test_a_server_closing_mid_message_leaves_the_mail_queued_with_its_answer(app, mail_server):
    """421 after the message: smtplib has hung up already, so closing the connection
    afterwards fails too; that second failure must not hide the first."""
    from aiosmtpd.controller import Controller

    from portal.core.db import get_db
    from portal.mail.outbox import SendResult, enqueue, send_pending

    class Closing:
        async def handle_DATA(self, server, session, envelope):
            return "421 4.3.2 Service shutting down"

    closing = Controller(Closing(), hostname="127.0.0.1", port=free_port())
    closing.start()
    try:
        app.config["MAIL_PORT"] = closing.port
        mail.init_app(app)  # Flask-Mail reads its settings when bound
        with app.app_context():
            enqueue(
                get_db(), case_id=None, purpose="t", recipient="pat@x.test", subject="S", text="T"
            )
            assert send_pending() == SendResult(sent=0, failed=0, deferred=1)
    finally:
        closing.stop()
    assert outbox_errors(app) == ["SMTPDataError: (421, b'4.3.2 Service shutting down')"]


def test_a_paragraph_longer_than_an_smtp_line_reaches_the_officer_whole(app, client, mail_server):
    """SMTP refuses a whole message with a line over 998 bytes (RFC 5321): a report typed as
    one long paragraph, accented, goes quoted-printable, its words intact."""
    words = "Espuma blanca y olor a cloro en el desagüe junto al puente; " * 20
    submit(client, description=words.strip())
    assert statuses(app) == ["sent", "sent"]
    smo = next(m for m in mail_server.messages if "Espuma blanca" in body(m))
    assert words.strip() in " ".join(body(smo).split())
    raw = smo.as_bytes()
    assert max(len(line) for line in raw.splitlines()) <= 998
