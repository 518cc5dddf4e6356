"""Security headers sent with every portal response (and mirrored in netlify.toml)."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, Response


def content_security_policy(image_origins: tuple[str, ...] = (), wasm: bool = False) -> str:
    """No inline script or style anywhere; images also from the map tile server, if any.

    `wasm`: the page may compile WebAssembly (the site's search, Pagefind), which
    'wasm-unsafe-eval' allows without allowing JavaScript's eval.
    """
    return "; ".join(
        [
            "default-src 'self'",
            " ".join(["img-src 'self' data:", *image_origins]),
            "script-src 'self' 'wasm-unsafe-eval'" if wasm else "script-src 'self'",
            "style-src 'self'",
            "object-src 'none'",
            "base-uri 'self'",
            "form-action 'self'",
            "frame-ancestors 'none'",
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
    tiles = origin(app.config["MAP_TILE_URL"])
    headers = SECURITY_HEADERS | {
        "Content-Security-Policy": content_security_policy((tiles,) if tiles else ())
    }

    @app.after_request
    def add_security_headers(response: Response) -> Response:
        for name, value in headers.items():
            response.headers.setdefault(name, value)
        return response
