"""Security headers sent with every portal response (and mirrored in netlify.toml)."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, Response, request
from flask.sessions import SecureCookieSessionInterface

from portal.web.routes import BACK_STEP, NO_STORE, Declaration, declarations


def content_security_policy(
    image_origins: tuple[str, ...] = (),
    wasm: bool = False,
    *,
    scripts: tuple[str, ...] = (),
    styles: tuple[str, ...] = (),
    framed_by: str = "'none'",
) -> str:
    """No inline script or style anywhere; images also from the map tile server, if any.

    `wasm`: the page may compile WebAssembly (the site's search, Pagefind), which
    'wasm-unsafe-eval' allows without allowing JavaScript's eval. `scripts` and `styles`:
    the hashes of the inline blocks a page may run (the staff map, and nothing else);
    `framed_by`: who may frame the page ('self' for the map document).
    """
    return "; ".join(
        [
            "default-src 'self'",
            " ".join(["img-src 'self' data:", *image_origins]),
            " ".join(["script-src 'self'", *(["'wasm-unsafe-eval'"] if wasm else []), *scripts]),
            " ".join(["style-src 'self'", *styles]),
            "object-src 'none'",
            "base-uri 'self'",
            "form-action 'self'",
            f"frame-ancestors {framed_by}",
        ]
    )


SECURITY_HEADERS = {
    "Content-Security-Policy": content_security_policy(),
    "Strict-Transport-Security": "max-age=31536000; includeSubDomains",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    # Status links carry a secret token: never hand the URL to another site.
    "Referrer-Policy": "same-origin",
    "Permissions-Policy": "geolocation=(self), camera=(), microphone=(), payment=(), usb=()",
    "Cross-Origin-Opener-Policy": "same-origin",
}

# The frozen site's headers, as netlify.toml sends them with every file of it. Netlify
# adds up the headers of every rule matching a path, so two CSPs would both apply: the
# site's search cannot have a policy of its own there, and WebAssembly is allowed site-wide.
SITE_HEADERS = SECURITY_HEADERS | {"Content-Security-Policy": content_security_policy(wasm=True)}


def cache_control(declared: Declaration, method: str) -> str | None:
    """Cache-Control as the route declared it (portal/web/routes.py): pages that show a
    person's details or a secret token are no-store. A POST's answer is a form shown again
    with what was typed, or a review of it: private too, no-store unless it is a form step
    the Back button returns to."""
    if method == "POST":
        return BACK_STEP if declared.back_step else NO_STORE
    return declared.caching


def origin(url: str | None) -> str | None:
    """'https://tiles.example/{z}/{x}/{y}.png' -> 'https://tiles.example'."""
    if not url:
        return None
    parts = urlsplit(url)
    if not (parts.scheme and parts.netloc):
        return None
    # Tile servers spread over subdomains ({s}.tile.example) become a CSP wildcard.
    return f"{parts.scheme}://{parts.netloc.replace('{s}', '*')}"


def keep_for_back(response: Response) -> Response:
    """Let the browser keep this form page for Back: it fetches it anew for every other
    visit (no-cache), but Back shows the copy it had, with its submission key, so Back
    after Send and Send again is the same report, not a second one (a browser goes back
    to a kept copy, whatever its age, unless told no-store). Private: never a shared
    cache's, as the page carries the session's CSRF token."""
    response.headers["Cache-Control"] = "private, no-cache"
    response.kept_for_back = True  # type: ignore[attr-defined]
    return response


class SessionKeepingPagesForBack(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, except that a page kept for Back does not vary by
    the cookie: the first visit's copy was fetched before the session cookie existed, and
    with Vary: Cookie the browser would never use it again."""

    def save_session(self, app: Flask, session, response: Response) -> None:
        super().save_session(app, session, response)
        if getattr(response, "kept_for_back", False):
            response.vary.discard("Cookie")


def init_headers(app: Flask) -> None:
    app.session_interface = SessionKeepingPagesForBack()
    source = app.extensions["map_tiles"]
    tiles = origin(source.url if source else None)
    headers = SECURITY_HEADERS | {
        "Content-Security-Policy": content_security_policy((tiles,) if tiles else ())
    }
    # HSTS only where the public address is https: it means nothing on plain http.
    if not (app.config["PUBLIC_URL"] or "").startswith("https:"):
        del headers["Strict-Transport-Security"]

    @app.after_request
    def add_security_headers(response: Response) -> Response:
        for name, value in headers.items():
            response.headers.setdefault(name, value)
        declared = declarations(app).get(request.endpoint, Declaration())
        if policy := cache_control(declared, request.method):
            response.headers["Cache-Control"] = policy
        return response
