"""The enforcement pages of the workspace (under /staff/, signed-in staff only): a case's
violations, a notice from draft to issue and every step after it, and the deadlines view.
Respondents are in respondents.py, the printed letters in letters.py."""

from __future__ import annotations

import datetime as dt
from typing import Any

from flask import abort, current_app, flash, redirect, render_template, request, url_for
from flask_wtf import FlaskForm

from portal.core.clock import local_today
from portal.core.db import get_db, transaction
from portal.core.display import date_words
from portal.enforcement import forms, people, readings, records, rules
from portal.enforcement.blueprint import bp
from portal.enforcement.timeline import Timeline, day_of, timeline
from portal.staff.auth import current_staff
from portal.staff.cases import get_case
from portal.staff.workflow import WorkflowError


def law():
    return current_app.extensions["enforcement"]


def _actor() -> str:
    return current_staff()["username"]


def section_choices() -> list[tuple[str, str]]:
    """Each provision a person can violate (content's `violable`: "N-M" or "N-M B", the
    chapter's own numbers), with its title or its first words: never a scope clause, a
    definition or the officer's power."""
    choices = [("", "Choose a section")]
    ordinance = current_app.extensions["content"].ordinance
    for entry in law().violable:
        number, _, label = entry.partition(" ")
        section = ordinance.by_number[number]
        if not label:
            choices.append((entry, f"§ {entry} {section.title}"))
            continue
        part = next(p for p in section.body if p.label and p.label.rstrip(".") == label)
        words = (part.text or part.items[0].text).split(". ")[0].rstrip(".")
        choices.append((entry, f"§ {entry} {first_words(words)}"))
    return choices


def first_words(sentence: str, limit: int = 70) -> str:
    """A sentence cut to whole words within `limit` characters, marked as cut with "…" (a
    label cut mid-word read as the law's own words: fresh review)."""
    if len(sentence) <= limit:
        return sentence
    return sentence[: limit + 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"


def signer() -> dict[str, str]:
    """The signed-in officer's name and title for letters (the title defaults to the content's
    officer title)."""
    row = (
        get_db()
        .execute(
            "SELECT letter_name, letter_title FROM staff WHERE id = ?", [current_staff()["id"]]
        )
        .fetchone()
    )
    name, title = row if row else (None, None)
    default = current_app.extensions["content"].settings.smo_title
    return {"name": name or "", "title": title or default}


def provision_items(role: str) -> list[tuple[str, str]]:
    return [(p.label or "", p.text) for p in law().provisions[role].items]


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
                records.record_violation(
                    db, case_id, _actor(),
                    respondent_id=int(form.respondent.data) if form.respondent.data else None,
                    new_respondent=form.contact(), values=form.facts(),
                )  # fmt: skip
            except WorkflowError as error:
                form.respondent.errors = [str(error)]
            else:
                flash("Violation recorded.", "success")
                return redirect(url_for("enforcement.case_enforcement", case_id=case_id), code=303)
    else:
        form.found_on.data = local_today()
        form.place.data = case["address"]
        _prefill(form, request.args)
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


@bp.route("/violations/<int:violation_id>/edit", methods=["GET", "POST"])
def edit_violation(violation_id: int):
    """Correct a violation's place, dates, section or description (logged on its case)."""
    violation = _violation(violation_id)
    if request.method == "POST":
        form = forms.ViolationFacts()
    else:
        data = {key: violation[key] for key in records.VIOLATION_FIELDS}
        data.update(place=violation["place_shown"], committed_on=day_of(violation["committed_on"]),
                    found_on=day_of(violation["found_on"]))  # fmt: skip
        form = forms.ViolationFacts(formdata=None, data=data)
    form.section.choices = section_choices()
    form.latest = local_today()
    if request.method == "POST" and form.validate():
        changed = records.edit_violation(get_db(), _actor(), violation, form.facts())
        flash("Violation changed." if changed else "Nothing changed, so nothing was saved.",
              "success")  # fmt: skip
        return redirect(
            url_for("enforcement.case_enforcement", case_id=violation["case_id"]), code=303
        )
    status = 422 if form.errors else 200
    return render_template(
        "staff/enforcement/violation_edit.html", violation=violation, form=form
    ), status


# ---------------------------------------------------------------- notices


def _violation(violation_id: int) -> dict[str, Any]:
    return records.violation(get_db(), violation_id) or abort(404)


def _notice(notice_id: int) -> dict[str, Any]:
    return records.notice(get_db(), notice_id) or abort(404)


def _notice_form(data: dict | None = None, submitted: bool = False) -> forms.NoticeForm:
    abatement = law().abatement_orders
    kwargs: dict[str, Any] = {} if submitted else {"formdata": None, "data": data or {}}
    form = forms.notice_form(provision_items("orders"), abatement, law().fine_order, **kwargs)
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
            url_for("enforcement.notice_page", notice_id=(blocking or [earlier])[-1]["id"]),
            code=303,
        )
    form = _notice_form(_draft_data(earlier) if earlier else None, request.method == "POST")
    if request.method == "POST" and form.validate():
        notice_id = records.save_draft(
            get_db(), _actor(), violation, form.chosen(), form.deadline.data,
            supersedes=supersedes,
        )  # fmt: skip
        flash("Draft saved.", "success")
        return redirect(url_for("enforcement.notice_page", notice_id=notice_id), code=303)
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
        return redirect(url_for("enforcement.notice_page", notice_id=notice_id), code=303)
    if form.validate():
        try:
            records.save_draft(get_db(), _actor(), _violation(notice["violation_id"]),
                               form.chosen(), form.deadline.data, notice_id=notice_id)  # fmt: skip
        except WorkflowError as error:  # issued from another tab meanwhile
            flash(str(error), "error")
        else:
            flash("Draft saved.", "success")
        return redirect(url_for("enforcement.notice_page", notice_id=notice_id), code=303)
    return notice_page(notice_id, overrides={"draft": form})


