"""The enforcement rules of the ordinance (the notice of violation, penalties, appeal and
corrective measures), as pure functions over dates; the cost of abatement is in costs.py,
the readings in words in readings.py.

No Flask and no database here: the numbers and the readings come in as `Terms` (from
content/enforcement.yaml), business days as a `BusinessCalendar`. Each function's docstring
quotes the words it implements; where the words are silent, it names the `Terms` reading.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from content_model.enforcement import Terms, Tier
from portal.core.dates import EARLIER, add_years
from portal.core.deadlines import BusinessCalendar
from portal.core.display import date_words

DAY = dt.timedelta(days=1)


# ---------------------------------------------------------------- counting days


def period_end(start: dt.date, days: int, terms: Terms, calendar: BusinessCalendar) -> dt.date:
    """The last day of a period of `days` days counted from `start` (not counting `start`).

    Reading `day_kind`: calendar days unless the content says business days. Reading
    `roll_to_business_day` (General Construction Law § 25-a): a period that ends on a
    Saturday, Sunday or holiday runs to the next business day.
    """
    if terms.day_kind == "business":
        return calendar.add_business_days(start, days)
    end = start + days * DAY
    if terms.roll_to_business_day and not calendar.is_business_day(end):
        end = calendar.next_business_day(end)
    return end


def appeal_window(issued: dt.date, terms: Terms, calendar: BusinessCalendar) -> dt.date:
    """Appeal: "within 15 days of its issuance" — the last day to appeal a notice."""
    return period_end(issued, terms.appeal_days, terms, calendar)


def hearing_due(filed: dt.date, terms: Terms, calendar: BusinessCalendar) -> dt.date:
    """Appeal: the Board "shall hear the appeal within 30 days after the filing of the appeal"."""
    return period_end(filed, terms.hearing_days, terms, calendar)


def decision_filing_due(decided: dt.date, terms: Terms, calendar: BusinessCalendar) -> dt.date:
    """Appeal: "within five days of making its decision, file its decision in the office of
    the [municipal] Clerk and mail a copy of its decision by certified mail"."""
    return period_end(decided, terms.decision_filing_days, terms, calendar)


def appeal_in_time(
    issued: dt.date, filed: dt.date, terms: Terms, calendar: BusinessCalendar
) -> bool:
    """Appeal: "within 15 days of its issuance" — whether an appeal filed on `filed` is in time
    (reading `appeal_filed_when`: the day it reached the clerk, or its postmark). The one test
    of the appeal period: whether it is still running on a day is whether an appeal filed that
    day would be in time."""
    return filed <= appeal_window(issued, terms, calendar)


def appeal_holds(
    issued: dt.date,
    filed: dt.date | None,
    late_accepted: bool,
    terms: Terms,
    calendar: BusinessCalendar,
) -> bool:
    """Whether an appeal is "an appeal" for the notice's deadline, its hearing and its
    standing: filed in time, or accepted by the Board although late. No appeal holds nothing."""
    if filed is None:
        return False
    return late_accepted or appeal_in_time(issued, filed, terms, calendar)


def correction_passed(correction: dt.date | None, day: dt.date) -> bool:
    """Corrective measures, A: whether the correction date has passed on `day` (the whole
    correction day is the respondent's; no date running never passes)."""
    return correction is not None and day > correction


@dataclass(frozen=True)
class Appeal:
    """What is known of an appeal: when it was filed, whether that was in time (or the Board
    accepted it although late), and the Board's decision, if any."""

    filed: dt.date | None = None
    decided: dt.date | None = None
    upheld: bool | None = None
    timely: bool = True


def correction_due(
    deadline: dt.date | None, appeal: Appeal, terms: Terms, calendar: BusinessCalendar
) -> dt.date | None:
    """Corrective measures, A: the SMO asks for access "if the violation has not been corrected
    pursuant to the requirements set forth in the notice of violation, or, in the event of an
    appeal, within five business days of the decision ... upholding the decision of the SMO".

    Reading `correction_after_appeal`: "later" takes the later of the notice's deadline and the
    five business days (an appeal never shortens the time the notice gave); "decision" the five
    business days alone. Only an appeal filed in time (or accepted by the Board although late)
    is "an appeal" here: a late one leaves the notice's deadline running.

    None: no date (no deadline set, an appeal waiting for its decision under the reading
    `appeal_suspends_deadline`, or a notice the Board did not uphold).
    """
    if appeal.filed is None or not appeal.timely:
        return deadline
    if appeal.decided is not None:
        if not appeal.upheld:
            return None
        after = calendar.add_business_days(appeal.decided, terms.correction_business_days)
        if terms.correction_after_appeal == "later" and deadline is not None:
            return max(deadline, after)
        return after
    return None if terms.appeal_suspends_deadline else deadline


