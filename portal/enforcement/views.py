"""The enforcement pages of the workspace (under /staff/, signed-in staff only): a case's
violations, respondents and their history, a notice from draft to issue and every step
after it, the printable letter and statement of account, and the deadlines view."""

from __future__ import annotations

import datetime as dt
from typing import Any

from flask import abort, current_app, flash, redirect, render_template, request, url_for
from flask_wtf import FlaskForm

from portal.clock import local_today
from portal.db import get_db
from portal.enforcement import forms, records, rules
from portal.enforcement.timeline import Timeline, day_of, timeline
from portal.staff import bp
from portal.staff.auth import current_staff
from portal.staff.cases import get_case
from portal.staff.workflow import WorkflowError


def law():
    return current_app.extensions["enforcement"]


def _actor() -> str:
    return current_staff()["username"]


def section_choices() -> list[tuple[str, str]]:
    """Each section of the ordinance and its lettered subdivisions, as "N-M B" (the
    chapter's own numbers)."""
    choices = [("", "Choose a section")]
    for section in current_app.extensions["content"].ordinance.sections:
        choices.append((section.number, f"§ {section.number} {section.title}"))
        for part in section.body:
            if part.label and part.label.endswith("."):
                label = part.label.rstrip(".")
                words = part.text.split(". ")[0][:60]
                choices.append((f"{section.number} {label}", f"§ {section.number} {label} {words}"))
    return choices


def provision_items(role: str) -> list[tuple[str, str]]:
    return [(p.label or "", p.text) for p in law().provisions[role].items]


# ---------------------------------------------------------------- a case's violations


@bp.route("/cases/<int:case_id>/enforcement", methods=["GET", "POST"])
def case_enforcement(case_id: int):
    db = get_db()
    case = get_case(case_id)
    form = forms.ViolationForm()
    people = records.respondents(db)
    form.respondent.choices = [("", "A new respondent (below)")] + [
        (str(p["id"]), f"{p['name']}, {p['mailing_address'].splitlines()[0]}") for p in people
    ]
    form.section.choices = section_choices()
    form.latest = local_today()
    if form.is_submitted():
        if form.validate():
            try:
                records.record_violation(
                    db, case_id, _actor(),
                    respondent_id=int(form.respondent.data) if form.respondent.data else None,
                    new_respondent=(form.name.data, form.mailing_address.data,
                                    form.property_address.data),
                    committed_on=form.committed_on.data, section=form.section.data,
                    description=form.description.data,
                )  # fmt: skip
            except WorkflowError as error:
                form.respondent.errors = [str(error)]
            else:
                flash("Violation recorded.", "success")
                return redirect(url_for("staff.case_enforcement", case_id=case_id), code=303)
    elif not form.committed_on.data:
        form.committed_on.data = local_today()
    violations = records.rows(
        db,
        "SELECT v.*, r.name AS respondent_name FROM violations v"
        " JOIN respondents r ON r.id = v.respondent_id WHERE v.case_id = ? ORDER BY v.id",
        [case_id],
    )
    for v in violations:
        v["notices"] = records.notices_of(db, v["id"])
    status = 422 if form.errors else 200
    return render_template(
        "staff/enforcement/case.html", case=case, form=form, violations=violations
    ), status


# ---------------------------------------------------------------- respondents


@bp.route("/respondents/")
def respondents():
    db = get_db()
    people = records.rows(
        db,
        "SELECT r.*, count(v.id) AS violations, max(v.committed_on) AS latest"
        " FROM respondents r LEFT JOIN violations v ON v.respondent_id = r.id"
        " GROUP BY r.id ORDER BY r.name COLLATE NOCASE, r.id",
    )
    return render_template("staff/enforcement/respondents.html", people=people)


@bp.route("/respondents/<int:respondent_id>/")
def respondent(respondent_id: int):
    db = get_db()
    person = records.one(db, "SELECT * FROM respondents WHERE id = ?", [respondent_id])
    if person is None:
        abort(404)
    return render_template(
        "staff/enforcement/respondent.html",
        person=person,
        violations=records.history(db, respondent_id),
    )


# ---------------------------------------------------------------- notices


def _violation(violation_id: int) -> dict[str, Any]:
    return records.violation(get_db(), violation_id) or abort(404)


def _notice(notice_id: int) -> dict[str, Any]:
    return records.notice(get_db(), notice_id) or abort(404)


def _notice_form(data: dict | None = None, submitted: bool = False) -> forms.NoticeForm:
    abatement = law().abatement_order
    kwargs: dict[str, Any] = {} if submitted else {"formdata": None, "data": data or {}}
    form = forms.notice_form(provision_items("orders"), abatement, **kwargs)
    form.latest = local_today()
    return form


