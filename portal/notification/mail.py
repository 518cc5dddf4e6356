"""The mail a new release notification sends: the officer's copy and the filer's receipt,
the same record with every field."""

from __future__ import annotations

from typing import Any

import sqlite_utils
from flask_babel import force_locale
from flask_babel import gettext as _

from content_model.language import current_content
from content_model.translation import DEFAULT_LANGUAGE
from portal.core.db import one
from portal.mail.compose import map_link, photo_ids, queue, queue_smo_copy, status_link
from portal.notification.deadlines import online_filing as _online
from portal.notification.deadlines import stored_deadlines
from portal.notification.records import record
from portal.web.language import in_case_language


def _receipt_subject(reference: str) -> str:
    """The subject that stays in the filer's inbox: the filing by its own name, never the law's
    word for the notice it is not (unless the content accepts it as that notice)."""
    online = _online()
    if online.counts_as_notice:
        return _(
            "Receipt for your %(name)s %(reference)s", name=_(online.name), reference=reference
        )
    kind = current_content().settings.kind
    return _(
        "Receipt for your %(name)s %(reference)s (not your notice to the %(kind)s)",
        name=_(online.name),
        reference=reference,
        kind=kind,
    )


def queue_notification_mail(db: sqlite_utils.Database, case: dict[str, Any], token: str) -> None:
    """The SMO's copy and the filer's receipt: the same record, every field."""
    details = one(db, "SELECT * FROM notifications WHERE case_id = ?", [case["id"]])
    photos = photo_ids(db, case["id"])
    context = {
        "case": case,
        "deadlines": stored_deadlines(case, details, _online(), db),
        "facility_kind": details["facility_kind"],
        "answers": details,
        "photo_count": len(photos),
        "map_link": map_link(case),
        "status_link": status_link(token),
    }
    subject = f"Release notification {case['reference']}: {details['facility_name']}"
    # Staff read English, whatever the language of the page the filing was sent from.
    with force_locale(DEFAULT_LANGUAGE):
        queue_smo_copy(
            db,
            "notification",
            subject=subject,
            attachments=photos,
            for_smo=True,
            sections=record(case, details),
            **context,
        )
    with in_case_language(case):
        # The record's labels and dates in the filer's language, as the rest of the receipt.
        queue(
            db,
            "notification",
            purpose="receipt",
            recipient=case["contact_email"],
            subject=_receipt_subject(case["reference"]),
            for_smo=False,
            sections=record(case, details),
            **context,
        )
