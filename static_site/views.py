"""The site's pages: each view hands one piece of content to its template."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, render_template, url_for

from content_model.loader import Content
from content_model.theme import SEARCH_BUNDLE, SITE_PAGES

bp = Blueprint("site", __name__)


def _content() -> Content:
    return current_app.extensions["content"]


@bp.route(SITE_PAGES["index"])
def index():
    content = _content()
    return render_template("site/index.html", pages=content.pages, ordinance=content.ordinance)


@bp.route(SITE_PAGES["ordinance"])
def ordinance():
    return render_template("site/ordinance.html", ordinance=_content().ordinance)


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
    # The folder Pagefind writes its script and index into (see static_site/search.py).
    return render_template("site/search.html", bundle=url_for("site.index") + SEARCH_BUNDLE + "/")


@bp.route(SITE_PAGES["not_found_page"])
def not_found_page():
    return render_template("site/not_found.html")


@bp.app_errorhandler(404)
def not_found(error):
    return render_template("site/not_found.html"), 404
