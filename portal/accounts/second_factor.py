"""The second step of a staff sign-in: a code from the officer's authenticator app (or a
recovery code), and enrolment the first time, which needs the one-time enrolment code an
administrator's command printed. Between the password and the code the cookie holds only
the id of a server-side row (portal/accounts/sessions.py) naming the half-signed-in account;
the authenticator secret being set up stays in that row, never in the cookie."""

from __future__ import annotations

from typing import Any

from flask import current_app, flash, g, redirect, render_template, request, session, url_for
from flask_wtf import FlaskForm
from wtforms import StringField
from wtforms.validators import DataRequired, Length, Optional

from portal.accounts import devices, guessing, sessions, totp
from portal.accounts.accounts import active_account, enrol_code_matches, has_enrol_code
from portal.accounts.blueprint import bp
from portal.accounts.forms import LoginForm
from portal.accounts.guessing import wait_words
from portal.accounts.sessions import limits
from portal.core.clock import local_stamp
from portal.core.db import get_db
from portal.web.limits import SIGN_IN
from portal.web.routes import declare

PENDING_SECONDS = sessions.PENDING_SECONDS


class CodeForm(FlaskForm):
    code = StringField("Code from your authenticator app", [Optional(), Length(max=20)])
    recovery_code = StringField("Recovery code", [Optional(), Length(max=40)])


class EnrolCodeForm(FlaskForm):
    enrol_code = StringField(
        "Enrolment code",
        [DataRequired("Enter the enrolment code your administrator gave you."), Length(max=40)],
    )


class EnrolForm(FlaskForm):
    code = StringField(
        "Code from the app",
        [DataRequired("Enter the 6-digit code the app shows."), Length(max=20)],
    )


def start_session(account: dict[str, Any]) -> None:
    """Signed in. A fresh session, with a new id: nothing from before carries over
    (session fixation), and the count of wrong tries for the name starts again."""
    db = get_db()
    sessions.end(db, session.get("staff_pending"))
    session.clear()
    session.permanent = True
    sessions.forget_old(db, *limits())
    session["staff_session"] = sessions.open_session(
        db, account["id"], sessions.SIGNED_IN, client=request.remote_addr
    )
    guessing.succeeded(db, account["username"])
    devices.remember(db, account["username"])
    g.staff = active_account(db, account["id"])


def await_code(account: dict[str, Any], next_url: str) -> Any:
    """After a right password: on to the code, or to enrolment the first time."""
    db = get_db()
    sessions.end(db, session.get("staff_pending"))
    session.clear()
    session["staff_pending"] = sessions.open_session(
        db, account["id"], sessions.CODE, client=request.remote_addr, next_url=next_url
    )
    enrolled = totp.is_enrolled(db, account["id"])
    return redirect(url_for("accounts.second_factor" if enrolled else "accounts.enrol"), code=303)


def _pending() -> tuple[dict[str, Any], dict[str, Any]] | None:
    """(account, session row) of the sign-in under way, while there is still time."""
    db = get_db()
    row = sessions.pending(db, session.get("staff_pending"))
    account = active_account(db, row["staff_id"]) if row else None
    return (account, row) if account else None


def _signed_in(account: dict[str, Any], row: dict[str, Any]) -> str:
    """Finish the sign-in; where to go next."""
    next_url = row["next_url"] or url_for("staff.queue")
    start_session(account)
    return next_url


def _start_again():
    """No sign-in under way: a signed-in officer goes on working, anyone else starts over."""
    if g.get("staff"):
        return redirect(url_for("staff.queue"), code=303)
    session.clear()
    return redirect(url_for("accounts.login"), code=303)


def _waiting(account: dict[str, Any], row: dict[str, Any]) -> Any:
    """The name waits after too many wrong tries: the half sign-in ends, the sign-in page
    says how long."""
    db = get_db()
    wait = devices.waiting(db, account["username"])
    if not wait:
        return None
    sessions.end_row(db, row)
    session.clear()
    form = LoginForm(formdata=None)
    return render_template("staff/login.html", form=form, notice=wait_words(wait)), 429


def _failed(account: dict[str, Any], row: dict[str, Any]) -> Any:
    """Count a wrong code; if the name now waits, the sign-in page instead of another try."""
    guessing.failed(get_db(), account["username"], request.remote_addr)
    return _waiting(account, row)


