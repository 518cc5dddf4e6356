"""Release notifications: the deadlines the release notification section sets (the notice,
its written confirmation) and how long the record a facility keeps is kept."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace
from typing import Any

import sqlite_utils
from flask import current_app

from content_model.site import N_, OnlineFiling
from portal.core.clock import local_now
from portal.core.dates import LATER, add_years
from portal.core.db import get_db
from portal.core.deadlines import BusinessCalendar
from portal.notification import compliance
from portal.notification.choices import PRIOR_NOTICE_BY, SPOKEN_NOTICES

# The release notification section: a commercial or industrial source keeps its record
# at least three years. The law does not say from when: our reading counts from the day of
# the filing (content: record_keeping_reading says so on the receipt).
RETENTION_YEARS = 3


@dataclass(frozen=True)
class Deadline:
    """One thing the law requires by a moment, and whether it was done (and how we know)."""

    key: str  # "notice" or "confirmation"
    due: dt.datetime  # local time: closing time (notice) or end of day (confirmation)
    done_at: dt.datetime | None  # None: not done, as far as the record shows
    done_by: str  # how it was done: "this filing", "by telephone", "by a mailed letter"...
    checked_at: dt.datetime  # when the filing was made, reviewed, or is shown
    # The last moment in time, when later than `due`: the end of the due day for a notice
    # (compliance.notice_limit), `due` being the office's closing time, which is advice.
    limit: dt.datetime | None = None
    # Staff recorded it (a logged call, visit or fax, a mailed letter), or the content
    # accepts the filing as it; False: only the filer's own answer says so.
    recorded: bool = True
    # done_at is a day (a letter's mailing date), not a moment.
    day_only: bool = False
    # The day the count of business days starts from (discovery; the spoken notice).
    since: dt.date | None = None
    # Whether it was done in time, where a rule of compliance.py decided it (a confirmation).
    in_time: bool | None = None

    @property
    def met(self) -> bool:
        if self.in_time is not None:
            return self.in_time
        return self.done_at is not None and self.done_at <= (self.limit or self.due)

    @property
    def late(self) -> bool:
        """Done after the deadline, or not done and the deadline has passed."""
        if self.done_at is not None:
            return not self.met
        return self.checked_at > (self.limit or self.due)


BY = dict(PRIOR_NOTICE_BY)
BY_LETTER = N_("by a mailed letter")
THIS_FILING = N_("this filing")


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
    office_hours_apply_to_fax: bool = False,
) -> list[Deadline]:
    """Notice by closing time on the next business day after discovery (notice in person or
    by telephone needs the office open; a fax, by the end of that day); a spoken notice
    confirmed by written notice mailed by the end of the third business day after it. What
    the filer says of an earlier notice is their answer (`recorded` False)."""
    due = calendar.close_of_business(calendar.next_business_day(discovered_at.date()), tz, closes)
    notice = _notice(
        due, prior_notice, prior_notice_at, filed_at, online, office_hours_apply_to_fax
    )
    deadlines = [replace(notice, since=discovered_at.date())]
    if prior_notice in SPOKEN_NOTICES and prior_notice_at is not None:
        confirm_due = compliance.confirmation_due(calendar, tz, prior_notice_at)
        confirmation = _confirmation(confirm_due, prior_notice_at, filed_at, online, filed_at)
        deadlines.append(replace(confirmation, since=prior_notice_at.date()))
    return deadlines


def holidays_counted(deadlines: list[Deadline]) -> list[dt.date]:
    """The weekdays the deadlines' counts passed over as holidays or closures (our reading
    of "business day"), each once: if the office is open on one, the law's deadline is sooner."""
    calendar = compliance.rules().calendar
    days = {
        day
        for d in deadlines
        if d.since is not None
        for day in calendar.closed_weekdays(d.since, d.due.date())
    }
    return sorted(days)


def _notice(
    due: dt.datetime,
    how: str | None,
    at: dt.datetime | None,
    checked_at: dt.datetime,
    online: OnlineFiling,
    office_hours_apply_to_fax: bool,
    *,
    recorded: bool = False,
    filed_at: dt.datetime | None = None,
) -> Deadline:
    filed_at = filed_at or checked_at
    if how not in (None, "none") and at is not None:
        limit = compliance.notice_limit(due, how, office_hours_apply_to_fax)
        return Deadline("notice", due, at, BY[how], checked_at, limit, recorded)
    if online.counts_as_notice:
        limit = compliance.notice_limit(due, compliance.ONLINE, office_hours_apply_to_fax)
        return Deadline("notice", due, filed_at, THIS_FILING, checked_at, limit)
    limit = compliance.notice_limit(due, "telephone", office_hours_apply_to_fax)
    return Deadline("notice", due, None, "", checked_at, limit)


