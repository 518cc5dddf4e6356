"""The enforcement pages of the workspace (under /staff/, signed-in staff only): a case's
violations, a notice from draft to issue and the steps after it, and the deadlines view. A
notice's page and model are in notice_page.py, its costs and remedies in costs_views.py,
respondents in respondents.py, the printed letters in letters.py."""

from __future__ import annotations

import datetime as dt
from typing import Any

from flask import abort, current_app, flash, redirect, render_template, request, url_for
from flask_wtf import FlaskForm

from portal.accounts.auth import current_staff
from portal.core.clock import local_today
from portal.core.db import get_db, rows, transaction
from portal.core.display import date_words
from portal.enforcement import forms, notices, papers, people, rules, violations
from portal.enforcement.blueprint import bp
from portal.enforcement.letters import keep_paper
from portal.enforcement.notice_page import access_block_words, page_model, render
from portal.enforcement.page_forms import (
    STEP_NAMES,
    STEPS,
    draft_data,
    draft_form,
    issue_form,
    step_form,
)
from portal.enforcement.timeline import Timeline, day_of
from portal.enforcement.workspace import (
    actor,
    law,
    notice_or_404,
    provision_items,
    section_choices,
    violation_or_404,
)
from portal.staff.cases import get_case
from portal.staff.workflow import WorkflowError

# ---------------------------------------------------------------- a case's violations


def _respondent_choices() -> list[tuple[str, str]]:
    return [("", "A new respondent (below)")] + [
        (str(p["id"]), f"{p['name']}, {p['mailing_address'].splitlines()[0]}")
        for p in people.current(get_db())
    ]


def _prefill(form: forms.ViolationForm, args: Any) -> None:
    """The violation form filled from a link (the track-down's "Start enforcement against this
    source"): a respondent on record, the place, the day found, what was found."""
    respondent = args.get("respondent", "")
    if respondent:
        if respondent not in {value for value, _ in form.respondent.choices}:
            abort(400, "That respondent is not on record.")
        form.respondent.data = respondent
    for name in ("place", "description"):
        if args.get(name):
            form[name].data = args[name]
    if args.get("found_on"):
        try:
            form.found_on.data = dt.date.fromisoformat(args["found_on"])
        except ValueError:
            abort(400, "That is not a date.")


@bp.route("/cases/<int:case_id>/enforcement", methods=["GET", "POST"])
def case_enforcement(case_id: int):
    db = get_db()
    case = get_case(case_id)
    form = forms.ViolationForm()
    form.respondent.choices = _respondent_choices()
    form.section.choices = section_choices()
    form.latest = local_today()
    if form.is_submitted():
        if form.validate():
            try:
                violations.record_violation(
                    db,
                    case_id,
                    actor(),
                    respondent_id=int(form.respondent.data) if form.respondent.data else None,
                    new_respondent=form.contact(),
                    values=form.facts(),
                )
            except WorkflowError as error:
                form.respondent.errors = [str(error)]
            else:
                flash("Violation recorded.", "success")
                return redirect(url_for("enforcement.case_enforcement", case_id=case_id), code=303)
    else:
        form.found_on.data = local_today()
        form.place.data = case["address"]
        _prefill(form, request.args)
    found = rows(
        db,
        "SELECT v.*, r.name AS respondent_name FROM violations v"
        " JOIN respondents r ON r.id = v.respondent_id WHERE v.case_id = ? ORDER BY v.id",
        [case_id],
    )
    for v in found:
        v["notices"] = notices.notices_of(db, v["id"])
    status = 422 if form.errors else 200
    return render_template(
        "staff/enforcement/case.html", case=case, form=form, violations=found
    ), status


