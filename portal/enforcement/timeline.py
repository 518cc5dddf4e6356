"""Every date of a notice of violation, from its records and the rules: what is due, when,
and which dates are still open (nothing recorded yet that meets them)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from content_model.enforcement import Terms
from portal.deadlines import BusinessCalendar
from portal.enforcement import rules


def day_of(value: str | None) -> dt.date | None:
    return dt.date.fromisoformat(value) if value else None


@dataclass(frozen=True)
class Deadline:
    """One date of the enforcement steps; `open` while nothing recorded meets it."""

    key: str
    what: str
    due: dt.date
    role: str  # which section it comes from (a role of content/enforcement.yaml)
    open: bool
    overdue: bool
    note: str = ""


@dataclass
class Timeline:
    notice: dict[str, Any]
    steps: dict[str, Any]
    today: dt.date
    deadlines: list[Deadline] = field(default_factory=list)
    correction: dt.date | None = None
    weeks: int = 0
    charge: int | None = None
    account: rules.Account | None = None
    schedule: list[rules.Installment] = field(default_factory=list)
    next_payment: rules.Installment | None = None
    special_assessment: bool = False
    protest_presumed: bool = False

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
) -> Timeline:
    """The dates of an issued notice (a draft has none)."""
    result = Timeline(notice, steps, today)
    issued = day_of(notice["issued_on"])
    if issued is None or notice["superseded_by"]:
        return result
    s = {key: day_of(value) if key.endswith("_on") else value for key, value in steps.items()}

    def add(key: str, what: str, due: dt.date, role: str, open_: bool, note: str = "") -> None:
        result.deadlines.append(Deadline(key, what, due, role, open_, open_ and today > due, note))

    appealed = s["appeal_filed_on"]
    add("appeal", "Appeal window closes", rules.appeal_window(issued, terms, calendar), "appeal",
        appealed is None and today <= rules.appeal_window(issued, terms, calendar))  # fmt: skip
    if appealed:
        add("hearing", "Hearing due", rules.hearing_due(appealed, terms, calendar), "appeal",
            s["hearing_on"] is None and s["decided_on"] is None)  # fmt: skip
    if s["decided_on"]:
        filed = s["decision_filed_on"] and s["decision_mailed_on"] and s["certified_mail_number"]
        due = rules.decision_filing_due(s["decided_on"], terms, calendar)
        add("decision", "Decision filed and mailed", due, "appeal", not filed)
    appeal = rules.Appeal(
        appealed, s["decided_on"], None if s["upheld"] is None else bool(s["upheld"])
    )
    result.correction = rules.correction_due(day_of(notice["deadline"]), appeal, terms, calendar)
    corrected = s["completed_on"] or s["access_requested_on"]
    if result.correction:
        add("correction", "Correction due", result.correction, "corrective", corrected is None)
        # Weeks run until the violation is abated (then the count stops), or to today.
        result.weeks = rules.weeks_continued(result.correction, s["completed_on"] or today, terms)
    for remedy in remedies:
        add(f"remedy-{remedy['id']}", f"Alternative remedy due: {remedy['kind']}",
            day_of(remedy["due_on"]), "notice", remedy["completed_on"] is None)  # fmt: skip
    completed = s["completed_on"]
    if completed is None:
        return result
    add("cost-notice", "Cost notice due", rules.cost_notice_due(completed, terms, calendar),
        "costs", s["cost_notice_mailed_on"] is None)  # fmt: skip
    if s["work_cents"] is not None:
        result.charge = s["work_cents"] + (s["admin_cents"] or 0)
        paid = [(day_of(p["paid_on"]), p["cents"]) for p in payments]
        result.account = rules.account(result.charge, completed, paid, today, terms)
    mailed = s["cost_notice_mailed_on"]
    if mailed is None:
        return result
    protest, result.protest_presumed = rules.protest_window(
        mailed, s["cost_notice_received_on"], terms, calendar
    )
    add("protest", "Protest window closes", protest, "costs",
        s["protest_filed_on"] is None and today <= protest,
        "receipt presumed" if result.protest_presumed else "")  # fmt: skip
    if result.charge and s["payment_count"] and result.account:
        result.schedule = rules.installments(
            result.charge, s["payment_count"], protest, terms, calendar
        )
        result.next_payment = rules.next_installment(result.schedule, result.account.paid_to_charge)
        result.special_assessment = rules.special_assessment(
            result.schedule, result.account.paid_to_charge, today
        )
        if result.next_payment:
            add("payment", f"Payment {result.next_payment.number} of {len(result.schedule)} due",
                result.next_payment.due, "costs", True)  # fmt: skip
    return result