@dataclass(frozen=True)
class DeadlineWarning:
    """Why a notice's deadline needs a second look: `kind` "closed" (the office is closed that
    day: `name` says why) or "before-appeal" (on or before `day`, the last day to appeal)."""

    kind: str
    day: dt.date
    name: str = ""


def deadline_warnings(
    deadline: dt.date | None, issued: dt.date, terms: Terms, calendar: BusinessCalendar
) -> list[DeadlineWarning]:
    """What is odd about a deadline set for a notice issued on `issued`: a day the office is
    closed (a weekend, holiday or closure), or a day on or before the appeal period ends (the
    respondent would have to comply before the time to appeal is over)."""
    if deadline is None:
        return []
    found = []
    if not calendar.is_business_day(deadline):
        name = calendar.observed_holidays(deadline.year).get(deadline, f"{deadline:%A}")
        found.append(DeadlineWarning("closed", deadline, name))
    if appeal_in_time(issued, deadline, terms, calendar):
        found.append(DeadlineWarning("before-appeal", appeal_window(issued, terms, calendar)))
    return found


def weeks_continued(correction: dt.date | None, today: dt.date, terms: Terms) -> int:
    """Penalties: "Each week's continued violation shall constitute a separate additional
    violation." Weeks are counted from the day after the correction date; reading
    `week_counting`: whole weeks ("completed") or every week once begun ("begun")."""
    if not correction_passed(correction, today):
        return 0
    days = (today - correction).days
    return days // 7 if terms.week_counting == "completed" else -(-days // 7)


# ---------------------------------------------------------------- offenses and penalties


@dataclass(frozen=True)
class Prior:
    """An earlier violation of the same respondent: when it was committed, how the pages name
    it, whether it was established (an issued notice the Board did not overturn, or a final
    notice or conviction in the paper files) and whether a court convicted the respondent of
    it; `why_not` says why it was not established (or, established, how)."""

    committed: dt.date
    label: str
    established: bool = True
    why_not: str = ""
    # Not yet established, but it may become so: its appeal period is running or its appeal
    # awaits the Board (reading `offense_counts`).
    pending: bool = False
    convicted: bool = False


@dataclass(frozen=True)
class Earlier:
    """An earlier offense of the same respondent and whether it counts, with why."""

    committed: dt.date
    counted: bool
    why: str
    label: str = ""
    pending: bool = False


@dataclass(frozen=True)
class OffenseCount:
    number: int  # 1 for a first offense
    earlier: tuple[Earlier, ...]
    tier: Tier
    # The offense number and range if every pending earlier notice became established.
    pending: int = 0
    if_pending: Tier | None = None


def notice_standing(
    issued: dt.date,
    appealed: dt.date | None,
    late_accepted: bool,
    decided: dt.date | None,
    upheld: bool | None,
    today: dt.date,
    terms: Terms,
    calendar: BusinessCalendar,
) -> tuple[str, str]:
    """Whether an issued notice establishes its violation for the offense number (reading
    `offense_counts`): "established", "pending" or "not", with why in words. "final" (and
    "conviction", where an established notice is shown but only a conviction counts): once it
    was not appealed in time (the period closed) or the Board upheld it; "issued": as soon as
    it is issued, unless the Board did not uphold it."""
    if decided and upheld is False:
        return "not", "not upheld by the Board"
    if decided and upheld:
        return "established", "upheld by the Board"
    if terms.offense_counts == "issued":
        return "established", "issued, not overturned"
    if appeal_holds(issued, appealed, late_accepted, terms, calendar):
        return "pending", "its appeal awaits the Board"
    if appeal_in_time(issued, today, terms, calendar):
        window = appeal_window(issued, terms, calendar)
        return "pending", f"the appeal period runs until {date_words(window)}"
    return "established", "not appealed in time"


