"""Signing in and out; every /staff/ request is checked here before anything else runs."""

from __future__ import annotations

import time
from typing import Any

from flask import current_app, g, redirect, render_template, request, session, url_for
from flask_wtf import FlaskForm
from wtforms import HiddenField, PasswordField, StringField
from wtforms.validators import DataRequired, Length

from portal.db import get_db
from portal.staff import bp
from portal.staff.accounts import active_account, verify
from portal.staff.second_factor import await_code, start_session

# The only staff pages an anonymous visitor may reach.
OPEN_ENDPOINTS = {"staff.login", "staff.second_factor", "staff.enrol"}


class LoginForm(FlaskForm):
    username = StringField("Username", [DataRequired("Enter your username."), Length(max=60)])
    password = PasswordField("Password", [DataRequired("Enter your password."), Length(max=200)])
    next = HiddenField()


def current_staff() -> dict[str, Any] | None:
    return g.get("staff")


def _safe_next(target: str | None) -> str:
    """Only back into the workspace, never to another site."""
    if target and target.startswith("/staff/") and not target.startswith("//"):
        return target
    return url_for("staff.queue")


def require_staff():
    """Answer any anonymous or expired /staff/ request with the sign-in page, never data."""
    if not request.path.startswith("/staff/") and request.path != "/staff":
        return None
    g.staff = None
    account_id, seen = session.get("staff_id"), session.get("staff_seen", 0)
    idle = current_app.config["STAFF_IDLE_MINUTES"] * 60
    expired = account_id is not None and time.time() - seen > idle
    if account_id is not None and not expired:
        g.staff = active_account(get_db(), account_id, current_app.config["STAFF_TOTP"])
    if g.staff is not None:
        session["staff_seen"] = int(time.time())
        return None
    if account_id is not None:
        session.clear()  # signed out: idle, disabled, or its second factor was reset
    if request.endpoint in OPEN_ENDPOINTS:
        return None
    form = LoginForm(formdata=None, next=request.full_path if request.method == "GET" else "")
    notice = "You were signed out after a time without activity." if expired else None
    return render_template("staff/login.html", form=form, notice=notice), 401


@bp.route("/login", methods=["GET", "POST"])
def login():
    form = LoginForm()
    if current_staff():
        return redirect(_safe_next(form.next.data))
    if request.method == "POST" and form.validate():
        account = verify(get_db(), form.username.data, form.password.data)
        if account and current_app.config["STAFF_TOTP"]:
            return await_code(account["id"], _safe_next(form.next.data))
        if account:  # a training install, without a second factor
            start_session(account["id"])
            return redirect(_safe_next(form.next.data), code=303)
        form.password.errors = ["That username and password do not match an active account."]
    status = 401 if request.method == "POST" else 200
    return render_template("staff/login.html", form=form, notice=None), status


@bp.route("/logout", methods=["POST"])
def logout():
    session.clear()
    return redirect(url_for("staff.login"), code=303)
