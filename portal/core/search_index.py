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

# What is taken out of `compact`: what people put between the letters of a plate or the
# digits of a phone number.
SEPARATORS = " \n\t-().,/+#:;'\"_"

# Every text an officer may search for, with what the queue calls it when it matches
# (portal/staff/matches.py): (label, SQL over cases c, reports r, notifications n).
TEXT_COLUMNS = [
    ("Reference", "c.reference"), ("Address", "c.address"), ("Name", "c.contact_name"),
    ("E-mail", "c.contact_email"), ("Phone", "c.contact_phone"),
    ("Referred to", "c.referred_to"), ("Description", "r.description"), ("Color", "r.color"),
    ("Business or property named", "r.source_description"),
    ("Vehicle and license plate", "r.source_vehicle"),
    ("What they were seen doing", "r.source_notes"), ("Facility", "n.facility_name"),
    ("Facility address", "n.facility_address"), ("Material released", "n.materials"),
    ("Permit number", "n.permit_number"), ("NYSDEC spill number", "n.dec_spill_number"),
    ("Job title", "n.responsible_title"), ("Cause", "n.cause"), ("Cleanup", "n.cleanup"),
    ("Internal note", "(SELECT group_concat(body, ' ') FROM notes WHERE case_id = c.id)"),
    ("Site visit", "(SELECT group_concat(findings || ' ' || coalesce(lab_reference, ''), ' ')"
     " FROM inspections WHERE case_id = c.id)"),
]  # fmt: skip
_TEXT_COLUMNS = [column for _, column in TEXT_COLUMNS]


def _compact(expression: str) -> str:
    for character in SEPARATORS:
        literal = "char(10)" if character == "\n" else "char(9)" if character == "\t" else None
        literal = literal or "'" + character.replace("'", "''") + "'"
        expression = f"replace({expression}, {literal}, '')"
    return f"lower({expression})"


_BODY = " || ' ' || ".join(f"coalesce({column}, '')" for column in _TEXT_COLUMNS)

SCHEMA = [
    "CREATE VIRTUAL TABLE IF NOT EXISTS case_search USING fts5(body, compact, tokenize='trigram')",
    "CREATE VIEW IF NOT EXISTS case_search_text AS SELECT c.id AS id, "
    f"{_BODY} AS body FROM cases c LEFT JOIN reports r ON r.case_id = c.id"
    " LEFT JOIN notifications n ON n.case_id = c.id",
]


def _refresh(case_id: str) -> str:
    """The trigger body that indexes one case again from what is stored now."""
    return (
        f"DELETE FROM case_search WHERE rowid = {case_id}; "
        f"INSERT INTO case_search (rowid, body, compact) SELECT id, body, {_compact('body')}"
        f" FROM case_search_text WHERE id = {case_id};"
    )


# (table, event, the case's id in that row): every change that alters a case's text. A new
# case is indexed when its details are stored (same transaction, just after the case row).
_TRIGGERS = [
    ("cases", "UPDATE OF reference, address, contact_name, contact_email, contact_phone,"
     " referred_to", "NEW.id"),
    ("reports", "INSERT", "NEW.case_id"), ("reports", "UPDATE", "NEW.case_id"),
    ("notifications", "INSERT", "NEW.case_id"), ("notifications", "UPDATE", "NEW.case_id"),
    ("notes", "INSERT", "NEW.case_id"), ("notes", "UPDATE", "NEW.case_id"),
    ("notes", "DELETE", "OLD.case_id"),
    ("inspections", "INSERT", "NEW.case_id"), ("inspections", "UPDATE", "NEW.case_id"),
    ("inspections", "DELETE", "OLD.case_id"),
]  # fmt: skip


def create(db: sqlite_utils.Database, rebuild: bool) -> None:
    """Create the index, its view and triggers (inside the migration's transaction);
    `rebuild` (a file from before the index): index every case already stored."""
    for statement in SCHEMA:
        db.execute(statement)
    for number, (table, event, key) in enumerate(_TRIGGERS):
        db.execute(
            f"CREATE TRIGGER IF NOT EXISTS case_search_{table}_{number} AFTER {event} ON {table}"
            f" BEGIN {_refresh(key)} END"
        )
    db.execute(
        "CREATE TRIGGER IF NOT EXISTS case_search_forget AFTER DELETE ON cases"
        " BEGIN DELETE FROM case_search WHERE rowid = OLD.id; END"
    )
    if rebuild:
        db.execute("DELETE FROM case_search")
        db.execute(
            f"INSERT INTO case_search (rowid, body, compact) SELECT id, body, {_compact('body')}"
            " FROM case_search_text"
        )


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
