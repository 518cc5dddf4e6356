"""The language a page is in: Flask-Babel's catalogues for the templates' words, the content
in that language for the municipality's, and the link to the same page in the other one.

Each app says how it knows the language of a request (the site by its `/es/` prefix, the
portal by an explicit choice: portal/web/language.py); never by the browser's settings
alone. Templates read `site` (the settings, in the page's language) and `page_language()`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Flask, current_app, has_request_context
from flask_babel import Babel, refresh
from jinja2 import pass_context
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


# Spanish joins "de" and "a" with "el": a catalogue's "de %(kind)s" with a pack whose kind is
# "el Pueblo" must read "del Pueblo", never "de el Pueblo" (a name with a capital "El", as in
# El Paso, keeps its article).
_ARTICLE = re.compile(r"\b([Dd]e|[Aa]) el\b")
_JOINED = {"de": "del", "De": "Del", "a": "al", "A": "Al"}


def contract_articles(text: str) -> str:
    """ "de el" -> "del", "a el" -> "al" (Spanish words, after their names are filled in)."""
    joined = _ARTICLE.sub(lambda m: _JOINED[m.group(1)], text)
    return Markup(joined) if isinstance(text, Markup) else joined


def _contract_articles(app: Flask) -> None:
    """Wrap the templates' gettext functions so a Spanish page's words are contracted once
    their values are in (Babel's newstyle gettext fills them in itself)."""
    env = app.jinja_env
    for name in ("gettext", "ngettext", "pgettext", "npgettext"):
        original = env.globals.get(name)
        if original is None:
            continue

        def wrapped(context: Any, *args: Any, _original: Any = original, **kwargs: Any) -> str:
            text = _original(context, *args, **kwargs)
            return contract_articles(text) if current_language() == "es" else text

        env.globals[name] = pass_context(wrapped)
    env.globals["_"] = env.globals["gettext"]


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
    _contract_articles(app)
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
