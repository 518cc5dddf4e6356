"""The business release notification: triage, details, review, then the receipt.

One POST endpoint walks the steps; every step carries what was typed so far, so the
form works without JavaScript and nothing is stored until the final "Submit".
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import sqlite_utils
from flask import (
    Blueprint,
    abort,
    current_app,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _

from portal.core.cases import find_by_token, new_submission_key, status_token
from portal.core.clock import local_now
from portal.core.db import get_db, one
from portal.intake.pending import keep_photos, recover, submission_key
from portal.intake.submit import Submission
from portal.notification.deadlines import (
    online_filing,
    release_deadlines,
    stored_deadlines,
    with_deadlines,
)
from portal.notification.forms import TRIAGE_FIELDS, NotificationForm, TriageForm, from_form
from portal.notification.records import record
from portal.web.headers import keep_for_back
from portal.web.language import follow_case
from portal.web.limits import FORM
from portal.web.routes import declare

bp = Blueprint("notify", __name__, url_prefix="/notify")


def _form(**kwargs: Any) -> NotificationForm:
    fax = current_app.extensions["content"].settings.notice_fax is not None
    return NotificationForm(clock=local_now, fax=fax, **kwargs)


@bp.route("/", methods=["GET"])
@declare(photo_previews=True)
def start():
    # As the report form and this form's own steps: the filer's browser may keep it for
    # Back, never a shared cache (it carries the session's CSRF token).
    page = render_template("portal/notify_triage.html", form=TriageForm(formdata=None))
    return keep_for_back(make_response(page))


@bp.route("/", methods=["POST"])
@declare(limit=FORM, back_step=True, photo_previews=True, on_expired=lambda: expired())
def submit():
    # Step 2's "Change the safety answers" button: its own name, as the form's hidden `step`
    # comes first in what the browser sends.
    step = "safety" if request.form.get("change") == "safety" else request.form.get("step", "")
    if step == "triage":
        return _after_triage()
    if step not in ("details", "edit", "safety", "confirm"):
        abort(400, _("This form is missing a part it needs. Please open the form again."))
    form = _form()
    key = submission_key(form)
    if not _triage_answered(form):
        # The safety questions come first, always: without them, back to the start.
        return render_template("portal/notify_triage.html", form=TriageForm()), 422
    photos, photo_errors = keep_photos(form, key)
    if step == "edit":
        return _details(form, photos, status=200)
    if step == "safety":
        return _safety_again(form, photos)
    valid = form.validate() and not photo_errors
    form.photos.errors = photo_errors
    if not valid:
        return _details(form, photos)
    if step == "details":
        return _review(form, photos)
    return _store(form, photos)


def _triage_answered(form: NotificationForm) -> bool:
    return all(getattr(form, name).validate(form) for name in TRIAGE_FIELDS)


def _after_triage():
    triage = TriageForm()
    carried = _carried()
    if not triage.validate():
        return _triage(triage, carried, status=422)
    if carried is not None:
        # Back from step 2 to change the safety answers: its answers and photos come along.
        return _details(carried, recover(carried), status=200)
    form = _form(formdata=None, data={name: getattr(triage, name).data for name in TRIAGE_FIELDS})
    form.submission_key.data = new_submission_key()
    # No default for the discovery time: the notice deadline counts from it, so it must be
    # the filer's answer (a pre-filled "now" would make every filing look on time).
    return _details(form, [], status=200)


def _carried() -> NotificationForm | None:
    """The step-2 answers a triage page carries when the filer came back to change the
    safety answers (its hidden fields); None on a first visit."""
    return _form() if "submission_key" in request.form else None


def _triage(form: TriageForm, carried: NotificationForm | None, status: int, **context: Any):
    if carried is not None:
        carried.carry_photos(recover(carried, expired=context.get("expired", False)))
    page = render_template("portal/notify_triage.html", form=form, carried=carried, **context)
    return page, status


def _safety_again(form: NotificationForm, photos: list[dict[str, Any]]):
    """Step 1 again, filled in, carrying everything typed in step 2 (and its photos)."""
    form.carry_photos(photos)
    triage = TriageForm(formdata=None, data={name: form[name].data for name in TRIAGE_FIELDS})
    return render_template("portal/notify_triage.html", form=triage, carried=form)


def _details(
    form: NotificationForm, photos: list[dict[str, Any]], status: int = 422, expired: bool = False
):
    form.step.data = "details"
    form.carry_photos(photos)
    page = render_template("portal/notify_details.html", form=form, photos=photos, expired=expired)
    return page, status


def _worked_out(form: NotificationForm, filed_at: dt.datetime):
    """What a valid form stores (case fields, details) and the deadlines that apply to it."""
    settings = current_app.extensions["content"].settings
    case, details, moments = from_form(form, settings.timezone, settings.service_area.contains)
    deadlines = release_deadlines(
        current_app.extensions["calendar"],
        settings.timezone,
        closes=settings.office.closes,
        online=settings.online_filing,
        discovered_at=moments["discovered_at"],
        prior_notice=form.prior_notice.data,
        prior_notice_at=moments["prior_notice_at"],
        filed_at=filed_at,
        office_hours_apply_to_fax=settings.office.office_hours_apply_to_fax,
    )
    return case, details, deadlines


def _review(form: NotificationForm, photos: list[dict[str, Any]]):
    case, details, deadlines = _worked_out(form, local_now())
    form.step.data = "confirm"
    form.carry_photos(photos)
    return render_template(
        "portal/notify_review.html",
        form=form,
        photos=photos,
        sections=record(case, details),
        deadlines=deadlines,
    )


def _store(form: NotificationForm, photos: list[dict[str, Any]]):
    now = local_now()
    case, details, deadlines = _worked_out(form, now)
    return FILING.store(form, photos, case, with_deadlines(details, deadlines, now), now)


def _already_filed(key: str):
    """Back after Submit, a change, Submit again: nothing more stored (409), and the way to
    the receipt and to a correction (a call, and the facility's own written record)."""
    token = status_token(current_app.secret_key, key)
    case = find_by_token(get_db(), token)
    page = render_template(
        "portal/notify_already_filed.html",
        case=case,
        receipt_path=url_for("status.show", token=token),
    )
    return page, 409


def receipt(db: sqlite_utils.Database, case: dict[str, Any], token: str):
    """A filing's status page, which is also its receipt: a record to keep, never the notice,
    the mailed confirmation or the facility's on-site written record the law asks for."""
    follow_case(case)
    notification = one(db, "SELECT * FROM notifications WHERE case_id = ?", [case["id"]])
    return render_template(
        "portal/notification_receipt.html",
        case=case,
        notification=notification,
        sections=record(case, notification),
        deadlines=stored_deadlines(case, notification, online_filing()),
        photo_count=db["photos"].count_where("case_id = ?", [case["id"]]),
        filed=request.args.get("filed") == "1",
    )


FILING = Submission(
    "notification",
    form=_form,
    redisplay=lambda form, photos: _details(form, photos),
    sent=lambda stored: redirect(url_for("status.show", token=stored.token, filed=1), code=303),
    already=_already_filed,
)


def expired():
    """After a missing or stale CSRF token: the same step again, everything kept."""
    if request.form.get("step") == "triage":
        return _triage(TriageForm(), _carried(), status=400, expired=True)
    form = _form()
    return _details(form, recover(form, expired=True), status=400, expired=True)