def _issue_form(notice: dict[str, Any], submitted: bool = False) -> forms.IssueForm:
    if submitted:
        form = forms.IssueForm()
    else:
        who = signer()
        data = {"served_on": local_today(), "signer_name": who["name"],
                "signer_title": who["title"]}  # fmt: skip
        form = forms.IssueForm(formdata=None, data=data)
    form.method.choices = [(m, m) for m in law().service_methods]
    form.earliest = dt.date.fromisoformat(notice["drafted_at"][:10])
    form.latest = local_today()
    return form


@bp.route("/notices/<int:notice_id>/issue", methods=["POST"])
def issue_notice(notice_id: int):
    """Issue a draft: number it, freeze it, and record the day it is served or mailed."""
    notice = _notice(notice_id)
    form = _issue_form(notice, submitted=True)
    if not form.validate():
        return notice_page(notice_id, overrides={"issue": form})
    db = get_db()
    who = {"name": form.signer_name.data, "title": form.signer_title.data}
    facts = records.letter_facts(_violation(notice["violation_id"]), who)
    try:
        number = records.issue(db, _actor(), notice["id"], local_today(), form.served_on.data,
                               form.method.data, facts)  # fmt: skip
    except WorkflowError as error:
        flash(str(error), "error")
    else:
        # The name and title signed with become the officer's own for the next letter.
        with transaction(db):
            db.execute("UPDATE staff SET letter_name = ?, letter_title = ? WHERE id = ?",
                       [who["name"], who["title"], current_staff()["id"]])  # fmt: skip
        flash(f"Issued as {number}.", "success")
    return redirect(url_for("enforcement.notice_page", notice_id=notice_id), code=303)


# Each step form: its class, the step before it (the date it cannot precede), and what it
# stores (the form's values as notice_steps columns).
def _store_same(form: FlaskForm) -> dict[str, Any]:
    return form.dates()


def _store_completion(form: FlaskForm) -> dict[str, Any]:
    return {"completed_on": form.completed_on.data, "work_cents": forms.cents_of(form.work.data),
            "admin_cents": forms.cents_of(form.admin.data) or 0}  # fmt: skip


def _store_appeal(form: FlaskForm) -> dict[str, Any]:
    return {"appeal_filed_on": form.appeal_filed_on.data,
            "late_appeal_accepted": int(form.late_appeal_accepted.data) or None}  # fmt: skip


def _store_yes_no(key: str):
    def store(form: FlaskForm) -> dict[str, Any]:
        values = form.dates()
        values[key] = None if values[key] is None else int(values[key] == "yes")
        return values

    return store


