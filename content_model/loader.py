"""The content model: every file in content/ read, checked and turned into dataclasses.

Both apps read the municipality's words and settings only through `load_content`, so
every file is validated in one place and an error always names the file and field. Each
file has its own module (fields.py says how any of them is read); this one puts them
together.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from content_model.exempt import ExemptList, load_exempt
from content_model.fields import CONTENT_DIR, ContentError, read_yaml
from content_model.learn import LearnPage, load_learn_page
from content_model.open311 import Open311, load_open311
from content_model.ordinance import Ordinance, load_ordinance
from content_model.search_words import SearchWords, load_search_words
from content_model.site import Settings, load_settings
from content_model.translation import (
    DEFAULT_LANGUAGE,
    GlossaryTerm,
    Missing,
    SectionSummary,
    after_loading,
    get_path,
    glossary,
    guides,
    languages,
    merge,
    read_translation,
    summaries,
    translated_file,
)

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
    language: str = DEFAULT_LANGUAGE
    # A translation not yet read and signed off by the municipality (translations.yaml).
    pending_review: bool = False
    # In a translation: the law's title and its article's name ("Artículo I"), a plain
    # summary of each section (the law itself is published in English only, as adopted), and
    # the glossary of words it uses.
    law_title: str = ""
    law_article: str = ""
    summaries: tuple[SectionSummary, ...] = ()
    # And the definitions a form quotes, in plain words (slug -> words).
    plain_definitions: dict[str, str] = field(default_factory=dict, compare=False)
    glossary: tuple[GlossaryTerm, ...] = ()
    # The English content's translations, by language.
    translations: dict[str, Content] = field(default_factory=dict, compare=False, repr=False)

    @cached_property
    def page_by_slug(self) -> dict[str, LearnPage]:
        return {page.slug: page for page in self.pages}

    @property
    def languages(self) -> tuple[str, ...]:
        return (DEFAULT_LANGUAGE, *self.translations)

    def section_title(self, number: str) -> str:
        """A section's title in this content's language (a translation's summary names it)."""
        for summary in self.summaries:
            if summary.number == number:
                return summary.title
        return self.ordinance.by_number[number].title

    def in_language(self, language: str) -> Content:
        """This content in `language` if the pack has it, else as it is."""
        return self.translations.get(language, self)


def load_content(directory: Path | str | None = None, translated: bool = True) -> Content:
    """Read and validate every file in the content directory (without its translations,
    with `translated=False`)."""
    root = Path(directory) if directory else CONTENT_DIR
    settings = load_settings(root / "site.yaml")
    ordinance = load_ordinance(root / "ordinance.yaml")
    exempt = load_exempt(root / "exempt-discharges.yaml", ordinance)
    files = guides(root)
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
    content = Content(
        settings,
        ordinance,
        exempt,
        pages,
        load_open311(root / "open311.yaml"),
        load_search_words(root / "search.yaml", ordinance),
    )
    translations = {}
    for language, pending in languages(root).items() if translated else ():
        translated, missing = translate(root, content, language, pending)
        if missing:
            first = missing[0]
            where = f"{first.file}: {first.field}" if first.field else first.file
            raise ContentError(f"{where}: {first.message}")
        translations[language] = translated
    return dataclasses.replace(content, translations=translations)


def translate(
    root: Path, english: Content, language: str, pending_review: bool
) -> tuple[Content | None, list[Missing]]:
    """The content in `language` from the translations beside the English files, or every
    field and file it lacks (the checker lists them all; the loader stops at the first)."""
    missing: list[Missing] = []
    data: dict[str, tuple[object, object]] = {}
    for name in ("site.yaml", "exempt-discharges.yaml", "search.yaml"):
        if name == "search.yaml" and not (root / name).exists():
            continue
        source = read_yaml(root / name)
        translation, absent = read_translation(root, name, language)
        missing += absent
        if translation is not None:
            merged, lacking = merge(name, source, translation, language)
            missing += lacking + after_loading(name, source, translation, language)
            data[name] = merged, translation
    pages = []
    for page in english.pages:
        path = root / "learn" / translated_file(f"{page.slug}.md", language)
        if not path.exists():
            missing.append(Missing(f"learn/{path.name}", "", "missing"))
        else:
            pages.append(load_learn_page(path, english.ordinance, english=page))
    numbers = [section.number for section in english.ordinance.sections]
    slugs = [definition.slug for definition in english.ordinance.definitions]
    law, lacking = summaries(root, numbers, slugs, language)
    missing += lacking
    if missing:
        return None, missing
    settings = load_settings(root / "site.yaml", data["site.yaml"][0])
    exempt_data, exempt_translation = data["exempt-discharges.yaml"]
    exempt = load_exempt(root / "exempt-discharges.yaml", english.ordinance, exempt_data)
    # The names quote the law in English; in translation they are plain words for it. A
    # report on a translated form may still use the English words: both kinds of keyword hint.
    entries = tuple(
        dataclasses.replace(
            entry,
            name=str(get_path(exempt_translation, f"entries[{i}].name")),
            keywords=entry.keywords + english.exempt.entries[i].keywords,
        )
        for i, entry in enumerate(exempt.entries)
    )
    search = english.search
    if "search.yaml" in data:
        search = load_search_words(root / "search.yaml", english.ordinance, data["search.yaml"][0])
    return dataclasses.replace(
        english,
        settings=settings,
        exempt=dataclasses.replace(exempt, entries=entries),
        pages=tuple(pages),
        search=search,
        language=language,
        pending_review=pending_review,
        law_title=law.title,
        law_article=law.article,
        summaries=law.sections,
        plain_definitions=law.definitions,
        glossary=glossary(root, language),
    ), []
