"""enforcement.yaml: against the ordinance, and every field of it that nothing reads."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

from content_model.check.problems import Problem, from_error
from content_model.enforcement import unknown_enforcement
from content_model.fields import (
    ContentError,
)
from content_model.ordinance import Ordinance


def check_enforcement(root: Path, ordinance: Ordinance) -> Iterator[Problem]:
    """enforcement.yaml against the ordinance, then every field of it that nothing reads."""
    try:
        errors = unknown_enforcement(ordinance, root)
    except ContentError as error:
        yield from_error(error)
        return
    for error in errors:
        yield dataclasses.replace(from_error(error), from_loader=False)
