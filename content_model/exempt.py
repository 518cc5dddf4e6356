"""content/exempt-discharges.yaml: the discharges the law exempts, each quoting its words."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from content_model.fields import Fields, keywords, read_yaml, slugify
from content_model.ordinance import Ordinance, Provision


@dataclass(frozen=True)
class ExemptDischarge:
    name: str
    slug: str
    note: str
    keywords: tuple[str, ...] = ()
    learn: str | None = None  # the slug of a learn page that says more
    # Words that say the exemption does not apply ("chlorine" for dechlorinated pool water):
    # mentioned, they hold the hint back, unless only inside one of `unless_negated`
    # ("no chlorine").
    unless: tuple[str, ...] = ()
    unless_negated: tuple[str, ...] = ()


@dataclass(frozen=True)
class Question:
    """A common question, answered plainly, with a learn page that says more (optional)."""

    question: str
    answer: str
    learn: str | None = None


@dataclass(frozen=True)
class ConditionalAllowance:
    label: str
    title: str
    note: str


@dataclass(frozen=True)
class ExemptList:
    section: str
    intro: str
    entries: tuple[ExemptDischarge, ...]
    conditional: tuple[ConditionalAllowance, ...]
    caveat: str
    questions: tuple[Question, ...] = ()


def load_exempt(path: Path, ordinance: Ordinance, data: Any = None) -> ExemptList:
    fields = Fields(read_yaml(path) if data is None else data, path.name)
    section = fields.text("section")
    if section not in ordinance.by_number:
        raise fields.fail("section", f"§ {section} is not in the ordinance")
    law_text = " ".join(_all_text(ordinance.by_number[section].body))
    entries = []
    for item in fields.records("entries"):
        name = item.text("name")
        # Each entry quotes the law: a name the law does not use is a typo to catch here.
        if name not in law_text:
            raise item.fail("name", f"{name!r} is not in the words of § {section}")
        entries.append(
            ExemptDischarge(
                name,
                slugify(name),
                item.text("note"),
                keywords(item),
                item.text("learn", True),
                keywords(item, "unless"),
                keywords(item, "unless_negated"),
            )
        )
    conditional = tuple(
        ConditionalAllowance(c.text("label"), c.text("title"), c.text("note"))
        for c in fields.records("conditional")
    )
    questions = tuple(
        Question(q.text("question"), q.text("answer"), q.text("learn", True))
        for q in fields.records("questions", optional=True)
    )
    result = ExemptList(
        section,
        fields.text("intro"),
        tuple(entries),
        conditional,
        fields.text("caveat"),
        questions,
    )
    fields.refuse_unknown()
    return result


def _all_text(provisions: tuple[Provision, ...]) -> list[str]:
    return [t for p in provisions for t in (p.text, *_all_text(p.items))]
