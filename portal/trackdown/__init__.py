"""Track-down and elimination on a case (staff pages under /staff/cases/<id>/trackdown/):
investigation steps (structures inspected, dye, smoke and camera tests, samples with their
chain of custody and lab results), the source found and its respondent, and the day and way
the discharge was eliminated; enforcement starts from the source. Its tables: schema.py."""

from __future__ import annotations

from typing import Any

from flask import Flask

from portal.trackdown import (
    schema,  # noqa: F401  (registers the tables' migrations)
    search,  # noqa: F401  (registers what staff search for)
)


def init_trackdown(app: Flask) -> None:
    """Register the pages, and what the case page and its print read of a case's track-down."""
    from portal.core.db import get_db
    from portal.staff.exports import ExportPart, add_export_part
    from portal.trackdown import figures, rules, source_found, views
    from portal.trackdown.choices import words

    def trackdown_of(case: dict[str, Any]) -> source_found.Trackdown:
        return source_found.trackdown(get_db(), case)

    app.register_blueprint(views.bp)
    # The annual figures count an elimination by the day recorded here, where there is one.
    app.extensions["elimination_days"] = source_found.elimination_days
    # Its own lines: what is still being traced, and the days each elimination took.
    figures.init_figures(app)
    # The staff CSV: what track-down found, beside each case's own columns.
    add_export_part(app, ExportPart(source_found.EXPORT_COLUMNS, source_found.export_values))

    def cite_section(role: str) -> str:
        """The section doing a job ("§" and its number), by its role in the content's ordinance."""
        return "§\u00a0" + app.extensions["content"].ordinance.roles[role]

    app.jinja_env.globals.update(
        cite_section=cite_section,
        trackdown_of=trackdown_of,
        trackdown_words=words(),
        trackdown_enforcement=source_found.enforcement_args,
        trackdown_before_case=rules.before_case,
    )