def _draft_data(notice: dict[str, Any]) -> dict[str, Any]:
    data: dict[str, Any] = {"deadline": day_of(notice["deadline"])}
    labels = [label for label, _ in provision_items("orders")]
    for label, specifics in notice["orders"].items():
        if label in labels:
            i = labels.index(label)
            data[f"order_{i}"], data[f"specifics_{i}"] = True, specifics
    return data


@bp.route("/violations/<int:violation_id>/notice", methods=["GET", "POST"])
def new_notice(violation_id: int):
    violation = _violation(violation_id)
    supersedes = request.args.get("supersedes", type=int)
    earlier = records.notice(get_db(), supersedes) if supersedes else None
    if supersedes and (earlier is None or earlier["violation_id"] != violation_id):
        abort(404)
    # One notice in force per violation: another is a correction of it, made from its page.
    current = [n for n in records.notices_of(get_db(), violation_id) if not n["superseded_by"]]
    blocking = [n for n in current if n["id"] != supersedes]
    if blocking or (earlier and not earlier["issued_on"]):
        flash("This violation has a notice already: change the draft, or correct the issued"
              " notice from its page.", "error")  # fmt: skip
        return redirect(
            url_for("staff.notice_page", notice_id=(blocking or [earlier])[-1]["id"]), code=303
        )
    form = _notice_form(_draft_data(earlier) if earlier else None, request.method == "POST")
    if request.method == "POST" and form.validate():
        notice_id = records.save_draft(
            get_db(), _actor(), violation, form.chosen(), form.deadline.data,
            supersedes=supersedes,
        )  # fmt: skip
        flash("Draft saved.", "success")
        return redirect(url_for("staff.notice_page", notice_id=notice_id), code=303)
    status = 422 if form.errors else 200
    return render_template(
        "staff/enforcement/draft.html", violation=violation, form=form, earlier=earlier
    ), status


@bp.route("/notices/<int:notice_id>/draft", methods=["POST"])
def edit_notice(notice_id: int):
    notice = _notice(notice_id)
    form = _notice_form(submitted=True)
    if notice["issued_on"]:
        flash(
            "This notice is issued: it can no longer change. Correct it with a new notice.", "error"
        )
        return redirect(url_for("staff.notice_page", notice_id=notice_id), code=303)
    if form.validate():
        try:
            records.save_draft(get_db(), _actor(), _violation(notice["violation_id"]),
                               form.chosen(), form.deadline.data, notice_id=notice_id)  # fmt: skip
        except WorkflowError as error:  # issued from another tab meanwhile
            flash(str(error), "error")
        else:
            flash("Draft saved.", "success")
        return redirect(url_for("staff.notice_page", notice_id=notice_id), code=303)
    return notice_page(notice_id, overrides={"draft": form})


@bp.route("/notices/<int:notice_id>/issue", methods=["POST"])
def issue_notice(notice_id: int):
    notice = _notice(notice_id)
    if FlaskForm().validate():
        try:
            number = records.issue(get_db(), _actor(), notice["id"], local_today())
        except WorkflowError as error:
            flash(str(error), "error")
        else:
            flash(f"Issued as {number}.", "success")
    return redirect(url_for("staff.notice_page", notice_id=notice_id), code=303)


# Each step form: its class, the step before it (the date it cannot precede), and what it
# stores (the form's values as notice_steps columns).
def _store_same(form: FlaskForm) -> dict[str, Any]:
    return form.dates()


def _store_completion(form: FlaskForm) -> dict[str, Any]:
    return {"completed_on": form.completed_on.data, "work_cents": forms.cents_of(form.work.data),
            "admin_cents": forms.cents_of(form.admin.data) or 0}  # fmt: skip


def _store_yes_no(key: str):
    def store(form: FlaskForm) -> dict[str, Any]:
        values = form.dates()
        values[key] = None if values[key] is None else int(values[key] == "yes")
        return values

    return store


STEPS = {
    "appeal": (forms.AppealForm, None, None, _store_same),
    "decision": (forms.DecisionForm, "appeal_filed_on", "appeal_filed_on", _store_yes_no("upheld")),
    "filing": (forms.FilingForm, "decided_on", "decided_on", _store_same),
    "access": (forms.AccessForm, None, None, _store_same),
    "completion": (forms.CompletionForm, None, None, _store_completion),
    "costs": (forms.CostNoticeForm, "completed_on", "completed_on", _store_same),
    "attorney": (forms.AttorneyForm, None, None, _store_yes_no("smo_concurs")),
    "tax": (forms.TaxForm, "cost_notice_mailed_on", "cost_notice_mailed_on", _store_same),
}
STEP_NAMES = {
    "appeal": "Appeal logged", "decision": "Board decision recorded",
    "filing": "Decision filing recorded", "access": "Access and court steps recorded",
    "completion": "Abatement completion recorded", "costs": "Cost notice recorded",
    "attorney": "Recommendation recorded", "tax": "Tax bill recorded",
    "conditions": "Conditions recorded",
}  # fmt: skip