@bp.route("/violations/<int:violation_id>/edit", methods=["GET", "POST"])
def edit_violation(violation_id: int):
    """Correct a violation's place, dates, section or description (logged on its case)."""
    violation = violation_or_404(violation_id)
    if request.method == "POST":
        form = forms.ViolationFacts()
    else:
        data = {key: violation[key] for key in violations.VIOLATION_FIELDS}
        data.update(
            place=violation["place_shown"],
            committed_on=day_of(violation["committed_on"]),
            found_on=day_of(violation["found_on"]),
        )
        form = forms.ViolationFacts(formdata=None, data=data)
    form.section.choices = section_choices()
    form.latest = local_today()
    if request.method == "POST" and form.validate():
        changed = violations.edit_violation(get_db(), actor(), violation, form.facts())
        flash(
            "Violation changed." if changed else "Nothing changed, so nothing was saved.", "success"
        )
        return redirect(
            url_for("enforcement.case_enforcement", case_id=violation["case_id"]), code=303
        )
    status = 422 if form.errors else 200
    return render_template(
        "staff/enforcement/violation_edit.html", violation=violation, form=form
    ), status


# ---------------------------------------------------------------- notices


@bp.route("/violations/<int:violation_id>/notice", methods=["GET", "POST"])
def new_notice(violation_id: int):
    violation = violation_or_404(violation_id)
    supersedes = request.args.get("supersedes", type=int)
    earlier = notices.notice(get_db(), supersedes) if supersedes else None
    if supersedes and (earlier is None or earlier["violation_id"] != violation_id):
        abort(404)
    # One notice in force per violation: another is a correction of it, made from its page.
    current = [n for n in notices.notices_of(get_db(), violation_id) if not n["superseded_by"]]
    blocking = [n for n in current if n["id"] != supersedes]
    if blocking or (earlier and not earlier["issued_on"]):
        flash(
            "This violation has a notice already: change the draft, or correct the issued"
            " notice from its page.",
            "error",
        )
        return redirect(
            url_for("enforcement.notice_page", notice_id=(blocking or [earlier])[-1]["id"]),
            code=303,
        )
    form = draft_form(draft_data(earlier) if earlier else None, request.method == "POST")
    if request.method == "POST" and form.validate():
        notice_id = notices.save_draft(
            get_db(),
            actor(),
            violation,
            form.chosen(),
            form.deadline.data,
            supersedes=supersedes,
        )
        flash("Draft saved.", "success")
        return redirect(url_for("enforcement.notice_page", notice_id=notice_id), code=303)
    status = 422 if form.errors else 200
    return render_template(
        "staff/enforcement/draft.html", violation=violation, form=form, earlier=earlier
    ), status


@bp.route("/notices/<int:notice_id>/draft", methods=["POST"])
def edit_notice(notice_id: int):
    notice = notice_or_404(notice_id)
    form = draft_form(submitted=True)
    if notice["issued_on"]:
        flash(
            "This notice is issued: it can no longer change. Correct it with a new notice.", "error"
        )
        return redirect(url_for("enforcement.notice_page", notice_id=notice_id), code=303)
    if form.validate():
        try:
            notices.save_draft(
                get_db(),
                actor(),
                violation_or_404(notice["violation_id"]),
                form.chosen(),
                form.deadline.data,
                notice_id=notice_id,
            )
        except WorkflowError as error:  # issued from another tab meanwhile
            flash(str(error), "error")
        else:
            flash("Draft saved.", "success")
        return redirect(url_for("enforcement.notice_page", notice_id=notice_id), code=303)
    return render(notice, {"draft": form})


@bp.route("/notices/<int:notice_id>/issue", methods=["POST"])
def issue_notice(notice_id: int):
    """Issue a draft: number it, freeze it, and record the day it is served or mailed."""
    notice = notice_or_404(notice_id)
    form = issue_form(notice, submitted=True)
    if not form.validate():
        return render(notice, {"issue": form})
    db = get_db()
    who = {"name": form.signer_name.data, "title": form.signer_title.data}
    facts = violations.letter_facts(violation_or_404(notice["violation_id"]), who)
    try:
        number = notices.issue(
            db,
            actor(),
            notice["id"],
            local_today(),
            form.served_on.data,
            form.method.data,
            facts,
            keep=lambda: keep_paper("notice", notice["id"], form.served_on.data),
        )
    except WorkflowError as error:
        flash(str(error), "error")
    else:
        # The name and title signed with become the officer's own for the next letter.
        with transaction(db):
            db.execute(
                "UPDATE staff SET letter_name = ?, letter_title = ? WHERE id = ?",
                [who["name"], who["title"], current_staff()["id"]],
            )
        flash(f"Issued as {number}.", "success")
    return redirect(url_for("enforcement.notice_page", notice_id=notice_id), code=303)


