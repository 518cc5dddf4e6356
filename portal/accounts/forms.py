"""The sign-in form (its page: auth.py; the code step: second_factor.py)."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import HiddenField, PasswordField, StringField
from wtforms.validators import DataRequired, Length


class LoginForm(FlaskForm):
    username = StringField("Username", [DataRequired("Enter your username."), Length(max=60)])
    password = PasswordField("Password", [DataRequired("Enter your password."), Length(max=200)])
    next = HiddenField()
