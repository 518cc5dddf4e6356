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


# A notification is flagged when the facility answered "yes" to "Is the material hazardous?";
# "not sure" is not a flag (the staff queue has always read it so).
HAZARDOUS_FILING = "Hazardous material"


def case_hazards(rules: Iterable[HazardRule], case: dict[str, Any]) -> list[str]:
    """Why a case is hazardous, as the queue flags it: the rules a report meets, or a
    notification's own answer. `case` joins the case with its report or notification."""
    if case["kind"] == "report":
        return report_hazards(rules, case)
    return [HAZARDOUS_FILING] if case.get("hazardous") == "yes" else []