@bp.route("/second-factor", methods=["GET", "POST"])
@declare(limit=SIGN_IN)
def second_factor():
    found = _pending()
    if found is None:
        return _start_again()
    account, row = found
    db = get_db()
    if not totp.is_enrolled(db, account["id"]):
        return redirect(url_for("accounts.enrol"), code=303)
    form = CodeForm()
    if request.method == "POST":
        waiting = _waiting(account, row)
        if waiting:
            return waiting
    if request.method == "POST" and form.validate():
        if form.recovery_code.data:
            left = totp.use_recovery_code(db, account["id"], form.recovery_code.data, local_stamp())
            if left is not None:
                next_url = _signed_in(account, row)
                flash(
                    f"You signed in with a recovery code; {left} left. Each works once: "
                    "ask an administrator to reset your second factor if you lost your phone.",
                    "error" if left < 3 else "success",
                )
                return redirect(next_url, code=303)
            form.recovery_code.errors = ["That is not an unused recovery code of this account."]
        elif form.code.data:
            if totp.check_code(db, account["id"], form.code.data):
                return redirect(_signed_in(account, row), code=303)
            form.code.errors = [
                "That code is not right, or was used already. Enter the code the app shows now."
            ]
        else:
            form.code.errors = ["Enter the 6-digit code from your authenticator app."]
        if form.code.data or form.recovery_code.data:  # a wrong code, not an empty form
            waiting = _failed(account, row)
            if waiting:
                return waiting
    status = 401 if request.method == "POST" else 200
    return render_template("staff/second_factor.html", form=form, account=account), status


@bp.route("/enrol", methods=["GET", "POST"])
@declare(limit=SIGN_IN)
def enrol():
    """Set up the authenticator: first the enrolment code from the administrator (the
    password alone must not bind a phone), then a code from the app."""
    found = _pending()
    if found is None:
        return _start_again()
    account, row = found
    db = get_db()
    if totp.is_enrolled(db, account["id"]):
        return redirect(url_for("accounts.second_factor"), code=303)
    if request.method == "POST":
        waiting = _waiting(account, row)
        if waiting:
            return waiting
    secret = row["enrol_secret"]
    if secret is None:
        return _enrol_code_step(account, row)
    form = EnrolForm()
    if request.method == "POST" and form.validate():
        step = totp.matching_step(secret, form.code.data, None)
        codes = totp.enrol(db, account["id"], secret, step) if step is not None else None
        if codes:
            next_url = _signed_in(account, row)
            return render_template("staff/recovery_codes.html", codes=codes, next_url=next_url)
        if step is not None:  # enrolled meanwhile, in another tab
            return redirect(url_for("accounts.second_factor"), code=303)
        form.code.errors = [
            "That code does not match. Check that the app shows this account, then enter "
            "the code it shows now."
        ]
        waiting = _failed(account, row)
        if waiting:
            return waiting
    settings = current_app.extensions["content"].settings
    uri = totp.provisioning_uri(secret, account["username"], f"{settings.short_name} stormwater")
    return render_template(
        "staff/enrol.html",
        form=form,
        account=account,
        qr=totp.qr_data_uri(uri),
        secret=totp.readable(secret),
    ), (422 if request.method == "POST" else 200)


def _enrol_code_step(account: dict[str, Any], row: dict[str, Any]) -> Any:
    """Ask for the enrolment code; a right one makes the secret to set up (in the row)."""
    db = get_db()
    form = EnrolCodeForm()
    if request.method == "POST" and form.validate():
        if enrol_code_matches(db, account["id"], form.enrol_code.data):
            sessions.set_enrol_secret(db, row, totp.new_secret())
            return redirect(url_for("accounts.enrol"), code=303)
        form.enrol_code.errors = [
            "That is not the enrolment code of this account, or it has expired. Ask your "
            "administrator for a new one."
        ]
        waiting = _failed(account, row)
        if waiting:
            return waiting
    return render_template(
        "staff/enrol_code.html",
        form=form,
        account=account,
        issued=has_enrol_code(db, account["id"]),
    ), (422 if request.method == "POST" else 200)
