"""Release notifications: the deadlines the release notification section sets, and the
record a facility keeps."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from flask import current_app

from content_model.loader import OnlineFiling
from portal.deadlines import BusinessCalendar
from portal.display import when
from portal.notification.choices import LABELS, PRIOR_NOTICE_BY, SPOKEN_NOTICES

# The release notification section: a commercial or industrial source keeps its record
# at least three years.
RETENTION_YEARS = 3


def years_after(day: dt.date, years: int) -> dt.date:
    """The same date `years` later; 29 February becomes 1 March in a common year, so
    "at least three years" is never a day short."""
    try:
        return day.replace(year=day.year + years)
    except ValueError:
        return dt.date(day.year + years, 3, 1)


@dataclass(frozen=True)
class Deadline:
    """One thing the law asks by a moment, and whether (as the filing tells) it was done."""

    key: str  # "notice" or "confirmation"
    due: dt.datetime  # local time: closing time (notice) or end of day (confirmation)
    done_at: dt.datetime | None  # None: not done, as far as this filing shows
    done_by: str  # how it was done: "this filing", "by telephone"...
    checked_at: dt.datetime  # when the filing was made (or is being reviewed)

    @property
    def met(self) -> bool:
        return self.done_at is not None and self.done_at <= self.due

    @property
    def late(self) -> bool:
        """Done after the deadline, or not done and the deadline has passed."""
        moment = self.done_at if self.done_at is not None else self.checked_at
        return moment > self.due


def release_deadlines(
    calendar: BusinessCalendar,
    tz: dt.tzinfo,
    *,
    closes: dt.time,
    online: OnlineFiling,
    discovered_at: dt.datetime,
    prior_notice: str,
    prior_notice_at: dt.datetime | None,
    filed_at: dt.datetime,
) -> list[Deadline]:
    """Notice by closing time on the next business day after discovery (notice in person or
    by telephone needs the office open); a spoken notice confirmed by written notice mailed
    by the end of the third business day after it."""
    due = calendar.close_of_business(calendar.next_business_day(discovered_at.date()), tz, closes)
    deadlines = [_notice(due, prior_notice, prior_notice_at, filed_at, online)]
    if prior_notice in SPOKEN_NOTICES and prior_notice_at is not None:
        confirm_due = calendar.end_of_day(calendar.add_business_days(prior_notice_at.date(), 3), tz)
        deadlines.append(_confirmation(confirm_due, filed_at, online))
    return deadlines


def _notice(due, prior_notice, prior_notice_at, filed_at, online: OnlineFiling) -> Deadline:
    if prior_notice not in (None, "none") and prior_notice_at is not None:
        how = dict(PRIOR_NOTICE_BY)[prior_notice]
        return Deadline("notice", due, prior_notice_at, how, filed_at)
    if online.counts_as_notice:
        return Deadline("notice", due, filed_at, "this filing", filed_at)
    return Deadline("notice", due, None, "", filed_at)


def _confirmation(due, filed_at, online: OnlineFiling) -> Deadline:
    if online.counts_as_written_confirmation:
        return Deadline("confirmation", due, filed_at, "this filing", filed_at)
    return Deadline("confirmation", due, None, "", filed_at)


def online_filing() -> OnlineFiling:
    """What the municipality accepts this portal's filing as, from its content."""
    return current_app.extensions["content"].settings.online_filing


def stored_deadlines(
    case: dict[str, Any], n: dict[str, Any], online: OnlineFiling
) -> list[Deadline]:
    """The deadlines as they were worked out when the notification was filed."""
    filed = dt.datetime.fromisoformat(case["received_at"])
    prior_at = n["prior_notice_at"] and dt.datetime.fromisoformat(n["prior_notice_at"])
    deadlines = [
        _notice(dt.datetime.fromisoformat(n["notice_due"]), n["prior_notice"], prior_at or None,
                filed, online)
    ]  # fmt: skip
    if n["confirmation_due"]:
        due = dt.datetime.fromisoformat(n["confirmation_due"])
        deadlines.append(_confirmation(due, filed, online))
    return deadlines


def _met(deadline: Deadline | None) -> int | None:
    if deadline is None or (deadline.done_at is None and not deadline.late):
        return None
    return int(deadline.met)


