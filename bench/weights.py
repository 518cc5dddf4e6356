"""Page weight: a page's gzipped HTML plus the CSS and JavaScript it loads."""

from __future__ import annotations

import gzip
import re
from collections.abc import Callable
from html.parser import HTMLParser

SITE_PAGE_BUDGET = 14 * 1024
FORM_PAGE_BUDGET = 20 * 1024
# The report form's offline code (service worker, drafts, offline.js, send.js): loaded after
# the form is interactive, so outside the form's budget, within one of its own.
OFFLINE_BUDGET = 10 * 1024


class _Resources(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        if tag == "script" and values.get("src"):
            self.found.append(values["src"])
        if tag == "link" and values.get("rel") in ("stylesheet", "icon"):
            self.found.append(values["href"])


def gzipped(data: bytes) -> int:
    return len(gzip.compress(data, 9))


def page_weight(html: bytes, fetch: Callable[[str], bytes]) -> tuple[int, int]:
    """(gzipped HTML, gzipped HTML + stylesheets, scripts and icon); `fetch` reads a URL path."""
    parser = _Resources()
    parser.feed(html.decode("utf-8"))
    return gzipped(html), gzipped(html) + sum(gzipped(fetch(url)) for url in parser.found)


# Where the report form names its offline code: the worker, and what report.js loads later
# (sending with progress among it).
_OFFLINE_PARTS = re.compile(r'data-(?:sw|drafts-js|offline-js|send-js)="([^"]+)"')


def offline_weight(html: bytes, fetch: Callable[[str], bytes]) -> tuple[int, int]:
    """(how many files, their gzipped bytes): the offline code the form page names."""
    urls = _OFFLINE_PARTS.findall(html.decode("utf-8"))
    return len(urls), sum(gzipped(fetch(url)) for url in urls)
