"""The staff search: one FTS5 row per case with every word an officer types or reads, kept
in step by triggers, so the queue's search stays fast at ten thousand cases.

Each row holds two columns: `body`, the case's text as written, and `compact`, the same
text in lower case with spaces and punctuation taken out, so a plate typed "hrt4455"
finds "HRT 4455" and a phone typed "5550123" finds "(555) 555-0123". The trigram
tokenizer matches any part of a word ("Mar" finds "Maria"), ignoring case. Both columns are
folded to letters without accents (FOLDED), as the query is: "Pena" finds "Peña", "Peña"
finds "Pena", "lavanderia" finds "lavandería".

Besides the case's own text and its kind's, a feature adds what it records of a case that an
officer searches for (`add_source`): a respondent, an owner, a tax parcel, a sample's id, a
lab's work order. Each with the changes that alter it, so the index follows them.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from portal.core import kinds

# What is taken out of `compact`: what people put between the letters of a plate or the
# digits of a phone number.
SEPARATORS = " \n\t-().,/+#:;'\"_"

# Every text an officer may search for, with what the queue calls it when it matches
# (portal/staff/matches.py): (label, SQL over the cases c joined with each kind's details
# by its alias). The case's own, then each kind's (its descriptor's search_columns), then
# what staff wrote on it.
CASE_COLUMNS = [
    ("Reference", "c.reference"),
    ("Address", "c.address"),
    ("Name", "c.contact_name"),
    ("E-mail", "c.contact_email"),
    ("Phone", "c.contact_phone"),
    ("Referred to", "c.referred_to"),
]
STAFF_COLUMNS = [
    ("Internal note", "(SELECT group_concat(body, ' ') FROM notes WHERE case_id = c.id)"),
    (
        "Site visit",
        "(SELECT group_concat(findings || ' ' || coalesce(lab_reference, ''), ' ')"
        " FROM inspections WHERE case_id = c.id)",
    ),
]


# Accented letters and the letter each is searched as (one character for one, so an excerpt's
# place in the folded text is its place in the text); combining accents (text stored
# decomposed) are taken out in SQL, and a query is composed (NFC) before it is folded.
ACCENTED = "áàâäãåāéèêëēíìîïīóòôöõøōúùûüūñçýÿÁÀÂÄÃÅĀÉÈÊËĒÍÌÎÏĪÓÒÔÖÕØŌÚÙÛÜŪÑÇÝŸ"
PLAIN = "aaaaaaaeeeeeiiiiiooooooouuuuuncyyAAAAAAAEEEEEIIIIIOOOOOOOUUUUUNCYY"
COMBINING = (0x0300, 0x0301, 0x0302, 0x0303, 0x0304, 0x0308, 0x030A, 0x0327)
FOLDED = str.maketrans(ACCENTED, PLAIN)


def fold(text: str) -> str:
    """The text as the index holds it: composed, its accented letters plain."""
    return unicodedata.normalize("NFC", text).translate(FOLDED)


def _fold_steps(expression: str) -> list[str]:
    """The folding as a few expressions over `expression`, each a view's over the one before:
    SQLite's parser refuses replace() nested seventy-five deep in one."""
    pairs = [(f"'{a}'", f"'{p}'") for a, p in zip(ACCENTED, PLAIN, strict=True)]
    pairs += [(f"char({mark})", "''") for mark in COMBINING]
    steps = []
    for start in range(0, len(pairs), 25):
        for old, new in pairs[start : start + 25]:
            expression = f"replace({expression}, {old}, {new})"
        steps.append(expression)
        expression = "body"
    return steps


@dataclass(frozen=True)
class Source:
    """A text a feature keeps about a case that staff search for, with what changes it."""

    label: str  # what the queue says matched: "Tax parcel"
    sql: str  # the text, over the cases c (a subquery of the feature's table), or NULL
    # Each change that alters it: (table, "insert" | "update" | "delete", SQL selecting the
    # ids of the cases it touches, over NEW or OLD).
    watched: tuple[tuple[str, str, str], ...]


_SOURCES: list[Source] = []


def add_source(source: Source) -> Source:
    """A feature's searchable text (at import, before the first connection builds the index)."""
    if source not in _SOURCES:
        _SOURCES.append(source)
    return source


def text_columns() -> list[tuple[str, str]]:
    """(label, SQL) of every searchable text, the registered kinds' and features' included."""
    own = [
        (label, f"{k.alias}.{column}")
        for k in kinds.all_kinds()
        for label, column in k.search_columns
    ]
    added = [(source.label, source.sql) for source in _SOURCES]
    return [*CASE_COLUMNS, *own, *STAFF_COLUMNS, *added]


def _compact(expression: str) -> str:
    for character in SEPARATORS:
        literal = "char(10)" if character == "\n" else "char(9)" if character == "\t" else None
        literal = literal or "'" + character.replace("'", "''") + "'"
        expression = f"replace({expression}, {literal}, '')"
    return f"lower({expression})"


INDEX = "CREATE VIRTUAL TABLE case_search USING fts5(body, compact, tokenize='trigram')"


# The views the index is read from, in the order they are made: the case's text as written,
# then folded in steps (the last is the text the index holds).
VIEWS = ("case_search_written", "case_search_fold_1", "case_search_fold_2", "case_search_text")


def _views() -> dict[str, str]:
    body = " || ' ' || ".join(f"coalesce({column}, '')" for _, column in text_columns())
    made = {
        VIEWS[0]: f"CREATE VIEW {VIEWS[0]} AS SELECT c.id AS id, {body} AS body"
        f" FROM cases c{kinds.joins()}"
    }
    steps = _fold_steps("body")
    assert len(steps) == len(VIEWS) - 1, "a view for each step of the folding"
    for before, name, step in zip(VIEWS[:-1], VIEWS[1:], steps, strict=True):
        made[name] = f"CREATE VIEW {name} AS SELECT id, {step} AS body FROM {before}"
    return made


