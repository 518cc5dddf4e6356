"""`flask --app portal outfalls import FILE [--check-only]`: the same importer as the
staff upload page, with its report printed."""

from __future__ import annotations

from pathlib import Path

import click
from flask import current_app
from flask.cli import AppGroup

from portal.core.clock import local_stamp
from portal.core.db import get_db
from portal.outfalls import inventory, shapefiles, sheets

outfalls_command = AppGroup("outfalls", help="The outfall inventory.")


@outfalls_command.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--check-only", is_flag=True, help="Read and check the file; change nothing.")
@click.option(
    "--beside",
    is_flag=True,
    help="Add new ids even a few metres from a structure"
    " stored under another id (otherwise refused as a likely renamed one).",
)
def import_command(file: Path, check_only: bool, beside: bool) -> None:
    """Import (or update by id) structures from FILE: .geojson, .csv, .zip or .shp (with
    its .shx and .dbf beside it). Rows that cannot be taken are listed with the reason."""
    if file.suffix.lower() == ".shp":
        try:
            source = shapefiles.read_shapefile(shapefiles.shapefile_parts(str(file)))
        except sheets.FileRefused as error:
            raise click.ClickException(str(error)) from None
    else:
        source = file.read_bytes()
    area = current_app.extensions["content"].settings.service_area
    report = inventory.import_file(
        get_db(),
        file.name,
        source,
        area,
        actor=f"import {file.name}",
        stamp=local_stamp(),
        check_only=check_only,
        beside=beside,
    )
    for line in report.lines():
        click.echo(line)
    if report.refused_file:
        raise SystemExit(1)
