"""Whole words and phrases in what a person wrote: the hazard rules and the exempt-discharge
hints read a report the same way, in any case and with or without accents."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache


def plain(text: str) -> str:
    """Lower case without accents: "Químicos" and "quimicos" are one word here, as people
    on a phone often type them."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@lru_cache(maxsize=128)
def _pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    """One pattern for a list of words: a report is read once per list."""
    return re.compile(r"\b(?:" + "|".join(re.escape(plain(word)) for word in words) + r")\b")


def mentions(text: str, words: Iterable[str]) -> bool:
    """Whether `text` (already `plain`) holds one of the words as a whole word or phrase."""
    words = tuple(words)
    return bool(words) and _pattern(words).search(text) is not None


def hinted(
    text: str, keywords: Iterable[str], unless: Iterable[str], negated: Iterable[str]
) -> bool:
    """Whether `text` (already `plain`) mentions one of the keywords and none of the words
    that say the exemption does not apply, outside the phrases that negate them ("pool with
    chlorine": no; "pool, no chlorine": yes)."""
    negated = tuple(negated)
    rest = _pattern(negated).sub(" ", text) if negated else text
    return mentions(text, keywords) and not mentions(rest, unless)
