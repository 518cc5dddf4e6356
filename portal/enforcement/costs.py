"""The cost of abatement (the ordinance's cost section): the cost notice and protest dates,
the installments, the interest and the statement of account, as pure functions over dates and
cents. The numbers and readings come in as `Terms`, business days as a `BusinessCalendar`."""

from __future__ import annotations

import calendar as months
import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from content_model.enforcement import Terms
from portal.core.deadlines import BusinessCalendar
from portal.enforcement.rules import DAY, period_end


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


def protest_ends(window: dt.date, printed: dt.date | None) -> dt.date:
    """The day the protest period the municipality applies closes: the later of the
    `window` from `protest_window` (30 days from the recorded or presumed receipt) and the
    date the cost notice `printed` as mailed. Reading: a receipt recorded later, earlier than
    presumed, never ends the period before the date the owner was given."""
    return max(window, printed or window)


def protest_in_time(closes: dt.date, filed: dt.date) -> bool:
    """Whether a protest filed (or one that would be filed) on `filed` is within the period
    that `protest_window` closes on `closes`: the last day counts. The one test of the
    protest period, as `rules.appeal_in_time` is the appeal's."""
    return filed <= closes


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
    if protest_filed is not None and protest_in_time(protest_closes, protest_filed):
        return board_sets
    return protest_ends(protest_closes, printed)


# The Board's decision on a cost protest: the amount stands, is reduced (to the amount it
# sets), or the charge is withdrawn (nothing is owed).
PROTEST_OUTCOMES = ("upheld", "reduced", "withdrawn")


def charge_as_mailed(steps: dict[str, Any], printed: dict[str, Any] | None) -> int | None:
    """The cost of abatement, administrative costs included, as the cost notice stated it:
    as kept when it was mailed (`printed`, its paper's facts); before it is mailed, or for
    one mailed before papers were kept, as recorded with the completed abatement."""
    if printed and printed.get("charge_cents") is not None:
        return printed["charge_cents"]
    if steps.get("work_cents") is None:
        return None
    return steps["work_cents"] + (steps.get("admin_cents") or 0)


def charge_owed(steps: dict[str, Any], printed: dict[str, Any] | None) -> int | None:
    """The charge the owner owes: as the Board decided a protest (reduced to its amount;
    nothing once withdrawn), else as mailed. Every balance, schedule, statement and figure
    asks this. A decision recorded before outcomes were recorded left the amount standing."""
    mailed = charge_as_mailed(steps, printed)
    outcome = steps.get("protest_outcome") if steps.get("protest_decided_on") else None
    if outcome == "reduced":
        return steps["protest_decided_cents"]
    if outcome == "withdrawn":
        return 0
    return mailed


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
        Line(
            as_of,
            "Interest to date",
            0,
            interest=closing,
            charge_after=result.charge_due,
            interest_after=result.interest_due,
        )
    )
    return result


def payoff(
    charge: int,
    completed: dt.date,
    payments: Iterable[tuple[dt.date, int]],
    day: dt.date,
    terms: Terms,
) -> int:
    """What pays everything owed, cost and interest, with a payment made on `day` (paying
    the cost alone leaves interest, and cost too, once the payment has gone to interest
    first). It is what `account` takes of a
    payment on that day large enough for everything: the interest through the day before
    (a payment stops interest from its own day) and the cost left, after the payments made
    by then, so the one rule of the account computes it."""
    made = [(paid_on, cents) for paid_on, cents in payments if paid_on <= day]
    # More than anything can be owed: the account takes what is owed and leaves the rest.
    whole = charge * 1000 + 10**9
    line = account(charge, completed, [*made, (day, whole)], day, terms).lines[-2]
    return line.to_interest + line.to_charge


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
    installments in order; the last installment carries the `interest` charged to date.

    Reading (the cost section is silent on when the interest is paid): each printed payment is
    of the cost alone, and the interest is owed besides, due with the last payment. An
    installment is met by the money paid, whatever part of it went to interest, so an owner
    who pays the printed amounts on the printed dates is never "past due" before the last one.
    """
    found, left = [], paid
    for i, item in enumerate(schedule):
        extra = interest if i == len(schedule) - 1 else 0
        covered = max(0, min(item.cents + extra, left))
        left -= covered
        found.append(
            InstallmentState(
                item, covered, covered < item.cents + extra and today > item.due, extra
            )
        )
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
    earlier installment still owed is paid in full on its own date (the owner needs
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
