"""Track-down's pages, under a case in the workspace (signed-in staff only): an investigation
step to record or change, a sample's lab results, the source found and its elimination. The
case page shows them all (templates/staff/trackdown/_case.html); these are the forms."""

from __future__ import annotations

import datetime as dt
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

from portal.accounts.auth import current_staff, staff_name
from portal.core.clock import local_now
from portal.core.db import get_db
from portal.enforcement import people
from portal.outfalls.map_layer import nearest_to
from portal.staff.cases import get_case
from portal.staff.workflow import WorkflowError
from portal.trackdown import records, source_found
from portal.trackdown.choices import RESULTS, STEP_NAMES
from portal.trackdown.forms import (
    EliminationForm,
    RemoveStepForm,
    ResultsForm,
    SourceForm,
    StepForm,
)
from portal.web.routes import NO_STORE, declare_blueprint

# Staff pages: what they show stays off a shared computer's disk and back button.
bp = declare_blueprint(
    Blueprint("trackdown", __name__, url_prefix="/staff/cases"), caching=NO_STORE
)


def _actor() -> str:
    return current_staff()["username"]


def _back(case_id: int, anchor: str = "trackdown"):
    return redirect(url_for("staff.case", case_id=case_id, _anchor=anchor), code=303)


def _step(case_id: int, step_id: int) -> dict[str, Any]:
    """The step, or the 404 page (also for a step of another case)."""
    return records.step_of(get_db(), case_id, step_id) or abort(404)


def _moment(value: str | None) -> dt.datetime | None:
    return dt.datetime.fromisoformat(value) if value else None


def _step_page(
    case: dict, form: StepForm, step: dict | None = None, removal: RemoveStepForm | None = None
):
    removal = removal or RemoveStepForm(formdata=None)
    status = 422 if form.errors or removal.errors else 200
    return render_template(
        "staff/trackdown/step.html",
        case=case,
        form=form,
        step=step,
        removal=removal,
        nearest=nearest_to(get_db(), case),
    ), status


def _stored_step(step: dict) -> StepForm:
    """The step form filled with a stored step."""
    data = {**step, "structure": step["structure_code"]}
    for name in ("done_at", "collected_at", "relinquished_at", "received_at"):
        data[name] = _moment(step[name])
    return StepForm(formdata=None, data=data)


def _posted_step(case: dict) -> StepForm:
    form = StepForm()
    form.opened_on = dt.date.fromisoformat(case["received_at"][:10])
    return form


@bp.route("/<int:case_id>/trackdown/steps/new", methods=["GET", "POST"])
def new_step(case_id: int):
    case = get_case(case_id)
    if request.method == "GET":
        now = local_now().replace(tzinfo=None, second=0)
        form = StepForm(formdata=None, data={"done_at": now, "done_by": staff_name()})
        return _step_page(case, form)
    form = _posted_step(case)
    if not form.validate():
        return _step_page(case, form)
    records.add_step(get_db(), case_id, _actor(), form.values())
    flash(f"{STEP_NAMES[form.kind.data]} recorded.", "success")
    return _back(case_id)


@bp.route("/<int:case_id>/trackdown/steps/<int:step_id>/", methods=["GET", "POST"])
def edit_step(case_id: int, step_id: int):
    case, step = get_case(case_id), _step(case_id, step_id)
    if request.method == "GET":
        return _step_page(case, _stored_step(step), step)
    form = _posted_step(case)
    if not form.validate():
        return _step_page(case, form, step)
    try:
        changed = records.change_step(get_db(), _actor(), step, form.values())
    except WorkflowError as error:
        form[error.field].errors = [str(error)]
        return _step_page(case, form, step)
    name = STEP_NAMES[form.kind.data]
    flash(f"{name} changed." if changed else "Nothing changed, so nothing was saved.", "success")
    return _back(case_id, f"step-{step_id}")


@bp.route("/<int:case_id>/trackdown/steps/<int:step_id>/remove", methods=["POST"])
def remove_step(case_id: int, step_id: int):
    case, step = get_case(case_id), _step(case_id, step_id)
    removal = RemoveStepForm()
    if not removal.validate():
        return _step_page(case, _stored_step(step), step, removal)
    records.remove_step(get_db(), _actor(), step, removal.reason.data)
    flash(f"{STEP_NAMES[step['kind']]} removed (the case's log keeps what it was).", "success")
    return _back(case_id, "trackdown")


def _results_page(case: dict, step: dict, form: ResultsForm):
    return render_template(
        "staff/trackdown/results.html",
        case=case,
        step=step,
        form=form,
        results=records.results_of(get_db(), step["id"]),
        step_results=RESULTS,
    ), (422 if any(field.errors for field in form.fields()) else 200)


