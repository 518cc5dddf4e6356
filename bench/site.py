"""Page weights of the frozen site and the time it takes to freeze it."""

from __future__ import annotations

import gzip
import statistics
import tempfile
import time
from html.parser import HTMLParser
from pathlib import Path

from static_site.freeze import freeze

PAGE_BUDGET = 14 * 1024


class _Resources(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        if tag == "script" and values.get("src"):
            self.found.append(values["src"])
        if tag == "link" and values.get("rel") == "stylesheet":
            self.found.append(values["href"])


def gzipped(data: bytes) -> int:
    return len(gzip.compress(data, 9))


def page_weights(build: Path) -> list[tuple[str, int, int]]:
    """(URL, gzipped HTML, gzipped HTML + CSS + JS) for every built page."""
    rows = []
    for page in sorted(build.rglob("*.html")):
        parser = _Resources()
        parser.feed(page.read_text(encoding="utf-8"))
        html = gzipped(page.read_bytes())
        extra = sum(gzipped((build / r.lstrip("/")).read_bytes()) for r in parser.found)
        url = "/" + page.relative_to(build).as_posix().removesuffix("index.html")
        rows.append((url, html, html + extra))
    return rows


def run(repeat: int = 5) -> None:
    times = []
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(repeat):
            started = time.perf_counter()
            freeze(Path(folder) / "build")
            times.append(time.perf_counter() - started)
        rows = page_weights(Path(folder) / "build")
    print(f"Site pages (gzipped bytes; budget {PAGE_BUDGET} for HTML + CSS + JS)")
    print(f"  {'page':<36}{'HTML':>8}{'total':>8}  budget")
    for url, html, total in rows:
        flag = "ok" if total <= PAGE_BUDGET else "OVER"
        print(f"  {url:<36}{html:>8}{total:>8}  {flag}")
    print(
        f"Freeze the whole site ({len(rows)} pages): median {statistics.median(times):.3f} s,"
        f" min {min(times):.3f} s over {repeat} runs"
    )
