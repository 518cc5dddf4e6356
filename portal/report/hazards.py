"""Which hazards a resident's report points to, by the rules in the content (hazard_rules
in site.yaml): a ticked indicator, the smell chosen, or a word in what the person wrote."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from content_model.site import HazardRule
from portal.report.matching import mentions, plain


def report_hazards(rules: Iterable[HazardRule], report: dict[str, Any]) -> list[str]:
    """The names of the rules a stored report (a row of `reports`) meets, in content order."""
    indicators = set(json.loads(report.get("indicators") or "[]"))
    odor = report.get("odor") or ""
    fields = ("description", "color", "source_description", "source_notes")
    text = plain(" ".join(str(report.get(name) or "") for name in fields))
    return [
        rule.name
        for rule in rules
        if indicators & set(rule.indicators) or odor in rule.odors or mentions(text, rule.words)
    ]
