"""Every date of a notice of violation, from its records and the rules: what is due, when,
and which dates are still open (nothing recorded yet that meets them)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from content_model.enforcement import Terms
from portal.core.deadlines import BusinessCalendar
from portal.enforcement import costs, rules


def day_of(value: str | None) -> dt.date | None:
    return dt.date.fromisoformat(value) if value else None


@dataclass(frozen=True)
class Deadline:
    """One date of the enforcement steps; `open` while nothing recorded meets it; `done` the
    day what meets it was recorded as done (late when after `due`)."""

    key: str
    what: str
    due: dt.date
    role: str  # which section it comes from (a role of content/enforcement.yaml)
    open: bool
    overdue: bool
    note: str = ""
    done: dt.date | None = None
    # Whether `done` met the date, where a rule of its own decides it (the appeal's).
    in_time: bool | None = None
    # The correction date met by the municipality's abatement, not by the respondent: the
    # table must not read as the respondent correcting late (officer's week M6).
    abated: bool = False

    @property
    def late(self) -> bool:
        if self.done is None:
            return False
        return not self.in_time if self.in_time is not None else self.done > self.due


@dataclass
class Timeline:
    deadlines: list[Deadline] = field(default_factory=list)
    correction: dt.date | None = None
    weeks: int = 0
    charge: int | None = None  # the charge owed (costs.charge_owed)
    charge_mailed: int | None = None  # the charge the cost notice stated
    account: costs.Account | None = None
    # The payments the account counts (day, cents), voided ones left out.
    made: list[tuple[dt.date, int]] = field(default_factory=list)
    schedule: list[costs.Installment] = field(default_factory=list)
    states: list[costs.InstallmentState] = field(default_factory=list)
    next_payment: costs.Installment | None = None
    # What is still to pay of it: less than its amount when it was paid in part (the officer
    # asks the owner for what is left, not for the whole payment again).
    next_payment_left: int = 0
    special_assessment: bool = False
    protest_presumed: bool = False
    # Whether the appeal holds the notice (in time, or accepted by the Board although late),
    # and whether it was in time; None: no appeal logged.
    appeal_timely: bool | None = None
    appeal_in_time: bool | None = None
    protest_pending: bool = False  # filed in time, the Board's decision not yet recorded
    protest_timely: bool | None = None  # None: no protest logged
    protest_printed: dt.date | None = None  # the protest date the cost notice printed as mailed
    # The period applied closes on the printed date, later than 30 days from the receipt.
    protest_as_printed: bool = False
    # The last payment's interest if it and every earlier one are paid on their dates (the owner
    # needs an amount to pay).
    last_interest: int = 0
    # The payments as the cost notice printed them when mailed: from the presumed receipt,
    # whatever receipt was recorded later, with the interest the last one then carries.
    printed_schedule: list[costs.Installment] = field(default_factory=list)
    printed_last_interest: int = 0
    # The last payment's due date has passed: its interest is what is owed now, not a forecast.
    last_due_passed: bool = False
    # The abatement was recorded before the correction date had passed.
    abated_early: bool = False
    # Why the officer may not (yet) ask the owner for access to abate (corrective measures,
    # A): "corrected", "pending" (an appeal awaits the Board), "not-upheld", "no-date" (no
    # correction date runs), "not-yet" (the correction date has not passed); None: he may.
    access_block: str | None = None

    @property
    def reduced_by(self) -> int:
        """How much less than the cost notice stated the owner owes (the Board's decision)."""
        if self.charge is None or self.charge_mailed is None:
            return 0
        return self.charge_mailed - self.charge

    def get(self, key: str) -> Deadline | None:
        return next((d for d in self.deadlines if d.key == key), None)

    @property
    def open(self) -> list[Deadline]:
        return sorted((d for d in self.deadlines if d.open), key=lambda d: d.due)


def timeline(
    notice: dict[str, Any],
    steps: dict[str, Any],
    payments: list[dict[str, Any]],
    remedies: list[dict[str, Any]],
    terms: Terms,
    calendar: BusinessCalendar,
    today: dt.date,
    printed: dict[str, Any] | None = None,
) -> Timeline:
    """The dates of an issued notice (a draft has none); `printed`: the facts of its cost
    notice as kept when mailed (papers.py), None if none was kept."""
    result = Timeline()
    issued = day_of(notice["issued_on"])
    if issued is None or notice["superseded_by"]:
        return result
    s = {key: day_of(value) if key.endswith("_on") else value for key, value in steps.items()}

    def add(
        key: str,
        what: str,
        due: dt.date,
        role: str,
        open_: bool,
        note: str = "",
        done: dt.date | None = None,
        in_time: bool | None = None,
        abated: bool = False,
    ) -> None:
        result.deadlines.append(
            Deadline(
                key, what, due, role, open_, open_ and today > due, note, done, in_time, abated
            )
        )

    appealed = s["appeal_filed_on"]
    if appealed:
        result.appeal_in_time = rules.appeal_in_time(issued, appealed, terms, calendar)
        result.appeal_timely = rules.appeal_holds(
            issued, appealed, bool(s.get("late_appeal_accepted")), terms, calendar
        )
    add(
        "appeal",
        "Appeal window closes",
        rules.appeal_window(issued, terms, calendar),
        "appeal",
        appealed is None and rules.appeal_in_time(issued, today, terms, calendar),
        done=appealed,
        in_time=result.appeal_in_time,
    )
    if appealed and result.appeal_timely:
        heard = s["hearing_on"] or s["decided_on"]
        add(
            "hearing",
            "Hearing due",
            rules.hearing_due(appealed, terms, calendar),
            "appeal",
            heard is None,
            done=heard,
        )
    if s["decided_on"] and result.appeal_timely:
        filed = s["decision_filed_on"] and s["decision_mailed_on"] and s["certified_mail_number"]
        due = rules.decision_filing_due(s["decided_on"], terms, calendar)
        done = max(s["decision_filed_on"], s["decision_mailed_on"]) if filed else None
        add("decision", "Decision filed and mailed", due, "appeal", not filed, done=done)
    appeal = rules.Appeal(
        appealed,
        s["decided_on"],
        None if s["upheld"] is None else bool(s["upheld"]),
        timely=result.appeal_timely is not False,
    )
    result.correction = rules.correction_due(day_of(notice["deadline"]), appeal, terms, calendar)
    # Corrected by the respondent, or abated by the municipality: either meets the correction date.
    ended = s.get("corrected_on") or s["completed_on"]
    if result.correction:
        add(
            "correction",
            "Correction due",
            result.correction,
            "corrective",
            (ended or s["access_requested_on"]) is None,
            done=ended,
            abated=not s.get("corrected_on") and bool(s["completed_on"]),
        )
        # Weeks run until the violation is corrected or abated (then the count stops), or to
        # today.
        result.weeks = rules.weeks_continued(result.correction, ended or today, terms)
        result.abated_early = bool(s["completed_on"]) and not rules.correction_passed(
            result.correction, s["completed_on"]
        )
    result.access_block = _access_block(result, s, today)
    for remedy in remedies:
        add(
            f"remedy-{remedy['id']}",
            f"Alternative remedy due: {remedy['kind']}",
            day_of(remedy["due_on"]),
            "notice",
            remedy["completed_on"] is None,
            done=day_of(remedy["completed_on"]),
        )
    completed = s["completed_on"]
    if completed is None:
        return result
    mailed = s["cost_notice_mailed_on"]
    add(
        "cost-notice",
        "Cost notice due",
        costs.cost_notice_due(completed, terms, calendar),
        "costs",
        mailed is None,
        done=mailed,
    )
    result.charge_mailed = costs.charge_as_mailed(steps, printed)
    result.charge = costs.charge_owed(steps, printed)
    if result.charge is not None:
        made = [(day_of(p["paid_on"]), p["cents"]) for p in payments if not p.get("voided_at")]
        result.made = made
        result.account = costs.account(result.charge, completed, made, today, terms)
    if mailed is None:
        return result
    window, result.protest_presumed = costs.protest_window(
        mailed, s["cost_notice_received_on"], terms, calendar
    )
    kept = day_of((printed or {}).get("protest_by"))
    result.protest_printed = kept or costs.protest_window(mailed, None, terms, calendar)[0]
    protest = costs.protest_ends(window, result.protest_printed)
    result.protest_as_printed = protest != window
    note = "receipt presumed" if result.protest_presumed else ""
    protested = s["protest_filed_on"]
    add(
        "protest",
        "Protest window closes",
        protest,
        "costs",
        protested is None and costs.protest_in_time(protest, today),
        "as the cost notice printed it" if result.protest_as_printed else note,
        done=protested,
    )
    if protested:
        result.protest_timely = costs.protest_in_time(protest, protested)
    first_due = costs.first_payment_due(
        protest, protested, s.get("protest_payment_due_on"), result.protest_printed
    )
    # Withdrawn by the Board, the charge leaves nothing due, and nothing pending.
    result.protest_pending = first_due is None and not s.get("protest_decided_on")
    if printed and printed.get("schedule") is not None:
        result.printed_schedule = [
            costs.Installment(n, dt.date.fromisoformat(due), cents)
            for n, due, cents in printed["schedule"]
        ]
        result.printed_last_interest = printed["last_interest"]
    elif result.charge_mailed and s["payment_count"]:
        # The letter as mailed: a protest, a receipt or a decision recorded later changes the
        # statement, never the letter the owner holds.
        result.printed_schedule = costs.installments(
            result.charge_mailed, s["payment_count"], result.protest_printed, terms, calendar
        )
        result.printed_last_interest = costs.interest_to_last_due(
            result.charge_mailed, completed, [], result.printed_schedule, mailed, terms
        )
    if result.charge and s["payment_count"] and result.account and first_due:
        result.schedule = costs.installments(
            result.charge, s["payment_count"], first_due, terms, calendar
        )
        result.last_due_passed = today > result.schedule[-1].due
        result.last_interest = costs.interest_to_last_due(
            result.charge, completed, made, result.schedule, today, terms
        )
        # The last payment carries the interest it will have on its date (after it, the
        # interest to today): one figure for it on every line of the statement, never the
        # interest to date in one column and the forecast in the next (officer's week M5).
        paid, interest = result.account.paid, result.last_interest
        result.next_payment = costs.next_installment(result.schedule, paid, interest)
        result.special_assessment = costs.special_assessment(result.schedule, paid, today, interest)
        result.states = costs.installment_states(result.schedule, paid, today, interest)
        result.next_payment_left = next(
            (st.left for st in result.states if st.item == result.next_payment), 0
        )
        # Every installment unpaid after its due date (as the statement lists them), and the
        # next one still to come.
        upcoming = next((st for st in result.states if st.left > 0 and not st.past_due), None)
        for state in result.states:
            if state.left > 0 and (state.past_due or state is upcoming):
                add(
                    "payment",
                    f"Payment {state.item.number} of {len(result.schedule)} due",
                    state.item.due,
                    "costs",
                    True,
                )
    return result


def _access_block(result: Timeline, s: dict[str, Any], today: dt.date) -> str | None:
    """Corrective measures, A: the officer asks for access only "if the violation has not been
    corrected pursuant to the requirements set forth in the notice of violation, or, in the
    event of an appeal, within five business days of the decision ... upholding" it."""
    if s.get("corrected_on"):
        return "corrected"
    if result.appeal_timely and not s["decided_on"]:
        return "pending"
    if result.appeal_timely and s["decided_on"] and not s["upheld"]:
        return "not-upheld"
    if result.correction is None:
        return "no-date"
    if not rules.correction_passed(result.correction, today):
        return "not-yet"
    return None
