"""The outfall inventory's and dry-weather screening's part of the annual report: the
figures the State's MS4 permit asks about outfalls, each from the records behind it.

Counted by the day things happened, so a closed year does not move: each structure as it was
at the end of the period (portal/outfalls/history.py: its type then, in service or retired
then, in the inventory from its inventory day or its first screening if earlier); a
screening counts on the day it was made, in the portal or on paper before it. The permit term
is content/outfalls.yaml's `permit_term_starts`, or, where the content leaves it out, the
rotation's length ending with the period (our reading: the permit asks that every outfall
be screened once in the term, and the rotation is that term's length).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import sqlite_utils
from flask import current_app

from portal.core.dates import EARLIER, add_years
from portal.core.db import rows
from portal.outfalls.history import as_of
from portal.outfalls.rotation import COUNTED
from portal.staff.figures import Figure, Section, Window, records

OUTFALL = "outfalls.detail"


def term_start(settings: Any, window: Window) -> str:
    """The first day of the permit term the period ends in (ISO)."""
    if settings.permit_term_starts:
        return settings.permit_term_starts.isoformat()
    return add_years(
        dt.date.fromisoformat(window[1]), -settings.every_years, leap_day=EARLIER
    ).isoformat()


def screened_between(db: sqlite_utils.Database, outfalls: list[dict], since: str, until: str):
    """Of `outfalls` (the inventory at `until`), those screened from `since` to before
    `until`, in the portal or on paper: (id, code, the first such day)."""
    first: dict[int, str] = {}
    for row in rows(
        db,
        "SELECT outfall_id, substr(screened_at, 1, 10) AS day FROM screenings"
        f" WHERE screened_at >= ? AND screened_at < ? AND {COUNTED}"
        " UNION ALL SELECT outfall_id, screened_on FROM outfall_paper_screenings"
        " WHERE screened_on >= ? AND screened_on < ?",
        [since, until, since, until],
    ):
        day = row["day"]
        first[row["outfall_id"]] = min(day, first.get(row["outfall_id"], day))
    return [(row["id"], row["code"], first[row["id"]]) for row in outfalls if row["id"] in first]


def outfall_sections(db: sqlite_utils.Database, window: Window, now: dt.datetime) -> list[Section]:
    settings = current_app.extensions["outfalls"]
    start, end = window
    first = term_start(settings, window)
    inventory = as_of(db, end)
    outfalls = [row for row in inventory if row["structure_type"] == "outfall"]
    others = [
        (row["id"], row["code"], row["day"])
        for row in inventory
        if row["structure_type"] != "outfall"
    ]
    in_period = screened_between(db, outfalls, start, end)
    in_term = screened_between(db, outfalls, first, end)
    screened_in_term = {row[0] for row in in_term}
    # Void screenings count nowhere; wet-weather visits on their own line.
    visits = rows(
        db,
        "SELECT s.id, o.code, s.overall, substr(s.screened_at, 1, 10) AS day, s.wet_weather"
        " FROM screenings s JOIN outfalls o ON o.id = s.outfall_id"
        " WHERE s.screened_at >= ? AND s.screened_at < ? AND s.voided_at IS NULL",
        [start, end],
    )
    screenings = [
        (v["id"], v["code"], v["overall"], v["day"]) for v in visits if not v["wet_weather"]
    ]
    wet = [(v["id"], v["code"], v["overall"], v["day"]) for v in visits if v["wet_weather"]]

    def sheets(made) -> Any:
        return records(
            ((i, f"Outfall {code}: {call}", day) for i, code, call, day in made),
            "screening.saved",
            "screening_id",
        )

    outfall_rows = [(row["id"], row["code"], row["day"]) for row in outfalls]
    return [
        Section(
            "Outfalls and dry-weather screening",
            (
                Figure(
                    "outfalls.inventory",
                    "Outfalls in the inventory at the end of the period",
                    records(outfall_rows, OUTFALL, "outfall_id"),
                ),
                Figure(
                    "outfalls.mapped",
                    "Outfalls mapped (with a place on the map)",
                    records(
                        [
                            (row["id"], row["code"], row["day"])
                            for row in outfalls
                            if row["latitude"] is not None and row["longitude"] is not None
                        ],
                        OUTFALL,
                        "outfall_id",
                    ),
                ),
                Figure(
                    "outfalls.others",
                    "Other structures in the inventory (catch basins, inlets, manholes, culverts)",
                    records(others, OUTFALL, "outfall_id"),
                ),
                Figure(
                    "outfalls.screened",
                    "Outfalls screened in dry weather in the period",
                    records(in_period, OUTFALL, "outfall_id"),
                ),
                Figure(
                    "outfalls.screened_term",
                    "Outfalls screened in the permit term so far",
                    records(in_term, OUTFALL, "outfall_id"),
                ),
                Figure(
                    "outfalls.not_screened_term",
                    "Outfalls not yet screened in the permit term",
                    records(
                        [r for r in outfall_rows if r[0] not in screened_in_term],
                        OUTFALL,
                        "outfall_id",
                    ),
                ),
                Figure("screenings.made", "Screenings made in the period", sheets(screenings)),
                Figure(
                    "screenings.flagged",
                    "Screenings with a suspect or obvious call",
                    sheets([r for r in screenings if r[2] in ("suspect", "obvious")]),
                ),
                Figure(
                    "screenings.wet",
                    "Visits in wet weather, not counted as dry-weather screening",
                    sheets(wet),
                ),
            ),
            notes=(
                f"The permit term counted from {dt.date.fromisoformat(first):%B} "
                f"{dt.date.fromisoformat(first).day}, {first[:4]}"
                + (
                    " (content/outfalls.yaml, permit_term_starts)."
                    if settings.permit_term_starts
                    else f": the {settings.every_years} years of the screening rotation up to the"
                    " end of the period (our reading; set permit_term_starts in"
                    " content/outfalls.yaml to the permit's own start)."
                ),
                "Each structure is counted as it was at the end of the period: its type "
                "then, and in service unless retired by then (a structure retired later still "
                "counts in the periods it served). Our reading: an outfall is in the inventory "
                "from its inventory day (the day it was mapped or installed, from the import "
                "or its page; without one, the day it was entered in the portal), or from its "
                "first screening if that is earlier, since a screening, even on paper, shows "
                "it was there. A screening counts on the day it was made, in the portal or on "
                "paper before it (each paper day in its own period). Every outfall in the "
                "inventory has a place: the import refuses one without.",
                f"A visit fewer than {settings.dry_weather_hours} hours after a rain of more"
                f" than {settings.dry_weather_rain_inches:g} inch is wet weather (our reading,"
                " content/outfalls.yaml): counted on its own line, not as a dry-weather"
                " screening; one without the hours since rain counts as dry weather. A void"
                " screening counts nowhere.",
            ),
        )
    ]
