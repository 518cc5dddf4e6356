"""The Stormwater Management Officer's workspace, at /staff/, for signed-in staff only."""

from __future__ import annotations

from flask import Flask

from portal.staff import (  # noqa: F401  (their routes)
    cases,
    exports,
    inspections,
    mail,
    map_views,
    queue,
    reports,
    triage,
    triage_schema,
    village_calls,
)
from portal.staff.blueprint import bp


def init_staff(app: Flask) -> None:
    """Register the workspace (its pages are behind portal.accounts' sign-in check)."""
    app.jinja_env.globals["undelivered_mail"] = mail.failed_count
    app.register_blueprint(bp)
    # The staff CSV: the officer's hazard flag, the calls made and the State's spill number.
    exports.add_export_part(
        app, exports.ExportPart(village_calls.EXPORT_COLUMNS, village_calls.export_values)
    )
