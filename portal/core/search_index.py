"""The staff search: one FTS5 row per case with every word an officer types or reads, kept
in step by triggers, so the queue's search stays fast at ten thousand cases.

Each row holds two columns: `body`, the case's text as written, and `compact`, the same
text in lower case with spaces and punctuation taken out, so a plate typed "hrt4455"
finds "HRT 4455" and a phone typed "5550123" finds "(555) 555-0123". The trigram
tokenizer matches any part of a word ("Mar" finds "Maria"), ignoring case.
"""

from __future__ import annotations

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


def text_columns() -> list[tuple[str, str]]:
    """(label, SQL) of every searchable text, the registered kinds' included."""
    own = [
        (label, f"{k.alias}.{column}")
        for k in kinds.all_kinds()
        for label, column in k.search_columns
    ]
    return [*CASE_COLUMNS, *own, *STAFF_COLUMNS]


def _compact(expression: str) -> str:
    for character in SEPARATORS:
        literal = "char(10)" if character == "\n" else "char(9)" if character == "\t" else None
        literal = literal or "'" + character.replace("'", "''") + "'"
        expression = f"replace({expression}, {literal}, '')"
    return f"lower({expression})"


INDEX = "CREATE VIRTUAL TABLE case_search USING fts5(body, compact, tokenize='trigram')"


def _view() -> str:
    body = " || ' ' || ".join(f"coalesce({column}, '')" for _, column in text_columns())
    joined = f"cases c{kinds.joins()}"
    return f"CREATE VIEW case_search_text AS SELECT c.id AS id, {body} AS body FROM {joined}"


def _refresh(case_id: str) -> str:
    """The trigger body that indexes one case again from what is stored now."""
    return (
        f"DELETE FROM case_search WHERE rowid = {case_id}; "
        f"INSERT INTO case_search (rowid, body, compact) SELECT id, body, {_compact('body')}"
        f" FROM case_search_text WHERE id = {case_id};"
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
    db.execute("DROP VIEW IF EXISTS case_search_text")


def _wanted() -> dict[str, str]:
    return {"case_search_text": _view(), **_triggers()}


def up_to_date(db: sqlite_utils.Database) -> bool:
    """Whether the index, its view and its triggers are those the registered kinds make."""
    stored = dict(
        db.execute(
            "SELECT name, sql FROM sqlite_master WHERE name IN ('case_search', 'case_search_text')"
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
