"""The annual report's pages: the figures (printable), the records behind each figure, and
the same figures as a CSV whose every line links to its records. The figures themselves
are computed in annual_figures.py and the features' figures modules; `annual_counts` gives
them as plain numbers by name."""

from __future__ import annotations

import datetime as dt
from typing import Any

import sqlite_utils
from flask import abort, flash, redirect, render_template, request, url_for
from flask_wtf import FlaskForm

from portal.accounts.auth import current_staff
from portal.core import kinds
from portal.core.clock import local_now, local_stamp
from portal.core.db import get_db
from portal.mail.compose import public_url_for
from portal.staff import filings
from portal.staff.annual_figures import annual_report as build_report
from portal.staff.blueprint import bp
from portal.staff.exports import _download, date_window, spreadsheet
from portal.staff.figures import Figure, Report, Section
from portal.staff.figures_period import reporting_year
from portal.staff.queue import Filters

__all__ = ["annual_counts", "reporting_year"]


def annual_counts(
    db: sqlite_utils.Database, start: dt.date, end: dt.date, now: dt.datetime | None = None
) -> dict[str, Any]:
    """The figures as numbers under the names the report has long used (the tests read
    them so): a count per figure, a list per group."""
    figures = build_report(db, start, end, now or local_now()).by_key
    n = lambda key: figures[key].count if key in figures else 0  # noqa: E731
    discharges = [
        (
            kind.counted.label,
            figures[f"discharges.{kind.key}.confirmed"].count,
            figures[f"discharges.{kind.key}.eliminated"].count,
        )
        for kind in kinds.all_kinds()
        if kind.counted
    ]
    return {
        "reports": n("reports.received"),
        "by_indicator": [
            (k.removeprefix("indicators."), f.label, f.count)
            for k, f in figures.items()
            if k.startswith("indicators.")
        ],
        "investigated": n("reports.investigated"),
        "referred": n("reports.referred"),
        "exempt": n("reports.exempt"),
        "duplicates": n("reports.duplicates"),
        "discharges": discharges,
        "confirmed": n("discharges.confirmed"),
        "eliminated": n("discharges.eliminated"),
        "notifications": n("releases.filings"),
        "notices_by_how": [
            (how, n(f"releases.notices.{how}")) for how in ("phone", "in-person", "fax")
        ],
        "notices_logged": n("releases.notices"),
        "notice_due": n("notice.due"),
        "notice_on_time": n("notice.on_time"),
        "notice_late": n("notice.late"),
        "notice_missed": n("notice.missed"),
        "notice_to_come": n("notice.to_come"),
        "confirmation_due": n("letters.due"),
        "letter_on_time": n("letters.on_time"),
        "letter_late": n("letters.late"),
        "confirmed_by_filing": n("letters.by_filing"),
        "letter_missed": n("letters.missed"),
        "letter_to_come": n("letters.to_come"),
        "letters_mailed": n("letters.mailed"),
        "notices_issued": n("enforcement.notices"),
        "corrections_issued": n("enforcement.corrections"),
        "appeals_filed": n("enforcement.appeals"),
        "appeals_upheld": n("enforcement.upheld"),
        "appeals_overturned": n("enforcement.overturned"),
        "remedies_assigned": n("enforcement.remedies"),
        "remedies_completed": n("enforcement.remedies_done"),
        "abatements_completed": n("enforcement.abated"),
        "costs_charged_cents": figures["enforcement.charged"].cents,
        "costs_recovered_cents": figures["enforcement.recovered"].cents,
    }


def _period() -> tuple[dt.date, dt.date, dict[str, str]]:
    """The dates asked for, each defaulting to the current reporting year's."""
    filters = Filters.from_args(request.args)
    return (*date_window(filters), filters.errors)


def _report() -> tuple[dt.date, dt.date, dict[str, str], Report]:
    start, end, errors = _period()
    return start, end, errors, build_report(get_db(), start, end, local_now())


@bp.route("/annual-report/")
def annual_report():
    start, end, errors, report = _report()
    # The year before the one shown, not before today's: viewing 2025, the link is to 2024
    # (officer's week 2026-12-03 P2).
    previous = reporting_year(start - dt.timedelta(days=1))
    filing = filings.latest(get_db(), start.isoformat(), end.isoformat())
    return render_template(
        "staff/annual_report.html",
        start=start,
        end=end,
        report=report,
        previous=previous,
        errors=errors,
        filing=filing,
        filed=filings.changed(filing, report),
        printed=local_now(),
        year_start_words=_month_day_words((previous[0].month, previous[0].day)),
    )


@bp.route("/annual-report/filed", methods=["POST"])
def annual_report_filed():
    """Record the period's figures as they stand now as the ones filed with the State."""
    if not FlaskForm().validate():
        abort(400)
    start, end, errors, report = _report()
    if errors:
        abort(400)
    filings.record(
        get_db(),
        start.isoformat(),
        end.isoformat(),
        report,
        current_staff()["username"],
        local_stamp(),
    )
    flash(
        "These figures are recorded as filed: a later change to them will show beside each.",
        "success",
    )
    return redirect(url_for("staff.annual_report", start=start, end=end), code=303)


def _month_day_words(month_day: tuple[int, int]) -> str:
    """(1, 3) -> "January 3"."""
    month, day = month_day
    return f"{dt.date(2000, month, day):%B} {day}"


@bp.route("/annual-report/records/<key>")
def annual_records(key: str):
    start, end, _, report = _report()
    figure = report.by_key.get(key) or abort(404)
    section = next(s for s in report.sections if figure in s.figures)
    return render_template(
        "staff/annual_records.html", start=start, end=end, figure=figure, section=section
    )


def _lines(report: Report, start: dt.date, end: dt.date) -> list[dict[str, Any]]:
    lines = []
    for section in report.sections:
        for figure in section.figures:
            if figure.optional and not figure.count:
                continue
            lines.append(
                {
                    "section": section,
                    "figure": figure,
                    "link": public_url_for(
                        "staff.annual_records", key=figure.key, start=start, end=end
                    ),
                }
            )
    return lines


CSV_COLUMNS: list[tuple[str, Any]] = [
    ("Period from", lambda line: line["start"]),
    ("Period to", lambda line: line["end"]),
    ("Section", lambda line: line["section"].title),
    ("Figure", lambda line: line["figure"].label),
    ("Value", lambda line: line["figure"].shown),
    ("Records", lambda line: line["figure"].count),
    ("Records behind it", lambda line: line["link"]),
]


@bp.route("/annual-report.csv")
def annual_report_csv():
    start, end, _, report = _report()
    lines = [line | {"start": start, "end": end} for line in _lines(report, start, end)]
    return _download(
        spreadsheet(CSV_COLUMNS, lines), "text/csv", f"annual-report-{start}-to-{end}.csv"
    )


def shown_figures(section: Section) -> list[Figure]:
    """A section's lines as the page shows them (an optional line only when not zero)."""
    return [f for f in section.figures if not f.optional or f.count]


bp.add_app_template_global(shown_figures)
