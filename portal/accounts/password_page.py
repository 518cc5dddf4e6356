"""An officer changes their own password: the current one first, then a new one that
passes the password rules; every session of the account ends, and this browser gets a
new one."""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from flask_wtf import FlaskForm
from wtforms import PasswordField
from wtforms.validators import DataRequired, EqualTo, Length

from portal.accounts import guessing, passwords
from portal.accounts.accounts import password_matches, set_password
from portal.accounts.auth import current_staff
from portal.accounts.blueprint import bp
from portal.accounts.guessing import wait_words
from portal.accounts.second_factor import start_session
from portal.core.db import get_db


class PasswordForm(FlaskForm):
    current = PasswordField(
        "Current password", [DataRequired("Enter your current password."), Length(max=200)]
    )
    new = PasswordField("New password", [DataRequired("Enter a new password."), Length(max=200)])
    again = PasswordField(
        "New password again",
        [DataRequired("Enter the new password again."), EqualTo("new", "The two differ.")],
    )


@bp.route("/password", methods=["GET", "POST"])
def change_password():
    account = current_staff()
    form = PasswordForm()
    status = 200
    if request.method == "POST" and form.validate():
        db = get_db()
        wait = guessing.waiting(db, account["username"])
        refused = passwords.problem(form.new.data, account["username"])
        if wait:
            # Someone with this session may be guessing the current password.
            form.current.errors, status = [wait_words(wait)], 429
        elif not password_matches(db, account["id"], form.current.data):
            guessing.failed(db, account["username"], request.remote_addr)
            form.current.errors, status = ["That is not your current password."], 422
        elif refused:
            form.new.errors, status = [refused], 422
        elif form.new.data == form.current.data:
            form.new.errors, status = ["Choose a password different from the current one."], 422
        else:
            set_password(db, account["username"], form.new.data)
            start_session(account)
            flash(
                "Your password was changed. Every other session of your account has ended, "
                "on this and every other computer.",
                "success",
            )
            return redirect(url_for("staff.queue"), code=303)
    elif request.method == "POST":
        status = 422
    return render_template("staff/password.html", form=form, minimum=passwords.MIN_LENGTH), status
