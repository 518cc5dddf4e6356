"""The second content pack (tests/packs/wrenfield) and what of the default one must never
show through it: a word of the default municipality's name, its phone numbers, its kind
("Village") and its chapter number. All of it is read from the two packs, not typed here."""

from __future__ import annotations

import re
from pathlib import Path

from content_model.loader import load_content

PACK = Path(__file__).resolve().parent / "packs" / "wrenfield"


def _phones(settings) -> set[str]:
    numbers = {settings.office.phone.number, settings.office.fax, settings.smo_fax}
    numbers |= {phone.number for phone in settings.phones.values()}
    return {n for n in numbers if n}


def _digits_pattern(number: str) -> str:
    """'(607) 739-5691' -> '739' then '5691' with at most one separator between them."""
    digits = re.sub(r"\D", "", number)[-7:]
    return rf"(?<!\d){digits[:3]}\D?{digits[3:]}(?!\d)"


def trace_patterns() -> dict[str, re.Pattern]:
    default, pack = load_content().settings, load_content(PACK).settings
    ours = load_content().ordinance.chapter
    theirs = load_content(PACK).ordinance.chapter
    assert (default.kind, ours) != (pack.kind, theirs), "the packs must differ"
    generic = {"of", "the", "and", default.kind.lower(), default.state.lower()}
    words = {w for w in re.findall(r"[\w']+", f"{default.name} {default.short_name}")}
    patterns = {
        f"name word {w!r}": re.compile(rf"\b{re.escape(w)}\b", re.IGNORECASE)
        for w in words
        if w.lower() not in generic
    }
    for number in _phones(default) - _phones(pack):
        if len(re.sub(r"\D", "", number)) >= 7:
            patterns[f"phone {number}"] = re.compile(_digits_pattern(number))
    patterns[f"kind {default.kind!r}"] = re.compile(
        rf"\b{re.escape(default.kind)}s?\b", re.IGNORECASE
    )
    # The chapter as a number of its own (a section '216-12', 'Chapter 216'), not the
    # digits inside a token, a coordinate or a longer number.
    patterns[f"chapter {ours}"] = re.compile(rf"(?<![\w.\-/=]){ours}(?![\w.])")
    return patterns


PATTERNS = trace_patterns()


def traces(text: str) -> list[str]:
    """What of the default municipality `text` shows, each with the words around it."""
    found = []
    for what, pattern in PATTERNS.items():
        for match in pattern.finditer(text):
            start, end = max(match.start() - 40, 0), match.end() + 40
            found.append(f"{what}: ...{text[start:end]}...")
    return found
