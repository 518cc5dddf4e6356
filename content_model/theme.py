"""The shared look: templates, fingerprinted assets and filters used by both apps."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

import markdown as markdown_lib
from flask import Blueprint, Flask, Response, abort, send_from_directory, url_for
from flask_babel import get_locale
from jinja2 import StrictUndefined
from markupsafe import Markup, escape
from werkzeug.routing import Map, Rule

from content_model.loader import Content

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"
STATIC = ROOT / "static"
ASSET_MAX_AGE = 365 * 24 * 3600

# Portal pages the shared templates link to by name (`portal_url('report')`). Netlify proxies
# every path the site has no file for to the portal (static_site/freeze.py), listed or not.
PORTAL_PATHS = {
    "report": "/report/",
    "notify": "/notify/",
    "status": "/status/",
    "staff": "/staff/",
    "open311": "/open311/",
}

# The public site's pages (endpoint -> rule). The site registers its views on these rules
# and the portal builds links to them from the same table, without importing the site.
SITE_PAGES = {
    "index": "/",
    "ordinance": "/ordinance/",
    "exempt_discharges": "/exempt-discharges/",
    "learn": "/learn/",
    "learn_page": "/learn/<slug>/",
    "search": "/search/",
    "contact": "/contact/",
    "not_found_page": "/404.html",
}

# The folder Pagefind writes the search index into, under the build, and the paths where
# it runs WebAssembly (the search page and that folder, for its worker script).
SEARCH_BUNDLE = "pagefind"
WASM_PATHS = ("/search/", f"/{SEARCH_BUNDLE}/")

assets = Blueprint("assets", __name__)


def site_links(languages: tuple[str, ...] = ()) -> Callable[..., str]:
    """Build paths to the site's pages without serving them (for the portal's templates),
    in the page's language: the site has each other language under its prefix (/es/)."""
    rules = [Rule(rule, endpoint=f"site.{name}") for name, rule in SITE_PAGES.items()]
    for language in languages:
        rules += [
            Rule(f"/{language}{rule}", endpoint=f"site_{language}.{name}")
            for name, rule in SITE_PAGES.items()
        ]
    adapter = Map(rules).bind("localhost")

    def site_url(
        endpoint: str, _anchor: str | None = None, _language: str | None = None, **values: Any
    ) -> str:
        language = _language or page_language()
        if language in languages:
            endpoint = f"site_{language}.{endpoint.split('.', 1)[1]}"
        path = adapter.build(endpoint, values)
        return f"{path}#{_anchor}" if _anchor else path

    return site_url


def page_language() -> str:
    """The language of the page being rendered ('en' outside a request)."""
    locale = get_locale()
    return locale.language if locale is not None else "en"


@lru_cache(maxsize=256)
def fingerprint(filename: str) -> str:
    """A short hash of the file's bytes, so its URL changes whenever its content does.

    Read once per process (a page names a dozen assets; checking the file each time was
    a stat and a path resolution per link): a deploy restarts the workers, which read the
    new files. A name that is not a file is not kept, so probing for names costs nothing."""
    path = STATIC / filename
    if not path.is_file() or not path.resolve().is_relative_to(STATIC):
        raise FileNotFoundError(filename)
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def asset_url(filename: str) -> str:
    return url_for("assets.asset", digest=fingerprint(filename), filename=filename)


@assets.route("/assets/<digest>/<path:filename>")
def asset(digest: str, filename: str):
    try:
        current = fingerprint(filename)
    except (FileNotFoundError, ValueError):
        abort(404)
    if digest != current:
        abort(404)
    own_script = filename.startswith("js/") and filename.endswith(".js")
    if filename.endswith(".css") or own_script:
        sent = js_as_sent if own_script else css_as_sent
        mimetype = "text/javascript" if own_script else "text/css"
        response = Response(sent(filename, current), mimetype=mimetype)
        response.cache_control.public = True
        response.cache_control.max_age = ASSET_MAX_AGE
        return response
    return send_from_directory(STATIC, filename, max_age=ASSET_MAX_AGE)


