"""The release notification section as it was complied with, from what staff recorded.

A notice counts once it was given: a call, a visit or a fax staff logged (or the online
filing itself, only where the content accepts it as the notice). A written confirmation
counts once staff recorded the letter mailed to the municipality, with its mailing date
(or the filing, only where the content accepts it as the confirmation). Nothing is taken
as done because a filing says so: what the filer answered is shown as their answer.

The filing's row keeps the outcome for the queue, the exports and the annual figures:
`notice_met` (1 in time, 0 late, NULL none recorded), `confirmation_due` and
`confirmation_met` (1 mailed in time, 0 late, NULL none recorded). `refresh` works them out
again whenever a notice is linked or unlinked, or a letter is recorded.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

import sqlite_utils
from flask import current_app

from content_model.site import OnlineFiling
from portal.core.db import one, rows, value
from portal.core.deadlines import END_OF_DAY, BusinessCalendar
from portal.notification.choices import SPOKEN_NOTICES

# The section asks that a notice in person or by telephone be "confirmed by written notice
# addressed and mailed to the [municipality] within three business days".
CONFIRMATION_BUSINESS_DAYS = 3
# How a filing accepted as the notice (content: online_filing.counts_as_notice) was given:
# like a fax, it needs nobody in the office.
ONLINE = "online"


@dataclass(frozen=True)
class Rules:
    """What the content decides about notices: what the filing counts as, and whether a fax
    is held to office hours."""

    online: OnlineFiling
    office_hours_apply_to_fax: bool
    calendar: BusinessCalendar
    tz: dt.tzinfo


def rules() -> Rules:
    """The running portal's rules, from its content."""
    settings = current_app.extensions["content"].settings
    return Rules(
        settings.online_filing,
        settings.office.office_hours_apply_to_fax,
        current_app.extensions["calendar"],
        settings.timezone,
    )


def notice_limit(due: dt.datetime, how: str, office_hours_apply_to_fax: bool) -> dt.datetime:
    """The last moment a notice given `how` is in time, `due` being the office's closing time
    on the due day. The section says only "in person or by telephone or facsimile no later
    than the next business day": a day, not an hour, so every notice given by the end of that
    day is in time (our reading); the closing time is advice (call or come in while someone
    is there). Only a fax can be held to office hours, where the content says so."""
    if how == "fax" and office_hours_apply_to_fax:
        return due
    return dt.datetime.combine(due.date(), END_OF_DAY, tzinfo=due.tzinfo)


def notice_overdue(notice_met: int | None, notice_due: str, now: dt.datetime) -> bool:
    """No notice on record once its due day is over: a notice is in time until the end of
    that day (`notice_limit`), so it is overdue from midnight. `notice_due` is the stored
    local moment (or its day). The queue asks the same in SQL (portal/staff/danger.py's
    "notice-overdue"), and the tests hold both at 23:59 and at midnight."""
    return notice_met is None and notice_due[:10] < now.date().isoformat()


def confirmation_overdue(
    confirmation_due: str | None, confirmation_met: int | None, now: dt.datetime
) -> bool:
    """A written confirmation was due (a spoken notice) and none is on record by the end of
    its third business day. The queue's "confirmation-overdue" asks the same in SQL."""
    return bool(
        confirmation_due
        and confirmation_met is None
        and now > dt.datetime.fromisoformat(confirmation_due)
    )


def confirmation_due(
    calendar: BusinessCalendar, tz: dt.tzinfo, told_at: dt.datetime
) -> dt.datetime:
    """The end of the third business day after a notice in person or by telephone."""
    day = calendar.add_business_days(told_at.date(), CONFIRMATION_BUSINESS_DAYS)
    return calendar.end_of_day(day, tz)


def letter_in_time(mailed_on: dt.date, due: dt.datetime) -> bool:
    """A letter counts by the day it was mailed ("mailed ... within three business days")."""
    return mailed_on <= due.date()


def filing_can_confirm(online: OnlineFiling) -> bool:
    """Whether the content accepts an online filing as a written confirmation at all."""
    return online.counts_as_written_confirmation


def filed_before_call(filed_at: dt.datetime, told_at: dt.datetime) -> bool:
    """Whether the filing was made before the notice told at `told_at` was given."""
    return filed_at < told_at


def filing_confirms(online: OnlineFiling, filed_at: dt.datetime, told_at: dt.datetime) -> bool:
    """Whether the online filing is the written confirmation of a spoken notice given at
    `told_at`: only where the content accepts the filing as it, and never a filing made
    before the call, whatever the content accepts. The ordinance is silent on the order;
    our reading is that a filing cannot confirm what was not yet said."""
    return filing_can_confirm(online) and not filed_before_call(filed_at, told_at)


