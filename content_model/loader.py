"""The content model: every file in content/ read, checked and turned into dataclasses.

Both apps read the municipality's words and settings only through `load_content`, so
every file is validated in one place and an error always names the file and field. Each
file has its own module (fields.py says how any of them is read); this one puts them
together.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from content_model.exempt import ExemptList, load_exempt
from content_model.fields import CONTENT_DIR, ContentError
from content_model.learn import LearnPage, load_learn_page
from content_model.open311 import Open311, load_open311
from content_model.ordinance import Ordinance, load_ordinance
from content_model.search_words import SearchWords, load_search_words
from content_model.site import Settings, load_settings

__all__ = ["CONTENT_DIR", "Content", "ContentError", "load_content"]


@dataclass(frozen=True)
class Content:
    settings: Settings
    ordinance: Ordinance
    exempt: ExemptList
    pages: tuple[LearnPage, ...]
    open311: Open311
    # content/search.yaml (optional): words and shortcuts for the site's search.
    search: SearchWords = field(default_factory=SearchWords)

    @cached_property
    def page_by_slug(self) -> dict[str, LearnPage]:
        return {page.slug: page for page in self.pages}


def load_content(directory: Path | str | None = None) -> Content:
    """Read and validate every file in the content directory."""
    root = Path(directory) if directory else CONTENT_DIR
    settings = load_settings(root / "site.yaml")
    ordinance = load_ordinance(root / "ordinance.yaml")
    exempt = load_exempt(root / "exempt-discharges.yaml", ordinance)
    files = sorted((root / "learn").glob("*.md"))
    if not files:
        raise ContentError("learn/: no education pages (*.md) found")
    pages = tuple(
        sorted((load_learn_page(f, ordinance) for f in files), key=lambda p: (p.order, p.slug))
    )
    slugs = {page.slug for page in pages}
    for kind, items in (("entries", exempt.entries), ("questions", exempt.questions)):
        for i, item in enumerate(items):
            if item.learn is not None and item.learn not in slugs:
                raise ContentError(
                    f"exempt-discharges.yaml: {kind}[{i}].learn: no page learn/{item.learn}.md"
                )
    return Content(
        settings,
        ordinance,
        exempt,
        pages,
        load_open311(root / "open311.yaml"),
        load_search_words(root / "search.yaml", ordinance),
    )
