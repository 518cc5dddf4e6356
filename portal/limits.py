"""Per-client rate limits (Flask-Limiter), one limiter per app, rates from the config."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from flask import Flask, Response
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

import portal.limit_store  # noqa: F401  (registers the sqlite:// storage)


def _not_sent_back(response: Response) -> bool:
    """A form sent back to be corrected (422) is not a report: a person fixing a typo on a
    phone must not run out of reports. Every other answer counts (a report stored, one
    already sent, a refused or malformed request)."""
    return response.status_code != 422


class Rate(NamedTuple):
    setting: str  # the config key holding the rate, e.g. "30 per hour;6 per minute"
    methods: list[str] | None = None  # the methods it counts (None: all)
    scope: str | None = None  # a counter shared with other endpoints, if any
    counts: Callable[[Response], bool] | None = None  # which answers count (None: all)


# Endpoint -> its limits. Reports count only what is not sent back to be corrected; every
# try counts towards a wider limit of its own, so corrections cannot be sent without end.
RATE_LIMITS: dict[str, tuple[Rate, ...]] = {
    "report.submit": (
        Rate("REPORT_RATE_LIMIT", counts=_not_sent_back),
        Rate("REPORT_TRY_RATE_LIMIT", scope="public form tries"),
    ),
    "notify.submit": (
        Rate("REPORT_RATE_LIMIT", counts=_not_sent_back),
        Rate("REPORT_TRY_RATE_LIMIT", scope="public form tries"),
    ),
    # Every page a secret token opens counts together (review L9: guessing tokens there).
    "status.show": (Rate("STATUS_RATE_LIMIT", scope="token pages"),),
    "offline.status_json": (Rate("STATUS_RATE_LIMIT", scope="token pages"),),
    "report.sent": (Rate("STATUS_RATE_LIMIT", scope="token pages"),),
    # Passwords and codes count together: guessing codes costs sign-in attempts.
    "staff.login": (Rate("LOGIN_RATE_LIMIT", ["POST"], "staff sign-in"),),
    "staff.second_factor": (Rate("LOGIN_RATE_LIMIT", ["POST"], "staff sign-in"),),
    "staff.enrol": (Rate("LOGIN_RATE_LIMIT", ["POST"], "staff sign-in"),),
}


def init_limits(app: Flask) -> None:
    """Attach a limiter to an app whose blueprints are registered.

    One per app (not a module-level one) so each app's RATELIMIT_* settings stay its own.
    Counters live in a SQLite file beside the database, shared by every worker, unless
    RATELIMIT_STORAGE_URI names another store. The client is `request.remote_addr`, as
    portal/proxy.py sets it from the trusted proxies' headers.
    """
    if not app.config.get("RATELIMIT_STORAGE_URI"):
        database = Path(app.config["DATABASE"]).resolve()
        counters = database.with_name(f"{database.stem}-limits.sqlite3")
        app.config["RATELIMIT_STORAGE_URI"] = f"sqlite:///{counters}"
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)

    # Registered before the limiter's own hook, so it runs after it (Flask runs them in
    # reverse): Retry-After means "wait", so only a 429 carries it (clients that honour it
    # on a 200 would pause for nothing).
    @app.after_request
    def retry_after_only_when_refused(response):
        if response.status_code != 429:
            response.headers.pop("Retry-After", None)
        return response

    limiter = Limiter(key_func=get_remote_address, app=app, default_limits=[])
    # Flask-Limiter keeps only weak references to its limiter: the app holds the strong one.
    app.extensions["rate_limiter"] = limiter
    for endpoint, rates in RATE_LIMITS.items():
        view = app.view_functions[endpoint]
        for rate in rates:
            # The limiter checks inside the wrapper it returns, so the wrapper must be the view.
            value = lambda key=rate.setting: app.config[key]  # noqa: E731
            options = {"methods": rate.methods, "deduct_when": rate.counts}
            if rate.scope:
                view = limiter.shared_limit(value, scope=rate.scope, **options)(view)
            else:
                view = limiter.limit(value, **options)(view)
        app.view_functions[endpoint] = view
