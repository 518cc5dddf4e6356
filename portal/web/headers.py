"""Security headers sent with every portal response (and mirrored in netlify.toml)."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, Response, request

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


def init_headers(app: Flask) -> None:
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
