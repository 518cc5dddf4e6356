"""The second step of a staff sign-in: a code from the officer's authenticator app (or a
recovery code), and enrolment the first time. Between the password and the code the
session holds only which account is half signed in, for a few minutes."""

from __future__ import annotations

import time
from typing import Any

from flask import current_app, flash, g, redirect, render_template, request, session, url_for
from flask_wtf import FlaskForm
from wtforms import StringField
from wtforms.validators import DataRequired, Length, Optional

from portal.clock import local_stamp
from portal.db import get_db
from portal.staff import bp, totp
from portal.staff.accounts import active_account

# Time to type the code after the password; then the password is asked for again.
PENDING_SECONDS = 5 * 60


class CodeForm(FlaskForm):
    code = StringField("Code from your authenticator app", [Optional(), Length(max=20)])
    recovery_code = StringField("Recovery code", [Optional(), Length(max=40)])


class EnrolForm(FlaskForm):
    code = StringField(
        "Code from the app",
        [DataRequired("Enter the 6-digit code the app shows."), Length(max=20)],
    )


def start_session(account_id: int) -> None:
    """Signed in. A fresh session: nothing from before carries over (session fixation)."""
    session.clear()
    session.permanent = True
    session["staff_id"] = account_id
    session["staff_seen"] = int(time.time())
    g.staff = active_account(get_db(), account_id)


def await_code(account_id: int, next_url: str) -> Any:
    """After a right password: on to the code, or to enrolment the first time."""
    session.clear()
    session.update(pending_staff_id=account_id, pending_at=int(time.time()), pending_next=next_url)
    enrolled = totp.is_enrolled(get_db(), account_id)
    return redirect(url_for("staff.second_factor" if enrolled else "staff.enrol"), code=303)


def _pending_account() -> dict[str, Any] | None:
    """The account whose password was just given, while there is still time."""
    account_id = session.get("pending_staff_id")
    if account_id is None or time.time() - session.get("pending_at", 0) > PENDING_SECONDS:
        return None
    return active_account(get_db(), account_id)


def _signed_in(account_id: int) -> str:
    """Finish the sign-in; where to go next."""
    next_url = session.get("pending_next") or url_for("staff.queue")
    start_session(account_id)
    return next_url


def _start_again():
    """No sign-in under way: a signed-in officer goes on working, anyone else starts over."""
    if g.get("staff"):
        return redirect(url_for("staff.queue"), code=303)
    session.clear()
    return redirect(url_for("staff.login"), code=303)


@bp.route("/second-factor", methods=["GET", "POST"])
def second_factor():
    account = _pending_account()
    if account is None:
        return _start_again()
    db = get_db()
    if not totp.is_enrolled(db, account["id"]):
        return redirect(url_for("staff.enrol"), code=303)
    form = CodeForm()
    if request.method == "POST" and form.validate():
        if form.recovery_code.data:
            left = totp.use_recovery_code(db, account["id"], form.recovery_code.data, local_stamp())
            if left is not None:
                next_url = _signed_in(account["id"])
                flash(
                    f"You signed in with a recovery code; {left} left. Each works once: "
                    "ask an administrator to reset your second factor if you lost your phone.",
                    "error" if left < 3 else "success",
                )
                return redirect(next_url, code=303)
            form.recovery_code.errors = ["That is not an unused recovery code of this account."]
        elif form.code.data:
            if totp.check_code(db, account["id"], form.code.data):
                return redirect(_signed_in(account["id"]), code=303)
            form.code.errors = [
                "That code is not right, or was used already. Enter the code the app shows now."
            ]
        else:
            form.code.errors = ["Enter the 6-digit code from your authenticator app."]
    status = 401 if request.method == "POST" else 200
    return render_template("staff/second_factor.html", form=form, account=account), status


@bp.route("/enrol", methods=["GET", "POST"])
def enrol():
    account = _pending_account()
    if account is None:
        return _start_again()
    db = get_db()
    if totp.is_enrolled(db, account["id"]):
        return redirect(url_for("staff.second_factor"), code=303)
    # Kept in the (signed) session until confirmed: only this browser ever showed it.
    secret = session.setdefault("enrol_secret", totp.new_secret())
    form = EnrolForm()
    if request.method == "POST" and form.validate():
        step = totp.matching_step(secret, form.code.data, None)
        codes = totp.enrol(db, account["id"], secret, step) if step is not None else None
        if codes:
            next_url = _signed_in(account["id"])
            return render_template("staff/recovery_codes.html", codes=codes, next_url=next_url)
        if step is not None:  # enrolled meanwhile, in another tab
            return redirect(url_for("staff.second_factor"), code=303)
        form.code.errors = [
            "That code does not match. Check that the app shows this account, then enter "
            "the code it shows now."
        ]
    settings = current_app.extensions["content"].settings
    uri = totp.provisioning_uri(secret, account["username"], f"{settings.short_name} stormwater")
    return render_template(
        "staff/enrol.html",
        form=form,
        account=account,
        qr=totp.qr_data_uri(uri),
        secret=totp.readable(secret),
    ), (422 if request.method == "POST" else 200)
