"""The translations: every field and file a language lacks, and every word its glossary
rules out."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from content_model.check.problems import Problem, from_error
from content_model.fields import (
    ContentError,
)
from content_model.loader import Content, load_content, translate
from content_model.translation import (
    IN_ENGLISH,
    avoided_words,
    languages,
    translated_file,
)


def check_translations(root: Path) -> list[Problem]:
    """Every field and file a translation lacks, and every word its glossary rules out."""
    try:
        wanted = languages(root)
        if not wanted:
            return []
        english = load_content(root, translated=False)
    except ContentError:
        return []  # the loader's own error is reported with the rest
    found = []
    for language, pending in wanted.items():
        name = IN_ENGLISH[language]
        try:
            translated, missing = translate(root, english, language, pending)
        except ContentError as error:
            found.append(from_error(error))
            continue
        for gap in missing:
            if gap.field:
                fix = f"give `{gap.field}` in {name} in {translated_file(gap.file, language)}"
            else:
                original = gap.file.replace(f".{language}.", ".")
                fix = f"write it in {name}, beside the English {original}"
            found.append(Problem(gap.file, gap.field, gap.message, fix))
        if translated is not None:
            found += _check_glossary(root, translated)
    return found


def _check_glossary(root: Path, content: Content) -> Iterator[Problem]:
    language = content.language
    texts = [
        (translated_file(name, language), (root / translated_file(name, language)))
        for name in ("site.yaml", "exempt-discharges.yaml", "search.yaml", "ordinance.yaml")
    ]
    texts += [
        (
            f"learn/{translated_file(page.slug + '.md', language)}",
            root / "learn" / translated_file(page.slug + ".md", language),
        )
        for page in content.pages
    ]
    for file, path in texts:
        if path.exists():
            for gap in avoided_words(content.glossary, file, path.read_text(encoding="utf-8")):
                yield Problem(gap.file, gap.field, gap.message, "use the glossary's word")
