"""Enforcement as the ordinance writes it: notices of violation, offense history, appeals,
corrective measures and the cost of abatement (staff only; rules in rules.py)."""

from __future__ import annotations

from flask import Flask

from content_model.enforcement import load_enforcement


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


def init_enforcement(app: Flask) -> None:
    """Read content/enforcement.yaml and add the pages to the staff blueprint (call before
    the blueprint is registered)."""
    content = app.extensions["content"]
    app.extensions["enforcement"] = load_enforcement(content.ordinance, app.config["CONTENT_DIR"])
    from portal.enforcement import letters, respondents, views  # noqa: F401 (their routes)

    app.jinja_env.filters.update(dollars=dollars, percent=percent, ordinal=ordinal)
    app.jinja_env.globals.update(
        enforcement=app.extensions["enforcement"], open_enforcement_dates=views.open_deadlines
    )