STEPS = {
    "appeal": (forms.AppealForm, None, None, _store_appeal),
    "decision": (forms.DecisionForm, "appeal_filed_on", "appeal_filed_on", _store_yes_no("upheld")),
    "filing": (forms.FilingForm, "decided_on", "decided_on", _store_same),
    "access": (forms.AccessForm, None, None, _store_same),
    "corrected": (forms.CorrectedForm, None, None, _store_same),
    "completion": (forms.CompletionForm, None, None, _store_completion),
    "costs": (forms.CostNoticeForm, "completed_on", "completed_on", _store_same),
    "attorney": (forms.AttorneyForm, None, None, _store_yes_no("smo_concurs")),
    "tax": (forms.TaxForm, "cost_notice_mailed_on", "cost_notice_mailed_on", _store_same),
    "protest": (forms.ProtestDecisionForm, "protest_filed_on", "protest_filed_on", _store_same),
}
STEP_NAMES = {
    "appeal": "Appeal logged", "decision": "Board decision recorded",
    "filing": "Decision filing recorded", "access": "Access and court steps recorded",
    "corrected": "Correction by the respondent recorded",
    "completion": "Abatement completion recorded", "costs": "Cost notice recorded",
    "attorney": "Recommendation recorded", "tax": "Tax bill recorded",
    "conditions": "Conditions recorded", "protest": "Protest decision recorded",
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
        data["late_appeal_accepted"] = bool(steps.get("late_appeal_accepted"))
        if steps.get("work_cents") is not None:
            data["work"] = f"{steps['work_cents'] / 100:.2f}"
            data["admin"] = f"{(steps.get('admin_cents') or 0) / 100:.2f}"
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
                url_for("enforcement.notice_page", notice_id=notice_id, _anchor="remedies"),
                code=303,
            )
        return notice_page(notice_id, overrides={name: form})
    _, needs, _, store = STEPS[name]
    if needs and not steps.get(needs):
        flash("Record the step before this one first.", "error")
        return redirect(url_for("enforcement.notice_page", notice_id=notice_id), code=303)
    form = _step_form(name, notice, steps, submitted=True)
    if form.validate() and not _refused(name, form, _context(notice)["line"]):
        values = store(form)
        if name == "corrected":
            values["correction_checked_by"] = _actor()
        records.record_step(db, _actor(), notice, name, values)
        flash(f"{STEP_NAMES[name]}.", "success")
        return redirect(
            url_for("enforcement.notice_page", notice_id=notice_id, _anchor=f"step-{name}"),
            code=303,
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
            url_for("enforcement.notice_page", notice_id=notice_id, _anchor="costs"), code=303
        )
    return notice_page(notice_id, overrides={"payment": form})


def _costs(notice_id: int) -> str:
    return url_for("enforcement.notice_page", notice_id=notice_id, _anchor="costs")


def _payment(notice: dict[str, Any], payment_id: int) -> dict[str, Any]:
    found = records.one(get_db(), "SELECT * FROM payments WHERE id = ? AND notice_id = ?",
                        [payment_id, notice["id"]])  # fmt: skip
    if found is None or found["voided_at"]:
        abort(404)
    return found


@bp.route("/notices/<int:notice_id>/payments/<int:payment_id>/void", methods=["POST"])
def void_payment(notice_id: int, payment_id: int):
    """Void a payment recorded in error, with the reason (it stays on the record)."""
    notice = _notice(notice_id)
    payment = _payment(notice, payment_id)
    form = forms.ReasonForm(prefix=f"void-{payment_id}")
    if form.validate():
        records.void_payment(get_db(), _actor(), notice, payment, form.reason.data)
        flash("Payment voided.", "success")
        return redirect(_costs(notice_id), code=303)
    return notice_page(notice_id, overrides={f"void-{payment_id}": form})


@bp.route("/notices/<int:notice_id>/payments/<int:payment_id>/correct", methods=["POST"])
def correct_payment(notice_id: int, payment_id: int):
    """Replace a payment recorded wrongly by the right one, with the reason (both kept)."""
    notice = _notice(notice_id)
    payment = _payment(notice, payment_id)
    steps = records.steps(get_db(), notice_id)
    form = forms.CorrectPaymentForm(prefix=f"fix-{payment_id}")
    form.earliest, form.latest = day_of(steps["completed_on"]), local_today()
    if form.validate():
        records.add_payment(get_db(), _actor(), notice, form.paid_on.data,
                            forms.cents_of(form.amount.data), corrects=payment,
                            reason=form.reason.data)  # fmt: skip
        flash("Payment corrected.", "success")
        return redirect(_costs(notice_id), code=303)
    return notice_page(notice_id, overrides={f"correct-{payment_id}": form})


def _remedy_form(submitted: bool = False) -> forms.RemedyForm:
    form = forms.RemedyForm() if submitted else forms.RemedyForm(formdata=None)
    # The law's words without their list punctuation ("...workshops;"), as stored.
    form.kind.choices = [
        (text.rstrip(";,. "), f"{label} {text}") for label, text in provision_items("remedies")
    ]
    form.latest = local_today()
    return form