def _step_form(name: str, notice: dict, steps: dict, submitted: bool = False) -> FlaskForm:
    cls, _, after, _ = STEPS[name]
    if submitted:
        form = cls()
    else:
        # What is recorded, shown again (a form ignores the keys it has no field for).
        data = {k: (day_of(v) if k.endswith("_on") else v) for k, v in steps.items()}
        for key in ("upheld", "smo_concurs"):
            data[key] = None if steps.get(key) is None else ("yes" if steps[key] else "no")
        if steps.get("work_cents") is not None:
            data["work"] = f"{steps['work_cents'] / 100:.2f}"
            data["admin"] = f"{(steps.get('admin_cents') or 0) / 100:.2f}"
        form = cls(formdata=None, data=data)
    form.earliest = day_of(steps.get(after)) if after else day_of(notice["issued_on"])
    form.latest = local_today()
    if name == "costs":
        form.payment_count.choices = [(n, str(n)) for n in range(1, law().terms.max_payments + 1)]
    return form


@bp.route("/notices/<int:notice_id>/steps/<name>", methods=["POST"])
def notice_step(notice_id: int, name: str):
    notice = _notice(notice_id)
    if not notice["issued_on"] or (name not in STEPS and name != "conditions"):
        abort(404)
    db = get_db()
    steps = records.steps(db, notice_id)
    if name == "conditions":
        form = forms.conditions_form(provision_items("conditions"))
        if form.validate():
            conditions = {
                label: {"holds": form[f"holds_{i}"].data, "note": form[f"note_{i}"].data or ""}
                for i, label in enumerate(form.labels)
            }
            records.record_step(db, _actor(), notice, name, {"conditions": conditions})
            flash(f"{STEP_NAMES[name]}.", "success")
            return redirect(
                url_for("staff.notice_page", notice_id=notice_id, _anchor="remedies"), code=303
            )
        return notice_page(notice_id, overrides={name: form})
    _, needs, _, store = STEPS[name]
    if needs and not steps.get(needs):
        flash("Record the step before this one first.", "error")
        return redirect(url_for("staff.notice_page", notice_id=notice_id), code=303)
    form = _step_form(name, notice, steps, submitted=True)
    if form.validate():
        records.record_step(db, _actor(), notice, name, store(form))
        flash(f"{STEP_NAMES[name]}.", "success")
        return redirect(
            url_for("staff.notice_page", notice_id=notice_id, _anchor=f"step-{name}"), code=303
        )
    return notice_page(notice_id, overrides={name: form})


@bp.route("/notices/<int:notice_id>/payments", methods=["POST"])
def add_payment(notice_id: int):
    notice = _notice(notice_id)
    steps = records.steps(get_db(), notice_id) if notice["issued_on"] else {}
    if not steps.get("completed_on"):
        abort(404)
    form = forms.PaymentForm()
    form.earliest, form.latest = day_of(steps["completed_on"]), local_today()
    if form.validate():
        records.add_payment(
            get_db(), _actor(), notice, form.paid_on.data, forms.cents_of(form.amount.data)
        )
        flash("Payment recorded.", "success")
        return redirect(
            url_for("staff.notice_page", notice_id=notice_id, _anchor="costs"), code=303
        )
    return notice_page(notice_id, overrides={"payment": form})


def _remedy_form(submitted: bool = False) -> forms.RemedyForm:
    form = forms.RemedyForm() if submitted else forms.RemedyForm(formdata=None)
    form.kind.choices = [(text, f"{label} {text}") for label, text in provision_items("remedies")]
    form.latest = local_today()
    return form


@bp.route("/notices/<int:notice_id>/remedies", methods=["POST"])
def add_remedy(notice_id: int):
    notice = _notice(notice_id)
    if not notice["issued_on"]:
        abort(404)
    form = _remedy_form(submitted=True)
    form.earliest = day_of(notice["issued_on"])
    if form.validate():
        records.assign_remedy(
            get_db(), _actor(), notice, form.kind.data, form.details.data or None, form.due_on.data
        )
        flash("Remedy assigned.", "success")
        return redirect(
            url_for("staff.notice_page", notice_id=notice_id, _anchor="remedies"), code=303
        )
    return notice_page(notice_id, overrides={"remedy": form})


