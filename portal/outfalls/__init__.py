"""The MS4 outfall inventory (staff pages at /staff/outfalls/, the import command, the
open-data GeoJSON). Its tables are in schema.py; nothing in them is personal."""

from __future__ import annotations

from flask import Flask

from content_model.outfalls import load_outfall_settings
from portal.core.db import value
from portal.outfalls import schema  # noqa: F401  (registers the tables' migrations)


def init_outfalls(app: Flask) -> None:
    """Read content/outfalls.yaml, register the inventory's pages, the `outfalls` command
    and the inventory's layers on the staff maps (the screenings are portal.screening's)."""
    app.extensions["outfalls"] = load_outfall_settings(app.config["CONTENT_DIR"])
    from portal.core.db import get_db
    from portal.outfalls import commands, open_data, views
    from portal.outfalls.choices import labels
    from portal.outfalls.forms import MAX_IMPORT_BYTES
    from portal.outfalls.inventory import matching
    from portal.outfalls.map_layer import case_layers, inventory_layers, nearest_to
    from portal.staff.maps import MoreLayers, add_layers
    from portal.web.errors import too_large

    app.jinja_env.globals.update(
        nearest_structures=lambda case: nearest_to(get_db(), case),
        structures_matching=lambda typed: matching(get_db(), typed),
        structure_words=labels("structure_type"),
    )
    app.register_blueprint(views.bp)
    app.register_blueprint(open_data.bp)
    too_large(
        app,
        "outfalls.import_page",
        lambda: (
            f"The import takes a file of up to {MAX_IMPORT_BYTES // 2**20} MB. Go back and choose a"
            " smaller file: split the inventory in parts, or zip only the shapefile's .shp, .shx"
            " and .dbf. Nothing was imported."
        ),
    )
    app.cli.add_command(commands.outfalls_command)
    # Beside the cases on the staff maps: every structure, clustered; the nearest on a case's.
    # In service: a retired structure is not drawn, so it is not counted either.
    count = lambda db: value(db, "SELECT count(*) FROM outfalls WHERE retired_on IS NULL")  # noqa: E731
    add_layers(app, MoreLayers(inventory_layers, case_layers, count))
