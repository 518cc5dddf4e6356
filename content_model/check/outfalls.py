"""outfalls.yaml, if the pack has one (the screening rotation, open data)."""

from __future__ import annotations

from pathlib import Path

from content_model.check.problems import Problem, from_error
from content_model.fields import (
    ContentError,
)


def check_outfalls(root: Path) -> list[Problem]:
    """content/outfalls.yaml, if the pack has one (the screening rotation, open data)."""
    from content_model.outfalls import load_outfall_settings

    try:
        load_outfall_settings(root)
    except ContentError as error:
        return [from_error(error)]
    return []
