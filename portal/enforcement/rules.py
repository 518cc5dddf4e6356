"""The enforcement rules of the ordinance (the notice of violation, penalties, appeal,
corrective measures and the cost of abatement), as pure functions over dates and cents.

No Flask and no database here: the numbers and the readings come in as `Terms` (from
content/enforcement.yaml), business days as a `BusinessCalendar`. Each function's docstring
quotes the words it implements; where the words are silent, it names the `Terms` reading.
"""

from __future__ import annotations

import calendar as months
import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from content_model.enforcement import Terms, Tier
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
    issued: dt.date, filed: dt.date | None, late_accepted: bool, terms: Terms,
    calendar: BusinessCalendar,
) -> bool:  # fmt: skip
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


def anniversary(day: dt.date, years: int) -> dt.date:
    """The same day `years` later; a 29 February falls on 28 February in a common year."""
    year = day.year + years
    return day.replace(year=year, day=min(day.day, months.monthrange(year, day.month)[1]))


@dataclass(frozen=True)
class Prior:
    """An earlier violation of the same respondent: when it was committed, how the pages name
    it, and whether it was established (an issued notice the Board did not overturn, or a
    notice or conviction in the paper files); `why_not` says why not (or, established, how)."""

    committed: dt.date
    label: str
    established: bool = True
    why_not: str = ""
    # Not yet established, but it may become so: its appeal period is running or its appeal
    # awaits the Board (reading `offense_counts`).
    pending: bool = False


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
    `offense_counts`): "established", "pending" or "not", with why in words. "final": once it
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


def offense_number(
    committed: dt.date, earlier: Iterable[Prior | tuple[dt.date, str]], terms: Terms
) -> OffenseCount:
    """Penalties: a second offense is one where "both of which were committed within a period
    of five years"; a third or later, "all of which were committed within a period of five
    years". An earlier offense counts when this one was committed before its fifth
    anniversary (the anniversary itself is outside); later or same-day records never count.

    Reading: only an established violation counts (an issued notice the Board did not
    overturn, or a notice or conviction in the paper files); a violation recorded with no
    notice, or whose notice the Board did not uphold, is listed with why it does not count.
    """
    priors = [item if isinstance(item, Prior) else Prior(*item) for item in earlier]
    found = []
    years = terms.offense_years
    for prior in sorted(priors, key=lambda p: (p.committed, p.label), reverse=True):
        day, label = prior.committed, prior.label
        if day >= committed:
            found.append(Earlier(day, False, "not before this violation", label))
        elif committed >= anniversary(day, years):
            found.append(Earlier(day, False, f"{years} years or more before", label))
        elif prior.pending:
            found.append(Earlier(day, False, f"not yet established: {prior.why_not}", label, True))
        elif not prior.established:
            found.append(Earlier(day, False, prior.why_not or "not established", label))
        else:
            how = f"; {prior.why_not}" if prior.why_not else ""
            found.append(Earlier(day, True, f"within {years} years{how}", label))
    number = 1 + sum(e.counted for e in found)
    pending = sum(e.pending for e in found)
    return OffenseCount(
        number, tuple(found), penalty_range(number, terms), pending,
        penalty_range(number + pending, terms) if pending else None,
    )  # fmt: skip


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


# ---------------------------------------------------------------- cost of abatement


def cost_notice_due(completed: dt.date, terms: Terms, calendar: BusinessCalendar) -> dt.date:
    """Cost: "Within 30 days after abatement of the violation, the owner of the property
    will be notified of the cost of abatement, including administrative costs."""
    return period_end(completed, terms.cost_notice_days, terms, calendar)


def protest_window(
    mailed: dt.date, received: dt.date | None, terms: Terms, calendar: BusinessCalendar
) -> tuple[dt.date, bool]:
    """Cost: a written protest "within 30 days of receiving notification of the cost".

    Reading `protest_runs_from`: from receipt (or from mailing). Without a recorded receipt,
    receipt is presumed `presumed_mail_days` after mailing; the flag says it is presumed.
    """
    if terms.protest_runs_from == "mailing":
        return period_end(mailed, terms.protest_days, terms, calendar), False
    presumed = received is None
    start = mailed + terms.presumed_mail_days * DAY if presumed else received
    return period_end(start, terms.protest_days, terms, calendar), presumed


