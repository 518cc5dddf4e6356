"""The language a page is in: Flask-Babel's catalogues for the templates' words, the content
in that language for the municipality's, and the link to the same page in the other one.

Each app says how it knows the language of a request (the site by its `/es/` prefix, the
portal by an explicit choice: portal/web/language.py); never by the browser's settings
alone. Templates read `site` (the settings, in the page's language) and `page_language()`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask import Flask, current_app, has_request_context
from flask_babel import Babel, refresh
from markupsafe import Markup
from werkzeug.local import LocalProxy

from content_model.loader import Content
from content_model.theme import ROOT, page_language
from content_model.translation import IN_ENGLISH, LANGUAGE_NAMES

# The gettext catalogues (translations/es/LC_MESSAGES/messages.po, compiled to .mo by setup).
TRANSLATIONS = ROOT / "translations"

babel = Babel()
# The notice offering the other language, in that language (the page itself is not in it).
OFFER_WORDS = {"en": "This page is also in English:", "es": "Esta página también está en español:"}


@dataclass(frozen=True)
class Alternate:
    """The same page in a language: where it is, and the language's name in itself."""

    language: str
    url: str

    @property
    def name(self) -> str:
        return LANGUAGE_NAMES[self.language]


current_language = page_language


def current_content() -> Content:
    """The content in the page's language (the English content if the pack lacks it)."""
    return current_app.extensions["content"].in_language(current_language())


def upfirst(text: str) -> str:
    """The first letter in capitals, the rest as it is ('la Villa' -> 'La Villa'): a name
    that carries its article starts a sentence or a heading."""
    return text[:1].upper() + text[1:]


def init_language(
    app: Flask,
    select: Callable[[], str | None],
    alternates: Callable[[], list[Alternate]],
    *,
    hreflang: bool,
) -> None:
    """Flask-Babel with `select` choosing each request's language, and the templates' view
    of it: `alternates()` is the page in every language the pack has (the language link;
    with `hreflang`, also `<link rel="alternate">` for search engines)."""
    babel.init_app(app, locale_selector=select, default_translation_directories=str(TRANSLATIONS))
    app.jinja_env.globals.update(
        site=LocalProxy(lambda: current_content().settings),
        page_language=current_language,
        translation_pending=lambda: current_content().pending_review,
        language_offer_words=OFFER_WORDS,
        # The staff pages name a case's language in English ("Spanish").
        language_in_english=IN_ENGLISH,
        # On a translated page, a link to the law's official English text says so.
        official_hreflang=lambda: (
            Markup("") if current_language() == "en" else Markup(' hreflang="en"')
        ),
        section_title=lambda section: current_content().section_title(section.number),
    )

    app.jinja_env.filters["upfirst"] = upfirst
    # Flask-Babel keeps the locale on `g`, which outlives a request when an app context was
    # already pushed (Frozen-Flask freezes every page in one): each request chooses again.
    app.before_request(refresh)

    @app.context_processor
    def languages():
        # Mail is rendered without a request: it has no other page.
        translated = len(current_app.extensions["content"].languages) > 1
        pages = alternates() if translated and has_request_context() else []
        here = current_language()
        return {
            # Only the portal offers a language (portal/web/language.py): the site is frozen.
            "language_offer": None,
            "english_only": None,
            "language_links": [page for page in pages if page.language != here],
            "hreflang_links": pages if hreflang else [],
            # Alternates name their pages by full address where the published one is known
            # (search engines ignore a relative hreflang): the app's PUBLIC_URL (the portal's
            # setting, SITE_PUBLIC_URL for the site) or the content's public_url.
            "public_origin": (
                current_app.config.get("PUBLIC_URL")
                or current_app.extensions["content"].settings.public_url
                or ""
            ).rstrip("/"),
        }
