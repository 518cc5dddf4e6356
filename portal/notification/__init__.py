"""The release notification (the ordinance's release notification section): its pages (views),
forms, choices and record."""

from __future__ import annotations

from flask import Flask

from portal.notification import kind, views  # noqa: F401  (kind: registers the kind of case)
from portal.notification.figures import init_figures
from portal.notification.records import holidays_counted, record_duty, state_call_missing


def init_notification(app: Flask) -> None:
    app.register_blueprint(views.bp)
    init_figures(app)
    app.jinja_env.globals["record_duty"] = record_duty
    app.jinja_env.globals["holidays_counted"] = holidays_counted
    app.jinja_env.globals["state_call_missing"] = state_call_missing
