"""The respondent pages (under /staff/): every respondent, and one respondent's record: contact
details to edit, a duplicate record to merge in, earlier offenses from the paper files, the
offense history (what counts, and why not) and the record's own log."""

from __future__ import annotations

import json
from typing import Any

from flask import abort, current_app, flash, redirect, render_template, url_for
from flask_wtf import FlaskForm

from portal.core.clock import local_today
from portal.core.db import get_db, rows
from portal.enforcement import forms, people, readings, rules
from portal.enforcement.blueprint import bp
from portal.enforcement.workspace import actor, section_choices
from portal.staff.workflow import WorkflowError


@bp.route("/respondents/")
def respondents():
    people_ = rows(
        get_db(),
        "SELECT r.*, count(v.id) AS violations, max(v.committed_on) AS latest"
        " FROM respondents r LEFT JOIN violations v ON v.respondent_id = r.id"
        " WHERE r.merged_into IS NULL GROUP BY r.id ORDER BY r.name COLLATE NOCASE, r.id",
    )
    return render_template("staff/enforcement/respondents.html", people=people_)


def _person(respondent_id: int) -> dict[str, Any]:
    return people.respondent(get_db(), respondent_id) or abort(404)


def _forms(person: dict[str, Any]) -> dict[str, FlaskForm]:
    """The record's forms, showing what is recorded."""
    found: dict[str, FlaskForm] = {
        "edit": forms.RespondentForm(formdata=None, data=person),
        "merge": forms.MergeForm(formdata=None),
        "prior": forms.PriorOffenseForm(formdata=None),
    }
    for prior in people.prior_offenses(get_db(), person["id"]):
        found[f"remove-{prior['id']}"] = forms.ReasonForm(
            formdata=None, prefix=f"remove-{prior['id']}"
        )
    return found


def _choices(page_forms: dict[str, FlaskForm], person: dict[str, Any]) -> None:
    page_forms["merge"].other.choices = [("", "Choose the duplicate record")] + [
        (str(p["id"]), f"{p['name']}, {p['mailing_address'].splitlines()[0]}")
        for p in people.current(get_db())
        if p["id"] != person["id"]
    ]
    page_forms["prior"].section.choices = section_choices()
    page_forms["prior"].latest = local_today()


@bp.route("/respondents/<int:respondent_id>/")
def respondent(respondent_id: int, overrides: dict[str, FlaskForm] | None = None):
    db = get_db()
    person = _person(respondent_id)
    page_forms = {**_forms(person), **(overrides or {})}
    _choices(page_forms, person)
    violations = people.history(db, respondent_id)
    law = (
        local_today(),
        current_app.extensions["enforcement"].terms,
        current_app.extensions["calendar"],
    )
    # Whether each counts toward a new violation's offense number, by the one rule.
    for v in violations:
        v["counts"], v["why"] = rules.counts(people.prior_of(v, law), law[1])
    priors = people.prior_offenses(db, respondent_id)
    for p in priors:
        p["counts"], p["why"] = rules.counts(people.paper_prior(p), law[1])
    log = people.events(db, respondent_id)
    for event in log:
        event["words"] = render_template(
            "staff/enforcement/_event.txt", event=event, detail=json.loads(event["detail"])
        )
    others = people.merged_ids(db, respondent_id)[1:]
    marks = ", ".join("?" for _ in others)
    merged = rows(db, f"SELECT * FROM respondents WHERE id IN ({marks})", others) if others else []
    into = people.respondent(db, person["merged_into"]) if person["merged_into"] else None
    status = 422 if overrides else 200
    return render_template(
        "staff/enforcement/respondent.html",
        person=person,
        forms=page_forms,
        into=into,
        violations=violations,
        priors=priors,
        log=log,
        readings=readings.readings(law[1]),
        merged=merged,
        roles=people.ROLES,
        outcomes=people.OUTCOMES,
    ), status


def _back(respondent_id: int, anchor: str | None = None):
    return redirect(
        url_for("enforcement.respondent", respondent_id=respondent_id, _anchor=anchor), code=303
    )


@bp.route("/respondents/<int:respondent_id>/edit", methods=["POST"])
def edit_respondent(respondent_id: int):
    _person(respondent_id)
    form = forms.RespondentForm()
    if not form.validate():
        return respondent(respondent_id, overrides={"edit": form})
    try:
        changed = people.edit(get_db(), actor(), respondent_id, form.contact())
    except WorkflowError as error:
        flash(str(error), "error")
    else:
        flash("Details saved." if changed else "Nothing changed, so nothing was saved.", "success")
    return _back(respondent_id)


@bp.route("/respondents/<int:respondent_id>/merge", methods=["POST"])
def merge_respondent(respondent_id: int):
    person = _person(respondent_id)
    form = forms.MergeForm()
    _choices({"merge": form, "prior": forms.PriorOffenseForm(formdata=None)}, person)
    if not form.validate():
        return respondent(respondent_id, overrides={"merge": form})
    try:
        moved = people.merge(get_db(), actor(), respondent_id, int(form.other.data))
    except WorkflowError as error:
        flash(str(error), "error")
    else:
        flash(
            f"Merged: {moved} {'violation' if moved == 1 else 'violations'} moved here; both"
            " logs are kept below.",
            "success",
        )
    return _back(respondent_id)


@bp.route("/respondents/<int:respondent_id>/prior", methods=["POST"])
def add_prior(respondent_id: int):
    person = _person(respondent_id)
    if person["merged_into"]:
        abort(404)
    form = forms.PriorOffenseForm()
    _choices({"merge": forms.MergeForm(formdata=None), "prior": form}, person)
    if not form.validate():
        return respondent(respondent_id, overrides={"prior": form})
    values = {
        name: form[name].data
        for name in ("committed_on", "section", "reference", "outcome", "notes")
    }
    people.add_prior(get_db(), actor(), respondent_id, values)
    flash("Earlier offense added.", "success")
    return _back(respondent_id, "priors")


@bp.route("/respondents/<int:respondent_id>/prior/<int:prior_id>/remove", methods=["POST"])
def remove_prior(respondent_id: int, prior_id: int):
    _person(respondent_id)
    form = forms.ReasonForm(prefix=f"remove-{prior_id}")
    if not form.validate():
        return respondent(respondent_id, overrides={f"remove-{prior_id}": form})
    try:
        people.remove_prior(get_db(), actor(), respondent_id, prior_id, form.reason.data)
    except WorkflowError as error:
        flash(str(error), "error")
    else:
        flash("Earlier offense removed from the count; it stays on the record.", "success")
    return _back(respondent_id, "priors")
