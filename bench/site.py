"""Page weights of the frozen site and the time it takes to freeze it."""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from bench.weights import SITE_PAGE_BUDGET as PAGE_BUDGET
from bench.weights import gzipped, page_weight
from static_site.freeze import freeze
from static_site.search import BUNDLE

SEARCH_PAGE = "/search/"
# What Pagefind fetches when the search page starts, before the first query.
SEARCH_START = (
    "pagefind.js",
    "pagefind-worker.js",
    "pagefind-entry.json",
    "*.pf_meta",
    "wasm.en.pagefind",
)


def page_weights(build: Path) -> list[tuple[str, int, int]]:
    """(URL, gzipped HTML, gzipped HTML + CSS + JS + icon) for every built page."""
    rows = []
    for page in sorted(build.rglob("*.html")):
        html, total = page_weight(
            page.read_bytes(), lambda url: (build / url.lstrip("/")).read_bytes()
        )
        url = "/" + page.relative_to(build).as_posix().removesuffix("index.html")
        rows.append((url, html, total))
    return rows


def search_weights(build: Path) -> list[tuple[str, int]]:
    """(what, gzipped bytes) of the search engine the search page alone loads.

    Pagefind's index files are gzipped already: gzipping them again changes little.
    """
    bundle = build / BUNDLE
    start = [f for pattern in SEARCH_START for f in sorted(bundle.glob(pattern))]
    rows = [(f"{BUNDLE}/{f.name}", gzipped(f.read_bytes())) for f in start]
    rows.append(("on start, in all", sum(size for _, size in rows)))
    index = [gzipped(f.read_bytes()) for f in (bundle / "index").iterdir()]
    rows.append((f"word index, {len(index)} chunk(s), per query at most", sum(index)))
    fragments = sorted(gzipped(f.read_bytes()) for f in (bundle / "fragment").iterdir())
    rows.append((f"one result ({len(fragments)} pages): median", int(statistics.median(fragments))))
    rows.append(("one result: largest", fragments[-1]))
    return rows


def run(repeat: int = 5) -> None:
    times = []
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(repeat):
            started = time.perf_counter()
            freeze(Path(folder) / "build")
            times.append(time.perf_counter() - started)
        rows = page_weights(Path(folder) / "build")
        search = search_weights(Path(folder) / "build")
    print(f"Site pages (gzipped bytes; budget {PAGE_BUDGET} for HTML + CSS + JS)")
    print(f"  {'page':<36}{'HTML':>8}{'total':>8}  budget")
    for url, html, total in rows:
        flag = "ok" if total <= PAGE_BUDGET else "OVER"
        if url != SEARCH_PAGE:
            print(f"  {url:<36}{html:>8}{total:>8}  {flag}")
    # The search page apart: what it loads after the page (Pagefind) counts only there.
    html, total = next((html, total) for url, html, total in rows if url == SEARCH_PAGE)
    print(f"Search page {SEARCH_PAGE} (gzipped bytes): HTML {html}, with its CSS + JS {total};")
    print("  then, on that page only, the search engine and index (Pagefind):")
    for what, size in search:
        print(f"  {what:<52}{size:>8}")
    print(
        f"Freeze the whole site ({len(rows)} pages, with the search index):"
        f" median {statistics.median(times):.3f} s, min {min(times):.3f} s over {repeat} runs"
    )
