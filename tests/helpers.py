"""Small helpers for tests that read a frozen build."""

from __future__ import annotations

from pathlib import Path


def built_pages(build: Path) -> list[Path]:
    """Every HTML page of a frozen build."""
    return sorted(build.rglob("*.html"))


def page_url(build: Path, page: Path) -> str:
    """The URL path a built file is served at: build/learn/index.html -> /learn/."""
    relative = page.relative_to(build).as_posix()
    return "/" + relative.removesuffix("index.html")
