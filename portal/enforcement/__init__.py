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


def init_enforcement(app: Flask) -> None:
    """Read content/enforcement.yaml and add the pages to the staff blueprint (call before
    the blueprint is registered)."""
    content = app.extensions["content"]
    app.extensions["enforcement"] = load_enforcement(content.ordinance, app.config["CONTENT_DIR"])
    from portal.enforcement import views

    app.jinja_env.filters["dollars"] = dollars
    app.jinja_env.globals.update(
        enforcement=app.extensions["enforcement"], open_enforcement_dates=views.open_deadlines
    )
