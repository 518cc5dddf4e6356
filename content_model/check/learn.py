"""learn/*.md: the education pages' front matter and the sections they cite."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import yaml

from content_model.check.ordinance import (
    Citations,
)
from content_model.check.problems import Problem, from_error
from content_model.fields import (
    ContentError,
    parse_yaml,
)
from content_model.learn import FRONT_MATTER, load_learn_page
from content_model.ordinance import Ordinance
from content_model.translation import (
    guides,
)


def check_learn(root: Path, ordinance: Ordinance, citations: Citations) -> Iterator[Problem]:
    files = guides(root)
    if not files:
        yield Problem(
            "learn/",
            "",
            "no education pages (*.md) found",
            "copy the default pack's learn/ folder and change the pages",
        )
    for path in files:
        name = f"learn/{path.name}"
        match = FRONT_MATTER.match(path.read_text(encoding="utf-8"))
        try:
            meta = parse_yaml(match.group(1)) if match else None
        except yaml.YAMLError:
            meta = None  # the loader says so below
        if match and isinstance(meta, dict):
            listed = meta.get("sections")
            for number in listed if isinstance(listed, list) else []:  # else the loader says
                if str(number) not in ordinance.by_number:
                    yield Problem(
                        name,
                        "sections",
                        f"§ {number} is not in the ordinance",
                        f"list sections the ordinance has ({citations.span})",
                    )
            for cited in sorted(set(citations.missing(match.group(2)))):
                yield citations.problem(name, "body", cited)
        try:
            load_learn_page(path, ordinance)
        except (ContentError, yaml.YAMLError) as error:
            yield from_error(ContentError(str(error)))
