"""The status page a person reaches with the secret link from their confirmation.

For a release notification it is also the receipt: the facility's written record.
"""

from __future__ import annotations

from flask import Blueprint, abort, render_template, request

from portal.core.db import get_db
from portal.intake.storage import find_by_token
from portal.notification.records import online_filing as _online
from portal.notification.records import record, stored_deadlines

bp = Blueprint("status", __name__, url_prefix="/status")


@bp.route("/<token>/")
def show(token: str):
    db = get_db()
    # Only the token opens a case; a wrong one gets the same 404 as an unknown page.
    case = find_by_token(db, token) or abort(404)
    if case["kind"] == "report":
        report = db["reports"].get(case["id"])
        # A duplicate follows the case it was joined to: its status is the one that moves.
        original = db["cases"].get(case["duplicate_of"]) if case["duplicate_of"] else None
        return render_template(
            "portal/status.html", case=case, report=report, token=token, original=original
        )
    notification = db["notifications"].get(case["id"])
    return render_template(
        "portal/notification_receipt.html",
        case=case,
        notification=notification,
        sections=record(case, notification),
        deadlines=stored_deadlines(case, notification, _online()),
        photo_count=db["photos"].count_where("case_id = ?", [case["id"]]),
        filed=request.args.get("filed") == "1",
    )
