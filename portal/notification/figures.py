"""The release notifications' part of the annual figures (portal/staff/figures.py): the
filings, the notices staff logged, the notice deadlines as the filings' rows store their
outcome, and the written confirmations of spoken notices."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

import sqlite_utils
from flask import Flask, current_app

from portal.core.db import rows
from portal.notification import compliance
from portal.staff.figures import (
    Figure,
    Record,
    Section,
    SectionSource,
    Window,
    add_section,
    records,
)

HOW_WORDS = {"phone": "By telephone", "in-person": "In person", "fax": "By fax"}


def init_figures(app: Flask) -> None:
    """After the resident reports (rank 20), before enforcement (50)."""
    add_section(app, SectionSource(40, release_sections))


def _phone_records(notices: Iterable[dict[str, Any]]) -> tuple[Record, ...]:
    """Notices staff logged, from rows with their id, how, facility_name and day."""
    named = (
        (n["id"], f"{HOW_WORDS.get(n['how'], n['how'])}: {n['facility_name']}", n["day"])
        for n in notices
    )
    return records(named, "staff.phone_notice", "notice_id")


def _letter(notice: dict[str, Any], state: dict[str, Any]) -> str:
    """Where a spoken notice's written confirmation stands, for the figures."""
    if notice["letter_mailed_on"]:
        return "on time" if state["letter_in_time"] else "late"
    if state["by_filing"]:
        return "filing"
    return "missed" if state["overdue"] else "to come"


def release_sections(db: sqlite_utils.Database, window: Window, now: dt.datetime) -> list[Section]:
    """Notices and written confirmations (release notifications), as staff recorded them: a
    notice by the day it was given, its deadline by the day it fell due."""
    content = current_app.extensions["content"].settings
    online = content.online_filing
    filings = rows(
        db,
        "SELECT id, reference, substr(received_at, 1, 10) AS day FROM cases WHERE kind ="
        " 'notification' AND received_at >= ? AND received_at < ?",
        window,
    )
    logged = rows(
        db,
        "SELECT id, how, facility_name, substr(told_at, 1, 10) AS day FROM phone_notices"
        " WHERE told_at >= ? AND told_at < ?",
        window,
    )
    # Filings whose notice fell due in the period: given in time, late, or not logged by
    # the end of the due day (counted late); a deadline not yet come is neither.
    due = rows(
        db,
        "SELECT c.id, c.reference, substr(n.notice_due, 1, 10) AS day, n.notice_met FROM"
        " notifications n JOIN cases c ON c.id = n.case_id WHERE n.notice_due >= ?"
        " AND n.notice_due < ?",
        window,
    )

    def filing(found: Iterable[dict[str, Any]]) -> tuple[Record, ...]:
        return records(
            ((r["id"], r["reference"], r["day"]) for r in found), "staff.case", "case_id"
        )

    on_time = [r for r in due if r["notice_met"] == 1]
    late = [r for r in due if r["notice_met"] == 0]
    missed = [r for r in due if compliance.notice_overdue(r["notice_met"], r["day"], now)]
    to_come = [r for r in due if r not in on_time + late + missed]
    # Spoken notices whose mailed confirmation fell due in the period: mailed in time (it
    # counts by the day it was mailed), late, confirmed by the filing, or not at all, as the
    # notice's own page tells it (compliance.notice_state).
    letters = [
        {
            "id": notice["id"],
            "how": notice["how"],
            "facility_name": notice["facility_name"],
            "day": notice["confirmation_due"][:10],
            "letter": _letter(notice, compliance.notice_state(notice, now)),
        }
        for notice in rows(
            db,
            f"SELECT {compliance.notice_columns()} FROM phone_notices p"
            " WHERE confirmation_due >= ? AND confirmation_due < ?",
            window,
        )
    ]
    mailed = rows(
        db,
        "SELECT id, how, facility_name, letter_mailed_on AS day FROM phone_notices"
        " WHERE letter_mailed_on >= ? AND letter_mailed_on < ?",
        window,
    )

    def letters_where(state: str) -> tuple[Record, ...]:
        return _phone_records(row for row in letters if row["letter"] == state)

    filed_words = (
        "Filings made online (a record, not the notice)"
        if not online.counts_as_notice
        else "Filings made online (a record; accepted as the notice)"
    )
    kind = content.kind
    return [
        Section(
            "Release notifications",
            (
                Figure("releases.filings", filed_words, filing(filings)),
                Figure("releases.notices", "Notices logged by staff", _phone_records(logged)),
                *(
                    Figure(
                        f"releases.notices.{how}",
                        f"– {HOW_WORDS[how]}",
                        _phone_records(r for r in logged if r["how"] == how),
                    )
                    for how in HOW_WORDS
                ),
            ),
            notes=(f"Releases the {kind} was told of.",),
        ),
        Section(
            "Notice by the next business day",
            (
                Figure("notice.due", "Filings whose notice fell due in the period", filing(due)),
                Figure("notice.on_time", "Notice given in time", filing(on_time)),
                Figure("notice.late", "Notice given late", filing(late)),
                Figure(
                    "notice.missed",
                    "No notice logged by the deadline (counted late)",
                    filing(missed),
                ),
                Figure("notice.to_come", "Deadline still to come", filing(to_come), optional=True),
            ),
            level=3,
        ),
        Section(
            "Written confirmation, mailed within three business days",
            (
                Figure(
                    "letters.due",
                    "Telephone and in-person notices whose confirmation fell due",
                    _phone_records(letters),
                ),
                Figure("letters.on_time", "Letter mailed in time", letters_where("on time")),
                Figure("letters.late", "Letter mailed late", letters_where("late")),
                *(
                    (
                        Figure(
                            "letters.by_filing",
                            "Confirmed by the online filing",
                            letters_where("filing"),
                        ),
                    )
                    if compliance.filing_can_confirm(online)
                    else ()
                ),
                Figure("letters.missed", "No letter recorded", letters_where("missed")),
                Figure(
                    "letters.to_come",
                    "Due date still to come",
                    letters_where("to come"),
                    optional=True,
                ),
                Figure("letters.mailed", "Letters mailed in the period", _phone_records(mailed)),
            ),
            level=3,
        ),
    ]
