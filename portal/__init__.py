"""The reporting portal: resident reports, release notifications and the staff workspace."""

from __future__ import annotations

import datetime as dt
import secrets
import sys
from pathlib import Path
from typing import Any

import click
from flask import Flask
from flask_wtf.csrf import CSRFProtect

from content_model.check import load_checked
from content_model.theme import TEMPLATES
from portal.accounts import init_accounts
from portal.core.backup import init_backup
from portal.core.db import init_db
from portal.core.deadlines import BusinessCalendar
from portal.core.settings import SettingsError, defaults, require
from portal.digest import init_digest
from portal.enforcement import init_enforcement
from portal.intake import init_intake
from portal.mail.courier import init_outbox
from portal.notification import init_notification
from portal.open311 import init_open311
from portal.outfalls import init_outfalls
from portal.report import init_report
from portal.screening import init_screening
from portal.staff import init_staff
from portal.staff_found import init_staff_found
from portal.status import init_status
from portal.trackdown import init_trackdown
from portal.training import init_training
from portal.web.errors import init_errors, init_request_checks
from portal.web.headers import init_headers
from portal.web.limits import init_limits
from portal.web.offline import init_offline
from portal.web.proxy import init_proxy
from portal.web.templating import init_templates
from portal.web.tiles import tile_source

csrf = CSRFProtect()
# For a local copy: the Makefile gives admin commands the settings `make run` serves with.
LOCAL_COMMANDS = (
    " For the portal `make run` serves, run it through make: `make staff-add NAME=smo`,"
    ' or `make flask ARGS="staff list"` for any command.'
)


def _asking_for_help() -> bool:
    """`flask --app portal staff add --help`: the command only prints its help, so it needs
    no settings (the app is built to find the command, then nothing runs)."""
    return click.get_current_context(silent=True) is not None and "--help" in sys.argv[1:]


def create_app(test_config: dict[str, Any] | None = None, require_settings: bool = True) -> Flask:
    """Build the portal; settings come from `PORTAL_*` environment variables or `test_config`
    (the defaults and what each is for: portal/core/settings.py)."""
    app = Flask(
        __name__, instance_relative_config=True, template_folder=str(TEMPLATES), static_folder=None
    )
    app.config.from_mapping(defaults(Path(app.instance_path)))
    app.config.from_prefixed_env("PORTAL")
    if test_config:
        app.config.update(test_config)
    content = load_checked(app.config["CONTENT_DIR"])
    if app.config["PUBLIC_URL"] is None:
        app.config["PUBLIC_URL"] = content.settings.public_url
    # Served from the environment (gunicorn, the flask command), missing essentials stop it
    # here; tests pass their own settings, and `check` wants to see what is missing.
    if test_config is None and require_settings and not _asking_for_help():
        try:
            require(app.config)
        except SettingsError as error:
            # An admin command (`flask --app portal staff add ...`) run without the
            # settings: one line saying what is missing, not a traceback.
            if click.get_current_context(silent=True) is not None:
                raise click.ClickException(f"{error}{LOCAL_COMMANDS}") from None
            raise
    app.extensions["secret_key_made_up"] = not app.config["SECRET_KEY"]
    if not app.config["SECRET_KEY"]:
        # Never a fixed default: without a configured key, sessions last one process.
        app.config["SECRET_KEY"] = secrets.token_hex(32)

    app.extensions["content"] = content
    app.extensions["map_tiles"] = tile_source(app.config, content.settings.map_tiles)
    app.extensions["calendar"] = BusinessCalendar(content.settings.holidays)
    if app.config["SESSION_COOKIE_SECURE"] is None:
        app.config["SESSION_COOKIE_SECURE"] = (app.config["PUBLIC_URL"] or "").startswith("https:")
    # The cookie holds only a session's id and may outlive it: the server ends sessions (idle
    # or past their lifetime, portal/accounts/sessions.py) and can then say why.
    app.permanent_session_lifetime = dt.timedelta(hours=app.config["STAFF_SESSION_HOURS"])
    init_proxy(app)
    init_templates(app, content)
    app.jinja_env.globals["map_tiles"] = app.extensions["map_tiles"]
    init_headers(app)
    init_request_checks(app)
    init_db(app)
    init_outbox(app)
    init_backup(app)
    init_errors(app)
    init_intake(app)
    # Before CSRF: an anonymous request to /staff/ gets the sign-in page, whatever it posts.
    init_accounts(app)
    init_staff(app)
    init_staff_found(app)
    init_enforcement(app)
    csrf.init_app(app)
    init_report(app)
    init_notification(app)
    init_status(app)
    init_offline(app)
    init_open311(app, csrf)
    init_outfalls(app)
    init_screening(app)
    init_trackdown(app)
    init_training(app)
    # Last: every route is registered, and each declared what it needs (portal/web/routes.py).
    init_limits(app)
    init_digest(app)

    if app.config["SITE_DIR"]:
        from portal.web.site_files import init_site_files

        init_site_files(app, app.config["SITE_DIR"])
    return app