def first_payment_due(
    protest_closes: dt.date,
    protest_filed: dt.date | None,
    board_sets: dt.date | None,
    printed: dt.date | None = None,
) -> dt.date | None:
    """Cost: the charges become a special assessment "if the amount due is not paid within a
    timely manner as determined by the decision of the [municipal] Board ... or by the
    expiration of the time in which to file a protest".

    Reading: with no protest, or one filed after the period, the first payment falls due when
    the protest period closes; with a protest filed in time, nothing is due until the Board
    decides it (None), and then on the day its decision sets (`board_sets`).

    Reading: the first due date is never earlier than the one the cost notice `printed` as
    mailed (its presumed receipt): a receipt recorded earlier than presumed shortens the
    protest period, which runs from receipt, but never moves the dates the owner holds.
    """
    if protest_filed is not None and protest_filed <= protest_closes:
        return board_sets
    return max(protest_closes, printed or protest_closes)


def interest_starts(completed: dt.date, terms: Terms) -> dt.date:
    """Cost: interest "beginning on the 31st day following completion of the abatement"
    (the day after completion is the first day following it)."""
    return completed + terms.interest_from_day * DAY


def add_months(day: dt.date, n: int, anchor: int | None = None) -> dt.date:
    """The same day of the month `n` months on, kept at the month's end when it has fewer days
    (31 January + 1 month: 28 or 29 February; + 2 months: 31 March)."""
    anchor = anchor or day.day
    month0 = day.month - 1 + n
    year, month = day.year + month0 // 12, month0 % 12 + 1
    return dt.date(year, month, min(anchor, months.monthrange(year, month)[1]))


@dataclass(frozen=True)
class Installment:
    number: int
    due: dt.date
    cents: int


def installments(
    total: int,
    count: int,
    first_due: dt.date,
    terms: Terms,
    calendar: BusinessCalendar | None = None,
) -> list[Installment]:
    """Cost: "The liability shall be paid in not more than 12 equal payments." Equal to the
    cent, the odd cents on the first; due every `installment_months` (a reading) from the
    first due date, each moved to the next business day under `roll_to_business_day` when a
    calendar is given."""
    if not 1 <= count <= terms.max_payments:
        raise ValueError(f"from 1 to {terms.max_payments} payments, not {count}")
    base, odd = divmod(total, count)
    plan = []
    for i in range(count):
        due = add_months(first_due, i * terms.installment_months)
        if calendar and terms.roll_to_business_day and not calendar.is_business_day(due):
            due = calendar.next_business_day(due)
        plan.append(Installment(i + 1, due, base + (odd if i == 0 else 0)))
    return plan


def round_cents(amount: Fraction) -> int:
    """A fraction of a cent rounded half up."""
    return int(amount + Fraction(1, 2)) if amount >= 0 else -round_cents(-amount)


@dataclass
class Line:
    """A line of the statement of account (cents)."""

    day: dt.date
    what: str
    cents: int
    interest: int = 0  # interest posted on this line
    to_interest: int = 0
    to_charge: int = 0
    charge_after: int = 0
    interest_after: int = 0


@dataclass
class Account:
    charge: int  # the cost of abatement, administrative costs included
    interest_from: dt.date
    as_of: dt.date
    lines: list[Line] = field(default_factory=list)
    charge_due: int = 0
    interest_due: int = 0
    interest_total: int = 0
    paid: int = 0
    paid_to_charge: int = 0
    overpaid: int = 0

    @property
    def balance(self) -> int:
        return self.charge_due + self.interest_due


def year_fraction(first: dt.date, last: dt.date, days_in_year: int | None) -> Fraction:
    """The days from `first` to `last` (both counted) as a fraction of a year: each day over
    the length of its own year (None), or over a fixed year of `days_in_year` days."""
    if days_in_year:
        return Fraction((last - first).days + 1, days_in_year)
    total, day = Fraction(0), first
    while day <= last:
        end = min(last, dt.date(day.year, 12, 31))
        total += Fraction((end - day).days + 1, 366 if months.isleap(day.year) else 365)
        day = end + DAY
    return total


