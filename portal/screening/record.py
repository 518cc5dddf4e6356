"""A saved screening in words, as its page, its print and the CSV show it: the inventory's
fields of the sheet's second version ("Not recorded" on a sheet saved before them), the
flow measured with the flow computed, the call against what was seen, and the hazard."""

from __future__ import annotations

import json
from typing import Any

from flask import current_app

from portal.screening import ori
from portal.screening.hazards import screening_hazards

NOT_RECORDED = "Not recorded"


def _lists(screening: dict[str, Any]) -> tuple[list[str], list[str]]:
    return tuple(
        json.loads(screening.get(name) or "[]") for name in ("pool_quality", "benthic_growth")
    )


def _choice(pairs: list[tuple[str, str]], value: str | None) -> str:
    return dict(pairs).get(value, value) if value else NOT_RECORDED


def submerged_words(screening: dict[str, Any]) -> str:
    water, sediment = screening.get("submerged_water"), screening.get("submerged_sediment")
    if not water and not sediment:
        return NOT_RECORDED
    words = dict(ori.SUBMERGED)
    return (
        f"In water: {words.get(water, NOT_RECORDED).lower()};"
        f" in sediment: {words.get(sediment, NOT_RECORDED).lower()}"
    )


def ori_rows(screening: dict[str, Any]) -> list[tuple[str, str]]:
    """(label, words) for each field of the sheet's second version, in the sheet's order."""
    air = screening.get("air_temperature_f")
    land = ori.list_words("land_use", screening.get("land_use"))
    if screening.get("known_industries"):
        land = f"{land}. Known industries: {screening['known_industries']}"
    return [
        ("Air temperature", NOT_RECORDED if air is None else f"{air:g} °F"),
        ("Land use in the drainage area", land),
        ("Submerged", submerged_words(screening)),
        ("Flow measured", "; ".join(ori.flow_lines(screening["observations"])) or NOT_RECORDED),
        ("Poor pool quality", ori.list_words("pool_quality", screening.get("pool_quality"))),
        ("Pipe benthic growth", ori.list_words("benthic_growth", screening.get("benthic_growth"))),
        ("Intermittent flow trap", _choice(ori.FLOW_TRAPS, screening.get("flow_trap"))),
    ]


def call_against_signs(screening: dict[str, Any]) -> dict[str, Any] | None:
    """The call lower than what was seen: the call the signs give and which signs (None:
    the call is not lower)."""
    pool, benthic = _lists(screening)
    implied, signs = ori.implied_call(screening["observations"], pool, benthic)
    if ori.CALLS.index(screening["overall"]) >= ori.CALLS.index(implied):
        return None
    return {"implied": implied, "signs": signs, "reason": screening.get("call_reason")}


def hazards(screening: dict[str, Any]) -> list[str]:
    """The hazard rules the screening meets (the report's, portal/screening/hazards.py)."""
    rules = current_app.extensions["content"].settings.hazard_rules
    return screening_hazards(rules, screening["observations"])