# How a written confirmation was given (Confirmation.by).
BY_LETTER, BY_FILING = "letter", "filing"


@dataclass(frozen=True)
class Confirmation:
    """The written confirmation of one spoken notice, as recorded: the page, the receipt,
    the mail and the stored columns all read it from `confirmation`."""

    due: dt.datetime
    done_at: dt.datetime | None  # the filing's moment, or midnight of the letter's mailing day
    by: str  # BY_LETTER, BY_FILING, or "" when none is recorded
    met: bool | None  # None: none recorded


def confirmation(
    due: dt.datetime,
    told_at: dt.datetime,
    filed_at: dt.datetime,
    online: OnlineFiling,
    mailed_on: dt.date | None = None,
) -> Confirmation:
    """The written confirmation of a notice told at `told_at`, due by `due`: the mailed
    letter staff recorded, else the filing where `filing_confirms`, else none."""
    if mailed_on is not None:
        mailed = dt.datetime.combine(mailed_on, dt.time(), tzinfo=due.tzinfo)
        return Confirmation(due, mailed, BY_LETTER, letter_in_time(mailed_on, due))
    if filing_confirms(online, filed_at, told_at):
        return Confirmation(due, filed_at, BY_FILING, filed_at <= due)
    return Confirmation(due, None, "", None)


def confirmed_by_filing_sql(notice: str = "p") -> str:
    """SQL, over a phone_notices row aliased `notice`: the linked filing is that notice's
    written confirmation, as its stored outcome says (no letter on it, the filing's
    `confirmation_met` recorded, and the notice the filing's first spoken one, which
    `outcome` works the confirmation out from)."""
    spoken = ", ".join(f"'{how}'" for how in sorted(SPOKEN_NOTICES))
    return (
        f"({notice}.case_id IS NOT NULL AND {notice}.letter_mailed_on IS NULL"
        " AND (SELECT confirmation_met FROM notifications"
        f" WHERE case_id = {notice}.case_id) IS NOT NULL"
        f" AND {notice}.id = (SELECT q.id FROM phone_notices q WHERE q.case_id = {notice}.case_id"
        f" AND q.how IN ({spoken}) ORDER BY q.told_at, q.id LIMIT 1))"
    )


@dataclass(frozen=True)
class Outcome:
    """What the filing's row stores of the section's two steps."""

    notice_met: int | None
    confirmation_due: dt.datetime | None
    confirmation_met: int | None

    def columns(self) -> dict[str, Any]:
        return {
            "notice_met": self.notice_met,
            "confirmation_due": self.confirmation_due.isoformat(timespec="seconds")
            if self.confirmation_due
            else None,
            "confirmation_met": self.confirmation_met,
        }


def _moment(value: str) -> dt.datetime:
    return dt.datetime.fromisoformat(value)


def outcome(
    *,
    notice_due: dt.datetime,
    filed_at: dt.datetime,
    prior_notice: str | None,
    prior_notice_at: dt.datetime | None,
    notices: list[dict[str, Any]],
    rules: Rules,
) -> Outcome:
    """The outcome from the notices staff logged and linked to the filing (rows of
    phone_notices), and from the filing only where the content accepts it."""
    given = [(_moment(n["told_at"]), n["how"]) for n in notices]
    if rules.online.counts_as_notice:
        given.append((filed_at, ONLINE))
    notice_met = None
    if given:
        notice_met = int(
            any(
                at <= notice_limit(notice_due, how, rules.office_hours_apply_to_fax)
                for at, how in given
            )
        )
    spoken = sorted((n for n in notices if n["how"] in SPOKEN_NOTICES), key=lambda n: n["told_at"])
    if spoken:
        told = _moment(spoken[0]["told_at"])
        mailed = spoken[0]["letter_mailed_on"]
        mailed_on = dt.date.fromisoformat(mailed) if mailed else None
    elif prior_notice in SPOKEN_NOTICES and prior_notice_at is not None:
        # Only the filer's word that they called: the letter is still due from that call.
        told, mailed_on = prior_notice_at, None
    else:
        return Outcome(notice_met, None, None)
    due = confirmation_due(rules.calendar, rules.tz, told)
    done = confirmation(due, told, filed_at, rules.online, mailed_on)
    return Outcome(notice_met, due, None if done.met is None else int(done.met))


def notice_columns() -> str:
    """SQL: a phone_notices row `p` with `by_filing`, whether its filing confirms it."""
    return f"p.*, {confirmed_by_filing_sql('p')} AS by_filing"