def _sample(case_id: int, step_id: int) -> dict[str, Any]:
    step = _step(case_id, step_id)
    return step if step["kind"] == "sample" else abort(404)


@bp.route("/<int:case_id>/trackdown/steps/<int:step_id>/results", methods=["GET", "POST"])
def results(case_id: int, step_id: int):
    case, step = get_case(case_id), _sample(case_id, step_id)
    form = ResultsForm() if request.method == "POST" else ResultsForm(formdata=None)
    if request.method == "GET":  # the step's result as it is, or "leave it" while pending
        form.shows.data = "" if step["result"] == "pending" else step["result"]
    form.collected_on = dt.date.fromisoformat(step["collected_at"][:10])
    if request.method == "GET" or not form.validate():
        return _results_page(case, step, form)
    reported = form.reported_on.data.isoformat() if form.reported_on.data else None
    added = records.add_results(
        get_db(), _actor(), step, form.rows(), reported, form.shows.data or None
    )
    flash(
        f"Lab results added ({added} {'result' if added == 1 else 'results'})."
        if added
        else "These results are on the sample already: nothing new was stored.",
        "success",
    )
    return _back(case_id, f"step-{step_id}")


@bp.route(
    "/<int:case_id>/trackdown/steps/<int:step_id>/results/<int:result_id>/remove", methods=["POST"]
)
def remove_result(case_id: int, step_id: int, result_id: int):
    get_case(case_id)
    step = _sample(case_id, step_id)
    if not records.remove_result(get_db(), _actor(), step, result_id):
        abort(404)
    flash("Lab result removed (the case's log keeps what it was).", "success")
    return redirect(url_for("trackdown.results", case_id=case_id, step_id=step_id), code=303)


def _respondent_choices() -> list[tuple[str, str]]:
    return [("", "None: a new one below, or not known yet")] + [
        (str(p["id"]), f"{p['name']}, {p['mailing_address'].splitlines()[0]}")
        for p in people.current(get_db())
    ]


def _source_page(case: dict, form: SourceForm, source: dict | None):
    return render_template(
        "staff/trackdown/source.html", case=case, form=form, source=source
    ), 422 if form.errors else 200


@bp.route("/<int:case_id>/trackdown/source", methods=["GET", "POST"])
def source(case_id: int):
    case = get_case(case_id)
    db = get_db()
    found = source_found.source_of(db, case_id)
    if request.method == "GET":
        data = {"found_on": local_now().date(), "address": case["address"]}
        if found:
            data = {
                **found,
                "found_on": dt.date.fromisoformat(found["found_on"]),
                "respondent": str(found["respondent"]["id"]) if found["respondent"] else "",
            }
        form = SourceForm(formdata=None, data=data)
    else:
        form = SourceForm()
    form.respondent.choices = _respondent_choices()
    if found and found["eliminated_on"]:
        form.eliminated_on = dt.date.fromisoformat(found["eliminated_on"])
    if request.method == "GET" or not form.validate():
        return _source_page(case, form, found)
    try:
        changed = source_found.save_source(
            db, case_id, _actor(), form.values(), form.respondent_id(), form.new_respondent()
        )
    except WorkflowError as error:
        form[error.field].errors = [str(error)]
        return _source_page(case, form, found)
    if found is None:
        flash("Source recorded.", "success")
    else:
        flash("Source changed." if changed else "Nothing changed, so nothing was saved.", "success")
    return _back(case_id, "source")


@bp.route("/<int:case_id>/trackdown/elimination", methods=["GET", "POST"])
def elimination(case_id: int):
    case = get_case(case_id)
    found = source_found.source_of(get_db(), case_id)
    if found is None:
        flash("Record the source found first: its elimination belongs to it.", "error")
        return redirect(url_for("trackdown.source", case_id=case_id), code=303)
    if request.method == "GET":
        data = {
            **found,
            "eliminated_on": dt.date.fromisoformat(found["eliminated_on"])
            if found["eliminated_on"]
            else None,
        }
        form = EliminationForm(formdata=None, data=data)
    else:
        form = EliminationForm()
    form.found_on = dt.date.fromisoformat(found["found_on"])
    if request.method == "GET" or not form.validate():
        page = render_template(
            "staff/trackdown/elimination.html", case=case, form=form, source=found
        )
        return page, 422 if form.errors else 200
    was = found["eliminated_on"]
    changed = source_found.record_elimination(get_db(), case_id, _actor(), form.values())
    if not changed:
        flash("Nothing changed, so nothing was saved.", "success")
    else:
        flash("Elimination changed." if was else "Elimination recorded.", "success")
    return _back(case_id, "source")
