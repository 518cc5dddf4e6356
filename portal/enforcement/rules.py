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
from portal.deadlines import BusinessCalendar

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


@dataclass(frozen=True)
class Appeal:
    """What is known of an appeal: when it was filed, and the Board's decision, if any."""

    filed: dt.date | None = None
    decided: dt.date | None = None
    upheld: bool | None = None


def correction_due(
    deadline: dt.date | None, appeal: Appeal, terms: Terms, calendar: BusinessCalendar
) -> dt.date | None:
    """Corrective measures, A: the SMO asks for access "if the violation has not been corrected
    pursuant to the requirements set forth in the notice of violation, or, in the event of an
    appeal, within five business days of the decision ... upholding the decision of the SMO".

    None: no date (no deadline set, an appeal waiting for its decision under the reading
    `appeal_suspends_deadline`, or a notice the Board did not uphold).
    """
    if appeal.filed is None:
        return deadline
    if appeal.decided is not None:
        if appeal.upheld:
            return calendar.add_business_days(appeal.decided, terms.correction_business_days)
        return None
    return None if terms.appeal_suspends_deadline else deadline


def weeks_continued(correction: dt.date | None, today: dt.date, terms: Terms) -> int:
    """Penalties: "Each week's continued violation shall constitute a separate additional
    violation." Weeks are counted from the day after the correction date; reading
    `week_counting`: whole weeks ("completed") or every week once begun ("begun")."""
    if correction is None or today <= correction:
        return 0
    days = (today - correction).days
    return days // 7 if terms.week_counting == "completed" else -(-days // 7)


# ---------------------------------------------------------------- offenses and penalties


def anniversary(day: dt.date, years: int) -> dt.date:
    """The same day `years` later; a 29 February falls on 28 February in a common year."""
    year = day.year + years
    return day.replace(year=year, day=min(day.day, months.monthrange(year, day.month)[1]))


@dataclass(frozen=True)
class Earlier:
    """An earlier offense of the same respondent and whether it counts, with why."""

    committed: dt.date
    counted: bool
    why: str
    label: str = ""


@dataclass(frozen=True)
class OffenseCount:
    number: int  # 1 for a first offense
    earlier: tuple[Earlier, ...]
    tier: Tier


def offense_number(
    committed: dt.date, earlier: Iterable[tuple[dt.date, str]], terms: Terms
) -> OffenseCount:
    """Penalties: a second offense is one where "both of which were committed within a period
    of five years"; a third or later, "all of which were committed within a period of five
    years". An earlier offense counts when this one was committed before its fifth
    anniversary (the anniversary itself is outside); later or same-day records never count.
    """
    found = []
    for day, label in sorted(earlier, reverse=True):
        limit = anniversary(day, terms.offense_years)
        if day >= committed:
            found.append(Earlier(day, False, "not before this violation", label))
        elif committed < limit:
            found.append(Earlier(day, True, f"within {terms.offense_years} years", label))
        else:
            found.append(
                Earlier(day, False, f"more than {terms.offense_years} years before", label)
            )
    number = 1 + sum(e.counted for e in found)
    return OffenseCount(number, tuple(found), penalty_range(number, terms))


def penalty_range(number: int, terms: Terms) -> Tier:
    """Penalties: the fine (and imprisonment) for the `number`-th offense; the last range
    listed ("a third or subsequent offense") holds for every later one."""
    return terms.tiers[min(number, len(terms.tiers)) - 1]


def remedies_eligible(conditions: Sequence[bool], terms: Terms) -> bool:
    """Alternative penalties: eligible "where" the five conditions hold; reading
    `conditions_required`: all of them, or any one."""
    return all(conditions) if terms.conditions_required == "all" else any(conditions)


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
    the yearly one over `interest_days_in_year` (a reading). Each day's interest runs on the
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
        days = (through - accrued_through).days
        if days <= 0:
            return 0
        accrued_through = through
        cents = round_cents(result.charge_due * rate * days / terms.interest_days_in_year)
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


def next_installment(schedule: Sequence[Installment], paid_to_charge: int) -> Installment | None:
    """The first installment the payments so far do not cover (payments cover them in order)."""
    covered = 0
    for item in schedule:
        covered += item.cents
        if paid_to_charge < covered:
            return item
    return None


def special_assessment(
    schedule: Sequence[Installment], paid_to_charge: int, today: dt.date
) -> bool:
    """Cost: "If the amount due is not paid within a timely manner ... the charges shall
    become a special assessment against the property"; "Any unpaid abatement charges shall
    be added to the tax bill". Flagged when an installment's due date has passed unpaid."""
    due = next_installment(schedule, paid_to_charge)
    return due is not None and today > due.due


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
    return {
        "days": f"The text does not say which days it counts: these are {days}.{roll}",
        "issuance": "The appeal period runs from the day the notice is issued, as the text says,"
        " not from its receipt.",
        "suspend": "An appeal filed in time holds the notice's deadline until the Board decides."
        if terms.appeal_suspends_deadline
        else "An appeal does not hold the notice's deadline.",
        "protest": f"The text says {terms.protest_days} days \u201cof receiving\u201d the cost"
        f" notice: counted {protest}."
        if terms.protest_runs_from == "receipt"
        else "The protest period is counted from mailing.",
        "weeks": f"A week of continued violation starts the day after the correction date;"
        f" the count is of {weeks}.",
        "offenses": f"An earlier offense counts when this one was committed before its"
        f" {terms.offense_years}th anniversary; recorded violations are counted, and the court"
        " decides which are convictions.",
        "conditions": "All five conditions must hold."
        if terms.conditions_required == "all"
        else "Any one of the five conditions is enough.",
        "interest": f"Simple interest, per day, on the unpaid charge over a year of"
        f" {terms.interest_days_in_year} days, rounded to the cent when posted; a payment"
        f" applies {applies}.",
        "installments": "Installments fall due "
        + (
            "monthly"
            if terms.installment_months == 1
            else f"every {terms.installment_months} months"
        )
        + ", the first when the protest period closes (a due date on a weekend or holiday runs to"
        " the next business day); odd cents go on the first.",
    }
