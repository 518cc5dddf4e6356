"""What a queue search found in each case: the fields the words were in, with a few words
around them, so an officer sees why a case is listed (the plate, the phone, a note)."""

from __future__ import annotations

import re
import unicodedata

import sqlite_utils

from portal.core import kinds
from portal.core.db import rows
from portal.core.search_index import SEPARATORS, compact, fold, text_columns

# Characters shown either side of what matched.
AROUND = 40


def _excerpt(text: str, start: int, end: int) -> str:
    first, last = max(0, start - AROUND), min(len(text), end + AROUND)
    excerpt = " ".join(text[first:last].split())
    return ("…" if first else "") + excerpt + ("…" if last < len(text) else "")


def _loose(query: str) -> re.Pattern[str]:
    """The query with anything people put between letters or digits allowed between each
    of its characters: "hrt4455" finds "HRT 4455", "5550123" finds "555-0123"."""
    between = "[" + re.escape(SEPARATORS) + "]*"
    return re.compile(between.join(re.escape(ch) for ch in compact(query)), re.IGNORECASE)


def found_in(query: str, text: str | None) -> str | None:
    """An excerpt of `text` around what the query matched in it, or None. Like the search
    itself: a word as written (words of three letters or more, when there are any), or the
    whole query once spaces and punctuation are taken out."""
    if not text:
        return None
    # Accents folded on both sides, as the index does ("Pena" finds "Peña"): the folded text
    # is the composed text letter for letter, so what is found there is shown from it.
    text = unicodedata.normalize("NFC", text)
    folded, query = fold(text), fold(query)
    lowered = folded.lower()
    words = [word for word in query.split() if len(word) >= 3] or query.split()
    for word in words:
        at = lowered.find(word.lower())
        if at >= 0:
            return _excerpt(text, at, at + len(word))
    hit = _loose(query).search(folded) if compact(query) else None
    return _excerpt(text, hit.start(), hit.end()) if hit else None


def matches(
    db: sqlite_utils.Database, query: str, case_ids: list[int]
) -> dict[int, list[tuple[str, str]]]:
    """For each case, the (label, excerpt) of every field the query matched."""
    if not query or not case_ids:
        return {}
    searched = text_columns()
    columns = ", ".join(f"{sql} AS f{i}" for i, (_, sql) in enumerate(searched))
    marks = ", ".join("?" for _ in case_ids)
    found: dict[int, list[tuple[str, str]]] = {}
    for row in rows(
        db, f"SELECT c.id, {columns} FROM cases c{kinds.joins()} WHERE c.id IN ({marks})", case_ids
    ):
        hits = []
        for i, (label, _) in enumerate(searched):
            excerpt = found_in(query, row[f"f{i}"])
            if excerpt:
                hits.append((label, excerpt))
        found[row["id"]] = hits
    return found
