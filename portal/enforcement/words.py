"""How enforcement pages write money, rates, ordinals and the law's list items."""

from __future__ import annotations

import re

# How the law ends an item of a list ("(e) Payment of a fine; and"): the list's own joints,
# which a letter printing some of its items on their own must leave out.
LIST_JOINT = re.compile(r"\s*[;,:]\s*(and|or)?\s*$|\s*[.;,:]$")


def dollars(cents: int | None) -> str:
    """12345 -> '$123.45'."""
    if cents is None:
        return ""
    sign = "-" if cents < 0 else ""
    return f"{sign}${abs(cents) // 100:,}.{abs(cents) % 100:02d}"


def percent(value: float) -> str:
    """9.0 -> '9', 9.25 -> '9.25'."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def ordinal(n: int) -> str:
    """31 -> '31st', 12 -> '12th', 22 -> '22nd'."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def item_sentence(text: str) -> str:
    """An item of the law's list as a sentence of its own: 'Payment of a fine; and' ->
    'Payment of a fine.' (printed alone, the list's '; and' joins it to nothing)."""
    return LIST_JOINT.sub("", text.rstrip()) + "."