def _refused(name: str, form: FlaskForm, line: Timeline) -> bool:
    """A step the law does not allow yet, with the reason put on its field: an access request
    before the correction date has passed (corrective measures, A), an abatement after the
    respondent's own correction, a tax bill while a protest awaits the Board or before a
    payment is past due (cost of abatement)."""
    if name == "access" and form.access_requested_on.data:
        why = access_block_words(line)
        asked, due = form.access_requested_on.data, line.correction
        if (
            due is not None
            and not rules.correction_passed(due, asked)
            and line.access_block in (None, "not-yet")
        ):
            why = f"Not before the day after the correction date, {date_words(due)}"
        if why:
            form.access_requested_on.errors = [f"{why}."]
            return True
    if name == "completion" and line.access_block == "corrected":
        # Corrective measures, A: the work is the municipality's only where the violation
        # was not corrected; after the respondent's own correction there is nothing to abate.
        form.completed_on.errors = [
            "The respondent corrected the violation (recorded above): there is no abatement"
            " by the municipality to record, and no cost to charge."
        ]
        return True
    if name == "tax" and (line.protest_pending or not line.special_assessment):
        form.tax_bill_on.errors = [
            "Charges cannot go on the tax bill while a timely protest awaits the Board's"
            " decision, or before a payment is past due."
        ]
        return True
    return False


@bp.route("/notices/<int:notice_id>/steps/<name>", methods=["POST"])
def notice_step(notice_id: int, name: str):
    notice = notice_or_404(notice_id)
    if not notice["issued_on"] or (name not in STEPS and name != "conditions"):
        abort(404)
    db = get_db()
    steps = notices.steps(db, notice_id)
    if name == "conditions":
        form = forms.conditions_form(provision_items("conditions"))
        if form.validate():
            conditions = {
                label: {"holds": form[f"holds_{i}"].data, "note": form[f"note_{i}"].data or ""}
                for i, label in enumerate(form.labels)
            }
            notices.record_step(db, actor(), notice, name, {"conditions": conditions})
            flash(f"{STEP_NAMES[name]}.", "success")
            return redirect(
                url_for("enforcement.notice_page", notice_id=notice_id, _anchor="remedies"),
                code=303,
            )
        return render(notice, {name: form})
    step = STEPS[name]
    if step.after and not steps.get(step.after):
        flash("Record the step before this one first.", "error")
        return redirect(url_for("enforcement.notice_page", notice_id=notice_id), code=303)
    form = step_form(name, notice, steps, submitted=True)
    context = page_model(notice)
    if name == "protest":
        form.mailed_cents = context["line"].charge_mailed
    if form.validate() and not _refused(name, form, context["line"]):
        values = step.store(form)
        if name == "corrected":
            values["correction_checked_by"] = actor()
        why = papers.refusal(values, steps)
        if why:
            # A paper sent is kept as sent: the error goes on the step's first field.
            next(f for f in form if f.name != "csrf_token").errors = [why]
            return render(notice, {name: form}, context)
        sending = papers.sent_by(values, steps)

        def keep() -> None:
            for kind in sending:
                keep_paper(kind, notice_id, values[papers.KINDS[kind].sent_by])

        notices.record_step(db, actor(), notice, name, values, keep)
        flash(f"{STEP_NAMES[name]}.", "success")
        return redirect(
            url_for("enforcement.notice_page", notice_id=notice_id, _anchor=f"step-{name}"),
            code=303,
        )
    return render(notice, {name: form}, context)


# ---------------------------------------------------------------- the deadlines


def open_deadlines(today: dt.date | None = None) -> list[tuple[Any, dict[str, Any]]]:
    """Every open enforcement date of every notice in force, soonest first."""
    calendar = current_app.extensions["calendar"]
    return notices.open_dates(get_db(), law().terms, calendar, today or local_today())


@bp.route("/enforcement/deadlines")
def enforcement_deadlines():
    return render_template(
        "staff/enforcement/deadlines.html", deadlines=open_deadlines(), today=local_today()
    )
