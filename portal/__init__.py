"""The reporting portal: resident reports, release notifications and the staff workspace."""

from __future__ import annotations

import datetime as dt
import secrets
from pathlib import Path
from typing import Any

from flask import Flask
from flask_wtf.csrf import CSRFProtect

from portal.backup import init_backup
from portal.db import init_db
from portal.deadlines import BusinessCalendar
from portal.errors import init_errors, init_request_checks
from portal.headers import init_headers
from portal.limits import init_limits
from portal.outbox import init_outbox
from portal.proxy import init_proxy
from portal.staff import init_staff
from portal.templating import init_templates
from static_site.content import load_content
from static_site.theme import TEMPLATES

csrf = CSRFProtect()
MB = 1024 * 1024


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the portal; settings come from `PORTAL_*` environment variables or `test_config`."""
    app = Flask(
        __name__, instance_relative_config=True, template_folder=str(TEMPLATES), static_folder=None
    )
    instance = Path(app.instance_path)
    app.config.from_mapping(
        SECRET_KEY=None,
        CONTENT_DIR=None,
        # The frozen site to serve beside the portal (local runs only).
        SITE_DIR=None,
        DATABASE=str(instance / "portal.sqlite3"),
        # Absolute address for links in mail; else the address the request came in on.
        PUBLIC_URL=None,
        SMO_EMAIL=None,
        MAIL_SERVER=None,
        MAIL_PORT=25,
        MAIL_USE_TLS=False,
        MAIL_USE_SSL=False,
        MAIL_USERNAME=None,
        MAIL_PASSWORD=None,
        MAIL_DEFAULT_SENDER="no-reply@localhost",
        MAIL_SUPPRESS_SEND=False,
        MAIL_TIMEOUT=10,
        # Without a mail server, messages are written here (local runs).
        MAIL_FOLDER=str(instance / "mail"),
        MAP_TILE_URL=None,
        MAP_TILE_ATTRIBUTION=None,
        MAP_LINK="https://www.openstreetmap.org/?mlat={lat}&mlon={lon}#map=18/{lat}/{lon}",
        # Three 10 MB photos rarely travel together; 25 MB keeps a hostile body small.
        MAX_CONTENT_LENGTH=25 * MB,
        MAX_FORM_MEMORY_SIZE=1 * MB,
        WTF_CSRF_TIME_LIMIT=6 * 3600,
        REPORT_RATE_LIMIT="30 per hour;6 per minute",
        STATUS_RATE_LIMIT="120 per minute",
        # How many proxies in front of the portal set X-Forwarded-* (see portal/proxy.py).
        PROXY_HOPS=0,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        # Secure cookies whenever the public address is https (set it explicitly otherwise).
        SESSION_COOKIE_SECURE=None,
        STAFF_IDLE_MINUTES=30,
        # A code from an authenticator app after the password; off only for training.
        STAFF_TOTP=True,
    )
    app.config.from_prefixed_env("PORTAL")
    if test_config:
        app.config.update(test_config)
    if not app.config["SECRET_KEY"]:
        # Never a fixed default: without a configured key, sessions last one process.
        app.config["SECRET_KEY"] = secrets.token_hex(32)

    content = load_content(app.config["CONTENT_DIR"])
    app.extensions["content"] = content
    app.extensions["calendar"] = BusinessCalendar(content.settings.holidays)
    if app.config["PUBLIC_URL"] is None:
        app.config["PUBLIC_URL"] = content.settings.public_url
    if app.config["SESSION_COOKIE_SECURE"] is None:
        app.config["SESSION_COOKIE_SECURE"] = (app.config["PUBLIC_URL"] or "").startswith("https:")
    # Staff sessions end after this long without activity (the cookie, and the server check).
    app.permanent_session_lifetime = dt.timedelta(minutes=app.config["STAFF_IDLE_MINUTES"])
    init_proxy(app)
    init_templates(app, content)
    init_headers(app)
    init_request_checks(app)
    init_db(app)
    init_outbox(app)
    init_backup(app)
    init_errors(app)
    # Before CSRF: an anonymous request to /staff/ gets the sign-in page, whatever it posts.
    init_staff(app)
    csrf.init_app(app)

    from portal import notify, report, status

    app.register_blueprint(report.bp)
    app.register_blueprint(notify.bp)
    app.register_blueprint(status.bp)
    # Forms shown again, with what was typed, when their CSRF token has expired.
    app.extensions["expired_forms"] = {
        "report.submit": report.expired,
        "notify.submit": notify.expired,
    }
    init_limits(app)

    if app.config["SITE_DIR"]:
        from portal.site_files import init_site_files

        init_site_files(app, app.config["SITE_DIR"])
    return app