def _confirmation(
    due: dt.datetime,
    told_at: dt.datetime,
    filed_at: dt.datetime,
    online: OnlineFiling,
    checked_at: dt.datetime,
    mailed_on: str | None = None,
) -> Deadline:
    """The confirmation deadline as compliance.confirmation decides it, in the page's words."""
    mailed = dt.date.fromisoformat(mailed_on) if mailed_on else None
    done = compliance.confirmation(due, told_at, filed_at, online, mailed)
    by = {compliance.BY_LETTER: BY_LETTER, compliance.BY_FILING: THIS_FILING}.get(done.by, "")
    return Deadline(
        "confirmation",
        due,
        done.done_at,
        by,
        checked_at,
        in_time=done.met,
        day_only=done.by == compliance.BY_LETTER,
    )


def online_filing() -> OnlineFiling:
    """What the municipality accepts this portal's filing as, from its content."""
    return current_app.extensions["content"].settings.online_filing


def stored_deadlines(
    case: dict[str, Any],
    n: dict[str, Any],
    online: OnlineFiling,
    db: sqlite_utils.Database | None = None,
) -> list[Deadline]:
    """The deadlines of a stored filing, as now recorded: the notices staff logged and
    linked to it and the letter mailed (compliance), else the filer's own answers. `db`:
    the caller's connection (the request's by default)."""
    rules = compliance.rules()
    filed = dt.datetime.fromisoformat(case["received_at"])
    now = local_now()
    due = dt.datetime.fromisoformat(n["notice_due"])
    logged = compliance.linked_notices(db or get_db(), case["id"])
    if logged:
        # The first notice in time, else the first one given.
        def in_time(p: dict[str, Any]) -> bool:
            limit = compliance.notice_limit(due, p["how"], rules.office_hours_apply_to_fax)
            return dt.datetime.fromisoformat(p["told_at"]) <= limit

        notice = next((p for p in logged if in_time(p)), logged[0])
        at = dt.datetime.fromisoformat(notice["told_at"])
        first = _notice(
            due,
            notice["how"],
            at,
            now,
            online,
            rules.office_hours_apply_to_fax,
            recorded=True,
            filed_at=filed,
        )
    else:
        prior_at = n["prior_notice_at"] and dt.datetime.fromisoformat(n["prior_notice_at"])
        first = _notice(
            due,
            n["prior_notice"],
            prior_at or None,
            now,
            online,
            rules.office_hours_apply_to_fax,
            filed_at=filed,
        )
    deadlines = [replace(first, since=dt.datetime.fromisoformat(n["discovered_at"]).date())]
    spoken = [p for p in logged if p["how"] in SPOKEN_NOTICES]
    if spoken:
        told = dt.datetime.fromisoformat(spoken[0]["told_at"])
        confirm_due = compliance.confirmation_due(rules.calendar, rules.tz, told)
        confirmation = _confirmation(
            confirm_due, told, filed, online, now, spoken[0]["letter_mailed_on"]
        )
        deadlines.append(replace(confirmation, since=told.date()))
    elif n["confirmation_due"] and n["prior_notice_at"]:
        told = dt.datetime.fromisoformat(n["prior_notice_at"])
        due_at = dt.datetime.fromisoformat(n["confirmation_due"])
        confirmation = _confirmation(due_at, told, filed, online, now)
        deadlines.append(replace(confirmation, since=told.date()))
    return deadlines


def with_deadlines(details: dict[str, Any], deadlines: list[Deadline], received: dt.datetime):
    """The details plus what is stored of the deadlines, and how long the record is kept.

    Nothing is stored as done that staff have not recorded: at filing, the notice and the
    confirmation are unknown (NULL) unless the content accepts the filing as them.
    """
    by_key = {d.key: d for d in deadlines}
    prior_at = details.get("prior_notice_at")
    done = compliance.outcome(
        notice_due=by_key["notice"].due,
        filed_at=received,
        prior_notice=details.get("prior_notice"),
        prior_notice_at=dt.datetime.fromisoformat(prior_at) if prior_at else None,
        notices=[],
        rules=compliance.rules(),
    )
    return details | {
        "notice_due": by_key["notice"].due.isoformat(timespec="seconds"),
        **done.columns(),
        # Kept "at least three years": never a day short, so 29 February's is 1 March.
        "retain_until": add_years(received.date(), RETENTION_YEARS, leap_day=LATER).isoformat(),
    }
