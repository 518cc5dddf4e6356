"""The cost and remedy steps of a notice's page: payments recorded, voided and corrected, and
alternative remedies assigned and completed (the forms post here, the page shows them)."""

from __future__ import annotations

from typing import Any

from flask import abort, flash, redirect, url_for

from portal.core.clock import local_today
from portal.core.db import get_db, one
from portal.enforcement import cost_forms, forms, notices, payments, remedies
from portal.enforcement.blueprint import bp
from portal.enforcement.notice_page import page_model, render
from portal.enforcement.page_forms import remedy_form
from portal.enforcement.timeline import day_of
from portal.enforcement.workspace import actor, notice_or_404
from portal.staff.workflow import WorkflowError


@bp.route("/notices/<int:notice_id>/payments", methods=["POST"])
def add_payment(notice_id: int):
    notice = notice_or_404(notice_id)
    steps = notices.steps(get_db(), notice_id) if notice["issued_on"] else {}
    if not steps.get("completed_on"):
        abort(404)
    form = cost_forms.PaymentForm()
    form.earliest, form.latest = day_of(steps["completed_on"]), local_today()
    if form.validate():
        payments.add_payment(
            get_db(), actor(), notice, form.paid_on.data, cost_forms.cents_of(form.amount.data)
        )
        flash("Payment recorded.", "success")
        return redirect(
            url_for("enforcement.notice_page", notice_id=notice_id, _anchor="costs"), code=303
        )
    return render(notice, {"payment": form})


def _costs(notice_id: int) -> str:
    return url_for("enforcement.notice_page", notice_id=notice_id, _anchor="costs")


def _payment(notice: dict[str, Any], payment_id: int) -> dict[str, Any]:
    found = one(
        get_db(),
        "SELECT * FROM payments WHERE id = ? AND notice_id = ?",
        [payment_id, notice["id"]],
    )
    if found is None or found["voided_at"]:
        abort(404)
    return found


@bp.route("/notices/<int:notice_id>/payments/<int:payment_id>/void", methods=["POST"])
def void_payment(notice_id: int, payment_id: int):
    """Void a payment recorded in error, with the reason (it stays on the record)."""
    notice = notice_or_404(notice_id)
    payment = _payment(notice, payment_id)
    form = forms.ReasonForm(prefix=f"void-{payment_id}")
    if form.validate():
        payments.void_payment(get_db(), actor(), notice, payment, form.reason.data)
        flash("Payment voided.", "success")
        return redirect(_costs(notice_id), code=303)
    return render(notice, {f"void-{payment_id}": form})


@bp.route("/notices/<int:notice_id>/payments/<int:payment_id>/correct", methods=["POST"])
def correct_payment(notice_id: int, payment_id: int):
    """Replace a payment recorded wrongly by the right one, with the reason (both kept)."""
    notice = notice_or_404(notice_id)
    payment = _payment(notice, payment_id)
    steps = notices.steps(get_db(), notice_id)
    form = cost_forms.CorrectPaymentForm(prefix=f"fix-{payment_id}")
    form.earliest, form.latest = day_of(steps["completed_on"]), local_today()
    if form.validate():
        payments.add_payment(
            get_db(),
            actor(),
            notice,
            form.paid_on.data,
            cost_forms.cents_of(form.amount.data),
            corrects=payment,
            reason=form.reason.data,
        )
        flash("Payment corrected.", "success")
        return redirect(_costs(notice_id), code=303)
    return render(notice, {f"correct-{payment_id}": form})


@bp.route("/notices/<int:notice_id>/remedies", methods=["POST"])
def add_remedy(notice_id: int):
    notice = notice_or_404(notice_id)
    if not notice["issued_on"]:
        abort(404)
    form = remedy_form(submitted=True)
    form.earliest = day_of(notice["issued_on"])
    context = page_model(notice)
    refusals = context["remedy_refusals"]
    if form.validate() and refusals:
        form.kind.errors = [
            f"A remedy in lieu of a civil penalty needs the recommendation, the concurrence and"
            f" the conditions: {'; '.join(refusals)}."
        ]
    elif form.validate():
        remedies.assign_remedy(
            get_db(), actor(), notice, form.kind.data, form.details.data or None, form.due_on.data
        )
        flash("Remedy assigned.", "success")
        return redirect(
            url_for("enforcement.notice_page", notice_id=notice_id, _anchor="remedies"), code=303
        )
    return render(notice, {"remedy": form}, context)


@bp.route("/notices/<int:notice_id>/remedies/<int:remedy_id>/done", methods=["POST"])
def remedy_done(notice_id: int, remedy_id: int):
    notice = notice_or_404(notice_id)
    form = forms.RemedyDoneForm()
    form.earliest, form.latest = day_of(notice["issued_on"]), local_today()
    if form.validate():
        try:
            remedies.complete_remedy(get_db(), actor(), notice, remedy_id, form.completed_on.data)
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
