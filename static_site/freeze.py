"""Freeze the site into static files, ready for Netlify."""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from pathlib import Path
from typing import Any

from flask_frozen import Freezer, FrozenFlaskWarning

from content_model.fields import ContentError
from static_site import create_app
from static_site.search import SearchIndexError, index_site


def netlify_redirects(portal_origin: str | None) -> str:
    """Netlify `_redirects`: every path the built site has no file for is proxied to the
    portal (status 200, so visitors stay on the site's address). Not forced, so the site's
    pages and assets win; the portal answers the rest, its pages whatever path they declare
    (a new form needs no rule of its own) and, for a path nobody has, the site's own 404
    page. Nothing here lists the portal's paths."""
    if not portal_origin:
        return ""
    return f"/*  {portal_origin.rstrip('/')}/:splat  200\n"


def site_freezer(app) -> Freezer:
    """The site's Freezer: every page of every language listed, linked or not."""
    freezer = Freezer(app, with_static_files=False)

    @freezer.register_generator
    def pages():
        # Listed here too, so a page is built even before anything links to it.
        content = app.extensions["content"]
        for blueprint in ["site"] + [f"site_{language}" for language in content.languages[1:]]:
            for page in content.pages:
                yield f"{blueprint}.learn_page", {"slug": page.slug}
            yield f"{blueprint}.not_found_page", {}

    return freezer


def page_urls(test_config: dict[str, Any] | None = None) -> list[str]:
    """The URL path of every page `freeze` writes, without building them (the browser tests
    list their pages at collection time, before any fixture runs)."""
    app = create_app(test_config)
    with app.test_request_context():
        return sorted(set(site_freezer(app).all_urls()))


def freeze(destination: Path | str, test_config: dict[str, Any] | None = None) -> list[str]:
    """Write every page into `destination`, then its search index; return the URLs frozen.

    Frozen-Flask's warnings (a page linked but not generated, say) are errors here.
    """
    config = {"FREEZER_DESTINATION": str(Path(destination).resolve())} | (test_config or {})
    app = create_app(config)
    freezer = site_freezer(app)
    with warnings.catch_warnings():
        warnings.simplefilter("error", FrozenFlaskWarning)
        urls = list(freezer.freeze_yield())
    index_site(destination, app.extensions["content"].languages)
    settings = app.extensions["content"].settings
    origin = os.environ.get("SITE_PORTAL_ORIGIN") or settings.portal_origin
    rules = netlify_redirects(origin)
    if rules:
        (Path(destination) / "_redirects").write_text(rules, encoding="utf-8")
    return [page.url for page in urls]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m static_site", description=__doc__)
    parser.add_argument("destination", nargs="?", default="build", help="folder to write")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    try:
        urls = freeze(args.destination)
    except ContentError as error:
        print(f"content error: {error}", file=sys.stderr)
        return 1
    except SearchIndexError as error:
        print(f"search index: {error}", file=sys.stderr)
        return 1
    elapsed = time.perf_counter() - started
    print(f"froze {len(urls)} files into {args.destination}/ in {elapsed:.2f} s")
    if not (Path(args.destination) / "_redirects").exists():
        print(
            "note: no portal origin set (SITE_PORTAL_ORIGIN or portal_origin in site.yaml);"
            " a published copy will not proxy the portal's pages",
            file=sys.stderr,
        )
    return 0
