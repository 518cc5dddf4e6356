"""A content pack in another language: the translations kept beside the English files.

A pack offers Spanish by having `translations.yaml` (`es: {pending_review: true}`). Each
YAML file people read then has a sibling holding only its words in that language, in the
same shape (`site.es.yaml` beside `site.yaml`, the same keys, lists in the same order); each
guide has one (`learn/pet-waste.es.md` beside `pet-waste.md`, with its own title, summary
and text). Numbers, phone numbers, addresses, names, times and the law's own text are never
in a translation: they are the English file's, so a change there shows in both languages.
The law is English only as adopted; `ordinance.es.yaml` gives a plain-language summary of
each section, and `glossary.es.yaml` the words every translation uses for the same thing.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from content_model.fields import ContentError, Fields, parse_yaml

TRANSLATIONS_FILE = "translations.yaml"
DEFAULT_LANGUAGE = "en"
# Each language's name in itself: the language link shows the one a person can switch to.
LANGUAGE_NAMES = {"en": "English", "es": "Español"}
# And in English, for the checker's messages ("no Spanish").
IN_ENGLISH = {"en": "English", "es": "Spanish"}

# The fields of each YAML file a translation gives, as paths: `*` is every key of a mapping,
# `[*]` every item of a list. Every other field is the English file's, in both languages.
TRANSLATED = {
    "site.yaml": (
        # With its article in languages that have them ("la Villa de ...", "el Pueblo de ...").
        "municipality.name",
        "municipality.kind",
        "office.phone_label",
        "office.hours",
        "smo.title",
        "phones.*.label",
        "service_area.name",
        "unofficial_notice",
        "legal_notice",
        "penalties",
        "written_confirmation.contents",
        "record_keeping_reading",
        "record_keepers_reading",
        "release_duties_reading",
        "report_privacy",
        "state_reporting.within",
        "state_reporting.petroleum",
        "state_reporting.hazardous",
        "holidays.source",
        "holidays.proclaimed",
        "holidays.not_moved",
    ),
    "exempt-discharges.yaml": (
        "intro",
        "entries[*].name",
        "entries[*].note",
        # The words a report in that language may use for it (the form's "good to know").
        "entries[*].keywords",
        # And the words that say it does not apply, with their negations.
        "entries[*].unless",
        "entries[*].unless_negated",
        "conditional[*].title",
        "conditional[*].note",
        "caveat",
        "questions[*].question",
        "questions[*].answer",
    ),
    "search.yaml": (
        "sections.*",
        "contact",
        "shortcuts[*].title",
        "shortcuts[*].text",
        "shortcuts[*].words",
    ),
}
# Fields whose English the loader holds to the law's words (an exempt entry's name quotes
# the exemptions section): the translation replaces them only after that check.
AFTER_LOADING = {"exempt-discharges.yaml": "entries[*].name"}
STEP = re.compile(r"([^.\[]+)|\[(\*|\d+)\]")


@dataclass(frozen=True)
class Missing:
    """A field (or a whole file) a language lacks: `file` is where it belongs."""

    file: str
    field: str
    message: str


@dataclass(frozen=True)
class SectionSummary:
    number: str
    title: str
    summary: str


@dataclass(frozen=True)
class GlossaryTerm:
    english: str
    translation: str
    # Words a translation must not use for it (another word for the same thing confuses).
    avoid: tuple[str, ...] = ()
    note: str = ""


def translated_file(name: str, language: str) -> str:
    """'site.yaml' -> 'site.es.yaml'; 'learn/pet-waste.md' -> 'learn/pet-waste.es.md'."""
    stem, dot, suffix = name.rpartition(".")
    return f"{stem}.{language}{dot}{suffix}"


def guides(root: Path) -> list[Path]:
    """The English guides in learn/ (a translation, `pet-waste.es.md`, is not one)."""
    return sorted(
        path
        for path in (root / "learn").glob("*.md")
        if path.stem.rpartition(".")[2] not in LANGUAGE_NAMES or "." not in path.stem
    )


def languages(root: Path) -> dict[str, bool]:
    """The pack's translations: language -> pending review by the municipality."""
    path = root / TRANSLATIONS_FILE
    if not path.exists():
        return {}
    try:
        fields = Fields(parse_yaml(path.read_text(encoding="utf-8")) or {}, TRANSLATIONS_FILE)
    except yaml.YAMLError as error:
        raise ContentError(f"{TRANSLATIONS_FILE}: not valid YAML: {error}") from None
    found = {}
    for language in list(fields.data):
        if language not in LANGUAGE_NAMES or language == DEFAULT_LANGUAGE:
            raise fields.fail(str(language), f"must be one of {', '.join(LANGUAGE_NAMES)}")
        # Machine or staff translation until the municipality reads it: say so on its pages.
        found[language] = fields.mapping(language).flag("pending_review", True)
    fields.refuse_unknown()
    return found


