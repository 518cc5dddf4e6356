"""content/search.yaml: what the site's search knows beyond the words on its pages.

Optional: a pack without the file gets no extra words and no shortcuts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from content_model.fields import Fields, read_yaml
from content_model.ordinance import Ordinance

# The portal's pages a shortcut can lead to (content_model.theme.PORTAL_PATHS).
SHORTCUT_PAGES = ("report", "notify")


@dataclass(frozen=True)
class Shortcut:
    """A search answered by a page of the portal, which the site's search does not index."""

    portal: str  # the page, by its name in PORTAL_PATHS
    title: str
    text: str
    words: tuple[str, ...]  # a query with any of these words shows the shortcut first


@dataclass(frozen=True)
class SearchWords:
    # Words for a section of the law, by its number: indexed in that section, hidden.
    sections: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # Words for the page of who to call.
    contact: tuple[str, ...] = ()
    shortcuts: tuple[Shortcut, ...] = ()


def _words(fields: Fields, key: str) -> tuple[str, ...]:
    words = tuple(str(w).strip() for w in fields.values(key, optional=True))
    if not all(words):
        raise fields.fail(key, "must be a list of words or phrases")
    return words


def load_search_words(path: Path, ordinance: Ordinance, data: Any = None) -> SearchWords:
    if data is None and not path.exists():
        return SearchWords()
    fields = Fields(read_yaml(path) if data is None else data, path.name)
    sections = {}
    if fields.data.get("sections") is not None:
        by_section = fields.mapping("sections")
        for number in by_section.data:
            if str(number) not in ordinance.by_number:
                raise by_section.fail(str(number), f"§ {number} is not in the ordinance")
            sections[str(number)] = _words(by_section, number)
    shortcuts = []
    for item in fields.records("shortcuts", optional=True):
        portal = item.text("portal")
        if portal not in SHORTCUT_PAGES:
            raise item.fail("portal", f"must be one of {', '.join(SHORTCUT_PAGES)}")
        words = _words(item, "words")
        if not words:
            raise item.fail("words", "is missing")
        shortcuts.append(Shortcut(portal, item.text("title"), item.text("text"), words))
    return SearchWords(sections, _words(fields, "contact"), tuple(shortcuts))
