"""Per-client rate limits (Flask-Limiter), one limiter per app, rates from the config."""

from __future__ import annotations

from flask import Flask
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

# Endpoint -> (the config key holding its rate, e.g. "30 per hour;6 per minute", and the
# methods it counts; None: all).
RATE_LIMITS = {
    "report.submit": ("REPORT_RATE_LIMIT", None),
    "notify.submit": ("REPORT_RATE_LIMIT", None),
    "status.show": ("STATUS_RATE_LIMIT", None),
    "staff.login": ("LOGIN_RATE_LIMIT", ["POST"]),
}


def init_limits(app: Flask) -> None:
    """Attach a limiter to an app whose blueprints are registered.

    One per app (not a module-level one) so each app's RATELIMIT_* settings stay its own.
    Counters live in the process unless RATELIMIT_STORAGE_URI names a shared store.
    """
    limiter = Limiter(key_func=get_remote_address, app=app, default_limits=[])
    # Flask-Limiter keeps only weak references to its limiter: the app holds the strong one.
    app.extensions["rate_limiter"] = limiter
    for endpoint, (key, methods) in RATE_LIMITS.items():
        # The limiter checks inside the wrapper it returns, so the wrapper must be the view.
        limit = limiter.limit(lambda key=key: app.config[key], methods=methods)
        app.view_functions[endpoint] = limit(app.view_functions[endpoint])
