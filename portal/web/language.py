"""The language of the portal's pages for the public: chosen, never guessed.

A page is in Spanish only when the person asked for it: the link they followed from a Spanish
page carries `?lang=es` (the site's Spanish pages link to `/report/?lang=es`), or they chose
it on the language link, which carries the same. The choice is remembered in a cookie that
holds only the language (not personal data), so every later step of a form follows it. A
query parameter rather than an `/es/` prefix: the portal's forms, their posts and the links
in mail keep the one address each has, Netlify's one proxy rule still sends them all, and a
report's own pages (thanks, status, receipt) follow the language the report was filed in
whatever the link or the cookie say. The browser's Accept-Language only offers the other
language in a short notice; it never switches a page by itself. Staff pages are English.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlencode

import sqlite_utils
from flask import Flask, Response, current_app, g, has_request_context, request
from flask_babel import force_locale, gettext, refresh
from markupsafe import Markup
from sqlite_utils import Migrations
from werkzeug.exceptions import MethodNotAllowed, NotFound

from content_model.language import Alternate, current_language, init_language
from content_model.theme import PORTAL_PATHS
from content_model.translation import DEFAULT_LANGUAGE
from portal.core.migrations import add_columns, register
from portal.core.statuses import STATUSES, Status

# Each case keeps the language it was filed in (cases.language: 'en', 'es'): its pages and
# every mail to the person who filed it follow it. A set of its own, applied after the
# portal's; a case filed before (or by staff, or the API) is English.
migrations = register(Migrations("case_language"))


@migrations(name="001_case_language")
def case_language(db: sqlite_utils.Database) -> None:
    """The language a case was filed in."""
    add_columns(db, [("cases", "language", "TEXT NOT NULL DEFAULT 'en'")])


COOKIE = "lang"
QUERY = "lang"
COOKIE_DAYS = 365
# The blueprints whose pages the public reads (the rest are staff's or machines'); site_files
# serves the frozen site beside the portal in `make run` (its 404 pages, say).
PUBLIC = {"report", "notify", "status", "offline", "site_files", None}


# Pages not translated yet (blueprints): shown in English, with a note in the language the
# person asked for that says so and what the law asks of them. None at present: the release
# notification was the last, and is in Spanish with its receipt and mail.
ENGLISH_ONLY: set[str] = set()


def _languages() -> tuple[str, ...]:
    return current_app.extensions["content"].languages


def _asked() -> str | None:
    try:
        asked = request.args.get(QUERY)
    except UnicodeDecodeError:  # a query that is not UTF-8 gets a 400 page, in English
        return None
    return asked if asked in _languages() else None


def choose() -> str:
    """The language of this request's page: asked for (the link followed), else the one of
    the report the page is about, else a page under /es/, else remembered, else English."""
    if not _public() or request.blueprint in ENGLISH_ONLY:
        return DEFAULT_LANGUAGE  # mail to staff, a command, the staff pages
    asked = _asked()
    if asked:
        return asked
    if g.get("case_language") in _languages():
        return g.case_language
    first = request.path.strip("/").split("/", 1)[0]
    if first in _languages():
        return first
    remembered = request.cookies.get(COOKIE)
    return remembered if remembered in _languages() else DEFAULT_LANGUAGE


def _public() -> bool:
    """A page the public reads (never mail, which is rendered without a request)."""
    if not has_request_context():
        return False
    return request.blueprint in PUBLIC and not request.path.startswith("/staff")


def follow_case(case: dict[str, Any]) -> None:
    """A case's pages are in the language it was filed in (an explicit `?lang=` aside)."""
    g.case_language = case.get("language") or DEFAULT_LANGUAGE
    refresh()


@contextmanager
def in_case_language(case: dict[str, Any]) -> Iterator[None]:
    """Mail to the person who filed a case, in the case's language whatever the page."""
    with force_locale(case.get("language") or DEFAULT_LANGUAGE):
        yield


def translated_wordings(office: str) -> dict[str, Status]:
    """The statuses' labels and public wordings in the page's language."""
    return {
        key: status._replace(
            label=gettext(status.label), public=gettext(status.public).format(office=office)
        )
        for key, status in STATUSES.items()
    }


def link_in(language: str) -> str:
    """This page in `language`: its address with `?lang=`, or for the answer to a post the
    page a person would open again (a form's first page)."""
    path = request.path
    if request.method != "GET":
        try:
            current_app.url_map.bind("localhost").match(path, method="GET")
        except (MethodNotAllowed, NotFound):
            path = PORTAL_PATHS.get(request.blueprint or "", "/")
    try:
        args = [(key, value) for key, value in request.args.items(multi=True) if key != QUERY]
    except UnicodeDecodeError:
        args = []
    return f"{path}?{urlencode([*args, (QUERY, language)])}"


def alternates() -> list[Alternate]:
    if not _public() or request.blueprint in ENGLISH_ONLY:
        return []
    return [Alternate(language, link_in(language)) for language in _languages()]


def offer() -> Alternate | None:
    """The other language to offer in a notice, when the browser prefers it and the person
    has not chosen (a notice and a link, never a switch)."""
    if not _public() or _asked() or request.cookies.get(COOKIE) or g.get("case_language"):
        return None
    if request.blueprint in ENGLISH_ONLY:
        return None
    here = current_language()
    best = request.accept_languages.best_match(_languages(), default=here)
    return Alternate(best, link_in(best)) if best != here else None


def english_only_note() -> Markup | None:
    """On a page not translated yet, asked for in another language: a note in that language
    that the page is English, with what the law asks (rendered in that language)."""
    if not has_request_context() or request.blueprint not in ENGLISH_ONLY:
        return None
    wanted = _asked() or request.cookies.get(COOKIE)
    if wanted not in _languages() or wanted == DEFAULT_LANGUAGE:
        return None
    with force_locale(wanted):
        # The environment's own render: a context processor must not render through Flask.
        note = current_app.jinja_env.get_template("portal/_english_only.html")
        return Markup(note.render(language=wanted))


def remember(response: Response) -> Response:
    """Keep a language asked for, so the next step of the form follows it."""
    asked = _asked()
    if asked and request.cookies.get(COOKIE) != asked:
        response.set_cookie(
            COOKIE,
            asked,
            max_age=COOKIE_DAYS * 24 * 3600,
            secure=bool(current_app.config["SESSION_COOKIE_SECURE"]),
            httponly=True,
            samesite="Lax",
        )
    if _public() and len(_languages()) > 1:
        response.vary.add("Cookie")
    return response


def _forget_case() -> None:
    """A case's language is for its own page (a test's app context outlives a request)."""
    g.pop("case_language", None)


def init_portal_language(app: Flask) -> None:
    app.before_request(_forget_case)
    init_language(app, choose, alternates, hreflang=False)
    app.after_request(remember)
    app.context_processor(lambda: {"language_offer": offer(), "english_only": english_only_note()})