def linked_notices(db: sqlite_utils.Database, case_id: int) -> list[dict[str, Any]]:
    """The notices staff logged and linked to a filing, earliest first."""
    return rows(
        db,
        f"SELECT {notice_columns()} FROM phone_notices p WHERE case_id = ? ORDER BY told_at, id",
        [case_id],
    )


def refresh(db: sqlite_utils.Database, case_id: int, given: Rules | None = None) -> Outcome:
    """Work the filing's outcome out again from what is recorded and store it (inside the
    caller's transaction)."""
    given = given or rules()
    row = one(
        db,
        "SELECT c.received_at, n.notice_due, n.prior_notice, n.prior_notice_at FROM cases c"
        " JOIN notifications n ON n.case_id = c.id WHERE c.id = ?",
        [case_id],
    )
    result = outcome(
        notice_due=_moment(row["notice_due"]),
        filed_at=_moment(row["received_at"]),
        prior_notice=row["prior_notice"],
        prior_notice_at=_moment(row["prior_notice_at"]) if row["prior_notice_at"] else None,
        notices=linked_notices(db, case_id),
        rules=given,
    )
    columns = result.columns()
    db.execute(
        "UPDATE notifications SET notice_met = ?, confirmation_due = ?, confirmation_met = ?"
        " WHERE case_id = ?",
        [columns["notice_met"], columns["confirmation_due"], columns["confirmation_met"], case_id],
    )
    return result


def confirmation_recorded(db: sqlite_utils.Database, case_id: int) -> bool:
    """Whether a written confirmation is on record for a filing: a mailed letter on its
    linked notice, or the filing itself where the content accepts it."""
    # No filing row and a filing not yet worked out read the same: nothing on record.
    met = value(db, "SELECT confirmation_met FROM notifications WHERE case_id = ?", [case_id])
    return met is not None


def notice_state(notice: dict[str, Any], now: dt.datetime) -> dict[str, Any]:
    """What a notice page and list show of its written confirmation (`notice` read with
    `notice_columns`)."""
    due = notice["confirmation_due"] and dt.datetime.fromisoformat(notice["confirmation_due"])
    mailed = notice["letter_mailed_on"] and dt.date.fromisoformat(notice["letter_mailed_on"])
    by_filing = bool(notice["by_filing"])
    return {
        "spoken": notice["how"] in SPOKEN_NOTICES,
        "due": due or None,
        "letter_in_time": letter_in_time(mailed, due) if mailed and due else None,
        "by_filing": by_filing,
        "overdue": bool(due and not mailed and not by_filing and now > due),
    }


def release_record(
    db: sqlite_utils.Database, case: dict[str, Any], details: dict[str, Any], now: dt.datetime
) -> dict[str, Any]:
    """What the case page shows of a filing's notice and written confirmation: the notices
    logged and linked (each with its letter), the deadline, and notices that may be about
    the same release, to link."""
    reading = rules()
    due = dt.datetime.fromisoformat(details["notice_due"])
    linked = []
    for notice in linked_notices(db, case["id"]):
        limit = notice_limit(due, notice["how"], reading.office_hours_apply_to_fax)
        told = dt.datetime.fromisoformat(notice["told_at"])
        after = filed_before_call(dt.datetime.fromisoformat(case["received_at"]), told)
        linked.append((notice, notice_state(notice, now) | {"after_filing": after}, told <= limit))
    discovered = dt.datetime.fromisoformat(details["discovered_at"])
    # The bounds written as told_at is stored (to the minute), so that the text comparison
    # keeps a notice told exactly a day before the discovery, as it keeps one a week after.
    received = dt.datetime.fromisoformat(case["received_at"])
    candidates = rows(
        db,
        "SELECT * FROM phone_notices WHERE case_id IS NULL AND (lower(facility_name) ="
        " lower(?) OR told_at BETWEEN ? AND ?) ORDER BY told_at LIMIT 10",
        [
            details["facility_name"],
            (discovered - dt.timedelta(days=1)).isoformat(timespec="minutes"),
            (received + dt.timedelta(days=7)).isoformat(timespec="minutes"),
        ],
    )
    confirmation_due = details["confirmation_due"]
    return {
        "due": due,
        "fax_until": None if reading.office_hours_apply_to_fax else notice_limit(due, "fax", False),
        "linked": linked,
        "notice_overdue": notice_overdue(details["notice_met"], details["notice_due"], now),
        # Where the content accepts the filing as the notice, it is one (in time or late)
        # before any call is logged.
        "filing_is_notice": None if linked else details["notice_met"],
        "candidates": candidates,
        "confirmation_due": dt.datetime.fromisoformat(confirmation_due)
        if confirmation_due
        else None,
        "confirmation_overdue": confirmation_overdue(
            confirmation_due, details["confirmation_met"], now
        ),
    }
