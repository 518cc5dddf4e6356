"""Releases told to the municipality by telephone, in person or by fax, logged by staff (the
notice half of the release notification section; its pages sit in the staff workspace).

This is the notice the release notification section asks for. A notice in person or by
telephone is to be confirmed "by written notice addressed and mailed" within three business
days: staff record that letter on the notice, with the day it was mailed. A filing made
online about the same release is linked to the notice (shown on both, in the case's audit
log); it is neither the notice nor the letter unless the content says it counts as one.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import sqlite_utils
from flask import abort, current_app, flash, redirect, render_template, request, url_for
from wtforms.validators import ValidationError

from portal.accounts.auth import current_staff
from portal.core.clock import local_now, local_stamp, local_today
from portal.core.db import get_db, one, rows, transaction, value
from portal.mail import courier
from portal.notification import compliance
from portal.notification.choices import SPOKEN_NOTICES
from portal.notification.compliance import notice_state
from portal.notification.phone_notice_forms import LetterForm, LinkForm, PhoneNoticeForm
from portal.staff import workflow
from portal.staff.blueprint import bp

HOW_WORDS = {"phone": "by telephone", "in-person": "in person", "fax": "by fax"}
# The audit-log actions of this module (staff/_event.txt words them).
LINKED, UNLINKED, LETTER = "release_notice_linked", "release_notice_unlinked", "confirmation_letter"
# A filing at one of these statuses becomes "Confirmed in writing" when its letter is recorded.
AWAITING_LETTER = ("received", "follow-up")
PER_PAGE = 50


def log_notice(db: sqlite_utils.Database, form: PhoneNoticeForm, taken_by: str) -> int:
    """Store a notice; a spoken one is due its written confirmation in 3 business days."""
    settings = current_app.extensions["content"].settings
    told = form.told_at.data.replace(tzinfo=settings.timezone)
    due = None
    if form.how.data in SPOKEN_NOTICES:
        due = compliance.confirmation_due(
            current_app.extensions["calendar"], settings.timezone, told
        )
    cursor = db.execute(
        "INSERT INTO phone_notices (told_at, how, facility_name, facility_address, caller_name,"
        " caller_phone, caller_email, material, hazardous, note, taken_by, logged_at,"
        " confirmation_due) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            told.isoformat(timespec="minutes"),
            form.how.data,
            form.facility_name.data,
            form.facility_address.data or None,
            form.caller_name.data,
            form.caller_phone.data or None,
            form.caller_email.data or None,
            form.material.data,
            form.hazardous.data,
            form.note.data or None,
            taken_by,
            local_stamp(),
            due.isoformat(timespec="seconds") if due else None,
        ],
    )
    return cursor.lastrowid


def waiting_notices(db: sqlite_utils.Database, now: dt.datetime) -> list[dict[str, Any]]:
    """Spoken notices whose mailed confirmation is not recorded, overdue ones marked."""
    notices = rows(
        db,
        "SELECT p.*, c.reference AS case_reference FROM phone_notices p"
        " LEFT JOIN cases c ON c.id = p.case_id WHERE p.confirmation_due IS NOT NULL"
        f" AND p.letter_mailed_on IS NULL AND NOT {compliance.confirmed_by_filing_sql('p')}"
        " ORDER BY p.confirmation_due",
    )
    return [
        notice | {"overdue": now > dt.datetime.fromisoformat(notice["confirmation_due"])}
        for notice in notices
    ]


def waiting_now() -> list[dict[str, Any]]:
    """The notices waiting for their letter as the queue shows them, at this moment."""
    return waiting_notices(get_db(), local_now())


def _notice(db: sqlite_utils.Database, notice_id: int) -> dict[str, Any]:
    notice = one(db, "SELECT * FROM phone_notices WHERE id = ?", [notice_id])
    if notice is None:
        raise ValidationError("That notice does not exist.")
    return notice


def _about(notice: dict[str, Any]) -> dict[str, Any]:
    """What the audit log keeps of a notice, so the entry reads alone."""
    return {
        "notice": notice["id"],
        "how": notice["how"],
        "told_at": notice["told_at"],
        "caller": notice["caller_name"],
        "facility": notice["facility_name"],
    }


def link(db: sqlite_utils.Database, notice_id: int, reference: str, actor: str) -> str:
    """Link the online filing about the same release to a notice; the filing's record of its
    notice and confirmation is worked out again. A filing made before the call is linked
    all the same: the call is the notice, whenever the filing was made."""
    reference = reference.strip().upper()
    with transaction(db):
        case = one(db, "SELECT id, kind, received_at FROM cases WHERE reference = ?", [reference])
        if case is None or case["kind"] != "notification":
            raise ValidationError(f"There is no release notification {reference}.")
        notice = _notice(db, notice_id)
        if notice["case_id"] == case["id"]:
            raise ValidationError(f"That notice is already linked to {reference}.")
        if notice["case_id"] is not None:
            other = value(db, "SELECT reference FROM cases WHERE id = ?", [notice["case_id"]])
            raise ValidationError(f"That notice is linked to {other}: unlink it there first.")
        db.execute("UPDATE phone_notices SET case_id = ? WHERE id = ?", [case["id"], notice_id])
        compliance.refresh(db, case["id"])
        filed_first = compliance.filed_before_call(
            dt.datetime.fromisoformat(case["received_at"]),
            dt.datetime.fromisoformat(notice["told_at"]),
        )
        workflow.log(db, case["id"], actor, LINKED, **_about(notice), filed_first=filed_first)
    return reference


def unlink(db: sqlite_utils.Database, notice_id: int, actor: str) -> str:
    """Undo a link made by mistake (in the filing's audit log); returns the filing's reference."""
    with transaction(db):
        notice = _notice(db, notice_id)
        if notice["case_id"] is None:
            raise ValidationError("That notice is not linked to a filing.")
        db.execute("UPDATE phone_notices SET case_id = NULL WHERE id = ?", [notice_id])
        compliance.refresh(db, notice["case_id"])
        workflow.log(db, notice["case_id"], actor, UNLINKED, **_about(notice))
        return value(db, "SELECT reference FROM cases WHERE id = ?", [notice["case_id"]])


def record_letter(
    db: sqlite_utils.Database,
    notice_id: int,
    mailed_on: dt.date,
    received_on: dt.date | None,
    actor: str,
    sender: str | None = None,
) -> bool:
    """Record the mailed written confirmation of a spoken notice. A linked filing waiting
    for it becomes "Confirmed in writing" (one audit entry, one update mail); returns
    whether the filer was e-mailed."""
    mailed = False
    with transaction(db):
        notice = _notice(db, notice_id)
        if notice["how"] not in SPOKEN_NOTICES:
            raise ValidationError("A fax is written already: it needs no confirmation.")
        db.execute(
            "UPDATE phone_notices SET letter_mailed_on = ?, letter_received_on = ?,"
            " letter_from = ?, letter_recorded_by = ?, letter_recorded_at = ? WHERE id = ?",
            [
                mailed_on.isoformat(),
                received_on.isoformat() if received_on else None,
                sender or None,
                actor,
                local_stamp(),
                notice_id,
            ],
        )
        if notice["case_id"] is not None:
            case_id = notice["case_id"]
            compliance.refresh(db, case_id)
            due = dt.datetime.fromisoformat(notice["confirmation_due"])
            detail = _about(notice) | {
                "mailed_on": mailed_on.isoformat(),
                "received_on": received_on.isoformat() if received_on else None,
                "sender": sender or None,
                "in_time": compliance.letter_in_time(mailed_on, due),
            }
            if notice["letter_mailed_on"]:
                detail["was"] = {
                    "mailed_on": notice["letter_mailed_on"],
                    "received_on": notice["letter_received_on"],
                }
            status = value(db, "SELECT status FROM cases WHERE id = ?", [case_id])
            if status in AWAITING_LETTER:
                db.execute(
                    "UPDATE cases SET status = ?, revision = revision + 1 WHERE id = ?",
                    [workflow.CONFIRMED, case_id],
                )
                detail["status"] = {"from": status, "to": workflow.CONFIRMED}
            event = workflow.log(db, case_id, actor, LETTER, **detail)
            if "status" in detail:
                mailed = workflow.tell_the_person(db, case_id, event)
    courier.dispatch()
    return mailed


def history(db: sqlite_utils.Database, notice_id: int) -> list[dict[str, Any]]:
    """The audit-log entries about a notice, from the filings it was linked to."""
    return rows(
        db,
        "SELECT e.*, c.reference FROM events e JOIN cases c ON c.id = e.case_id"
        " WHERE e.action IN (?, ?, ?) AND json_extract(e.detail, '$.notice') = ?"
        " ORDER BY e.id DESC",
        [LINKED, UNLINKED, LETTER, notice_id],
    )


def _back(notice_id: int) -> Any:
    """Back to the case page the form was sent from, or to the notice's page."""
    case_id = request.form.get("case_id", "")
    if case_id.isdigit():
        return redirect(url_for("staff.case", case_id=int(case_id)), code=303)
    return redirect(url_for("staff.phone_notice", notice_id=notice_id), code=303)


@bp.route("/phone-notices/")
def phone_notices():
    db = get_db()
    try:
        page = max(1, min(int(request.args.get("page", "1")), 100_000))
    except ValueError:
        page = 1
    total = value(db, "SELECT count(*) FROM phone_notices")
    notices = rows(
        db,
        f"SELECT {compliance.notice_columns()}, c.reference AS case_reference"
        " FROM phone_notices p LEFT JOIN cases c ON c.id = p.case_id"
        " ORDER BY p.told_at DESC, p.id DESC LIMIT ? OFFSET ?",
        [PER_PAGE, (page - 1) * PER_PAGE],
    )
    now = local_now()
    return render_template(
        "staff/phone_notices.html",
        notices=[(n, notice_state(n, now)) for n in notices],
        page=page,
        pages=max(1, -(-total // PER_PAGE)),
        total=total,
        how_words=HOW_WORDS,
    )


@bp.route("/phone-notices/new", methods=["GET", "POST"])
def new_phone_notice():
    db = get_db()
    form = PhoneNoticeForm(clock=local_now)
    filing = _filing(db, form.case.data or request.args.get("case", ""))
    if form.is_submitted() and form.validate():
        actor = current_staff()["username"]
        with transaction(db):
            notice_id = log_notice(db, form, actor)
        if filing is None:
            flash("Notice logged.", "success")
            return redirect(url_for("staff.phone_notice", notice_id=notice_id), code=303)
        try:
            link(db, notice_id, filing["reference"], actor)
        except ValidationError as error:
            flash(f"Notice logged. {error}", "error")
        else:
            flash(f"Notice logged and linked to {filing['reference']}.", "success")
        return redirect(url_for("staff.case", case_id=filing["id"]), code=303)
    if not form.is_submitted():
        form.told_at.data = local_now().replace(second=0, tzinfo=None)
        if filing is not None:
            form.case.data = str(filing["id"])
            form.facility_name.data = filing["facility_name"]
            form.facility_address.data = filing["facility_address"]
            form.caller_name.data = filing["contact_name"]
            form.caller_phone.data = filing["contact_phone"]
            form.material.data = filing["materials"]
            form.hazardous.data = filing["hazardous"]
    status = 422 if form.errors else 200
    return render_template("staff/phone_notice.html", form=form, filing=filing), status


def _filing(db: sqlite_utils.Database, case_id: str) -> dict[str, Any] | None:
    """The filing a notice is being logged for (from its case page), if any."""
    if not case_id.isdigit():
        return None
    return one(
        db,
        "SELECT c.id, c.reference, c.contact_name, c.contact_phone, n.facility_name,"
        " n.facility_address, n.materials, n.hazardous FROM cases c"
        " JOIN notifications n ON n.case_id = c.id WHERE c.id = ?",
        [int(case_id)],
    )


@bp.route("/phone-notices/<int:notice_id>/")
def phone_notice(notice_id: int, letter_form: LetterForm | None = None, status: int = 200):
    db = get_db()
    notice = one(
        db, f"SELECT {compliance.notice_columns()} FROM phone_notices p WHERE id = ?", [notice_id]
    ) or abort(404)
    case = None
    if notice["case_id"] is not None:
        case = one(
            db,
            "SELECT id, reference, received_at, status FROM cases WHERE id = ?",
            [notice["case_id"]],
        )
    events = [(event, workflow.describe(event)) for event in history(db, notice_id)]
    told = dt.datetime.fromisoformat(notice["told_at"])
    page = render_template(
        "staff/phone_notice_page.html",
        notice=notice,
        filed_before=bool(case)
        and compliance.filed_before_call(dt.datetime.fromisoformat(case["received_at"]), told),
        state=notice_state(notice, local_now()),
        case=case,
        events=events,
        how_words=HOW_WORDS,
        link_form=LinkForm(formdata=None),
        letter_form=letter_form or _letter_form(notice, formdata=None),
    )
    return page, status


def _letter_form(notice: dict[str, Any], formdata: Any = None) -> LetterForm:
    told = dt.datetime.fromisoformat(notice["told_at"]).date()
    form = LetterForm(formdata=formdata, told=told, today=local_today())
    if formdata is None and notice["letter_mailed_on"]:
        form.mailed_on.data = dt.date.fromisoformat(notice["letter_mailed_on"])
        if notice["letter_received_on"]:
            form.received_on.data = dt.date.fromisoformat(notice["letter_received_on"])
        form.sender.data = notice["letter_from"]
    return form


@bp.route("/phone-notices/<int:notice_id>/link", methods=["POST"])
def link_phone_notice(notice_id: int):
    form = LinkForm()
    if form.validate():
        try:
            reference = link(get_db(), notice_id, form.reference.data, current_staff()["username"])
        except ValidationError as error:
            flash(str(error), "error")
        else:
            flash(f"Linked to {reference}.", "success")
    else:
        for message in form.reference.errors:
            flash(message, "error")
    return _back(notice_id)


@bp.route("/phone-notices/<int:notice_id>/unlink", methods=["POST"])
def unlink_phone_notice(notice_id: int):
    try:
        reference = unlink(get_db(), notice_id, current_staff()["username"])
    except ValidationError as error:
        flash(str(error), "error")
    else:
        flash(f"Unlinked from {reference}.", "success")
    return _back(notice_id)


@bp.route("/phone-notices/<int:notice_id>/letter", methods=["POST"])
def record_phone_notice_letter(notice_id: int):
    db = get_db()
    notice = one(db, "SELECT * FROM phone_notices WHERE id = ?", [notice_id]) or abort(404)
    form = _letter_form(notice, request.form)
    if not form.validate():
        return phone_notice(notice_id, letter_form=form, status=422)
    try:
        mailed = record_letter(
            db,
            notice_id,
            form.mailed_on.data,
            form.received_on.data,
            current_staff()["username"],
            form.sender.data,
        )
    except ValidationError as error:
        flash(str(error), "error")
        return _back(notice_id)
    message = "Written confirmation recorded."
    if mailed:
        message += " The filing is now Confirmed in writing; the filer was e-mailed."
    flash(message, "success")
    return _back(notice_id)
