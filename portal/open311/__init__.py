"""The Open311 GeoReport v2 API at /open311/v2/: services, definitions and requests, in
JSON and XML, for 311 apps, dashboards and researchers (README: "For integrators")."""

from __future__ import annotations

from flask import Flask
from flask_limiter.util import get_remote_address
from flask_wtf.csrf import CSRFProtect

from portal.core.db import get_db
from portal.open311 import views
from portal.open311.keys import init_key_commands, known_key


def _client() -> str:
    """Who a request counts against: its key if it is a key in use, else its address. A
    made-up key is counted with its address (review L2): it gets no bucket of its own, so
    guessing costs the address its limit and adds no rows."""
    given = views.given_key()
    found = known_key(get_db(), given) if given else None
    return f"open311-key:{found.id}" if found else get_remote_address()


def init_open311(app: Flask, csrf: CSRFProtect) -> None:
    """Register the API (after the limiter exists). Keys, not CSRF tokens, guard its POST."""
    app.register_blueprint(views.bp)
    csrf.exempt(views.bp)
    app.extensions.setdefault("api_errors", {})[views.PREFIX + "/"] = views.api_error
    limiter = app.extensions["rate_limiter"]
    reads = limiter.limit(lambda: app.config["OPEN311_READ_RATE_LIMIT"], key_func=_client)
    for endpoint in ("discovery", "services", "service_definition", "requests_list",
                     "request_one", "token"):  # fmt: skip
        name = f"open311.{endpoint}"
        app.view_functions[name] = reads(app.view_functions[name])
    name = "open311.requests_create"
    files = limiter.limit(lambda: app.config["OPEN311_FILE_RATE_LIMIT"], key_func=_client)
    app.view_functions[name] = files(app.view_functions[name])
    init_key_commands(app)
