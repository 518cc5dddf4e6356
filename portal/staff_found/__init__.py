"""Discharges staff found themselves: a kind of case registered through the kind descriptor
(importing the package registers it, as every kind's package does), and the staff page that
records one, under /staff/ behind the workspace's sign-in."""

from __future__ import annotations

from flask import Flask

from portal.staff_found import kind, views  # noqa: F401  (kind: registers the kind of case)


def init_staff_found(app: Flask) -> None:
    app.register_blueprint(views.bp)
