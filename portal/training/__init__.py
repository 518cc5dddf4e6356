"""The staff training log (the State's MS4 permit asks the municipality to train its staff on
illicit discharge detection and elimination and to report it): who was trained, when and on
what, added and listed on /staff/training/, behind the workspace's sign-in; the annual
figures count the sessions and the people trained in the period. Its table: schema.py."""

from __future__ import annotations

from flask import Flask

from portal.training import schema  # noqa: F401  (registers the table's migrations)


def init_training(app: Flask) -> None:
    from portal.training import figures, views

    app.register_blueprint(views.bp)
    figures.init_figures(app)
