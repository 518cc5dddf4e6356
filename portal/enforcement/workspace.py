"""What every enforcement page asks of the request: the law it works under, the signed-in
officer, a violation or notice by its id, and the sections a person can violate."""

from __future__ import annotations

from typing import Any

from flask import abort, current_app

from content_model.enforcement import Enforcement
from portal.accounts.auth import current_staff
from portal.core.db import get_db, one
from portal.enforcement import notices, violations


def law() -> Enforcement:
    return current_app.extensions["enforcement"]


def actor() -> str:
    return current_staff()["username"]


def section_choices() -> list[tuple[str, str]]:
    """Each provision a person can violate (content's `violable`: "N-M" or "N-M B", the
    chapter's own numbers), with its title or its first words: never a scope clause, a
    definition or the officer's power."""
    choices = [("", "Choose a section")]
    ordinance = current_app.extensions["content"].ordinance
    for entry in law().violable:
        number, _, label = entry.partition(" ")
        section = ordinance.by_number[number]
        if not label:
            choices.append((entry, f"§ {entry} {section.title}"))
            continue
        part = next(p for p in section.body if p.label and p.label.rstrip(".") == label)
        words = (part.text or part.items[0].text).split(". ")[0].rstrip(".")
        choices.append((entry, f"§ {entry} {first_words(words)}"))
    return choices


def first_words(sentence: str, limit: int = 70) -> str:
    """A sentence cut to whole words within `limit` characters, marked as cut with "…" (a
    label cut mid-word read as the law's own words)."""
    if len(sentence) <= limit:
        return sentence
    return sentence[: limit + 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"


def signer() -> dict[str, str]:
    """The signed-in officer's name and title for letters (the title defaults to the content's
    officer title)."""
    row = (
        one(
            get_db(),
            "SELECT letter_name, letter_title FROM staff WHERE id = ?",
            [current_staff()["id"]],
        )
        or {}
    )
    default = current_app.extensions["content"].settings.smo_title
    return {"name": row.get("letter_name") or "", "title": row.get("letter_title") or default}


def provision_items(role: str) -> list[tuple[str, str]]:
    return [(p.label or "", p.text) for p in law().provisions[role].items]


def violation_or_404(violation_id: int) -> dict[str, Any]:
    return violations.violation(get_db(), violation_id) or abort(404)


def notice_or_404(notice_id: int) -> dict[str, Any]:
    return notices.notice(get_db(), notice_id) or abort(404)
