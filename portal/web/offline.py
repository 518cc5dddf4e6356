"""The report form on a phone with a weak signal: the service worker that opens it offline
and sends saved reports, the web app manifest and icons, "My reports", and the status
figures "My reports" refreshes.

The form works without any of this; these only serve the scripts that enhance it.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache

from flask import Blueprint, Response, abort, current_app, render_template, request, url_for

from content_model.theme import STATIC, asset_url, strip_js_comments
from portal.core.cases import find_by_token
from portal.core.db import get_db
from portal.web.headers import content_security_policy, origin
from portal.web.icons import ICON_SIZES, icon_png
from portal.web.language import follow_case, translated_wordings
from portal.web.limits import TOKEN_PAGES
from portal.web.routes import NO_STORE, Declaration, declarations, declare

bp = Blueprint("offline", __name__)

# What the service worker keeps so the form opens without a network: the form, "My reports"
# and what they load. Never a status page or a staff page (private, and always fresh).
CACHED_ASSETS = (
    "css/site.css",
    "css/portal.css",
    "js/report.js",
    "js/location.js",
    "js/drafts.js",
    "js/offline.js",
    "js/send.js",
    "favicon.svg",
)
SW_SOURCE = STATIC / "js" / "sw.js"


def _colours():
    return current_app.extensions["content"].settings.colours


@bp.route("/report/sw.js")
def service_worker():
    """The service worker, served under /report/ so its scope is the report pages only."""
    cached = [
        url_for("report.form"),
        url_for("offline.mine"),
        url_for("offline.manifest"),
        *(asset_url(name) for name in CACHED_ASSETS),
        *(url_for("offline.icon", size=size) for size in ICON_SIZES),
    ]
    source = strip_js_comments(SW_SOURCE.read_text(encoding="utf-8"))
    # A new list of assets (a changed file) or a new worker makes a new cache, and the old
    # one is dropped when it takes over.
    version = hashlib.sha256((json.dumps(cached) + source).encode()).hexdigest()[:12]
    head = (
        f"self.CACHE_NAME = {json.dumps('report-' + version)};\n"
        f"self.PRECACHE = {json.dumps(cached)};\n"
        f"self.FORM_URL = {json.dumps(url_for('report.form'))};\n"
        f"importScripts({json.dumps(asset_url('js/drafts.js'))});\n"
    )
    response = Response(head + source, mimetype="text/javascript")
    # Browsers check for a new worker at most daily when allowed to cache it; always ask.
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Service-Worker-Allowed"] = url_for("report.form")
    return response


@bp.route("/report/manifest.webmanifest")
def manifest():
    settings = current_app.extensions["content"].settings
    colours = _colours()
    body = {
        "name": f"{settings.name}: report a problem",
        "short_name": settings.short_name,
        "description": f"Tell the {settings.name} about pollution going into a storm drain.",
        "start_url": url_for("report.form"),
        "scope": url_for("report.form"),
        "display": "standalone",
        "background_color": colours.background,
        "theme_color": colours.brand,
        "icons": [
            {
                "src": url_for("offline.icon", size=size),
                "sizes": f"{size}x{size}",
                "type": "image/png",
                "purpose": "any maskable",
            }
            for size in ICON_SIZES
        ],
    }
    response = Response(json.dumps(body, indent=1), mimetype="application/manifest+json")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.route("/report/icon-<int:size>.png")
def icon(size: int):
    if size not in ICON_SIZES:
        abort(404)
    colours = _colours()
    response = Response(icon_png(size, colours.brand, colours.background), mimetype="image/png")
    response.headers["Cache-Control"] = "public, max-age=86400"
    return response


@bp.route("/report/mine/")
def mine():
    """The reports kept on this device: an empty page the script fills from the device."""
    return render_template("portal/my_reports.html")


@bp.route("/status/<token>/status.json")
@declare(limit=TOKEN_PAGES, caching=NO_STORE)
def status_json(token: str):
    """What "My reports" shows of a kept report: its status, nothing personal."""
    case = find_by_token(get_db(), token) or abort(404)
    follow_case(case)
    office = current_app.extensions["content"].settings.office.name
    status = translated_wordings(office).get(case["status"])
    label, meaning = (status.label, status.public) if status else (case["status"], "")
    return {
        "reference": case["reference"],
        "status": label,
        "meaning": meaning,
        "updated_at": case["updated_at"],
    }


@lru_cache(maxsize=4)
def _report_policy(tiles: str | None) -> str:
    # blob: lets a form show a thumbnail of each photo before it is sent; only there.
    return content_security_policy(tuple(o for o in (tiles, "blob:") if o))


def init_offline(app) -> None:
    app.register_blueprint(bp)
    source = app.extensions["map_tiles"]
    tiles = origin(source.url if source else None)

    @app.after_request
    def previews_allowed(response: Response) -> Response:
        # Runs before the shared headers, which only fill in what is not set.
        # The pages with a photo field declare it: they show each chosen photo (a blob: URL).
        if declarations(app).get(request.endpoint, Declaration()).photo_previews:
            response.headers["Content-Security-Policy"] = _report_policy(tiles)
        return response
