"""Who the client is: the address, scheme and host the trusted proxies in front say."""

from __future__ import annotations

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix


def init_proxy(app: Flask) -> None:
    """Trust PROXY_HOPS proxies: the client's address is that many entries from the
    right of X-Forwarded-For, the one the outermost trusted proxy appended.

    With 0 (the default) forwarded headers are ignored: anyone can send them, and trusting
    one entry more than there are proxies would let a client pick its own address (and
    escape its rate limit). Each proxy appends to X-Forwarded-For but sets -Proto (nginx's
    `proxy_set_header` replaces it): that holds the nearest proxy's one value.
    X-Forwarded-Host is never believed: the README's nginx does not set it, so
    a client could; every link is built on PORTAL_PUBLIC_URL instead. Everything that asks
    for `request.remote_addr`, the rate limits included, gets the address ProxyFix found.

    Forwarded headers are believed from whoever connects: gunicorn must listen only where
    the proxy can reach it (127.0.0.1, as the README's unit does), or anyone connecting
    directly picks their address; `flask --app portal check` says so.
    """
    hops = app.config["PROXY_HOPS"]
    if isinstance(hops, bool) or not isinstance(hops, int) or hops < 0:
        raise ValueError(f"PORTAL_PROXY_HOPS must be a whole number 0 or more, not {hops!r}")
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=1, x_host=0)
