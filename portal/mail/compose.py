"""What the portal tells people by e-mail: each message rendered from templates, then queued."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import sqlite_utils
from flask import current_app, render_template, url_for

from portal.core import kinds
from portal.core.cases import status_token
from portal.core.clock import local_stamp
from portal.core.db import one, rows, transaction
from portal.mail import outbox


def public_url_for(endpoint: str, **values: Any) -> str:
    """An absolute link for mail, always on PORTAL_PUBLIC_URL (scheme, host and any path
    prefix), never on the host a request or a background thread happens to have."""
    base = current_app.config["PUBLIC_URL"]
    if not base:  # only tests go without one: served, the portal refuses to start
        return url_for(endpoint, **values, _external=True)
    parts = urlsplit(base)
    adapter = current_app.url_map.bind(
        parts.netloc, script_name=parts.path.rstrip("/") or "/", url_scheme=parts.scheme
    )
    return adapter.build(endpoint, values, force_external=True)


def status_link(token: str) -> str:
    return public_url_for("status.show", token=token)


def status_link_for_case(case: dict[str, Any]) -> str:
    """The status link of a stored case: its token is derived again from its submission key."""
    return status_link(status_token(current_app.secret_key, case["submission_key"]))


def map_link(case: dict[str, Any]) -> str | None:
    if case["latitude"] is None:
        return None
    return current_app.config["MAP_LINK"].format(lat=case["latitude"], lon=case["longitude"])


def queue(
    db: sqlite_utils.Database,
    template: str,
    *,
    case: dict[str, Any],
    purpose: str,
    recipient: str,
    subject: str,
    attachments: list[int] | None = None,
    **context: Any,
) -> bool:
    """Render mail/<template>.txt and .html with the same context and queue them."""
    context = {"case": case, **context}
    return outbox.enqueue(
        db,
        case_id=case["id"],
        purpose=purpose,
        recipient=recipient,
        subject=subject,
        text=render_template(f"mail/{template}.txt", **context),
        html=render_template(f"mail/{template}.html", **context),
        attachments=attachments,
    )


def queue_case_mail(db: sqlite_utils.Database, case_id: int, token: str) -> None:
    """Queue a new case's mail, all of it with the mark that says so, in one transaction.

    Safe to repeat (each message is queued once), so two couriers sweeping at once both
    may call it for the same case.
    """
    with transaction(db):
        case = one(db, "SELECT * FROM cases WHERE id = ?", [case_id])
        kinds.get(case["kind"]).queue_mail(db, case, token)
        db.execute(
            "UPDATE cases SET mail_queued_at = coalesce(mail_queued_at, ?) WHERE id = ?",
            [local_stamp(), case_id],
        )


def queue_forgotten_mail(db: sqlite_utils.Database, limit: int = 50) -> int:
    """Queue the mail of cases stored without it: every new case (a request stores the
    case alone and leaves its mail to the courier), and any whose worker died before."""
    waiting = rows(
        db, "SELECT id, submission_key FROM cases WHERE mail_queued_at IS NULL LIMIT ?", [limit]
    )
    for case in waiting:
        queue_case_mail(
            db, case["id"], status_token(current_app.secret_key, case["submission_key"])
        )
    return len(waiting)


def photo_ids(db: sqlite_utils.Database, case_id: int) -> list[int]:
    found = rows(db, "SELECT id FROM photos WHERE case_id = ? ORDER BY position", [case_id])
    return [photo["id"] for photo in found]


def queue_smo_copy(db: sqlite_utils.Database, template: str, **message: Any) -> None:
    """The staff copy of a new case, with its photos, if the SMO's address is configured."""
    smo = current_app.config["SMO_EMAIL"]
    if not smo:
        reference = message["case"]["reference"]
        current_app.logger.warning("PORTAL_SMO_EMAIL is not set: %s not mailed to staff", reference)
        return
    queue(db, template, purpose="smo", recipient=smo, **message)
