"""Friendly error pages: every 4xx in plain words, never a stack trace."""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable

from flask import Flask, abort, current_app, render_template, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from flask_limiter.errors import RateLimitExceeded
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError

from content_model.language import current_language
from portal.core.clock import local_now
from portal.core.display import clock
from portal.web.limits import LimitReached
from portal.web.routes import Declaration, declarations

# Each in the page's language when shown (lazy_gettext).
TITLES = {
    400: _l("We could not read that request"),
    403: _l("You cannot open this page"),
    404: _l("Page not found"),
    405: _l("That is not allowed here"),
    409: _l("Already sent"),
    413: _l("The form was too large to send"),
    415: _l("We could not read that request"),
    429: _l("Too many in a short time"),
    500: _l("Something went wrong on our side"),
}
ADVICE = {
    400: _l("Please go back, reload the page and try again."),
    405: _l("Please go back and use the links and buttons on the page."),
    # The message above it says what was sent before; nothing is to be done again.
    409: _l("Nothing more was stored from this form."),
    413: _l(
        "Photos can be up to 10 MB each, and the whole form up to {limit} MB. "
        "Go back, remove a photo or choose a smaller one, and send again."
    ),
    429: _l("If this is an emergency, call 911."),
    500: _l(
        "Your information may not have been saved. Please try again in a few minutes, "
        "or call us. If this is an emergency, call 911."
    ),
}


# The largest integer SQLite stores (a row id).
LARGEST_ID = 2**63 - 1


def init_request_checks(app: Flask) -> None:
    """Refuse, before anything reads them, requests no browser sends: a query string that
    is not UTF-8, or a JSON body posted to pages that take HTML forms (Flask-WTF would
    build a form from any JSON value and fail on most). Register before the other hooks."""

    @app.url_value_preprocessor
    def ids_in_range(endpoint: str | None, values: dict | None) -> None:
        # An id in the address past the largest SQLite stores is no record: a 404, never the
        # OverflowError (a 500) binding it to a query would raise.
        if any(isinstance(v, int) and v > LARGEST_ID for v in (values or {}).values()):
            abort(404)

    @app.before_request
    def refuse_unreadable():
        try:
            request.query_string.decode("utf-8")
        except UnicodeDecodeError:
            abort(400, _("This address has characters we cannot read."))
        if request.method != "GET" and request.is_json:
            abort(415, _("This page takes a form, not JSON."))


