"""The site's search index, written by Pagefind into the frozen build (no server needed).

Pagefind reads the frozen HTML: only elements marked `data-pagefind-body` are indexed
(the ordinance, the exempt discharges, the learn pages), and within them each heading
with an id becomes its own result, linking to that anchor (a section, an exempt entry).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from pagefind_bin import get_executable

from content_model.theme import SEARCH_BUNDLE as BUNDLE

# Pagefind also writes its ready-made interfaces; the search page uses its own (search.js)
# on Pagefind's JavaScript API, so these would only be published unused.
UNUSED = (
    "pagefind-ui.*",
    "pagefind-modular-ui.*",
    "pagefind-component-ui.*",
    "pagefind-highlight.js",
    "wasm.unknown.pagefind",
)

# Navigation and notices repeated inside indexed pages: they would match every query.
NOT_INDEXED = ".toc, .glossary, .to-top, .kicker, .notice, .related"


class SearchIndexError(RuntimeError):
    """Pagefind could not index the build."""


def index_site(build: Path | str, languages: tuple[str, ...] = ("en",)) -> Path:
    """Index the frozen pages in `build` into `build/pagefind/`; return that folder.

    One language: every page is indexed as it. More: Pagefind reads each page's
    `<html lang>` and keeps an index per language, which the search page's own language
    picks (a Spanish query searches the Spanish pages)."""
    forced = ("--force-language", languages[0]) if len(languages) == 1 else ()
    command = [
        str(get_executable()),
        *("--site", str(build), "--output-subdir", BUNDLE),
        *("--exclude-selectors", NOT_INDEXED, *forced, "--quiet"),
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    if result.returncode != 0:
        raise SearchIndexError(f"pagefind failed (exit {result.returncode}): {result.stderr}")
    bundle = Path(build) / BUNDLE
    for pattern in UNUSED:
        for path in bundle.glob(pattern):
            path.unlink()
    return bundle
