"""How enforcement pages write money, rates and ordinals."""

from __future__ import annotations


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
