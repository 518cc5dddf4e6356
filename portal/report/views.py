"""The resident's report of an illicit discharge: the form, storing it, the confirmation."""

from __future__ import annotations

import json
from typing import Any

import sqlite_utils
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)

from content_model.language import current_content
from content_model.loader import Content
from portal.core.cases import Stored, find_by_token, new_submission_key
from portal.core.clock import local_now
from portal.core.db import get_db, one
from portal.core.statuses import STATUSES
from portal.intake.submit import Submission, already_sent, token_for
from portal.report.forms import ReportForm
from portal.report.matching import hinted, plain
from portal.report.summary import what_was_seen, where
from portal.web.headers import keep_for_back
from portal.web.language import follow_case
from portal.web.limits import FORM, TOKEN_PAGES
from portal.web.routes import NO_STORE, declare

bp = Blueprint("report", __name__, url_prefix="/report")


def _content() -> Content:
    return current_app.extensions["content"]


def _form(**kwargs: Any) -> ReportForm:
    return ReportForm(clock=local_now, **kwargs)


def exempt_hints(text: str) -> list[Any]:
    """Exempt discharges whose keywords appear in the text (a hint, never a block)."""
    said = plain(text or "")
    return [
        entry
        for entry in current_content().exempt.entries
        if hinted(said, entry.keywords, entry.unless, entry.unless_negated)
    ]


@bp.route("/", methods=["GET"])
@declare(photo_previews=True)
def form():
    form = _form(formdata=None)
    form.submission_key.data = new_submission_key()
    form.observed_at.data = local_now().replace(second=0, tzinfo=None)
    page = render_template("portal/report.html", form=form, photos=[], hints=[], expired=False)
    return keep_for_back(make_response(page))


# The form posts to its own address, not the page's: a POST to a URL makes the browser drop
# its kept copy of that URL, and Back must find the form as it was (keep_for_back). Posts to
# the page's address are still taken (the phone's outbox, older copies of the form).
@bp.route("/", methods=["POST"])
@bp.route("/send/", methods=["POST"])  # first: the address url_for() gives the form
@declare(limit=FORM, photo_previews=True, on_expired=lambda: SENDING.expired())
def submit():
    return SENDING.submit(lambda form: (_case_fields(form), _report_fields(form)))


def _thanks(stored: Stored):
    """The thanks page (or, for the form's script, its JSON)."""
    # The same form again, unchanged: a double tap, or Send again after Back (the browser
    # shows the form it kept, with its key). One case, at the same address; the thanks page
    # says, once, that it was sent before.
    if not stored.created:
        session["sent_again"] = stored.reference
    if _wants_json():
        return _answer(stored.token, 201 if stored.created else 200, already=not stored.created)
    return redirect(url_for("report.sent", token=stored.token), code=303)


def _wants_json() -> bool:
    """The form's own script asks for the answer as JSON (report.js, the phone's outbox):
    it then opens the thanks page itself, once, instead of fetching it twice."""
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return best == "application/json"


def _answer(token: str, code: int, **extra: Any) -> tuple[Response, int]:
    """A stored report as the form's script needs it: where its pages are, and what to
    list under "My reports"."""
    case = find_by_token(get_db(), token)
    report = _report_of(get_db(), case["id"])
    status = STATUSES.get(case["status"])
    body = {
        "reference": case["reference"],
        "thanks": url_for("report.sent", token=token),
        "status_url": url_for("status.show", token=token, _external=True),
        "received": case["received_at"],
        "status": status.label if status else case["status"],
        "what": what_was_seen(report["indicators"]),
        "where": where(case),
        **extra,
    }
    response = jsonify(body)
    if code == 201:
        response.headers["Location"] = body["thanks"]
    return response, code


def _already_sent(key: str):
    """This form was stored before and comes back changed: the shared page, or for the
    form's script its JSON (409)."""
    if _wants_json():
        return _answer(token_for(key), 409, already=True)
    return already_sent(key)


def redisplay(form: ReportForm, photos: list[dict[str, Any]], expired: bool = False):
    """The form again, with what the person typed, their photos, and every error."""
    form.carry_photos(photos)
    return render_template(
        "portal/report.html",
        form=form,
        photos=photos,
        hints=exempt_hints(form.description.data),
        expired=expired,
    ), (400 if expired else 422)


def _case_fields(form: ReportForm) -> dict[str, Any]:
    return form.case_fields(
        "illicit-discharge",
        _content().settings.service_area.contains,
        address=form.address.data,
        name=form.contact_name.data,
        email=form.contact_email.data,
        phone=form.contact_phone.data,
    )


def _report_fields(form: ReportForm) -> dict[str, Any]:
    observed = form.observed_at.data.replace(tzinfo=_content().settings.timezone)
    return {
        "indicators": json.dumps(form.indicators.data or []),
        "color": form.color.data or None,
        "odor": form.odor.data or None,
        "description": form.description.data,
        "location_type": form.location_type.data,
        "observed_at": observed.isoformat(timespec="minutes"),
        "still_happening": form.still_happening.data,
        "happened_before": form.happened_before.data,
        "source_description": form.source_description.data or None,
        "source_vehicle": form.source_vehicle.data or None,
        "source_notes": form.source_notes.data or None,
    }


@bp.route("/sent/<token>/")
@declare(limit=TOKEN_PAGES, caching=NO_STORE)
def sent(token: str):
    case = find_by_token(get_db(), token) or abort(404)
    if case["kind"] != "report":
        abort(404)
    follow_case(case)
    report = _report_of(get_db(), case["id"])
    return render_template(
        "portal/report_sent.html",
        case=case,
        token=token,
        again=session.pop("sent_again", None) == case["reference"],
        hints=exempt_hints(report["description"]),
        what=what_was_seen(report["indicators"]),
        where=where(case),
    )


def status_page(db: sqlite_utils.Database, case: dict[str, Any], token: str):
    """A report's public status page: what was reported, roughly where, and its status."""
    follow_case(case)
    report = _report_of(db, case["id"])
    # A duplicate follows the case it was joined to: its status is the one that moves.
    original = (
        one(db, "SELECT * FROM cases WHERE id = ?", [case["duplicate_of"]])
        if case["duplicate_of"]
        else None
    )
    return render_template(
        "portal/status.html",
        case=case,
        report=report,
        token=token,
        original=original,
        what=what_was_seen(report["indicators"]),
        where=where(case),
    )


SENDING = Submission("report", form=_form, redisplay=redisplay, sent=_thanks, already=_already_sent)


def _report_of(db: sqlite_utils.Database, case_id: int) -> dict[str, Any] | None:
    return one(db, "SELECT * FROM reports WHERE case_id = ?", [case_id])
