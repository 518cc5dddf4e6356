"""Page weights of the frozen site and the time it takes to freeze it."""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from bench.weights import SITE_PAGE_BUDGET as PAGE_BUDGET
from bench.weights import page_weight
from static_site.freeze import freeze


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
