"""ordinance.yaml: its roles, and what a pack's texts may cite (its sections and their
subdivisions): every citation in the ordinance and in any YAML file walked."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from content_model.check.problems import Problem, from_error, read_file, value_at
from content_model.fields import (
    ContentError,
    slugify,
)
from content_model.ordinance import REQUIRED_ROLES, Ordinance, Provision, ordinance_from

# A citation of a section, with an optional subdivision: '§ N-6', '§ N-6 A(1)', '§ N-13 B'.
CITATION = re.compile(r"§\s?(\d+-\d+)(?:\s([A-Z])(?![A-Za-z])(\(\d+\))?(\([a-z]\))?)?")
# 'Subsection A(1)' in a section's own text names a subdivision of that section.
SUBSECTION = re.compile(r"Subsection ([A-Z])(\(\d+\))?(\([a-z]\))?")
# A Markdown link to a part of the ordinance page: '[the list](/ordinance/#sec-216-6-a-1)'.
ANCHOR_LINK = re.compile(r"\]\([^)\s]*#(sec-[a-z0-9-]+)\)")


def _anchors(provisions: Iterable[Provision]) -> Iterator[str]:
    for provision in provisions:
        if provision.anchor:
            yield provision.anchor
        yield from _anchors(provision.items)


def _texts(provisions: Iterable[Provision]) -> Iterator[str]:
    for provision in provisions:
        yield provision.text
        yield from _texts(provision.items)


class Citations:
    """What a pack's texts may cite: the ordinance's sections and their subdivisions."""

    def __init__(self, ordinance: Ordinance) -> None:
        self.ordinance = ordinance
        self.anchors = {
            anchor for section in ordinance.sections for anchor in _anchors(section.body)
        } | {section.anchor for section in ordinance.sections}
        numbers = [s.number for s in ordinance.sections]
        self.span = f"§ {numbers[0]} to § {numbers[-1]}"

    def missing(self, text: str, own: str | None = None) -> Iterator[str]:
        """Each citation in `text` the ordinance cannot answer ('§ N-6 A(9)'); `own` is
        the section the text belongs to, for its 'Subsection A(1)' mentions."""
        for match in CITATION.finditer(text):
            number, *labels = match.groups()
            if number not in self.ordinance.by_number or not self._has(number, labels):
                yield " ".join(match.group(0).split())  # a no-break space printed plainly
        for match in ANCHOR_LINK.finditer(text):
            if match.group(1) not in self.anchors:
                yield f"a link to #{match.group(1)}"
        if own:
            for match in SUBSECTION.finditer(text):
                if not self._has(own, match.groups()):
                    yield f"{match.group(0)} (of § {own})"

    def _has(self, number: str, labels: list[str | None]) -> bool:
        anchor = f"sec-{number}"
        for label in labels:
            if label is None:
                break
            anchor = f"{anchor}-{slugify(label)}"
            if anchor not in self.anchors:
                return False
        return True

    def problem(self, file: str, field: str, cited: str) -> Problem:
        return Problem(
            file,
            field,
            f"cites {cited}, which is not in the ordinance",
            f"cite a section or subdivision the ordinance has ({self.span}), "
            "or add it to ordinance.yaml",
        )


def check_ordinance_citations(ordinance: Ordinance, citations: Citations) -> Iterator[Problem]:
    for i, section in enumerate(ordinance.sections):
        texts = [*_texts(section.body)]
        texts += [t for d in section.definitions for t in _texts(d.body)]
        for cited in sorted({c for t in texts for c in citations.missing(t, section.number)}):
            yield citations.problem("ordinance.yaml", f"sections[{i}] (§ {section.number})", cited)


def _check_roles(data: Any, chapter: str, numbers: set[str]) -> Iterator[Problem]:
    roles = value_at(data, "roles") if isinstance(data, dict) else None
    roles = roles if isinstance(roles, dict) else {}
    for role in REQUIRED_ROLES:
        if role not in roles:
            yield Problem(
                "ordinance.yaml",
                f"roles.{role}",
                "is missing",
                f"name the section that does this job, like `{role}: {chapter}-N`",
            )
    for role, number in roles.items():
        if str(number) not in numbers:
            yield Problem(
                "ordinance.yaml",
                f"roles.{role}",
                f"§ {number} is not in the ordinance",
                "give the number of the section that does this job",
            )


def ordinance_of(root: Path) -> tuple[Ordinance | None, list[Problem]]:
    """The ordinance and its problems; roles that do not resolve are reported and set
    aside, so the citations of every file can still be checked against the sections."""
    data, problem = read_file(root, "ordinance.yaml")
    if problem:
        return None, [problem]
    sections = value_at(data, "sections") if isinstance(data, dict) else None
    numbers = {str(value_at(s, "number")) for s in sections or [] if isinstance(s, dict)}
    chapter = str(value_at(data, "chapter") or "N") if isinstance(data, dict) else "N"
    problems = list(_check_roles(data, chapter, numbers))
    if problems and numbers:
        first = min(numbers)
        roles = value_at(data, "roles") if isinstance(value_at(data, "roles"), dict) else {}
        kept = {role: n for role, n in roles.items() if str(n) in numbers}
        data = dict(data, roles={**{role: first for role in REQUIRED_ROLES}, **kept})
    try:
        return ordinance_from(data), problems
    except ContentError as error:
        return None, [*problems, from_error(error)]


def check_texts(file: str, data: Any, citations: Citations, path: str = "") -> Iterator[Problem]:
    """Every text value of a YAML file, walked for citations the ordinance cannot answer."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from check_texts(file, value, citations, f"{path}{key}.")
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from check_texts(file, value, citations, f"{path.rstrip('.')}[{i}].")
    elif isinstance(data, str):
        for cited in citations.missing(data):
            yield citations.problem(file, path.rstrip("."), cited)
