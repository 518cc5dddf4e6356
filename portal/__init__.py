"""The reporting portal: resident reports, release notifications and the staff workspace."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from flask import Flask, render_template

from portal.headers import init_headers
from static_site import site_links
from static_site.content import load_content
from static_site.theme import TEMPLATES, init_theme


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the portal; settings come from `PORTAL_*` environment variables or `test_config`."""
    app = Flask(
        __name__, instance_relative_config=True, template_folder=str(TEMPLATES), static_folder=None
    )
    app.config.from_mapping(
        SECRET_KEY=None,
        CONTENT_DIR=None,
        # The frozen site to serve beside the portal (local runs only).
        SITE_DIR=None,
        DATABASE=str(Path(app.instance_path) / "portal.sqlite3"),
    )
    app.config.from_prefixed_env("PORTAL")
    if test_config:
        app.config.update(test_config)
    if not app.config["SECRET_KEY"]:
        # Never a fixed default: without a configured key, sessions last one process.
        app.config["SECRET_KEY"] = secrets.token_hex(32)

    content = load_content(app.config["CONTENT_DIR"])
    app.extensions["content"] = content
    init_theme(app, content, site_url=site_links())
    init_headers(app)

    @app.errorhandler(404)
    def not_found(error):
        return render_template("site/not_found.html"), 404

    if app.config["SITE_DIR"]:
        from portal.site_files import init_site_files

        init_site_files(app, app.config["SITE_DIR"])
    return app
