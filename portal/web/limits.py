"""Per-client rate limits (Flask-Limiter), one limiter per app, rates from the config."""

from __future__ import annotations

from pathlib import Path

from flask import Flask, current_app, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import parse_many
from werkzeug.exceptions import TooManyRequests

import portal.web.limit_store  # noqa: F401  (registers the sqlite:// storage)
from portal.web.routes import Limit, declarations

# Shared by every page a secret token opens (guessing tokens there is
# one budget, whichever page is tried).
TOKEN_PAGES = Limit("STATUS_RATE_LIMIT", scope="token pages")
# Passwords and codes count together: guessing codes costs sign-in attempts.
SIGN_IN = Limit("LOGIN_RATE_LIMIT", methods=("POST",), scope="staff sign-in")
# Each public form's POST: what it stores counts, spent by the view right before it stores
# (spend()), so a form sent back to be corrected (422) does not: a person fixing a typo on a
# phone must not run out of reports. Every try counts towards a wider limit of its own, so
# corrections cannot be sent without end.
STORED = Limit("REPORT_RATE_LIMIT", spent_in_view=True)
FORM = (STORED, Limit("REPORT_TRY_RATE_LIMIT", scope="public form tries"))


class LimitReached(TooManyRequests):
    """A limit the view spends itself ran out: the same 429 page as the limiter's own."""

    def __init__(self, reset_at: float) -> None:
        super().__init__()
        self.reset_at = reset_at


def spend(limit: Limit) -> None:
    """Count one against a limit the view spends itself (Limit.spent_in_view), or raise
    LimitReached past any of its rates.

    Flask-Limiter's deduct_when only tests the window before the view and counts after the
    response, so every request in flight at once passed (16 parallel
    reports were all stored against "6 per minute"). Here each rate is one atomic increment in the
    limiter's storage that says whether it was still within the rate.
    """
    limiter: Limiter = current_app.extensions["rate_limiter"]
    if not limiter.enabled:
        return
    strategy = limiter.limiter
    client = limit.key() if limit.key else get_remote_address()
    bucket = ("spent", limit.scope or request.endpoint or limit.setting, client)
    # The shortest window first: a client held by the minute does not use up its hour.
    for rate in sorted(parse_many(current_app.config[limit.setting]), key=lambda r: r.get_expiry()):
        if not strategy.hit(rate, *bucket):
            raise LimitReached(strategy.get_window_stats(rate, *bucket).reset_time)


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
            if limit.spent_in_view:
                continue
            # The limiter checks inside the wrapper it returns, so the wrapper must be the view.
            rate = lambda setting=limit.setting: app.config[setting]  # noqa: E731
            options = {
                "methods": list(limit.methods) if limit.methods else None,
                "key_func": limit.key,
            }
            if limit.scope:
                view = limiter.shared_limit(rate, scope=limit.scope, **options)(view)
            else:
                view = limiter.limit(rate, **options)(view)
        app.view_functions[endpoint] = view
