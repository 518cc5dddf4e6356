"""The Stormwater Management Officer's workspace, at /staff/, for signed-in staff only."""

from __future__ import annotations

from flask import Flask

from portal.staff import (  # noqa: F401  (their routes)
    auth,
    cases,
    exports,
    inspections,
    mail,
    map_views,
    password_page,
    queue,
    reports,
    second_factor,
)
from portal.staff.accounts import init_account_commands
from portal.staff.blueprint import bp


def init_staff(app: Flask) -> None:
    """Register the workspace. Call before CSRF protection is set up: the sign-in check
    must answer an anonymous request (any method) to any /staff/ path, enforcement's
    included, before anything else looks at it."""
    app.before_request(auth.require_staff)
    app.jinja_env.globals["undelivered_mail"] = mail.failed_count
    app.register_blueprint(bp)
    init_account_commands(app)
