"""The outbox as staff see it: mail that could not be delivered, and what still waits."""

from __future__ import annotations

from flask import flash, redirect, render_template, url_for

from portal.core.db import get_db, rows, value
from portal.mail import courier
from portal.staff.blueprint import bp


@bp.route("/outbox/")
def outbox_page():
    messages = rows(
        get_db(),
        "SELECT o.id, o.purpose, o.recipient, o.subject, o.status, o.attempts, o.last_error,"
        " o.created_at, c.id AS case_id, c.reference FROM outbox o"
        " LEFT JOIN cases c ON c.id = o.case_id"
        " WHERE o.status IN ('failed', 'queued', 'sending') ORDER BY o.id DESC LIMIT 500",
    )
    return render_template("staff/outbox.html", messages=messages)


@bp.route("/outbox/<int:message_id>/retry", methods=["POST"])
def retry_mail(message_id: int):
    """Queue a failed message again (after the address was corrected, say)."""
    changed = (
        get_db()
        .execute(
            "UPDATE outbox SET status = 'queued', last_error = NULL"
            " WHERE id = ? AND status = 'failed'",
            [message_id],
        )
        .rowcount
    )
    flash(
        "Queued again." if changed else "That message is not waiting to be retried.",
        "success" if changed else "error",
    )
    courier.dispatch()
    return redirect(url_for("staff.outbox_page"), code=303)


def failed_count() -> int:
    """How many messages failed for good (shown in the workspace's navigation)."""
    return value(get_db(), "SELECT count(*) FROM outbox WHERE status = 'failed'")
