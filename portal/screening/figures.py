"""The outfall inventory's and dry-weather screening's part of the annual report: the
figures the State's MS4 permit asks about outfalls, each from the records behind it.

Counted by the day things happened, so a closed year does not move: each structure as it was
at the end of the period (portal/outfalls/history.py: its type then, in service or retired
then, in the inventory from its inventory day or its first screening if earlier); a
screening counts on the day it was made, in the portal or on paper before it. The permit term
starts on content/outfalls.yaml's `permit_term_starts`, and on no other day: where the content
leaves it out (or the period ends before it), the term's lines say they cannot be computed
and ask for it (officer's week 2026-12-03 M3: a rolling five years counted the last permit's
screenings as this one's).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import sqlite_utils
from flask import current_app

from portal.core.db import rows
from portal.outfalls.history import as_of
from portal.outfalls.rotation import COUNTED
from portal.staff.figures import Figure, Section, Window, records

OUTFALL = "outfalls.detail"


def term_start(settings: Any, window: Window) -> tuple[str | None, str]:
    """The first day of the permit term the period ends in (ISO), and the note saying where
    it comes from; None, with why, when it cannot be known."""
    term = settings.permit_term_starts
    if term is None:
        return None, (
            "The permit term's first day is not set: the lines for the permit term cannot be"
            " computed. Set permit_term_starts in content/outfalls.yaml to the effective date"
            " of the current MS4 permit."
        )
    words = f"{term:%B} {term.day}, {term.year}"
    if term.isoformat() >= window[1]:
        return None, (
            f"The period ends before the permit term set in the content starts ({words}):"
            " the lines for the permit term cannot be computed for it."
        )
    return term.isoformat(), (
        f"The permit term counted from {words} (content/outfalls.yaml, permit_term_starts)."
    )


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
    first, term_note = term_start(settings, window)
    inventory = as_of(db, end)
    outfalls = [row for row in inventory if row["structure_type"] == "outfall"]
    others = [
        (row["id"], row["code"], row["day"])
        for row in inventory
        if row["structure_type"] != "outfall"
    ]
    in_period = screened_between(db, outfalls, start, end)
    in_term = screened_between(db, outfalls, first, end) if first else []
    screened_in_term = {row[0] for row in in_term}
    not_computed = None
    if first is None:
        not_computed = (
            "Cannot be computed: the period is before the permit term"
            if settings.permit_term_starts
            else "Cannot be computed: the permit term's start is not set"
        )
    # Void screenings count nowhere; wet-weather visits on their own line.
    visits = rows(
        db,
        "SELECT s.id, o.code, s.overall, substr(s.screened_at, 1, 10) AS day, s.wet_weather,"
        " s.flow, s.outfall_id"
        " FROM screenings s JOIN outfalls o ON o.id = s.outfall_id"
        " WHERE s.screened_at >= ? AND s.screened_at < ? AND s.voided_at IS NULL",
        [start, end],
    )
    screenings = [
        (v["id"], v["code"], v["overall"], v["day"]) for v in visits if not v["wet_weather"]
    ]
    wet = [(v["id"], v["code"], v["overall"], v["day"]) for v in visits if v["wet_weather"]]
    # An outfall flowing in dry weather, on any dry-weather sheet of the period (the first
    # such day): of those in the inventory at the end of the period.
    flowing: dict[int, str] = {}
    for v in visits:
        if not v["wet_weather"] and v["flow"] != "none":
            flowing.setdefault(v["outfall_id"], v["day"])
    dry_flow = [
        (row["id"], row["code"], flowing[row["id"]]) for row in outfalls if row["id"] in flowing
    ]

    def sheets(made) -> Any:
        return records(
            ((i, f"Outfall {code}: {call}", day) for i, code, call, day in made),
            "screening.saved",
            "screening_id",
        )

    outfall_rows = [(row["id"], row["code"], row["day"]) for row in outfalls]
    impaired = {row["id"]: row["impaired_water"] for row in outfalls}  # as at the period's end
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
                    "outfalls.impaired",
                    "Outfalls to impaired or priority waters",
                    records(
                        [r for r in outfall_rows if impaired[r[0]] == "yes"], OUTFALL, "outfall_id"
                    ),
                ),
                Figure(
                    "outfalls.impaired_unknown",
                    "Outfalls whose receiving water is not recorded as impaired or not",
                    records(
                        [r for r in outfall_rows if impaired[r[0]] is None], OUTFALL, "outfall_id"
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
                    "outfalls.dry_weather_flow",
                    "Outfalls with dry-weather flow found in the period",
                    records(dry_flow, OUTFALL, "outfall_id"),
                ),
                Figure(
                    "outfalls.screened_term",
                    "Outfalls screened in the permit term so far",
                    records(in_term, OUTFALL, "outfall_id"),
                    value=not_computed,
                ),
                Figure(
                    "outfalls.not_screened_term",
                    "Outfalls not yet screened in the permit term",
                    records(
                        [r for r in outfall_rows if r[0] not in screened_in_term] if first else [],
                        OUTFALL,
                        "outfall_id",
                    ),
                    value=not_computed,
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
                term_note,
                "Each structure is counted as it was at the end of the period: its type "
                "then, and in service unless retired by then (a structure retired later still "
                "counts in the periods it served). Our reading: an outfall is in the inventory "
                "from its inventory day (the day it was mapped or installed, from the import "
                "or its page; without one, the day it was entered in the portal), or from its "
                "first screening if that is earlier, since a screening, even on paper, shows "
                "it was there. A screening counts on the day it was made, in the portal or on "
                "paper before it (each paper day in its own period). Every outfall in the "
                "inventory has a place: the import refuses one without. Impaired or priority"
                " waters: the outfall's record says its receiving water is impaired (on the"
                " State's 303(d) list) or a priority waterbody, as it said at the end of the"
                " period (set on its page or by the import's impaired column).",
                f"A visit fewer than {settings.dry_weather_hours} hours after a rain of more"
                f" than {settings.dry_weather_rain_inches:g} inch is wet weather (our reading,"
                " content/outfalls.yaml): counted on its own line, not as a dry-weather"
                " screening; one without the hours since rain counts as dry weather. A void"
                " screening counts nowhere. Dry-weather flow: a dry-weather screening recorded"
                " a flow (a trickle or more) at the outfall; the line counts each outfall once,"
                " on the day of its first such screening in the period.",
            ),
        )
    ]