CSS_COMMENT = re.compile(r"/\*.*?\*/\n?", re.DOTALL)


@lru_cache(maxsize=32)
def css_as_sent(filename: str, digest: str) -> bytes:
    """A style sheet without its comments: they say why for whoever edits the file, and a
    phone on a weak signal need not fetch them (a third of portal.css, gzipped). Kept per
    fingerprint, so a changed file is read again."""
    return CSS_COMMENT.sub("", (STATIC / filename).read_text(encoding="utf-8")).encode()


# A comment on lines of its own (a block comment with nothing after it on its last line):
# only those, so nothing inside a string, a regular expression or after code is touched.
JS_COMMENT = re.compile(r"^[ \t]*(?://[^\n]*|/\*(?:[^*]|\*(?!/))*\*/[ \t]*)\n", re.MULTILINE)


def strip_js_comments(source: str) -> str:
    """Our own scripts without their comment lines (vendor files keep their notices)."""
    return JS_COMMENT.sub("", source)


@lru_cache(maxsize=32)
def js_as_sent(filename: str, digest: str) -> bytes:
    """One of our scripts without its comment lines, as style sheets go without theirs: the
    comments say why for whoever edits the file (about a quarter of each script, gzipped),
    and the words of a page in Spanish need that room within its weight budget."""
    return strip_js_comments((STATIC / filename).read_text(encoding="utf-8")).encode()


def render_markdown(text: str) -> Markup:
    """Markdown from content/ (checked free of raw HTML by the loader) as safe HTML."""
    return Markup(markdown_lib.markdown(text, extensions=["sane_lists"], output_format="html"))


# Text between tags, outside any existing link: only there may a citation become a link.
_TAG_OR_LINK = re.compile(r"(<a\b.*?</a>|<[^>]+>)", re.DOTALL)


class Citations:
    """Turns '§ N-6' (N the ordinance's chapter) in text into a link to that section."""

    def __init__(self, content: Content) -> None:
        self.sections = content.ordinance.by_number
        self.pattern = re.compile(rf"§\s({re.escape(content.ordinance.chapter)}-\d+)")

    def __call__(self, value: str | Markup, page: str = "") -> Markup:
        html = value if isinstance(value, Markup) else escape(value)
        parts = _TAG_OR_LINK.split(str(html))
        for i in range(0, len(parts), 2):  # even indexes are the text between tags
            parts[i] = self.pattern.sub(lambda m: self._link(m, page), parts[i])
        return Markup("".join(parts))

    def _link(self, match: re.Match, page: str) -> str:
        number = match.group(1)
        if number not in self.sections:
            return match.group(0)
        return f'<a href="{page}#sec-{number}">{match.group(0)}</a>'


def portal_url(name: str) -> str:
    """A portal page; from a page in another language than English, in that language too
    (the portal never guesses it: portal/web/language.py)."""
    language = page_language()
    return PORTAL_PATHS[name] + ("" if language == "en" else f"?lang={language}")


def init_theme(app: Flask, content: Content, site_url: Callable[..., str]) -> None:
    """Give an app the shared templates, assets, filters and a strict Jinja environment.

    `site_url(endpoint, **values)` builds links to the public site's pages: `url_for`
    in the site itself, a path builder in the portal (which does not serve those pages).
    """
    app.jinja_env.undefined = StrictUndefined
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    app.jinja_env.filters["markdown"] = render_markdown
    app.jinja_env.filters["cite"] = Citations(content)
    app.jinja_env.globals.update(
        site=content.settings,
        # The section doing each job, by role: `§ {{ section_for.release_notification }}`.
        section_for=content.ordinance.roles,
        asset_url=asset_url,
        site_url=site_url,
        portal_url=portal_url,
    )
    app.register_blueprint(assets)