def account(
    charge: int,
    completed: dt.date,
    payments: Iterable[tuple[dt.date, int]],
    as_of: dt.date,
    terms: Terms,
) -> Account:
    """Cost: "Interest at the rate of 9% per annum shall be assessed on the balance beginning
    on the 31st day following completion of the abatement."

    Simple interest per day on the unpaid charge (never on unpaid interest), a day's rate being
    the yearly one over the days of its own year (365, or 366 in a leap year), or over a fixed
    `interest_days_in_year` when the content sets one (a reading). Each day's interest runs on the
    charge left at the end of that day, so a payment stops interest on what it pays from its own
    day. Interest is posted, rounded to the cent, when a payment arrives and on the statement
    date. Reading `payments_apply_to`: a payment pays the posted interest first, then the charge
    (or the charge first).
    """
    start = interest_starts(completed, terms)
    result = Account(charge=charge, interest_from=start, as_of=as_of, charge_due=charge)
    accrued_through = start - DAY  # interest counted through this day
    rate = Fraction(terms.interest_percent).limit_denominator(10_000) / 100

    def post(through: dt.date) -> int:
        nonlocal accrued_through
        if through <= accrued_through:
            return 0
        years = year_fraction(accrued_through + DAY, through, terms.interest_days_in_year)
        accrued_through = through
        cents = round_cents(result.charge_due * rate * years)
        result.interest_due += cents
        result.interest_total += cents
        return cents

    for day, cents in sorted(payments, key=lambda p: p[0]):
        if day > as_of:
            continue
        interest = post(day - DAY)
        line = Line(day, "Payment", cents, interest=interest)
        left = cents
        order = (
            ("interest", "charge")
            if terms.payments_apply_to == "interest-first"
            else ("charge", "interest")
        )
        for part in order:
            if part == "interest":
                line.to_interest = min(left, result.interest_due)
                result.interest_due -= line.to_interest
                left -= line.to_interest
            else:
                line.to_charge = min(left, result.charge_due)
                result.charge_due -= line.to_charge
                left -= line.to_charge
        result.overpaid += left
        result.paid += cents
        result.paid_to_charge += line.to_charge
        line.charge_after, line.interest_after = result.charge_due, result.interest_due
        result.lines.append(line)
    closing = post(as_of)
    result.lines.append(
        Line(as_of, "Interest to date", 0, interest=closing, charge_after=result.charge_due,
             interest_after=result.interest_due)
    )  # fmt: skip
    return result


# Reading (cost section, silent on when the interest is paid): each printed payment is of the
# cost alone, and the interest charged is owed besides, due with the last payment. An
# installment is met by the money paid, whatever part of it went to interest, so an owner who
# pays the printed amounts on the printed dates is never "past due" before the last one.
INTEREST_DUE_WITH = "last"


@dataclass(frozen=True)
class InstallmentState:
    """An installment and how much of it the payments so far cover (they cover in order); the
    last one also carries the `interest` charged to date."""

    item: Installment
    paid: int
    past_due: bool
    interest: int = 0

    @property
    def owed(self) -> int:
        return self.item.cents + self.interest

    @property
    def left(self) -> int:
        return self.owed - self.paid


def installment_states(
    schedule: Sequence[Installment], paid: int, today: dt.date, interest: int = 0
) -> list[InstallmentState]:
    """Each installment with what is paid of it and whether it is unpaid after its due date:
    `paid` is all the money paid so far (to interest or to the charge), covering the
    installments in order; the last installment carries the `interest` charged to date
    (INTEREST_DUE_WITH)."""
    found, left = [], paid
    for i, item in enumerate(schedule):
        extra = interest if i == len(schedule) - 1 else 0
        covered = max(0, min(item.cents + extra, left))
        left -= covered
        found.append(
            InstallmentState(item, covered, covered < item.cents + extra and today > item.due,
                             extra)
        )  # fmt: skip
    return found


def interest_to_last_due(
    charge: int,
    completed: dt.date,
    payments: Iterable[tuple[dt.date, int]],
    schedule: Sequence[Installment],
    today: dt.date,
    terms: Terms,
) -> int:
    """The interest the last installment carries if it is paid on its due date, and every
    earlier installment still owed is paid in full on its own date (review N2: the owner needs
    an amount to pay, not "plus the interest"). The payments made so far count as made; the
    interest is that posted through the day before the last due date (a payment stops the
    interest on what it pays from its own day). After the last due date: the interest
    charged to `today` (what is owed now)."""
    if not schedule:
        return 0
    last = schedule[-1]
    made = [(day, cents) for day, cents in payments if day <= today]
    if today > last.due:
        return account(charge, completed, made, today, terms).interest_total
    states = installment_states(schedule[:-1], sum(c for _, c in made), today)
    # Reading: earlier installments still owed are paid on their dates (or today, if past).
    coming = [(max(s.item.due, today), s.left) for s in states if s.left > 0]
    return account(charge, completed, made + coming, last.due - DAY, terms).interest_total


def next_installment(
    schedule: Sequence[Installment], paid: int, interest: int = 0
) -> Installment | None:
    """The first installment the payments so far do not cover (payments cover them in order)."""
    far_off = dt.date.min
    states = installment_states(schedule, paid, far_off, interest)
    return next((s.item for s in states if s.left > 0), None)


def special_assessment(
    schedule: Sequence[Installment], paid: int, today: dt.date, interest: int = 0
) -> bool:
    """Cost: "If the amount due is not paid within a timely manner ... the charges shall
    become a special assessment against the property"; "Any unpaid abatement charges shall
    be added to the tax bill". Reading: flagged when an installment's due date has passed
    unpaid; an empty schedule (a protest awaiting the Board's decision) flags nothing."""
    return any(s.past_due for s in installment_states(schedule, paid, today, interest))


