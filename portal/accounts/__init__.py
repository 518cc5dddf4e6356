"""Staff sign-in and account security: passwords, the second factor, sessions, remembered
devices and the guessing limits. Its pages live under /staff/ beside the workspace's, and
its sign-in check answers every /staff/ request before anything else looks at it."""

from __future__ import annotations

from flask import Flask

from portal.accounts import password_page, second_factor  # noqa: F401  (their routes)
from portal.accounts.accounts import init_account_commands
from portal.accounts.auth import require_staff, username_filled_in
from portal.accounts.blueprint import bp


def init_accounts(app: Flask) -> None:
    """Register sign-in. Call before CSRF protection is set up: the sign-in check must
    answer an anonymous request (any method) to any /staff/ path, enforcement's included,
    before anything else looks at it."""
    app.before_request(require_staff)
    app.register_blueprint(bp)
    init_account_commands(app)
    app.jinja_env.globals["username_filled_in"] = username_filled_in
