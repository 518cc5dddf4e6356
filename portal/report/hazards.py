"""Which hazards a resident's report points to, by the rules in the content (hazard_rules
in site.yaml): a ticked indicator, the smell chosen, or a word in what the person wrote."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from content_model.site import HazardRule


@lru_cache(maxsize=64)
def _pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    """One pattern for a rule's words (whole words): a report is read once per rule."""
    return re.compile(r"\b(?:" + "|".join(re.escape(word) for word in words) + r")\b")


def _mentions(text: str, words: Iterable[str]) -> bool:
    words = tuple(words)
    return bool(words) and _pattern(words).search(text) is not None


def report_hazards(rules: Iterable[HazardRule], report: dict[str, Any]) -> list[str]:
    """The names of the rules a stored report (a row of `reports`) meets, in content order."""
    indicators = set(json.loads(report.get("indicators") or "[]"))
    odor = report.get("odor") or ""
    fields = ("description", "color", "source_description", "source_notes")
    text = " ".join(str(report.get(name) or "") for name in fields).lower()
    return [
        rule.name
        for rule in rules
        if indicators & set(rule.indicators) or odor in rule.odors or _mentions(text, rule.words)
    ]
