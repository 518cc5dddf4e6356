"""The resident's report: its page (views), form, choices, and which hazards it points to."""

from __future__ import annotations

from flask import Flask

from portal.report import kind, views  # noqa: F401  (kind: registers the kind of case)
from portal.report.choices import CHOICE_LABELS
from portal.report.forms import DESCRIPTION_LIMIT


def init_report(app: Flask) -> None:
    app.register_blueprint(views.bp)
    # The form's choices in words, for every page that shows a report.
    app.jinja_env.globals["labels"] = CHOICE_LABELS
    app.jinja_env.globals["description_limit"] = DESCRIPTION_LIMIT