def counts(prior: Prior, terms: Terms) -> tuple[str, str]:
    """Whether an earlier violation counts toward the offense number (its date aside), with why
    in words: "counted", "pending" (shown apart: it may yet count) or "not". Penalties rise
    "for conviction of a second offense" and "upon conviction for a third": a recorded
    conviction always counts. Reading `offense_counts`: "conviction", nothing else does (a
    final notice is shown, not counted); "final" or "issued", an established notice counts too
    (notice_standing says when a notice is established)."""
    if prior.convicted:
        return "counted", prior.why_not
    if terms.offense_counts == "conviction":
        if prior.established or prior.pending:
            why = f"{prior.why_not}; " if prior.why_not else ""
            return "not", f"{why}no conviction recorded"
        return "not", prior.why_not or "not established"
    if prior.pending:
        return "pending", prior.why_not
    if not prior.established:
        return "not", prior.why_not or "not established"
    return "counted", prior.why_not


def offense_number(
    committed: dt.date, earlier: Iterable[Prior | tuple[dt.date, str]], terms: Terms
) -> OffenseCount:
    """Penalties: a second offense is one where "both of which were committed within a period
    of five years"; a third or later, "all of which were committed within a period of five
    years". An earlier offense counts when this one was committed before its fifth
    anniversary (the anniversary itself is outside); later or same-day records never count.

    Whether each earlier one counts is `counts` (reading `offense_counts`); one that does not is
    listed with why.
    """
    priors = [item if isinstance(item, Prior) else Prior(*item) for item in earlier]
    found = []
    years = terms.offense_years
    for prior in sorted(priors, key=lambda p: (p.committed, p.label), reverse=True):
        day, label = prior.committed, prior.label
        if day >= committed:
            found.append(Earlier(day, False, "not before this violation", label))
        # An offense "within a period of five years": the period never runs a day past the
        # calendar's own date, so a 29 February's anniversary is 28 February.
        elif committed >= add_years(day, years, leap_day=EARLIER):
            found.append(Earlier(day, False, f"{years} years or more before", label))
        else:
            state, why = counts(prior, terms)
            if state == "counted":
                how = f"; {why}" if why else ""
                found.append(Earlier(day, True, f"within {years} years{how}", label))
            elif state == "pending":
                found.append(Earlier(day, False, f"not yet established: {why}", label, True))
            else:
                found.append(Earlier(day, False, why, label))
    number = 1 + sum(e.counted for e in found)
    pending = sum(e.pending for e in found)
    return OffenseCount(
        number,
        tuple(found),
        penalty_range(number, terms),
        pending,
        penalty_range(number + pending, terms) if pending else None,
    )


def penalty_range(number: int, terms: Terms) -> Tier:
    """Penalties: the fine (and imprisonment) for the `number`-th offense; the last range
    listed ("a third or subsequent offense") holds for every later one."""
    return terms.tiers[min(number, len(terms.tiers)) - 1]


def remedies_eligible(conditions: Sequence[bool], terms: Terms) -> bool:
    """Alternative penalties: eligible "where" the five conditions hold; reading
    `conditions_required`: all of them, or any one."""
    return all(conditions) if terms.conditions_required == "all" else any(conditions)


def remedy_refusals(
    recommended: bool,
    concurs: bool | None,
    conditions: Sequence[bool],
    history: int,
    history_index: int,
    terms: Terms,
) -> list[str]:
    """Alternative penalties: "eligible for alternative remedies in lieu of a civil penalty,
    upon recommendation of the [municipal] Attorney and concurrence of the ... SMO, where" the
    conditions hold. What stops a remedy being assigned, in words (none: it may be): no
    recorded recommendation, no concurrence, conditions that do not hold, or the "no history
    of previous violations" condition (at `history_index`) ticked against `history` earlier
    established violations."""
    found = []
    if not recommended:
        found.append("no recommendation is recorded")
    if not concurs:
        found.append("the officer's concurrence is not recorded")
    held = list(conditions)
    if history and 0 <= history_index < len(held) and held[history_index]:
        held[history_index] = False
        found.append(
            f"the offense history shows {history} earlier established"
            f" {'violation' if history == 1 else 'violations'}, so the condition of no history"
            " cannot hold"
        )
    if not remedies_eligible(held, terms):
        found.append("the conditions do not hold as recorded")
    return found
