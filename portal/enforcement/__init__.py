"""Enforcement as the ordinance writes it: notices of violation, offense history, appeals,
corrective measures and the cost of abatement (staff only; rules in rules.py)."""

from __future__ import annotations

from flask import Flask

from content_model.enforcement import load_enforcement
from portal.enforcement import (  # noqa: F401 (their routes)
    costs_views,
    letters,
    notice_page,
    respondents,
    search,
    views,
)
from portal.enforcement.blueprint import bp
from portal.enforcement.figures import init_figures
from portal.enforcement.words import dollars, item_sentence, ordinal, percent


def init_enforcement(app: Flask) -> None:
    """Read content/enforcement.yaml and register the pages (under /staff/, behind the
    workspace's sign-in check)."""
    from portal.enforcement import export
    from portal.staff.exports import ExportPart, add_export_part

    content = app.extensions["content"]
    app.extensions["enforcement"] = load_enforcement(content.ordinance, app.config["CONTENT_DIR"])
    app.register_blueprint(bp)
    init_figures(app)
    # The staff CSV: whom a case's enforcement is against, and its notices' numbers.
    add_export_part(app, ExportPart(export.EXPORT_COLUMNS, export.export_values))

    app.jinja_env.filters.update(
        dollars=dollars, percent=percent, ordinal=ordinal, item_sentence=item_sentence
    )
    app.jinja_env.globals.update(
        enforcement=app.extensions["enforcement"], open_enforcement_dates=views.open_deadlines
    )