def paths(data: Any, pattern: str) -> Iterator[tuple[str, Any]]:
    """Each concrete path a pattern names in `data`, with its value ('entries[3].note', ...)."""
    steps = [(name, index) for name, index in STEP.findall(pattern)]

    def walk(value: Any, rest: list[tuple[str, str]], path: str) -> Iterator[tuple[str, Any]]:
        if not rest:
            yield path, value
            return
        (name, index), tail = rest[0], rest[1:]
        if index:
            if not isinstance(value, list):
                return
            for i, item in enumerate(value):
                if index in ("*", str(i)):
                    yield from walk(item, tail, f"{path}[{i}]")
            return
        if not isinstance(value, dict):
            return
        keys = list(value) if name == "*" else [name]
        for key in keys:
            if key in value and value[key] is not None:
                yield from walk(value[key], tail, f"{path}.{key}" if path else str(key))

    yield from walk(data, steps, "")


def get_path(data: Any, path: str) -> Any:
    for name, index in STEP.findall(path):
        key: Any = int(index) if index else name
        try:
            data = data[key]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def set_path(data: Any, path: str, value: Any) -> None:
    steps = [int(index) if index else name for name, index in STEP.findall(path)]
    for key in steps[:-1]:
        data = data[key]
    data[steps[-1]] = value


def _blank(value: Any) -> bool:
    if isinstance(value, list):
        return not value or any(_blank(v) for v in value)
    return not isinstance(value, str | int) or isinstance(value, bool) or not str(value).strip()


def read_translation(root: Path, name: str, language: str) -> tuple[Any, list[Missing]]:
    """A translated YAML file, or what is missing of it."""
    path = root / translated_file(name, language)
    if not path.exists():
        return None, [Missing(translated_file(name, language), "", "missing")]
    try:
        return parse_yaml(path.read_text(encoding="utf-8")) or {}, []
    except yaml.YAMLError as error:
        raise ContentError(f"{path.name}: not valid YAML: {error}") from None


def merge(name: str, english: Any, translation: Any, language: str) -> tuple[Any, list[Missing]]:
    """The English file's data with every translated field in `language` in its place, and
    each field the translation lacks (named by the English file, where its original is)."""
    merged = copy.deepcopy(english)
    missing = []
    for pattern in TRANSLATED[name]:
        if pattern == AFTER_LOADING.get(name):
            continue
        for path, _ in paths(english, pattern):
            value = get_path(translation, path)
            if _blank(value):
                missing.append(Missing(name, path, f"no {IN_ENGLISH[language]}"))
            else:
                set_path(merged, path, value)
    return merged, missing


def after_loading(name: str, english: Any, translation: Any, language: str) -> list[Missing]:
    """The fields checked after loading (see AFTER_LOADING) that the translation lacks."""
    pattern = AFTER_LOADING.get(name)
    if pattern is None:
        return []
    return [
        Missing(name, path, f"no {IN_ENGLISH[language]}")
        for path, _ in paths(english, pattern)
        if _blank(get_path(translation, path))
    ]