def with_deadlines(details: dict[str, Any], deadlines: list[Deadline], received: dt.datetime):
    """The details plus the deadlines as stored, and how long the record is kept."""
    by_key = {d.key: d for d in deadlines}
    notice, confirmation = by_key["notice"], by_key.get("confirmation")
    # Stored as at filing: 1 met, 0 late (done late, or not done with the time passed). A
    # step still open is not late: the notice counts as 1 (the column is required), the
    # confirmation stays NULL so the staff queue does not flag it as overdue.
    return details | {
        "notice_due": notice.due.isoformat(timespec="seconds"),
        "notice_met": int(not notice.late),
        "confirmation_due": confirmation.due.isoformat(timespec="seconds")
        if confirmation
        else None,
        "confirmation_met": _met(confirmation),
        "retain_until": years_after(received.date(), RETENTION_YEARS).isoformat(),
    }


# What people put before an estimate themselves; the record says "about" once.
_ESTIMATE = re.compile(r"^(about|approximately|approx\.?|roughly|around|~)\s*", re.IGNORECASE)


def about(amount: str) -> str:
    """An estimate as typed, said with one "about": "about 2 gallons" or "2 gallons"."""
    return "about " + _ESTIMATE.sub("", amount.strip())


def record(case: dict[str, Any], n: dict[str, Any]) -> list[tuple[str, list[tuple[str, str]]]]:
    """Every answer, grouped and labelled as on the form: for the review step, the receipt
    and the mail. `case` and `n` are stored rows (or the same shape built from a form)."""
    yes_no = LABELS["yes_no"]

    def pick(labels: dict, value) -> str:
        return labels.get(value, value) if value else "Not given"

    amount = "Not given"
    if n["quantity"] is not None:
        amount = f"{n['quantity']:g} {LABELS['unit'].get(n['unit'], n['unit'] or '')}".strip()
    sections = [
        ("Safety", [
            ("Anyone hurt or in danger, or a fire", pick(yes_no, n["danger"])),
            ("Hazardous material", pick(yes_no, n["hazardous"])),
            ("Petroleum product", pick(yes_no, n["petroleum"])),
            ("Called 911", pick(yes_no, n["emergency_called"])
             + (f", {when(n['emergency_called_at'])}" if n["emergency_called_at"] else "")),
            ("Called the NYSDEC Spill Hotline", pick(LABELS["dec_called"], n["dec_called"])
             + (f", {when(n['dec_called_at'])}" if n["dec_called_at"] else "")),
            ("NYSDEC spill number", n["dec_spill_number"] or "Not given"),
        ]),
        ("Facility", [
            ("Name", n["facility_name"]),
            ("Street address", n["facility_address"]),
            ("Kind", pick(LABELS["facility_kind"], n["facility_kind"])),
            ("SPDES stormwater permit", pick(LABELS["permit"], n["permit"])
             + (f", number {n['permit_number']}" if n["permit_number"] else "")),
        ]),
        ("Responsible person", [
            ("Name", case["contact_name"]),
            ("Job title", n["responsible_title"] or "Not given"),
            ("Phone", case["contact_phone"]),
            ("E-mail", case["contact_email"]),
        ]),
        ("The release", [
            ("Discovered", when(n["discovered_at"])),
            ("Began", when(n["began_at"]) if n["began_at"] else "Not known"),
            ("Stopped", (when(n["ended_at"]) if n["ended_at"] else "Yes")
             if n["is_over"] == "yes" else "No, not yet"),
            ("Material released", n["materials"]),
            ("Estimated amount", amount),
            ("Where", case["address"] + (f" ({case['latitude']}, {case['longitude']})"
                                         if case["latitude"] is not None else "")),
            ("Entered or may enter a storm drain, ditch or stream",
             pick(LABELS["reached_drain"], n["reached_drain"])
             + (f", {about(n['amount_reached'])}" if n["amount_reached"] else "")),
            ("Cause", n["cause"]),
            ("Containment and cleanup so far", n["cleanup"]),
            ("To prevent it happening again", n["prevention"]),
        ]),
        ("Earlier notice", [
            ("Already told", pick(LABELS["prior_notice"], n["prior_notice"])),
            *([("When", when(n["prior_notice_at"])), ("Told to", n["prior_notice_to"])]
              if n["prior_notice"] not in (None, "none") else []),
        ]),
    ]  # fmt: skip
    return sections
