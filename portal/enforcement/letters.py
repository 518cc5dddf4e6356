"""The papers the officer prints, signs and sends, each on at most two Letter pages: the notice
of violation, the statement of account, the cost notice, the request for access to abate
(corrective measures) and the request for access to inspect (access and monitoring); and the
officer's own name and title for signing them."""

from __future__ import annotations

from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for
from flask_wtf import FlaskForm
from wtforms import SelectField

from portal.accounts.auth import current_staff
from portal.core.clock import local_today
from portal.core.db import get_db, transaction
from portal.enforcement import forms, violations
from portal.enforcement.blueprint import bp
from portal.enforcement.notice_page import access_block_words, page_model
from portal.enforcement.timeline import day_of
from portal.enforcement.workspace import law, notice_or_404, signer, violation_or_404


class LetterOptions(FlaskForm):
    """How a printed letter goes out (chosen on the page, never stored: the step the letter
    belongs to records its date)."""

    class Meta:
        csrf = False  # a GET form that changes nothing

    method = SelectField("How it is sent", validate_choice=True)


def _options(default: str | None) -> LetterOptions:
    methods = law().service_methods
    form = LetterOptions(request.args, meta={"csrf": False})
    form.method.choices = [(m, m) for m in methods]
    if not form.validate():  # nothing chosen, or a value that is not one of the methods
        form = LetterOptions(formdata=None, data={"method": default or methods[0]})
        form.method.choices = [(m, m) for m in methods]
    return form


def _letter(template: str, context: dict[str, Any], default_method: str | None = None):
    context.setdefault("signed", signer())
    return render_template(template, options=_options(default_method), **context)


@bp.route("/notices/<int:notice_id>/letter")
def notice_letter(notice_id: int):
    """The notice of violation as a letter, for printing on Letter paper."""
    context = page_model(notice_or_404(notice_id))
    facts = context["facts"]
    context["signed"] = {"name": facts["signer_name"], "title": facts["signer_title"]}
    return render_template("staff/enforcement/letter.html", **context)


@bp.route("/notices/<int:notice_id>/statement")
def statement(notice_id: int):
    """The statement of account of the cost of abatement, for the owner."""
    context = page_model(notice_or_404(notice_id))
    if context["line"].account is None:
        abort(404)
    context["to"] = violations.addressee(context["violation"])
    return render_template("staff/enforcement/statement.html", **context)


@bp.route("/notices/<int:notice_id>/cost-letter")
def cost_letter(notice_id: int):
    """The cost notice to the owner: what the abatement cost, the protest, the payments, the
    interest, and what follows if it is not paid."""
    context = page_model(notice_or_404(notice_id))
    if context["line"].account is None:
        abort(404)
    steps = context["steps"]
    context["to"] = violations.addressee(context["violation"])
    context["letter_date"] = day_of(steps["cost_notice_mailed_on"]) or local_today()
    return _letter("staff/enforcement/cost_letter.html", context, law().service_methods[-1])


@bp.route("/notices/<int:notice_id>/access-letter")
def access_letter(notice_id: int):
    """The request for the owner's permission to enter and abate (corrective measures)."""
    notice = notice_or_404(notice_id)
    if not notice["issued_on"]:
        abort(404)
    context = page_model(notice)
    # Corrective measures, A: the request follows only a missed correction date (a request
    # already recorded prints again as it was).
    why = access_block_words(context["line"])
    if why and not context["steps"]["access_requested_on"]:
        flash(
            f"{why}: the letter asking for access to abate follows only a missed correction date.",
            "error",
        )
        return redirect(url_for("enforcement.notice_page", notice_id=notice_id), code=303)
    context["to"] = violations.addressee(context["violation"])
    context["purpose"] = "abate"
    context["letter_date"] = day_of(context["steps"]["access_requested_on"]) or local_today()
    return _letter("staff/enforcement/access_letter.html", context, notice["service_method"])


@bp.route("/violations/<int:violation_id>/inspection-letter")
def inspection_letter(violation_id: int):
    """The request for access to inspect and sample (access and monitoring of discharges)."""
    violation = violation_or_404(violation_id)
    # Facility operators are to allow access (access and monitoring, B (2)): the respondent.
    to = (violation["respondent_name"], violation["mailing_address"])
    context = {
        "violation": violation,
        "to": to,
        "purpose": "inspect",
        "letter_date": local_today(),
        "notice": None,
    }
    return _letter("staff/enforcement/access_letter.html", context)


@bp.route("/enforcement/signature", methods=["GET", "POST"])
def letter_signature():
    """The officer's name and title as printed under the signature line of letters."""
    form = forms.SignatureForm(
        formdata=None if request.method == "GET" else request.form,
        data={"letter_name": signer()["name"], "letter_title": signer()["title"]},
    )
    if request.method == "POST" and form.validate():
        with transaction(get_db()) as db:
            db.execute(
                "UPDATE staff SET letter_name = ?, letter_title = ? WHERE id = ?",
                [form.letter_name.data, form.letter_title.data, current_staff()["id"]],
            )
        flash("Your name and title for letters are saved.", "success")
        back = request.args.get("next", "")
        if back.startswith("/staff/") and not back.startswith("//"):
            return redirect(back, code=303)
        return redirect(url_for("enforcement.letter_signature"), code=303)
    status = 422 if form.errors else 200
    return render_template("staff/enforcement/signature.html", form=form), status
