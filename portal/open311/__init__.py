"""The Open311 GeoReport v2 API at /open311/v2/: services, definitions and requests, in
JSON and XML, for 311 apps, dashboards and researchers (README: "For integrators")."""

from __future__ import annotations

from flask import Flask
from flask_wtf.csrf import CSRFProtect

from portal.open311 import views
from portal.open311.keys import init_key_commands


def init_open311(app: Flask, csrf: CSRFProtect) -> None:
    """Register the API. Keys, not CSRF tokens, guard its POST; its routes declare their
    limits, counted per key (views.client)."""
    app.register_blueprint(views.bp)
    csrf.exempt(views.bp)
    app.extensions.setdefault("api_errors", {})[views.PREFIX + "/"] = views.api_error
    init_key_commands(app)
