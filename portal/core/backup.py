"""`flask --app portal backup FILE`: a consistent copy of the database, taken while the
portal keeps accepting submissions (SQLite's online backup API)."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import click
from flask import Flask, current_app


def backup(source: str | Path, destination: str | Path) -> dict[str, int]:
    """Copy the live database to `destination`; return the row counts of the copy.

    The backup API copies pages in steps and starts over if a writer changes the file
    meanwhile, so the copy is one consistent moment even under load.
    """
    destination = Path(destination)
    if destination.exists():
        raise FileExistsError(f"{destination} exists: choose a new file name")
    destination.parent.mkdir(parents=True, exist_ok=True)
    # closing(): `with sqlite3.connect()` alone ends a transaction but leaves the file open.
    with (
        closing(sqlite3.connect(source, timeout=30)) as live,
        closing(sqlite3.connect(destination)) as copy,
    ):
        live.backup(copy, pages=256)
        # A copy that is not a one-file database would need its -wal beside it to restore.
        copy.execute("PRAGMA journal_mode = DELETE")
        (check,) = copy.execute("PRAGMA integrity_check").fetchone()
        if check != "ok":
            raise RuntimeError(f"the copy failed its integrity check: {check}")
        tables = [r[0] for r in copy.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {t: copy.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in tables}


def init_backup(app: Flask) -> None:
    @app.cli.command("backup")
    @click.argument("destination", type=click.Path(dir_okay=False))
    def backup_command(destination: str) -> None:
        """Write a consistent copy of the database to DESTINATION (a new file)."""
        try:
            counts = backup(current_app.config["DATABASE"], destination)
        except (FileExistsError, RuntimeError, sqlite3.Error) as error:
            raise click.ClickException(str(error)) from None
        summary = ", ".join(f"{table} {n}" for table, n in sorted(counts.items()))
        click.echo(f"backup written to {destination} (integrity ok): {summary}")
