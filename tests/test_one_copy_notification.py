"""The release notification's confirmation rule and the reporting window are each written
once: a second copy (a template comparing a filing's time with a call's, a SQL query or a
view reading the content switch itself, another `end + 1 day`) fails here, so it cannot drift
from the copy the tests pin."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Migrations replay history once, on an old database: they are not a copy the app runs.
NOT_RULES = {"portal/notification/migrations.py", "portal/core/migrations.py"}


def sources(*patterns: str) -> dict[str, str]:
    found = {}
    for pattern in patterns:
        for path in sorted(ROOT.glob(pattern)):
            name = path.relative_to(ROOT).as_posix()
            if name not in NOT_RULES:
                found[name] = path.read_text(encoding="utf-8")
    return found


def where(pattern: str, files: dict[str, str]) -> list[str]:
    """The files (and lines) where `pattern` matches."""
    compiled = re.compile(pattern)
    return [
        f"{name}:{number}"
        for name, text in files.items()
        for number, line in enumerate(text.splitlines(), 1)
        if compiled.search(line)
    ]


CODE = sources("portal/**/*.py")
TEMPLATES = sources("templates/**/*.html", "templates/**/*.txt")


@pytest.mark.parametrize(
    ("what", "pattern", "home"),
    [
        # The content switch: only compliance.py decides what it means for a filing.
        ("the switch read", r"counts_as_written_confirmation", "portal/notification/compliance.py"),
        # "A filing made before the call cannot confirm it."
        (
            "a filing against a call",
            r"(filed|received)[\w\"'\])]*\s*[<>]=?\s*[\w.\[\"']*told|told[\w\"'\])]*\s*[<>]=?\s*[\w.\[\"'(]*(filed|received)",
            "portal/notification/compliance.py",
        ),
        # A letter counts by the day it was mailed.
        (
            "letter by its day",
            r"mailed\w*\s*<=?\s*\w*\.?(due|confirmation_due)",
            "portal/notification/compliance.py",
        ),
        # The permit year, and its counting window [first day, day after the last).
        (
            "the year's first day",
            r"reporting_year_starts\b(?!\s*\))",
            "portal/staff/figures_period.py",
        ),
        (
            "the day after the last",
            r"end\)?\s*\+\s*(dt\.)?timedelta\(days=1\)",
            "portal/staff/figures_period.py",
        ),
    ],
)
def test_each_rule_is_written_in_one_module(what, pattern, home):
    assert {place.split(":")[0] for place in where(pattern, CODE)} == {home}, where(pattern, CODE)


def test_no_template_compares_a_filing_with_a_notice_or_a_due_day():
    # A page asks the rule (a value the view passes) instead of comparing dates itself.
    moments = r"(received_at|told_at|letter_mailed_on|confirmation_due|notice_due|filed_at)"
    compares = rf"{moments}\s*(<|>|<=|>=)\s*\w|\w\s*(<|>|<=|>=)\s*[\w.]*{moments}"
    assert where(compares, TEMPLATES) == []


def test_the_window_and_the_year_are_defined_once():
    assert where(r"def reporting_year\b", CODE) == ["portal/staff/figures_period.py:11"]
    assert len(where(r"def window_of\b", CODE)) == 1


def test_overdue_is_decided_by_compliance_and_mirrored_once_in_the_queues_sql():
    # "No notice (or confirmation) on record by the end of its day": compliance.py's
    # notice_overdue and confirmation_overdue, and their one SQL copy for the queue.
    unrecorded = r"(notice|confirmation)_met[\"'\]]*\s*(IS NULL|is None)"
    assert {place.split(":")[0] for place in where(unrecorded, CODE)} == {
        "portal/notification/compliance.py",
        "portal/staff/danger.py",
    }, where(unrecorded, CODE)
    assert len(where(unrecorded, {"danger": CODE["portal/staff/danger.py"]})) == 2
