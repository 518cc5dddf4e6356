"""The site's pages: each view hands one piece of content to its template."""

from __future__ import annotations

from flask import Blueprint, abort, render_template, url_for

from content_model.language import current_content
from content_model.loader import Content
from content_model.theme import SEARCH_BUNDLE, SITE_PAGES

bp = Blueprint("site", __name__)


def _content() -> Content:
    return current_content()


@bp.route(SITE_PAGES["index"])
def index():
    content = _content()
    return render_template(
        "site/index.html",
        pages=content.pages,
        ordinance=content.ordinance,
        law_title=content.law_title,
        law_article=content.law_article,
    )


@bp.route(SITE_PAGES["ordinance"])
def ordinance():
    content = _content()
    if content.summaries:
        # The law is English only, as adopted: in another language, a summary of each
        # section linked to the official English text.
        return render_template(
            "site/ordinance_summary.html",
            ordinance=content.ordinance,
            law_title=content.law_title,
            summaries=content.summaries,
            search_words=content.search.sections,
            official=url_for("site.ordinance"),
        )
    return render_template(
        "site/ordinance.html", ordinance=content.ordinance, search_words=content.search.sections
    )


@bp.route(SITE_PAGES["exempt_discharges"])
def exempt_discharges():
    content = _content()
    return render_template(
        "site/exempt_discharges.html",
        exempt=content.exempt,
        section=content.ordinance.by_number[content.exempt.section],
        pages=content.pages,
    )


@bp.route(SITE_PAGES["learn"])
def learn():
    return render_template("site/learn.html", pages=_content().pages)


@bp.route(SITE_PAGES["learn_page"])
def learn_page(slug: str):
    content = _content()
    page = content.page_by_slug.get(slug) or abort(404)
    sections = [content.ordinance.by_number[number] for number in page.sections]
    return render_template("site/learn_page.html", page=page, sections=sections)


@bp.route(SITE_PAGES["search"])
def search():
    words = _content().search
    return render_template(
        "site/search.html",
        # The folder Pagefind writes its script and index into (see static_site/search.py).
        bundle=url_for("site.index") + SEARCH_BUNDLE + "/",
        shortcuts=words.shortcuts,
        # The hidden lines of words indexed with the pages: search.js keeps them out of
        # the excerpts it shows.
        hidden_words=hidden_word_lines(_content()),
    )


def hidden_word_lines(content: Content) -> list[str]:
    """Every hidden line of search words the pages carry, as the pages write them."""
    lines = [", ".join(page.keywords) for page in content.pages if page.keywords]
    lines += [", ".join(words) for words in content.search.sections.values()]
    if content.search.contact:
        lines.append(", ".join(content.search.contact))
    return lines


@bp.route(SITE_PAGES["contact"])
def contact():
    return render_template("site/contact.html", search_words=_content().search.contact)


@bp.route(SITE_PAGES["not_found_page"])
def not_found_page():
    return render_template("site/not_found.html")


@bp.app_errorhandler(404)
def not_found(error):
    return render_template("site/not_found.html"), 404