def _refresh(case_id: str) -> str:
    """The trigger body that indexes one case again from what is stored now."""
    return (
        f"DELETE FROM case_search WHERE rowid = {case_id}; "
        f"INSERT INTO case_search (rowid, body, compact) SELECT id, body, {_compact('body')}"
        f" FROM case_search_text WHERE id = {case_id};"
    )


def _refresh_many(case_ids: str) -> str:
    """The trigger body that indexes again the cases a query selects."""
    return (
        f"DELETE FROM case_search WHERE rowid IN ({case_ids}); "
        f"INSERT INTO case_search (rowid, body, compact) SELECT id, body, {_compact('body')}"
        f" FROM case_search_text WHERE id IN ({case_ids});"
    )


def _triggers() -> dict[str, str]:
    """Every change that alters a case's text, each a trigger by name. A new case is indexed
    when its details are stored (same transaction, just after the case row)."""
    watched = [
        (
            "cases",
            "update",
            "UPDATE OF reference, address, contact_name, contact_email, contact_phone, referred_to",
            "NEW.id",
        ),
        *[
            (k.table, event, event.upper(), "NEW.case_id")
            for k in kinds.all_kinds()
            for event in ("insert", "update")
        ],
        ("notes", "insert", "INSERT", "NEW.case_id"),
        ("notes", "update", "UPDATE", "NEW.case_id"),
        ("notes", "delete", "DELETE", "OLD.case_id"),
        ("inspections", "insert", "INSERT", "NEW.case_id"),
        ("inspections", "update", "UPDATE", "NEW.case_id"),
        ("inspections", "delete", "DELETE", "OLD.case_id"),
    ]
    found = {
        f"case_search_{table}_{name}": f"CREATE TRIGGER case_search_{table}_{name} AFTER {event}"
        f" ON {table} BEGIN {_refresh(key)} END"
        for table, name, event, key in watched
    }
    sources = sorted({change for source in _SOURCES for change in source.watched})
    for n, (table, event, case_ids) in enumerate(sources):
        found[f"case_search_{table}_{event}_{n}"] = (
            f"CREATE TRIGGER case_search_{table}_{event}_{n} AFTER {event.upper()} ON {table}"
            f" BEGIN {_refresh_many(case_ids)} END"
        )
    found["case_search_forget"] = (
        "CREATE TRIGGER case_search_forget AFTER DELETE ON cases"
        " BEGIN DELETE FROM case_search WHERE rowid = OLD.id; END"
    )
    return found


def drop(db: sqlite_utils.Database) -> None:
    """Drop the view and triggers (a table they name is about to be rebuilt); `ensure` makes
    them again. The index's rows stay."""
    for (name,) in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'case\\_search%'"
        " ESCAPE '\\'"
    ).fetchall():
        db.execute(f'DROP TRIGGER "{name}"')
    for name in reversed(VIEWS):
        db.execute(f"DROP VIEW IF EXISTS {name}")


def _wanted() -> dict[str, str]:
    return {**_views(), **_triggers()}


def up_to_date(db: sqlite_utils.Database) -> bool:
    """Whether the index, its view and its triggers are those the registered kinds make."""
    stored = dict(
        db.execute(
            "SELECT name, sql FROM sqlite_master WHERE name = 'case_search'"
            " OR (type = 'view' AND name LIKE 'case_search%')"
            " OR (type = 'trigger' AND name LIKE 'case_search%')"
        ).fetchall()
    )
    return stored.pop("case_search", None) is not None and stored == _wanted()


def ensure(db: sqlite_utils.Database) -> bool:
    """Make the index, its view and its triggers match the registered kinds (inside the
    caller's transaction); when they did not (a new file, a file from before, a kind added
    or its searchable fields changed), index every case again. True if anything changed."""
    if up_to_date(db):
        return False
    has_index = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'case_search'").fetchone()
    drop(db)
    if not has_index:
        db.execute(INDEX)
    for statement in _wanted().values():
        db.execute(statement)
    db.execute("DELETE FROM case_search")
    db.execute(
        f"INSERT INTO case_search (rowid, body, compact) SELECT id, body, {_compact('body')}"
        " FROM case_search_text"
    )
    return True


def _phrase(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def compact(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch not in SEPARATORS)


def condition(query: str, case_id: str = "c.id") -> tuple[str, list[Any]]:
    """A WHERE condition for the cases whose text holds every word of `query`, or holds
    the whole query once spaces and punctuation are taken out of both."""
    query = fold(query)
    words = query.split()
    squeezed = compact(query)
    long_words = [w for w in words if len(w) >= 3]
    # Trigrams need three characters: shorter words are checked with LIKE on the same row.
    short = [f"%{w.replace('%', '').replace('_', '')}%" for w in words if len(w) < 3]
    likes = "".join(" AND body LIKE ?" for _ in short)
    inner = "SELECT rowid FROM case_search WHERE "
    if short and not long_words:
        return f"{case_id} IN ({inner}{likes.removeprefix(' AND ')})", short
    if short:
        match = " AND ".join(f"body : {_phrase(w)}" for w in long_words)
    elif len(words) == 1:
        match = f"compact : {_phrase(squeezed)}"
    else:
        every = " AND ".join(f"body : {_phrase(w)}" for w in long_words)
        match = f"({every}) OR compact : {_phrase(squeezed)}"
    return f"{case_id} IN ({inner}case_search MATCH ?{likes})", [match, *short]
