"""A report in a few words: what was seen and where, as the status page says it and as
"My reports" lists it. Never the description or the person's details (anyone with the
status link sees these words)."""

from __future__ import annotations

import json
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from portal.report.choices import CHOICE_LABELS

NOTHING_TICKED = _l("something going into the storm drains")


def in_words(items: list[str]) -> str:
    """['a', 'b', 'c'] -> 'a, b and c'; [] -> '' (in the page's language: 'a, b y c')."""
    if len(items) < 2:
        return "".join(items)
    return _("%(items)s and %(last)s", items=", ".join(items[:-1]), last=items[-1])


def what_was_seen(indicators: str | list[str] | None) -> str:
    """The ticked indicators in words, e.g. 'suds or foam and unusual color'."""
    chosen = json.loads(indicators) if isinstance(indicators, str) else indicators or []
    labels = CHOICE_LABELS["indicators"]
    words = [_(labels[value]).lower() if value in labels else value for value in chosen]
    return in_words(words) or str(NOTHING_TICKED)


def where(case: dict[str, Any]) -> str:
    """The address given or, without one, the point (latitude, longitude)."""
    if case.get("address"):
        return case["address"]
    if case.get("latitude") is not None and case.get("longitude") is not None:
        return f"{case['latitude']:.5f}, {case['longitude']:.5f}"
    return ""
