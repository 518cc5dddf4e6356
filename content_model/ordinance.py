"""content/ordinance.yaml: the law as structured data, and the section doing each job (roles)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from content_model.fields import Fields, read_yaml, slugify

LABEL = re.compile(r"^(?:[A-Z]\.|\(\d+\)|\([a-z]\))$")
SECTION_NUMBER = re.compile(r"^\d+-\d+$")


@dataclass(frozen=True)
class Provision:
    """A paragraph of the law, or a lettered or numbered subdivision with its own items."""

    label: str | None
    text: str
    anchor: str | None
    items: tuple[Provision, ...]


@dataclass(frozen=True)
class Definition:
    term: str
    slug: str
    body: tuple[Provision, ...]


@dataclass(frozen=True)
class Section:
    number: str
    title: str
    body: tuple[Provision, ...]
    definitions: tuple[Definition, ...]
    # Where the law is silent and the municipality reads it one way, said after the
    # section's text as "Our reading" (never mixed into the adopted words).
    reading: str | None = None

    @property
    def anchor(self) -> str:
        return f"sec-{self.number}"


@dataclass(frozen=True)
class ChapterHead:
    history: str
    references_heading: str
    references: tuple[str, ...]
    adoption: str


@dataclass(frozen=True)
class Ordinance:
    chapter: str
    article: str
    title: str
    head: ChapterHead
    sections: tuple[Section, ...]
    # The section that does each job, by role ("release_notification": "N-12" in Chapter N): pages,
    # forms and mail cite a section through its role, never by a number of their own.
    roles: dict[str, str]

    @property
    def spill_section(self) -> str:
        """The section that tells a facility how to report a spill or release."""
        return self.roles["release_notification"]

    @cached_property
    def by_number(self) -> dict[str, Section]:
        return {section.number: section for section in self.sections}

    @property
    def definitions(self) -> tuple[Definition, ...]:
        return tuple(d for section in self.sections for d in section.definitions)

    def defined(self, slug: str) -> str | None:
        """The words of a defined term ('hazardous-materials'), or None if the law has none."""
        for definition in self.definitions:
            if definition.slug == slug:
                return " ".join(part.text for part in definition.body)
        return None


# The roles every ordinance must name a section for (pages, mail and the enforcement steps
# cite them; content_model/enforcement.py names the last five by shorter names).
REQUIRED_ROLES = (
    "definitions",
    "enforcement_officer",
    "exemptions",
    "release_notification",
    "penalties",
    "notice_of_violation",
    "appeals",
    "corrective_measures",
    "cost_of_abatement",
    "access_and_monitoring",
)


def _provisions(fields: Fields, key: str, anchor: str | None) -> tuple[Provision, ...]:
    """Read a list of provisions; labelled ones get an anchor such as 'sec-N-6-a-1'."""
    result = []
    for item in fields.records(key, optional=True):
        label = item.text("label", optional=True)
        if label is not None and not LABEL.match(label):
            raise item.fail("label", f"{label!r} is not a label like A., (1) or (a)")
        own = f"{anchor}-{slugify(label)}" if label and anchor else None
        result.append(Provision(label, item.text("text"), own, _provisions(item, "items", own)))
    return tuple(result)


def load_ordinance(path: Path) -> Ordinance:
    return ordinance_from(read_yaml(path), path.name)


def ordinance_from(data: Any, file: str = "ordinance.yaml") -> Ordinance:
    """The ordinance from its parsed YAML (`file` names it in errors)."""
    fields = Fields(data, file)
    head = fields.mapping("head")
    chapter = fields.text("chapter")
    sections, seen = [], set()
    for item in fields.records("sections"):
        number = item.text("number")
        if not SECTION_NUMBER.match(number) or not number.startswith(f"{chapter}-"):
            raise item.fail("number", f"{number!r} is not a section of chapter {chapter}")
        if number in seen:
            raise item.fail("number", f"{number} appears twice")
        seen.add(number)
        definitions = tuple(
            Definition(d.text("term"), slugify(d.text("term")), _provisions(d, "body", None))
            for d in item.records("definitions", optional=True)
        )
        sections.append(
            Section(
                number=number,
                title=item.text("title"),
                body=_provisions(item, "body", f"sec-{number}"),
                definitions=definitions,
                reading=item.text("reading", optional=True),
            )
        )
    if not sections:
        raise fields.fail("sections", "must list the sections")
    roles_map = fields.mapping("roles")
    roles = {role: roles_map.text(role) for role in REQUIRED_ROLES} | {
        str(role): str(number) for role, number in roles_map.data.items()
    }
    roles_map.known(*map(str, roles_map.data))  # a pack may name roles of its own
    for role, number in roles.items():
        if number not in seen:
            raise roles_map.fail(role, f"§ {number} is not in the ordinance")
    result = Ordinance(
        chapter=chapter,
        article=fields.text("article"),
        title=fields.text("title"),
        head=ChapterHead(
            history=head.text("history"),
            references_heading=head.text("references_heading"),
            references=tuple(str(r) for r in head.values("references")),
            adoption=head.text("adoption"),
        ),
        sections=tuple(sections),
        roles=roles,
    )
    fields.refuse_unknown()
    return result
