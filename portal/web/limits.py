"""Per-client rate limits (Flask-Limiter), one limiter per app, rates from the config."""

from __future__ import annotations

from pathlib import Path

from flask import Flask, Response
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

import portal.web.limit_store  # noqa: F401  (registers the sqlite:// storage)
from portal.web.routes import Limit, declarations


def _not_sent_back(response: Response) -> bool:
    """A form sent back to be corrected (422) is not a report: a person fixing a typo on a
    phone must not run out of reports. Every other answer counts (a report stored, one
    already sent, a refused or malformed request)."""
    return response.status_code != 422


# Shared by every page a secret token opens (review L9: guessing tokens there).
TOKEN_PAGES = Limit("STATUS_RATE_LIMIT", scope="token pages")
# Passwords and codes count together: guessing codes costs sign-in attempts.
SIGN_IN = Limit("LOGIN_RATE_LIMIT", methods=("POST",), scope="staff sign-in")
# Each public form's POST: reports count only what is not sent back to be corrected; every
# try counts towards a wider limit of its own, so corrections cannot be sent without end.
FORM = (
    Limit("REPORT_RATE_LIMIT", counts=_not_sent_back),
    Limit("REPORT_TRY_RATE_LIMIT", scope="public form tries"),
)


def init_limits(app: Flask) -> None:
    """Attach a limiter to an app whose blueprints are registered: each route's declared
    limit (portal/web/routes.py) wraps its view.

    One per app (not a module-level one) so each app's RATELIMIT_* settings stay its own.
    Counters live in a SQLite file beside the database, shared by every worker, unless
    RATELIMIT_STORAGE_URI names another store. The client is `request.remote_addr`, as
    portal/web/proxy.py sets it from the trusted proxies' headers.
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
    for endpoint, declared in declarations(app).items():
        if declared.limit is None:
            continue
        view = app.view_functions[endpoint]
        for limit in declared.limit if isinstance(declared.limit, tuple) else (declared.limit,):
            # The limiter checks inside the wrapper it returns, so the wrapper must be the view.
            rate = lambda setting=limit.setting: app.config[setting]  # noqa: E731
            options = {
                "methods": list(limit.methods) if limit.methods else None,
                "key_func": limit.key,
                "deduct_when": limit.counts,
            }
            if limit.scope:
                view = limiter.shared_limit(rate, scope=limit.scope, **options)(view)
            else:
                view = limiter.limit(rate, **options)(view)
        app.view_functions[endpoint] = view
