"""The annual figures as the page, the CSV and the records page share them: each figure is a
list of the records behind it (a case, a notice, an outfall, a screening), each with the
day it counts by, so every number links to what makes it up.

Features add sections of their own (the outfall inventory's) with `add_section`, so the
staff workspace imports none of them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import sqlite_utils

# What a section builder is given: the database, the period as [first day, day after last)
# in ISO dates, and the moment that tells a deadline still to come from one missed.
Window = list[str]


@dataclass(frozen=True)
class Record:
    """One thing a figure counts: its words (a reference, an outfall's id), the staff page
    that shows it (an endpoint and its values) and the day it counts by."""

    words: str
    endpoint: str
    values: tuple[tuple[str, Any], ...]
    day: str | None = None

    @property
    def arguments(self) -> dict[str, Any]:
        return dict(self.values)


@dataclass(frozen=True)
class Figure:
    """One line of the report: `key` is unique across the report (the records page's
    address); `cents`, a sum of money the line shows instead of the count of its records."""

    key: str
    label: str
    records: tuple[Record, ...] = ()
    cents: int | None = None
    # Shown only when it is not zero (a deadline still to come).
    optional: bool = False
    # Words the line shows instead of a number: why it cannot be computed ("Not computed:
    # ..."), or what its records add up to ("median 12 days").
    value: str | None = None

    @property
    def count(self) -> int:
        return len(self.records)

    @property
    def shown(self) -> str:
        if self.value is not None:
            return self.value
        return str(self.count) if self.cents is None else f"${self.cents / 100:,.2f}"


@dataclass(frozen=True)
class Section:
    title: str
    figures: tuple[Figure, ...]
    level: int = 2  # its heading: 2, or 3 under the section before it
    notes: tuple[str, ...] = ()  # how it is counted, in a few plain sentences


@dataclass(frozen=True)
class SectionSource:
    """A feature's part of the report: where it comes (`rank`: the core's sections are 10
    to 50 apart by ten) and how to build its sections for a period."""

    rank: int
    build: Callable[[sqlite_utils.Database, Window, Any], Iterable[Section]]


def add_section(app: Any, source: SectionSource) -> None:
    app.extensions.setdefault("annual_sections", []).append(source)


def feature_sections(app: Any) -> list[SectionSource]:
    return sorted(app.extensions.get("annual_sections", []), key=lambda s: s.rank)


@dataclass(frozen=True)
class Report:
    sections: tuple[Section, ...]
    by_key: dict[str, Figure] = field(default_factory=dict)

    @classmethod
    def of(cls, sections: Iterable[Section]) -> Report:
        sections = tuple(sections)
        by_key: dict[str, Figure] = {}
        for section in sections:
            for figure in section.figures:
                if figure.key in by_key:
                    raise ValueError(f"two figures have the key {figure.key!r}")
                by_key[figure.key] = figure
        return cls(sections, by_key)


def records(rows: Iterable[tuple[Any, ...]], endpoint: str, argument: str) -> tuple[Record, ...]:
    """Records from (id, words, day) rows, each shown by `endpoint` given its id as
    `argument`, in the order of their days then words."""
    found = [Record(str(words), endpoint, ((argument, ident),), day) for ident, words, day in rows]
    return tuple(sorted(found, key=lambda r: (r.day or "", r.words)))
