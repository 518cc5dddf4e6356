"""The public site: the ordinance, the exempt discharges and the education pages."""

from __future__ import annotations

from typing import Any

from flask import Flask, url_for

from content_model.check import load_checked
from content_model.theme import TEMPLATES, init_theme


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the site app; `CONTENT_DIR` in the config points at another content folder."""
    app = Flask(__name__, template_folder=str(TEMPLATES), static_folder=None)
    app.config.from_mapping(
        CONTENT_DIR=None,
        FREEZER_STATIC_IGNORE=["*"],
        FREEZER_REDIRECT_POLICY="error",
    )
    app.config.from_prefixed_env("SITE")
    if test_config:
        app.config.update(test_config)
    content = load_checked(app.config["CONTENT_DIR"])
    app.extensions["content"] = content
    init_theme(app, content, site_url=url_for)

    from static_site import views

    app.register_blueprint(views.bp)
    return app
