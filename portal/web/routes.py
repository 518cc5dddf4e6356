"""What a route declares about itself, where it is written: its rate limit, whether its answer
may be kept by a browser, whether its page shows photos before they are sent (the CSP's
`blob:`), and what answers a POST whose CSRF token has expired.

    @bp.route("/", methods=["POST"])
    @declare(limit=Limit("REPORT_RATE_LIMIT"), photo_previews=True, on_expired=expired)
    def submit(): ...

A blueprint declares for all its routes at once (`declare_blueprint(bp, caching=NO_STORE)`);
a route's own declaration adds to it. The app-wide hooks (portal/web/limits.py, headers.py,
offline.py, errors.py) read the declarations of the app's view functions; nothing keeps a
list of endpoints or paths of its own, and tests/test_routes.py walks the URL map so that a
route that forgot a declaration it needs fails there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from flask import Blueprint, Flask

# Cache-Control for a page that shows a person's details or a secret token: neither the
# back button nor the disk cache of a shared municipal computer keeps it.
NO_STORE = "no-store"
# For a form step answered with the person's own answers on their own device: the browser may
# keep it (never a shared cache), so that Back shows the step again instead of a "Confirm
# Form Resubmission" error; no-cache still sends every new request to the portal.
BACK_STEP = "private, no-cache"


@dataclass(frozen=True)
class Limit:
    """A rate limit: the setting that holds its rate ("30 per hour;6 per minute"), the methods
    it counts (None: all), a scope shared with other routes, and whom it counts (None: the
    client's address)."""

    setting: str
    methods: tuple[str, ...] | None = None
    scope: str | None = None
    key: Callable[[], str] | None = field(default=None, compare=False)
    # Spent by the view itself (portal/web/limits.py spend()), right before it stores, not by
    # a wrapper around it: so a form sent back to be corrected does not count, and requests
    # in flight at once cannot all pass a test made before any of them was counted.
    spent_in_view: bool = False


@dataclass(frozen=True)
class Declaration:
    # One limit, or several that each count (a form's stored reports and all its tries).
    limit: Limit | tuple[Limit, ...] | None = None
    # Cache-Control of its answers (None: what the app sends by default); a POST's answer is
    # a form shown again or a review of what was typed, so private whatever this says.
    caching: str | None = None
    # Its answer to a POST is a form step the Back button returns to (BACK_STEP), not no-store.
    back_step: bool = False
    photo_previews: bool = False
    on_expired: Callable[[], Any] | None = field(default=None, compare=False)


def _merged(base: Declaration, **changes: Any) -> Declaration:
    return replace(base, **{k: v for k, v in changes.items() if v not in (None, False)})


def declare(**changes: Any) -> Callable[[Callable], Callable]:
    """Declare what a view needs (the fields of Declaration); put it under @bp.route."""

    def mark(view: Callable) -> Callable:
        view.declaration = _merged(getattr(view, "declaration", Declaration()), **changes)
        return view

    return mark


def declare_blueprint(bp: Blueprint, **changes: Any) -> Blueprint:
    """Declare for every route of a blueprint (a route's own declaration adds to it)."""
    bp.declaration = _merged(getattr(bp, "declaration", Declaration()), **changes)
    return bp


def declaration(app: Flask, endpoint: str | None) -> Declaration:
    """What the route at `endpoint` declared, with what its blueprint declared beneath."""
    if endpoint is None or endpoint not in app.view_functions:
        return Declaration()
    blueprint = app.blueprints.get(endpoint.rpartition(".")[0])
    base = getattr(blueprint, "declaration", Declaration())
    own = getattr(app.view_functions[endpoint], "declaration", None)
    if own is None:
        return base
    return _merged(base, **{name: getattr(own, name) for name in own.__dataclass_fields__})


def declarations(app: Flask) -> dict[str, Declaration]:
    """Every endpoint's declaration (built once, after the blueprints are registered)."""
    if "declarations" not in app.extensions:
        app.extensions["declarations"] = {
            endpoint: declaration(app, endpoint) for endpoint in app.view_functions
        }
    return app.extensions["declarations"]
