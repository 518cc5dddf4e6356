"""Mail goes through the outbox: stored first, sent once, kept through an SMTP outage."""

from __future__ import annotations

import sqlite3

from helpers import open_form, report_data
from mailserver import MailServer, wait_for

from portal.outbox import send_pending


def outbox(app):
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        return conn.execute("SELECT recipient, status, attempts FROM outbox ORDER BY id").fetchall()


def submit(client, **overrides):
    response = client.post("/report/", data={**open_form(client), **report_data(**overrides)})
    assert response.status_code == 303
    return response


def test_with_smtp_down_reports_are_stored_and_mail_waits(app, client, mail_server):
    mail_server.stop()
    for _ in range(3):
        page = client.get(submit(client).headers["Location"])
        assert "Report received" in page.text
    assert [status for _, status, _ in outbox(app)] == ["queued"] * 6
    # The server comes back on the same port; the queued mail goes out once each.
    mail_server.start()
    result = app.test_cli_runner().invoke(args=["outbox", "send"])
    assert "sent 6, failed 0, still queued 0" in result.output
    assert len(mail_server.messages) == 6
    assert len(mail_server.to("smo@village.test")) == 3
    app.test_cli_runner().invoke(args=["outbox", "send"])
    assert len(mail_server.messages) == 6, "nothing is sent twice"


def test_a_rejected_recipient_is_marked_failed_not_retried(app, client, mail_server):
    submit(client, contact_email="rejected@example.test")
    assert [(r, s) for r, s, _ in outbox(app)] == [
        ("smo@village.test", "sent"), ("rejected@example.test", "failed")]  # fmt: skip
    with app.app_context():
        assert send_pending().sent == 0
    assert outbox(app)[1][2] == 1, "tried once"


def test_an_unreachable_server_does_not_hold_up_the_request(app, client):
    """Connection refused returns at once; the request still ends in the confirmation."""
    app.config["MAIL_PORT"] = MailServer().port  # nobody listens there
    response = submit(client)
    assert client.get(response.headers["Location"]).status_code == 200


def test_without_a_mail_server_messages_are_written_to_a_folder(tmp_path, build):
    from portal import create_app

    folder = tmp_path / "mail"
    app = create_app({"DATABASE": str(tmp_path / "db.sqlite3"), "MAIL_FOLDER": str(folder),
                      "SMO_EMAIL": "smo@village.test", "WTF_CSRF_ENABLED": False})  # fmt: skip
    client = app.test_client()
    submit(client)
    wait_for(lambda: folder.is_dir() and len(list(folder.iterdir())) == 2)  # in the background
    files = sorted(p.name for p in folder.iterdir())
    assert files == ["000001-smo.eml", "000002-ack.eml"]
    assert "New illicit discharge report IDR-" in (folder / files[0]).read_text()


def test_in_the_background_mail_goes_out_without_holding_the_request(app, client, mail_server):
    app.config["OUTBOX_DELIVERY"] = "background"
    submit(client)
    wait_for(lambda: len(mail_server.messages) == 2)
    assert [status for _, status, _ in outbox(app)] == ["sent", "sent"]