@bp.route("/notices/<int:notice_id>/remedies", methods=["POST"])
def add_remedy(notice_id: int):
    notice = _notice(notice_id)
    if not notice["issued_on"]:
        abort(404)
    form = _remedy_form(submitted=True)
    form.earliest = day_of(notice["issued_on"])
    refusals = _context(notice)["remedy_refusals"]
    if form.validate() and refusals:
        form.kind.errors = [
            f"A remedy in lieu of a civil penalty needs the recommendation, the concurrence and"
            f" the conditions: {'; '.join(refusals)}."
        ]
    elif form.validate():
        records.assign_remedy(
            get_db(), _actor(), notice, form.kind.data, form.details.data or None, form.due_on.data
        )
        flash("Remedy assigned.", "success")
        return redirect(
            url_for("enforcement.notice_page", notice_id=notice_id, _anchor="remedies"), code=303
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
    return redirect(
        url_for("enforcement.notice_page", notice_id=notice_id, _anchor="remedies"), code=303
    )


def _context(notice: dict[str, Any]) -> dict[str, Any]:
    """What every view of a notice shows: its violation, offense count, steps and dates."""
    db = get_db()
    enforcement, today = law(), local_today()
    calendar = current_app.extensions["calendar"]
    violation = _violation(notice["violation_id"])
    steps = records.steps(db, notice["id"]) if notice["issued_on"] else {}
    payments = records.payments(db, notice["id"])
    remedies = records.remedies(db, notice["id"])
    committed = day_of(violation["committed_on"])
    priors = people.priors(db, violation["respondent_id"], (today, enforcement.terms, calendar),
                           leave_out=violation["id"])  # fmt: skip
    offense = rules.offense_number(committed, priors, enforcement.terms)
    line = (
        timeline(notice, steps, payments, remedies, enforcement.terms, calendar, today)
        if steps else Timeline(notice, steps, today)
    )  # fmt: skip
    superseding = records.notice(db, notice["superseded_by"]) if notice["superseded_by"] else None
    superseded = records.notice(db, notice["supersedes"]) if notice["supersedes"] else None
    issued = day_of(notice["issued_on"])
    # What the letter prints: as issued, or (a draft) as the records say now. A notice issued
    # before letters were signed in the portal has a line for the name, never today's user.
    who = (
        signer() if not issued else {"title": current_app.extensions["content"].settings.smo_title}
    )
    live = records.letter_facts(violation, who)
    facts = notice["facts"] or live
    changed = [key for key in live if not key.startswith("signer") and live[key] != facts[key]]
    labels = [label for label, _ in provision_items("conditions")]
    held = [steps.get("conditions", {}).get(label, {}).get("holds", False) for label in labels]
    history = sum(p.established and p.committed < committed for p in priors)
    return {
        "notice": notice, "violation": violation, "steps": steps, "payments": payments,
        "remedies": remedies, "offense": offense, "line": line, "today": today,
        "access_block": access_block_words(line),
        "superseding": superseding, "superseded": superseded, "facts": facts,
        "changed_since_issue": changed if notice["facts"] else [],
        "orders": provision_items("orders"), "readings": readings.readings(enforcement.terms),
        "abatement_statement": enforcement.provisions["abatement_statement"].text,
        "conditions": provision_items("conditions"), "history_count": history,
        "remedy_refusals": rules.remedy_refusals(
            bool(steps.get("attorney_recommendation") and steps.get("attorney_recommended_on")),
            steps.get("smo_concurs") == 1, held, history,
            labels.index(enforcement.history_condition), enforcement.terms),
        "appeal_due": rules.appeal_window(issued, enforcement.terms, calendar) if issued else None,
        "warnings": rules.deadline_warnings(day_of(notice["deadline"]), issued or today,
                                            enforcement.terms, calendar),
    }  # fmt: skip


@bp.route("/notices/<int:notice_id>/")
def notice_page(notice_id: int, overrides: dict[str, FlaskForm] | None = None):
    notice = _notice(notice_id)
    context = _context(notice)
    steps = context["steps"]
    page_forms: dict[str, FlaskForm] = {}
    if not notice["issued_on"]:
        page_forms["draft"] = _notice_form(_draft_data(notice))
        page_forms["issue"] = _issue_form(notice)
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
        for payment in context["payments"]:
            pid = payment["id"]
            page_forms[f"void-{pid}"] = forms.ReasonForm(formdata=None, prefix=f"void-{pid}")
            page_forms[f"correct-{pid}"] = forms.CorrectPaymentForm(
                formdata=None, prefix=f"fix-{pid}", data={
                    "paid_on": day_of(payment["paid_on"]),
                    "amount": f"{payment['cents'] / 100:.2f}"})  # fmt: skip
    page_forms.update(overrides or {})
    status = 422 if overrides else 200
    return render_template("staff/enforcement/notice.html", forms=page_forms, **context), status


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
