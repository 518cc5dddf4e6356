"""The public site: the ordinance, the exempt discharges and the education pages."""

from __future__ import annotations

from typing import Any

from flask import Flask, current_app, request, url_for

from content_model.check import load_checked
from content_model.language import Alternate, current_language, init_language
from content_model.theme import TEMPLATES, init_theme
from content_model.translation import DEFAULT_LANGUAGE

# Each language but English is a copy of the site under its own prefix: /es/learn/pet-waste/.
# Its blueprint is the site's, registered again as "site_es".


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
    init_theme(app, content, site_url=site_url)
    init_language(app, page_language, alternates, hreflang=True)

    from static_site import views

    app.register_blueprint(views.bp)
    for language in content.languages[1:]:
        app.register_blueprint(views.bp, name=f"site_{language}", url_prefix=f"/{language}")
    return app


def page_language() -> str:
    """The language of the page's prefix (/es/...): the site's pages are one per language."""
    first = request.path.strip("/").split("/", 1)[0]
    return first if first in _languages() else DEFAULT_LANGUAGE


def _languages() -> tuple[str, ...]:
    return current_app.extensions["content"].languages


def endpoint_in(endpoint: str, language: str) -> str:
    """'site.learn_page' -> 'site_es.learn_page' (the same page in another language)."""
    page = endpoint.split(".", 1)[1]
    return f"site.{page}" if language == DEFAULT_LANGUAGE else f"site_{language}.{page}"


def site_url(endpoint: str, _language: str | None = None, **values: Any) -> str:
    """A link to a page of the site in the page's own language (or in `_language`: the
    official English text of the law, say)."""
    return url_for(endpoint_in(endpoint, _language or current_language()), **values)


def alternates() -> list[Alternate]:
    """This page in each language the site has (none for a page with no endpoint)."""
    if request.endpoint is None or "." not in request.endpoint:
        return []
    return [
        Alternate(language, url_for(endpoint_in(request.endpoint, language), **request.view_args))
        for language in _languages()
    ]