# The defined terms a form quotes to the person filling it in (the release notification's
# "is it hazardous?"): a translation explains each in plain words before the law's English.
QUOTED_DEFINITIONS = ("hazardous-materials",)


@dataclass(frozen=True)
class LawSummary:
    """`ordinance.<language>.yaml`: the law's title, its article's name ("Artículo I" for
    "Article I"), a plain summary of every section, and the quoted definitions
    (`definitions`: slug -> plain words)."""

    title: str = ""
    article: str = ""
    sections: tuple[SectionSummary, ...] = ()
    definitions: dict[str, str] = field(default_factory=dict)


def summaries(
    root: Path, section_numbers: list[str], defined: list[str], language: str
) -> tuple[LawSummary, list[Missing]]:
    """The translation's `LawSummary`; `defined` are the slugs the English law defines."""
    name = translated_file("ordinance.yaml", language)
    path = root / name
    if not path.exists():
        return LawSummary(), [Missing(name, "", "missing")]
    fields = Fields(parse_yaml(path.read_text(encoding="utf-8")) or {}, name)
    missing = []
    title = fields.text("title", optional=True) or ""
    article = fields.text("article", optional=True) or ""
    for key, value in (("title", title), ("article", article)):
        if not value:
            missing.append(Missing(name, key, f"no {IN_ENGLISH[language]}"))
    sections = fields.data.get("sections") or {}
    fields.known("sections")
    found = []
    for number in section_numbers:
        entry = sections.get(number) if isinstance(sections, dict) else None
        for key in ("title", "summary"):
            if not isinstance(entry, dict) or _blank(entry.get(key)):
                missing.append(Missing(name, f"sections.{number}.{key}", "missing"))
        if not missing:
            found.append(SectionSummary(number, entry["title"].strip(), entry["summary"].strip()))
    for number in sections if isinstance(sections, dict) else ():
        if str(number) not in section_numbers:
            raise fields.fail(f"sections.{number}", f"§ {number} is not in the ordinance")
    plain = fields.data.get("definitions") or {}
    fields.known("definitions")
    if not isinstance(plain, dict):
        raise fields.fail("definitions", "give each quoted definition as slug: plain words")
    for slug in plain:
        if slug not in defined:
            raise fields.fail(f"definitions.{slug}", f"the law defines no {slug!r}")
    for slug in QUOTED_DEFINITIONS:
        if slug in defined and _blank(plain.get(slug)):
            missing.append(Missing(name, f"definitions.{slug}", "missing"))
    fields.refuse_unknown()
    words = {str(slug): " ".join(str(text).split()) for slug, text in plain.items()}
    return LawSummary(title, article, tuple(found), words), missing


def glossary(root: Path, language: str) -> tuple[GlossaryTerm, ...]:
    """`glossary.<language>.yaml`: the words every translation uses (optional)."""
    name = translated_file("glossary.yaml", language)
    path = root / name
    if not path.exists():
        return ()
    fields = Fields(parse_yaml(path.read_text(encoding="utf-8")) or {}, name)
    terms = tuple(
        GlossaryTerm(
            term.text("en"),
            term.text(language),
            tuple(str(word) for word in term.values("avoid", optional=True)),
            term.text("note", optional=True) or "",
        )
        for term in fields.records("terms")
    )
    fields.refuse_unknown()
    return terms


def avoided_words(terms: tuple[GlossaryTerm, ...], file: str, text: str) -> Iterator[Missing]:
    """A word the glossary says not to use, in a translated text."""
    for term in terms:
        for word in term.avoid:
            if re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text, re.IGNORECASE):
                yield Missing(
                    file,
                    "",
                    f"uses {word!r}: the glossary says {term.translation!r} for {term.english!r}",
                )