# ---------------------------------------------------------------- the readings, in words


def readings(terms: Terms) -> dict[str, str]:
    """Each reading this module takes where the ordinance is silent, as a page footnote."""
    days = "business days" if terms.day_kind == "business" else "calendar days"
    roll = (
        " A period that ends on a Saturday, Sunday or holiday runs to the next business day"
        " (New York General Construction Law § 25-a)."
        if terms.roll_to_business_day and terms.day_kind != "business"
        else ""
    )
    protest = (
        "from mailing"
        if terms.protest_runs_from == "mailing"
        else f"from the owner's receipt of the cost notice; until receipt is recorded, it is "
        f"presumed {terms.presumed_mail_days} days after mailing"
    )
    weeks = "whole weeks" if terms.week_counting == "completed" else "every week once it begins"
    applies = (
        "first to the interest posted, then to the charge"
        if terms.payments_apply_to == "interest-first"
        else "first to the charge, then to the interest"
    )
    year = (
        "a day's interest is the yearly rate over the days of its own year (365, or 366 in a"
        " leap year), so a whole year's interest is the yearly rate"
        if terms.interest_days_in_year is None
        else f"a day's interest is the yearly rate over a year of {terms.interest_days_in_year}"
        " days"
    )
    filed = (
        "An appeal counts as filed on the day it reaches the clerk: one mailed must arrive by"
        " the last day."
        if terms.appeal_filed_when == "received"
        else "An appeal counts as filed on the day it is delivered to the clerk or, if mailed,"
        " on its postmark."
    )
    after_appeal = (
        f"After an appeal the Board upholds, the correction is due on the later of the notice's"
        f" own deadline and {terms.correction_business_days} business days after the decision:"
        f" an appeal never shortens the time the notice gave."
        if terms.correction_after_appeal == "later"
        else f"After an appeal the Board upholds, the correction is due"
        f" {terms.correction_business_days} business days after the decision."
    )
    return {
        "days": f"The text does not say which days it counts: these are {days}.{roll}",
        "issuance": "The appeal period runs from the notice's issuance: the day it is served or"
        " mailed, as the officer records it when issuing the notice (not the day of receipt)."
        f" {filed}",
        "suspend": (
            "An appeal filed in time holds the notice's deadline until the Board decides."
            if terms.appeal_suspends_deadline
            else "An appeal does not hold the notice's deadline."
        )
        + " An appeal filed after the period holds nothing, unless the Board accepted it."
        f" {after_appeal}",
        "protest": f"The text says {terms.protest_days} days \u201cof receiving\u201d the cost"
        f" notice: counted {protest}."
        if terms.protest_runs_from == "receipt"
        else "The protest period is counted from mailing.",
        "weeks": f"A week of continued violation starts the day after the correction date;"
        f" the count is of {weeks}.",
        "offenses": f"An earlier offense counts when this one was committed before its"
        f" {terms.offense_years}th anniversary, and only when it was established: "
        + (
            "an issued notice not appealed in time (its appeal period closed) or upheld by the"
            " Board; a notice whose appeal period is running or whose appeal awaits the Board"
            " is shown apart as pending"
            if terms.offense_counts == "final"
            else "an issued notice the Board did not overturn"
        )
        + ", or a final notice or a conviction in the paper files. A violation recorded with no"
        " notice, or whose notice the Board did not uphold, does not count. The law sets the"
        " ranges for conviction of a second or later offense; the court decides which are"
        " convictions.",
        "conditions": (
            "All five conditions must hold."
            if terms.conditions_required == "all"
            else "Any one of the five conditions is enough."
        )
        + " The condition of no history is checked against the established offenses.",
        "interest": f"Simple interest, per day, on the unpaid charge: {year}; rounded to the cent"
        f" when posted; a payment applies {applies}.",
        "installments": "Installments fall due "
        + (
            "monthly"
            if terms.installment_months == 1
            else f"every {terms.installment_months} months"
        )
        + ", the first when the protest period closes (a due date on a weekend or holiday runs to"
        " the next business day); odd cents go on the first. When a protest is filed in time,"
        " nothing is due, and nothing becomes a special assessment, until the Board decides it;"
        " the first payment then falls due on the day the decision sets. Each payment is of the"
        " cost; the interest is owed besides and falls due with the last payment. The money paid"
        " covers the payments in order, whatever part of it went to interest, and"
        " the dates printed on the cost notice as mailed never move earlier when its receipt is"
        " recorded. Unpaid after its due date, an installment's charges become a special"
        " assessment and lien.",
    }