@bp.route("/notices/<int:notice_id>/remedies/<int:remedy_id>/done", methods=["POST"])
def remedy_done(notice_id: int, remedy_id: int):
    notice = _notice(notice_id)
    form = forms.RemedyDoneForm()
    form.earliest, form.latest = day_of(notice["issued_on"]), local_today()
    if form.validate():
        try:
            records.complete_remedy(get_db(), _actor(), notice, remedy_id, form.completed_on.data)
        except WorkflowError as error:
            flash(str(error), "error")
        else:
            flash("Remedy completed.", "success")
    else:
        for errors in form.errors.values():
            for message in errors:
                flash(message, "error")
    return redirect(url_for("staff.notice_page", notice_id=notice_id, _anchor="remedies"), code=303)


def _context(notice: dict[str, Any]) -> dict[str, Any]:
    """What every view of a notice shows: its violation, offense count, steps and dates."""
    db = get_db()
    enforcement, today = law(), local_today()
    violation = _violation(notice["violation_id"])
    steps = records.steps(db, notice["id"]) if notice["issued_on"] else {}
    payments = records.payments(db, notice["id"])
    remedies = records.remedies(db, notice["id"])
    earlier = [
        (day_of(v["committed_on"]), v["case_reference"])
        for v in records.history(db, violation["respondent_id"])
        if v["id"] != violation["id"]
    ]
    offense = rules.offense_number(day_of(violation["committed_on"]), earlier, enforcement.terms)
    line = (
        timeline(notice, steps, payments, remedies, enforcement.terms,
                 current_app.extensions["calendar"], today)
        if steps else Timeline(notice, steps, today)
    )  # fmt: skip
    superseding = records.notice(db, notice["superseded_by"]) if notice["superseded_by"] else None
    superseded = records.notice(db, notice["supersedes"]) if notice["supersedes"] else None
    return {
        "notice": notice, "violation": violation, "steps": steps, "payments": payments,
        "remedies": remedies, "offense": offense, "line": line, "today": today,
        "superseding": superseding, "superseded": superseded,
        "orders": provision_items("orders"), "readings": rules.readings(enforcement.terms),
        "abatement_statement": enforcement.provisions["abatement_statement"].text,
        "conditions": provision_items("conditions"),
        "appeal_due": rules.appeal_window(day_of(notice["issued_on"]), enforcement.terms,
                                          current_app.extensions["calendar"])
        if notice["issued_on"] else None,
    }  # fmt: skip


@bp.route("/notices/<int:notice_id>/")
def notice_page(notice_id: int, overrides: dict[str, FlaskForm] | None = None):
    notice = _notice(notice_id)
    context = _context(notice)
    steps = context["steps"]
    page_forms: dict[str, FlaskForm] = {}
    if not notice["issued_on"]:
        page_forms["draft"] = _notice_form(_draft_data(notice))
    else:
        for name in STEPS:
            page_forms[name] = _step_form(name, notice, steps)
        page_forms["conditions"] = forms.conditions_form(
            provision_items("conditions"), formdata=None,
            data={f"{k}_{i}": v for i, (label, _) in enumerate(provision_items("conditions"))
                  for k, v in (("holds", steps["conditions"].get(label, {}).get("holds")),
                               ("note", steps["conditions"].get(label, {}).get("note")))},
        )  # fmt: skip
        page_forms["remedy"] = _remedy_form()
        page_forms["payment"] = forms.PaymentForm(formdata=None)
        page_forms["remedy_done"] = forms.RemedyDoneForm(formdata=None)
    page_forms.update(overrides or {})
    conditions = [
        steps.get("conditions", {}).get(label, {}).get("holds", False)
        for label, _ in provision_items("conditions")
    ]
    eligible = rules.remedies_eligible(conditions, law().terms) if steps else False
    status = 422 if overrides else 200
    return render_template(
        "staff/enforcement/notice.html", forms=page_forms, eligible=eligible, **context
    ), status


@bp.route("/notices/<int:notice_id>/letter")
def notice_letter(notice_id: int):
    """The notice as a letter on the municipality's details, for printing on Letter paper."""
    return render_template("staff/enforcement/letter.html", **_context(_notice(notice_id)))


@bp.route("/notices/<int:notice_id>/statement")
def statement(notice_id: int):
    """The statement of account of the cost of abatement, on one printed page."""
    context = _context(_notice(notice_id))
    if context["line"].account is None:
        abort(404)
    return render_template("staff/enforcement/statement.html", **context)


# ---------------------------------------------------------------- the deadlines


def open_deadlines(today: dt.date | None = None) -> list[tuple[Any, dict[str, Any]]]:
    """Every open enforcement date of every notice in force, soonest first."""
    calendar = current_app.extensions["calendar"]
    return records.open_dates(get_db(), law().terms, calendar, today or local_today())


@bp.route("/enforcement/deadlines")
def enforcement_deadlines():
    return render_template(
        "staff/enforcement/deadlines.html", deadlines=open_deadlines(), today=local_today()
    )
