"""A notice's page: its page model (page_model, also what its letters print) and the page
with every form it offers."""

from __future__ import annotations

from typing import Any

from flask import current_app, render_template
from flask_wtf import FlaskForm

from portal.core.clock import local_today
from portal.core.db import get_db
from portal.enforcement import (
    cost_forms,
    forms,
    notices,
    papers,
    payments,
    people,
    readings,
    remedies,
    rules,
    violations,
)
from portal.enforcement.blueprint import bp
from portal.enforcement.page_forms import (
    STEPS,
    draft_data,
    draft_form,
    issue_form,
    remedy_form,
    step_form,
)
from portal.enforcement.timeline import Timeline, day_of, timeline
from portal.enforcement.workspace import (
    law,
    notice_or_404,
    provision_items,
    signer,
    violation_or_404,
)

# Why the officer may not yet ask for access to abate (corrective measures, A), in words.
ACCESS_BLOCKS = {
    "corrected": "No request: the respondent corrected the violation",
    "pending": "No request: an appeal is pending before the Board",
    "not-upheld": "No request: the Board did not uphold the notice",
    "no-date": "No request: no correction date is running",
    "not-yet": "Not yet: the correction date has not passed",
}


def access_block_words(line: Timeline) -> str | None:
    """Why the access letter and request are not (yet) open, in words; None: they are."""
    return None if line.access_block is None else ACCESS_BLOCKS[line.access_block]


def page_model(notice: dict[str, Any]) -> dict[str, Any]:
    """What every view of a notice shows (its page and letters): its violation, offense count,
    steps and dates, each answer computed here once so the template only shows it."""
    db = get_db()
    enforcement, today = law(), local_today()
    calendar = current_app.extensions["calendar"]
    violation = violation_or_404(notice["violation_id"])
    steps = notices.steps(db, notice["id"]) if notice["issued_on"] else {}
    paid = payments.payments(db, notice["id"])
    assigned = remedies.remedies(db, notice["id"])
    committed = day_of(violation["committed_on"])
    priors = people.priors(
        db,
        violation["respondent_id"],
        (today, enforcement.terms, calendar),
        leave_out=violation["id"],
    )
    offense = rules.offense_number(committed, priors, enforcement.terms)
    printed = notices.printed_facts(db, notice["id"]) if steps else None
    line = (
        timeline(notice, steps, paid, assigned, enforcement.terms, calendar, today, printed)
        if steps
        else Timeline()
    )
    superseding = notices.notice(db, notice["superseded_by"]) if notice["superseded_by"] else None
    superseded = notices.notice(db, notice["supersedes"]) if notice["supersedes"] else None
    issued = day_of(notice["issued_on"])
    # What the letter prints: as issued, or (a draft) as the records say now. A notice issued
    # before letters were signed in the portal has a line for the name, never today's user.
    who = (
        signer() if not issued else {"title": current_app.extensions["content"].settings.smo_title}
    )
    live = violations.letter_facts(violation, who)
    facts = notice["facts"] or live
    changed = [key for key in live if not key.startswith("signer") and live[key] != facts[key]]
    labels = [label for label, _ in provision_items("conditions")]
    held = [steps.get("conditions", {}).get(label, {}).get("holds", False) for label in labels]
    history = sum(p.established and p.committed < committed for p in priors)
    return {
        "notice": notice,
        "violation": violation,
        "steps": steps,
        "papers": papers.kept(db, notice["id"]) if steps else [],
        "payments": paid,
        "remedies": assigned,
        "offense": offense,
        "line": line,
        "today": today,
        "access_block": access_block_words(line),
        "superseding": superseding,
        "superseded": superseded,
        "facts": facts,
        "changed_since_issue": changed if notice["facts"] else [],
        "orders": provision_items("orders"),
        "readings": readings.readings(enforcement.terms),
        "abatement_statement": enforcement.provisions["abatement_statement"].text,
        "conditions": provision_items("conditions"),
        "history_count": history,
        "remedy_refusals": rules.remedy_refusals(
            bool(steps.get("attorney_recommendation") and steps.get("attorney_recommended_on")),
            steps.get("smo_concurs") == 1,
            held,
            history,
            labels.index(enforcement.history_condition),
            enforcement.terms,
        ),
        "appeal_due": line.get("appeal").due if line.get("appeal") else None,
        "warnings": rules.deadline_warnings(
            day_of(notice["deadline"]), issued or today, enforcement.terms, calendar
        ),
    }


@bp.route("/notices/<int:notice_id>/")
def notice_page(notice_id: int):
    return render(notice_or_404(notice_id))


def render(
    notice: dict[str, Any],
    overrides: dict[str, FlaskForm] | None = None,
    context: dict[str, Any] | None = None,
):
    """The notice's page, with `overrides` (forms shown again with their errors, answered 422)
    in place of the fresh ones; `context`: the page model the caller already computed."""
    context = context or page_model(notice)
    steps = context["steps"]
    page_forms: dict[str, FlaskForm] = {}
    if not notice["issued_on"]:
        page_forms["draft"] = draft_form(draft_data(notice))
        page_forms["issue"] = issue_form(notice)
    else:
        for name in STEPS:
            page_forms[name] = step_form(name, notice, steps)
        page_forms["conditions"] = forms.conditions_form(
            provision_items("conditions"),
            formdata=None,
            data={
                f"{k}_{i}": v
                for i, (label, _) in enumerate(provision_items("conditions"))
                for k, v in (
                    ("holds", steps["conditions"].get(label, {}).get("holds")),
                    ("note", steps["conditions"].get(label, {}).get("note")),
                )
            },
        )
        page_forms["remedy"] = remedy_form()
        page_forms["payment"] = cost_forms.PaymentForm(formdata=None)
        for payment in context["payments"]:
            pid = payment["id"]
            page_forms[f"void-{pid}"] = forms.ReasonForm(formdata=None, prefix=f"void-{pid}")
            page_forms[f"correct-{pid}"] = cost_forms.CorrectPaymentForm(
                formdata=None,
                prefix=f"fix-{pid}",
                data={
                    "paid_on": day_of(payment["paid_on"]),
                    "amount": f"{payment['cents'] / 100:.2f}",
                },
            )
    page_forms.update(overrides or {})
    status = 422 if overrides else 200
    return render_template("staff/enforcement/notice.html", forms=page_forms, **context), status
