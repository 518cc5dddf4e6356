"""Signing in and out; every /staff/ request is checked here before anything else runs."""

from __future__ import annotations

from typing import Any

from flask import current_app, g, redirect, render_template, request, session, url_for

from portal.accounts import devices, guessing, sessions
from portal.accounts.accounts import active_account, verify
from portal.accounts.blueprint import bp
from portal.accounts.forms import LoginForm
from portal.accounts.guessing import wait_words
from portal.accounts.second_factor import await_code, start_session
from portal.accounts.sessions import limits
from portal.core.db import get_db, value
from portal.web.limits import SIGN_IN
from portal.web.routes import NO_STORE, declare

# The only staff pages an anonymous visitor may reach.
OPEN_ENDPOINTS = {"accounts.login", "accounts.second_factor", "accounts.enrol"}
ENDED = {
    "idle": "You were signed out after a time without activity.",
    "lifetime": "You were signed out: a session lasts {hours} hours at most. Sign in again.",
}
WRONG = "That username and password do not match an active account."


def current_staff() -> dict[str, Any] | None:
    return g.get("staff")


def staff_name() -> str:
    """The signed-in officer's name as they sign letters (set once on a letter page), else
    their username: what a form fills in for "Screened by", "Who did it" (not
    "Screened by: smo")."""
    return _letter_name() or current_staff()["username"]


def username_filled_in(typed: str | None) -> bool:
    """Whether a "who did it" field holds the officer's username because no name is set as
    they sign letters: the form then says where to set it (officer's week 2026-12-03 P5)."""
    staff = current_staff()
    return bool(staff) and typed == staff["username"] and not _letter_name()


def _letter_name() -> str | None:
    staff = current_staff()
    return value(get_db(), "SELECT letter_name FROM staff WHERE id = ?", [staff["id"]])


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
    db = get_db()
    session_id, ended = session.get("staff_session"), None
    row = sessions.find(db, session_id, sessions.SIGNED_IN) if session_id else None
    if row is not None:
        ended = sessions.ended_by_time(row, *limits())
        if ended is None:
            g.staff = active_account(db, row["staff_id"], current_app.config["STAFF_TOTP"])
        if g.staff is not None:
            sessions.touch(db, row)
            return None
        # Over by the clock, or the account was disabled or lost its second factor.
        sessions.end_row(db, row)
    if session_id is not None:
        session.clear()
    if request.endpoint in OPEN_ENDPOINTS:
        return None
    form = LoginForm(formdata=None, next=request.full_path if request.method == "GET" else "")
    hours = current_app.config["STAFF_SESSION_HOURS"]
    notice = ENDED[ended].format(hours=hours) if ended else None
    # Whatever path it answers (/staff too, which has no route of its own), never kept.
    return (
        render_template("staff/login.html", form=form, notice=notice),
        401,
        {"Cache-Control": NO_STORE},
    )


@bp.route("/login", methods=["GET", "POST"])
@declare(limit=SIGN_IN)
def login():
    form = LoginForm()
    if current_staff():
        return redirect(_safe_next(form.next.data))
    status = 200
    if request.method == "POST" and form.validate():
        db = get_db()
        wait = devices.waiting(db, form.username.data)
        # While the name waits nothing is checked: a try then tells nothing.
        account = None if wait else verify(db, form.username.data, form.password.data)
        if account and current_app.config["STAFF_TOTP"]:
            return await_code(account, _safe_next(form.next.data))
        if account:  # a training install, without a second factor
            start_session(account)
            return redirect(_safe_next(form.next.data), code=303)
        if wait:
            form.password.errors, status = [wait_words(wait)], 429
        else:
            guessing.failed(db, form.username.data, request.remote_addr)
            form.password.errors, status = [WRONG], 401
    elif request.method == "POST":
        status = 401
    return render_template("staff/login.html", form=form, notice=None), status


@bp.route("/logout", methods=["POST"])
def logout():
    sessions.end(get_db(), session.get("staff_session"))
    session.clear()
    return redirect(url_for("accounts.login"), code=303)
