"""content/learn/*.md: the education pages, Markdown with front matter."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from content_model.fields import ContentError, Fields, keywords, parse_yaml
from content_model.ordinance import Ordinance

RAW_HTML = re.compile(r"<[a-zA-Z/!]")


@dataclass(frozen=True)
class LearnPage:
    slug: str
    title: str
    summary: str
    order: int
    sections: tuple[str, ...]
    body: str
    # Words people search with that the text does not use ("oil change"): indexed, not shown.
    keywords: tuple[str, ...] = ()


FRONT_MATTER = re.compile(r"\A---\n(.*?)\n---\n(.*)\Z", re.DOTALL)
SUMMARY_LIMIT = 160


def load_learn_page(
    path: Path, ordinance: Ordinance, english: LearnPage | None = None
) -> LearnPage:
    """A guide; with `english`, its translation (`pet-waste.es.md`), whose order and sections
    are the English page's."""
    source = path.read_text(encoding="utf-8")
    name = f"learn/{path.name}"
    match = FRONT_MATTER.match(source)
    if not match:
        raise ContentError(f"{name}: front matter: must start with a '---' block")
    try:
        meta = parse_yaml(match.group(1))
    except yaml.YAMLError as error:
        raise ContentError(f"{name}: front matter: not valid YAML: {error}") from None
    if english is not None and isinstance(meta, dict):
        meta = {"order": english.order, "sections": list(english.sections), **meta}
    fields = Fields(meta, name)
    summary = fields.text("summary")
    if len(summary) > SUMMARY_LIMIT:
        raise fields.fail("summary", f"is {len(summary)} characters; keep it to {SUMMARY_LIMIT}")
    sections = tuple(str(s) for s in fields.values("sections"))
    for number in sections:
        if number not in ordinance.by_number:
            raise fields.fail("sections", f"§ {number} is not in the ordinance")
    body = match.group(2).strip()
    if not body:
        raise fields.fail("body", "is empty")
    if RAW_HTML.search(body):
        raise fields.fail("body", "must be Markdown without raw HTML")
    result = LearnPage(
        slug=english.slug if english else path.stem,
        title=fields.text("title"),
        summary=summary,
        order=fields.integer("order"),
        sections=sections,
        body=body,
        keywords=keywords(fields),
    )
    fields.refuse_unknown()
    return result