def init_errors(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def csrf_expired(error: CSRFError):
        # A stale or missing token on a public form: show the form again with the person's
        # words kept, instead of a dead end (the route declares how: on_expired).
        declared = declarations(current_app).get(request.endpoint, Declaration())
        if declared.on_expired:
            try:
                return declared.on_expired()
            except HTTPException as refused:
                # An abort() in it (a sheet for an outfall that does not exist): raised in an
                # error handler, Flask would answer 500.
                return http_error(refused)
        return _page(400, "This form has expired. Go back, reload the page and send it again.")

    @app.errorhandler(RateLimitExceeded)
    def too_many(error: RateLimitExceeded):
        api = _api_answer(error)
        if api is not None:
            return api
        return _too_many(seconds_to_wait())

    @app.errorhandler(LimitReached)
    def spent(error: LimitReached):
        api = _api_answer(error)
        if api is not None:
            return api
        now = dt.datetime.now(dt.UTC).timestamp()
        return _too_many(max(1, math.ceil(error.reset_at - now)))

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        api = _api_answer(error)
        if api is not None:
            return api
        if error.code == 404:
            return render_template("site/not_found.html"), 404
        message = error.description if _own_words(error) else None
        if error.code == 413:
            # A page that takes large sends says its own limits (too_large below).
            said = current_app.extensions.get("too_large", {}).get(request.endpoint or "")
            if said is not None:
                return _page(413, message, advice=said())
        return _page(error.code or 400, message)

    @app.errorhandler(InternalServerError)
    def server_error(error: InternalServerError):
        api = _api_answer(error)
        return _page(500, None) if api is None else api


# What was sent too often, by endpoint, and whether it is a form to send again.
# What was sent too often, said whole (a translation words each its own way), and whether
# it was a form the person can send again.
_SIGN_IN = _l("Too many sign-in tries have come from this connection in a short time.")
_REQUESTS = _l("Too many requests have come from this connection in a short time.")
_SENT_TOO_OFTEN = {
    "report.submit": (_l("Too many reports have come from this connection in a short time."), True),
    "notify.submit": (_l("Too many forms have come from this connection in a short time."), True),
    "accounts.login": (_SIGN_IN, False),
    "accounts.second_factor": (_SIGN_IN, False),
    "accounts.enrol": (_SIGN_IN, False),
}


def seconds_to_wait() -> int:
    """Until the limit that was hit lets this client in again (at least a second)."""
    limit = current_app.extensions["rate_limiter"].current_limit
    now = dt.datetime.now(dt.UTC).timestamp()
    return max(1, math.ceil((limit.reset_at if limit else now + 60) - now))


def in_a_while(seconds: int) -> str:
    """20 -> 'in a few seconds'; 45 -> 'in about a minute'; 600 -> 'in about 10 minutes'."""
    minutes = round(seconds / 60)
    if seconds <= 30:
        return _("in a few seconds")
    if minutes <= 1:
        return _("in about a minute")
    if minutes < 60:
        return _("in about %(minutes)s minutes", minutes=minutes)
    hours = round(minutes / 60)
    return ngettext("in about %(num)s hour", "in about %(num)s hours", hours)


def too_many_message(endpoint: str | None, seconds: int) -> str:
    """'Too many reports have come from this connection in a short time. …' with when."""
    said, form = _SENT_TOO_OFTEN.get(endpoint or "", (_REQUESTS, False))
    at = clock(local_now() + dt.timedelta(seconds=seconds), current_language())
    again = _("%(in_a_while)s, at %(time)s", in_a_while=in_a_while(seconds), time=at)
    said = f"{said} "
    if form:
        return said + _(
            "This one was not kept. You can send it again %(again)s: go back to your form "
            "and press the button to send it then.",
            again=again,
        )
    # A clock time ends in "m.": one full stop.
    return said + _("You can try again %(again)s", again=again)


def _too_many(wait: int):
    """The 429 page: in words, with when to try again; never the limiter's "6 per 1 minute"."""
    response, code = _page(429, too_many_message(request.endpoint, wait))
    return response, code, {"Retry-After": str(wait)}


def _api_answer(error: HTTPException):
    """An API answers errors in its own format: `api_errors` maps a path prefix to the
    function that says it. The Open311 API registers the one there is: this package stands
    below it, and a 404 under its prefix has no route that could declare anything."""
    for prefix, answer in current_app.extensions.get("api_errors", {}).items():
        if request.path.startswith(prefix):
            return answer(error)
    return None


def _own_words(error: HTTPException) -> bool:
    """Descriptions we wrote for `abort(code, "...")`, not Werkzeug's defaults."""
    return type(error).description != error.description


def too_large(app: Flask, endpoint: str, advice: Callable[[], str]) -> None:
    """What the 413 page says for `endpoint` (its own limits), instead of the photo forms'
    advice: `advice()` is called when the page is shown (the outfall import and the
    screening sheet register theirs; both stand above this package)."""
    app.extensions.setdefault("too_large", {})[endpoint] = advice


def body_limit_mb() -> int:
    """The most a request may carry (MAX_CONTENT_LENGTH), in whole MB."""
    return current_app.config["MAX_CONTENT_LENGTH"] // (1024 * 1024)


def _page(code: int, message: str | None, advice: str | None = None):
    advice = advice or ADVICE.get(code, ADVICE[400]).format(limit=body_limit_mb())
    title = TITLES.get(code, TITLES[400] if code < 500 else TITLES[500])
    return render_template("portal/error.html", title=title, message=message, advice=advice), code
