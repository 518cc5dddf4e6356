"""The public status page a person reaches with the secret link from their confirmation."""

from __future__ import annotations

from flask import Flask

from portal.status import views


def init_status(app: Flask) -> None:
    app.register_blueprint(views.bp)
