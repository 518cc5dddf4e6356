"""The training log's part of the annual figures (portal/staff/figures.py): the sessions held
in the period, by their day, and the people trained in it, each once."""

from __future__ import annotations

import datetime as dt

import sqlite_utils
from flask import Flask

from portal.staff.figures import Figure, Section, SectionSource, Window, add_section, records
from portal.training.records import sessions


def init_figures(app: Flask) -> None:
    """After enforcement (rank 50): last in the report."""
    add_section(app, SectionSource(60, training_sections))


def training_sections(db: sqlite_utils.Database, window: Window, now: dt.datetime) -> list[Section]:
    held = sessions(db, *window)
    # Each person once, on the day of their first session in the period; names are told
    # apart without regard to case or spaces around them.
    first: dict[str, tuple[str, dict]] = {}
    for session in sorted(held, key=lambda s: (s["trained_on"], s["id"])):
        for name in session["people"]:
            first.setdefault(name.casefold(), (name, session))
    return [
        Section(
            "Staff training",
            (
                Figure(
                    "training.sessions",
                    "Training sessions held in the period",
                    records(
                        ((f"training-{s['id']}", s["topic"], s["trained_on"]) for s in held),
                        "training.log",
                        "_anchor",
                    ),
                ),
                Figure(
                    "training.people",
                    "Staff trained in the period (each person once)",
                    records(
                        (
                            (f"training-{s['id']}", name, s["trained_on"])
                            for name, s in first.values()
                        ),
                        "training.log",
                        "_anchor",
                    ),
                ),
            ),
            notes=(
                "From the staff training log (who was trained, when, on what), each session"
                " by its day.",
            ),
        )
    ]
