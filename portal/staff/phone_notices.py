"""Releases told to the municipality by telephone, in person or by fax, logged by staff.

The release notification section lets a facility give notice that way, and asks that a
spoken notice be confirmed in writing within three business days: the workspace keeps the
clock and shows which notices are still waiting, and which are overdue.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import sqlite_utils
from flask import current_app, flash, redirect, render_template, url_for
from flask_wtf import FlaskForm
from wtforms import StringField
from wtforms.validators import DataRequired, Length, ValidationError

from portal.clock import local_now, local_stamp
from portal.db import get_db
from portal.intake.choices import YES_NO_UNSURE
from portal.intake.fields import choice, long_text, moment, text
from portal.intake.validators import email_address, phone_number
from portal.staff import bp
from portal.staff.auth import current_staff

HOW = [("phone", "By telephone"), ("in-person", "In person"), ("fax", "By fax")]
SPOKEN = {"phone", "in-person"}


class PhoneNoticeForm(FlaskForm):
    told_at = moment("When was the notice given?", required="Enter the date and time.")
    how = choice("How?", HOW, required="Choose how the notice was given.")
    facility_name = text("Business or facility", 200, required="Enter the facility's name.")
    facility_address = text("Facility address", 300)
    caller_name = text("Who called", 120, required="Enter the caller's name.")
    caller_phone = text("Their phone number", 40, phone_number)
    caller_email = text("Their e-mail address", 254, email_address)
    material = long_text("What was released", 500, required="Say what was released.")
    hazardous = choice("Hazardous material?", YES_NO_UNSURE)
    note = long_text("Notes", 2000)

    def __init__(self, *args, clock, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.clock = clock


class LinkForm(FlaskForm):
    reference = StringField(
        "Written notification (reference)",
        [DataRequired("Give the reference, like REL-2026-0042."), Length(max=20)],
    )


def log_notice(db: sqlite_utils.Database, form: PhoneNoticeForm, taken_by: str) -> int:
    """Store a notice; a spoken one is due its written confirmation in 3 business days."""
    settings = current_app.extensions["content"].settings
    told = form.told_at.data.replace(tzinfo=settings.timezone)
    due = None
    if form.how.data in SPOKEN:
        calendar = current_app.extensions["calendar"]
        due = calendar.end_of_day(calendar.add_business_days(told.date(), 3), settings.timezone)
    cursor = db.execute(
        "INSERT INTO phone_notices (told_at, how, facility_name, facility_address, caller_name,"
        " caller_phone, caller_email, material, hazardous, note, taken_by, logged_at,"
        " confirmation_due) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            told.isoformat(timespec="minutes"), form.how.data, form.facility_name.data,
            form.facility_address.data or None, form.caller_name.data,
            form.caller_phone.data or None, form.caller_email.data or None, form.material.data,
            form.hazardous.data, form.note.data or None, taken_by,
            local_stamp(),
            due.isoformat(timespec="seconds") if due else None,
        ],
    )  # fmt: skip
    return cursor.lastrowid


def waiting_notices(db: sqlite_utils.Database, now: dt.datetime) -> list[dict[str, Any]]:
    """Spoken notices without their written confirmation, overdue ones marked."""
    notices = db.query(
        "SELECT * FROM phone_notices WHERE confirmed_by IS NULL AND confirmation_due IS NOT NULL"
        " ORDER BY confirmation_due"
    )
    return [
        notice | {"overdue": now > dt.datetime.fromisoformat(notice["confirmation_due"])}
        for notice in notices
    ]


def link(db: sqlite_utils.Database, notice_id: int, reference: str) -> str:
    """Record the online notification that confirms a notice in writing."""
    row = db.execute(
        "SELECT id, kind FROM cases WHERE reference = ?", [reference.strip().upper()]
    ).fetchone()
    if row is None or row[1] != "notification":
        raise ValidationError(f"There is no release notification {reference}.")
    changed = db.execute(
        "UPDATE phone_notices SET confirmed_by = ? WHERE id = ? AND confirmed_by IS NULL",
        [row[0], notice_id],
    ).rowcount
    if not changed:
        raise ValidationError("That notice is already confirmed, or does not exist.")
    return reference.strip().upper()


@bp.route("/phone-notices/new", methods=["GET", "POST"])
def new_phone_notice():
    form = PhoneNoticeForm(clock=local_now)
    if form.is_submitted() and form.validate():
        log_notice(get_db(), form, current_staff()["username"])
        flash("Notice logged.", "success")
        return redirect(url_for("staff.queue"), code=303)
    if not form.is_submitted():
        form.told_at.data = local_now().replace(second=0, tzinfo=None)
    status = 422 if form.errors else 200
    return render_template("staff/phone_notice.html", form=form), status


@bp.route("/phone-notices/<int:notice_id>/confirmed", methods=["POST"])
def confirm_phone_notice(notice_id: int):
    form = LinkForm()
    if form.validate():
        try:
            reference = link(get_db(), notice_id, form.reference.data)
        except ValidationError as error:
            flash(str(error), "error")
        else:
            flash(f"Confirmed in writing by {reference}.", "success")
    else:
        for message in form.reference.errors:
            flash(message, "error")
    return redirect(url_for("staff.queue"), code=303)
