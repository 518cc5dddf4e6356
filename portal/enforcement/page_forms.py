"""The forms of a notice's page, made for the notice: the draft and its issue, each step after
it (STEPS), the remedy; with the dates they may hold and what they show again."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask_wtf import FlaskForm

from portal.core.clock import local_today
from portal.enforcement import cost_forms, forms
from portal.enforcement.timeline import day_of
from portal.enforcement.workspace import law, provision_items, signer


def draft_form(data: dict | None = None, submitted: bool = False) -> forms.NoticeForm:
    abatement = law().abatement_orders
    kwargs: dict[str, Any] = {} if submitted else {"formdata": None, "data": data or {}}
    form = forms.notice_form(provision_items("orders"), abatement, law().fine_order, **kwargs)
    form.latest = local_today()
    return form


def draft_data(notice: dict[str, Any]) -> dict[str, Any]:
    data: dict[str, Any] = {"deadline": day_of(notice["deadline"])}
    labels = [label for label, _ in provision_items("orders")]
    for label, specifics in notice["orders"].items():
        if label in labels:
            i = labels.index(label)
            data[f"order_{i}"], data[f"specifics_{i}"] = True, specifics
    return data


def issue_form(notice: dict[str, Any], submitted: bool = False) -> forms.IssueForm:
    if submitted:
        form = forms.IssueForm()
    else:
        who = signer()
        data = {
            "served_on": local_today(),
            "signer_name": who["name"],
            "signer_title": who["title"],
        }
        form = forms.IssueForm(formdata=None, data=data)
    form.method.choices = [(m, m) for m in law().service_methods]
    form.earliest = dt.date.fromisoformat(notice["drafted_at"][:10])
    form.latest = local_today()
    return form


def _store_same(form: FlaskForm) -> dict[str, Any]:
    return form.dates()


def _store_completion(form: FlaskForm) -> dict[str, Any]:
    return {
        "completed_on": form.completed_on.data,
        "work_cents": cost_forms.cents_of(form.work.data),
        "admin_cents": cost_forms.cents_of(form.admin.data) or 0,
    }


def _store_appeal(form: FlaskForm) -> dict[str, Any]:
    return {
        "appeal_filed_on": form.appeal_filed_on.data,
        "late_appeal_accepted": int(form.late_appeal_accepted.data) or None,
    }


def _store_yes_no(key: str):
    def store(form: FlaskForm) -> dict[str, Any]:
        values = form.dates()
        values[key] = None if values[key] is None else int(values[key] == "yes")
        return values

    return store


@dataclass(frozen=True)
class Step:
    """A step form of an issued notice: its class; the recorded date it follows (refused until
    that date is recorded, and never dated before it; None: it follows the issuance); and what
    it stores (the form's values as notice_steps columns)."""

    form: type[FlaskForm]
    after: str | None
    store: Callable[[FlaskForm], dict[str, Any]]


STEPS = {
    "appeal": Step(forms.AppealForm, None, _store_appeal),
    "decision": Step(forms.DecisionForm, "appeal_filed_on", _store_yes_no("upheld")),
    "filing": Step(forms.FilingForm, "decided_on", _store_same),
    "access": Step(forms.AccessForm, None, _store_same),
    "corrected": Step(forms.CorrectedForm, None, _store_same),
    "completion": Step(cost_forms.CompletionForm, None, _store_completion),
    "costs": Step(cost_forms.CostNoticeForm, "completed_on", _store_same),
    "attorney": Step(forms.AttorneyForm, None, _store_yes_no("smo_concurs")),
    "tax": Step(cost_forms.TaxForm, "cost_notice_mailed_on", _store_same),
    "protest": Step(cost_forms.ProtestDecisionForm, "protest_filed_on", lambda f: f.values()),
    "court": Step(forms.ConvictionForm, None, _store_same),
}


STEP_NAMES = {
    "appeal": "Appeal logged",
    "decision": "Board decision recorded",
    "filing": "Decision filing recorded",
    "access": "Access and court steps recorded",
    "corrected": "Correction by the respondent recorded",
    "completion": "Abatement completion recorded",
    "costs": "Cost notice recorded",
    "attorney": "Recommendation recorded",
    "tax": "Tax bill recorded",
    "conditions": "Conditions recorded",
    "protest": "Protest decision recorded",
    "court": "Conviction recorded",
}


def step_form(name: str, notice: dict, steps: dict, submitted: bool = False) -> FlaskForm:
    step = STEPS[name]
    cls, after = step.form, step.after
    if submitted:
        form = cls()
    else:
        # What is recorded, shown again (a form ignores the keys it has no field for).
        data = {k: (day_of(v) if k.endswith("_on") else v) for k, v in steps.items()}
        for key in ("upheld", "smo_concurs"):
            data[key] = None if steps.get(key) is None else ("yes" if steps[key] else "no")
        data["late_appeal_accepted"] = bool(steps.get("late_appeal_accepted"))
        if steps.get("work_cents") is not None:
            data["work"] = f"{steps['work_cents'] / 100:.2f}"
            data["admin"] = f"{(steps.get('admin_cents') or 0) / 100:.2f}"
        if steps.get("protest_decided_cents") is not None:
            data["decided"] = f"{steps['protest_decided_cents'] / 100:.2f}"
        form = cls(formdata=None, data=data)
    form.earliest = day_of(steps.get(after)) if after else day_of(notice["issued_on"])
    form.latest = local_today()
    if name == "costs":
        form.payment_count.choices = [(n, str(n)) for n in range(1, law().terms.max_payments + 1)]
    if name == "appeal" and law().terms.appeal_filed_when == "postmarked":
        form.appeal_filed_on.label.text = "Date the appeal was delivered, or its postmark"
    elif name == "appeal":
        form.appeal_filed_on.label.text = "Date the appeal reached the clerk"
    return form


def remedy_form(submitted: bool = False) -> forms.RemedyForm:
    form = forms.RemedyForm() if submitted else forms.RemedyForm(formdata=None)
    # The law's words without their list punctuation ("...workshops;"), as stored.
    form.kind.choices = [
        (text.rstrip(";,. "), f"{label} {text}") for label, text in provision_items("remedies")
    ]
    form.latest = local_today()
    return form
