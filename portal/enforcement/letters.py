"""The papers the officer prints, signs and sends, each on at most two Letter pages: the notice
of violation, the statement of account, the cost notice, the request for access to abate
(corrective measures) and the request for access to inspect (access and monitoring); and the
officer's own name and title for signing them.

Each paper is kept as printed when the step that sends it is recorded (papers.py), and its
reprint is that copy; a paper sent before papers were kept is drawn from the records as they
are now, and says so."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for
from flask_wtf import FlaskForm
from wtforms import SelectField

from portal.accounts.auth import current_staff
from portal.core.clock import local_today
from portal.core.db import get_db, transaction
from portal.enforcement import cost_forms, costs, forms, notices, papers, violations
from portal.enforcement.blueprint import bp
from portal.enforcement.notice_page import access_block_words, page_model
from portal.enforcement.timeline import day_of
from portal.enforcement.workspace import actor, law, notice_or_404, signer, violation_or_404


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


def _notice_context(notice: dict[str, Any]) -> dict[str, Any]:
    """The notice of violation as a letter: signed as issued."""
    context = page_model(notice)
    facts = context["facts"]
    context["signed"] = {"name": facts["signer_name"], "title": facts["signer_title"]}
    return context


def _cost_context(notice: dict[str, Any]) -> dict[str, Any]:
    context = page_model(notice)
    if context["line"].account is None:
        abort(404)
    context["to"] = violations.addressee(context["violation"])
    context["letter_date"] = day_of(context["steps"]["cost_notice_mailed_on"]) or local_today()
    # As mailed: what pays everything on the first due date the notice prints, no payment made.
    line = context["line"]
    first = line.printed_schedule[0].due if line.printed_schedule else line.protest_printed
    _payoff(context, line.charge_mailed, first, [])
    return context


def _access_context(notice: dict[str, Any]) -> dict[str, Any]:
    if not notice["issued_on"]:
        abort(404)
    context = page_model(notice)
    context["to"] = violations.addressee(context["violation"])
    context["purpose"] = "abate"
    context["letter_date"] = day_of(context["steps"]["access_requested_on"]) or local_today()
    return context


def _payoff(context: dict[str, Any], charge: int | None, day: dt.date | None, made: list) -> None:
    """The amount that pays everything on `day`, by the account's one rule, of `charge` after
    the payments `made`: on the page as `payoff` and `payoff_on`."""
    completed = day_of(context["steps"]["completed_on"])
    context["payoff_on"] = day
    owed = costs.payoff(charge, completed, made, day, law().terms) if day and charge else 0
    context["payoff"] = owed


def _statement_context(notice: dict[str, Any]) -> dict[str, Any]:
    context = page_model(notice)
    if context["line"].account is None:
        abort(404)
    context["to"] = violations.addressee(context["violation"])
    context["mailed"] = papers.kept(get_db(), notice["id"], "statement")
    # The day asked for (today or later), else today; a day refused shows its error.
    asked = cost_forms.PayoffForm(request.args, meta={"csrf": False})
    asked.earliest = context["today"]
    chosen = request.args.get("on") and asked.validate()
    if not request.args.get("on"):
        asked = cost_forms.PayoffForm(formdata=None, data={"on": context["today"]})
    context["payoff_form"] = asked
    line = context["line"]
    _payoff(context, line.charge, asked.on.data if chosen else context["today"], line.made)
    return context


def _cost_facts(context: dict[str, Any]) -> dict[str, Any]:
    """What the cost notice printed that the rules read back (the protest date, the charge,
    the payments): the dates and amounts the owner holds."""
    line, steps = context["line"], context["steps"]
    return {
        "completed_on": steps["completed_on"],
        "work_cents": steps["work_cents"],
        "admin_cents": steps["admin_cents"],
        "charge_cents": line.charge_mailed,
        "protest_by": line.protest_printed,
        "payment_count": steps["payment_count"],
        "schedule": [[i.number, i.due.isoformat(), i.cents] for i in line.printed_schedule],
        "last_interest": line.printed_last_interest,
    }


@dataclass(frozen=True)
class Letter:
    """A paper's template, its page model, what of it the rules read back once kept, the
    step column recording the day it was sent, and how it goes out by default."""

    template: str
    context: Callable[[dict[str, Any]], dict[str, Any]]
    facts: Callable[[dict[str, Any]], dict[str, Any]]
    sent: Callable[[dict[str, Any]], str | None]
    method: Callable[[dict[str, Any]], str | None] = lambda notice: None


LETTERS = {
    "notice": Letter(
        "staff/enforcement/letter.html",
        _notice_context,
        lambda c: {"issued_on": c["notice"]["issued_on"], "appeal_due": c["appeal_due"]},
        lambda c: c["notice"]["issued_on"],
    ),
    "cost-notice": Letter(
        "staff/enforcement/cost_letter.html",
        _cost_context,
        _cost_facts,
        lambda c: c["steps"]["cost_notice_mailed_on"],
        lambda notice: law().service_methods[-1],
    ),
    "access": Letter(
        "staff/enforcement/access_letter.html",
        _access_context,
        lambda c: {"correction": c["line"].correction},
        lambda c: c["steps"]["access_requested_on"],
        lambda notice: notice["service_method"],
    ),
    "statement": Letter(
        "staff/enforcement/statement.html",
        _statement_context,
        lambda c: {"as_of": c["today"], "balance_cents": c["line"].account.balance},
        lambda c: None,
    ),
}
ARTICLE = re.compile(r'<article class="letter[ "].*?</article>', re.S)


def _page(kind: str, context: dict[str, Any], notice: dict[str, Any]) -> str:
    letter = LETTERS[kind]
    context.setdefault("unkept", None)
    context.setdefault("unkept_title", papers.KINDS[kind].title)
    if kind == "notice":
        return render_template(letter.template, **context)
    return _letter(letter.template, context, letter.method(notice))


def keep_paper(kind: str, notice_id: int, sent_on: dt.date) -> None:
    """Keep the paper as it prints now (called inside the transaction of the step that sends
    it, once that step is written): the letter itself, and the facts the rules read back."""
    db = get_db()
    notice = notices.notice(db, notice_id)
    context = LETTERS[kind].context(notice)
    html = ARTICLE.search(_page(kind, context, notice)).group(0)
    papers.keep(db, actor(), notice, kind, sent_on, html, LETTERS[kind].facts(context))


def _reprint(kind: str, notice: dict[str, Any], check: Callable | None = None):
    """The paper as kept when it was sent; or, not kept, drawn from the records now: then,
    if it was sent, it says that no copy was kept (`unkept`: the day it was sent)."""
    kept = papers.latest(get_db(), notice["id"], kind)
    if kept:
        return _kept_page(notice, kept)
    context = LETTERS[kind].context(notice)
    if check and (refused := check(context)):
        return refused
    context["unkept"] = LETTERS[kind].sent(context)
    return _page(kind, context, notice)


def _kept_page(notice: dict[str, Any], kept: dict[str, Any]) -> str:
    violation = violation_or_404(notice["violation_id"])
    return render_template(
        "staff/enforcement/paper.html", notice=notice, paper=kept, violation=violation
    )


@bp.route("/notices/<int:notice_id>/letter")
def notice_letter(notice_id: int):
    """The notice of violation as a letter, for printing on Letter paper."""
    return _reprint("notice", notice_or_404(notice_id))


@bp.route("/notices/<int:notice_id>/statement")
def statement(notice_id: int):
    """The statement of account of the cost of abatement, for the owner, as of today."""
    notice = notice_or_404(notice_id)
    return _page("statement", _statement_context(notice), notice)


@bp.route("/notices/<int:notice_id>/statement/mailed", methods=["POST"])
def statement_mailed(notice_id: int):
    """Keep today's statement of account as mailed today."""
    notice = notice_or_404(notice_id)  # (the form's CSRF token is checked app-wide)
    with transaction(get_db()):
        keep_paper("statement", notice_id, local_today())
    flash("The statement is kept as mailed today.", "success")
    return redirect(url_for("enforcement.statement", notice_id=notice["id"]), code=303)


@bp.route("/notices/<int:notice_id>/papers/<int:paper_id>")
def paper(notice_id: int, paper_id: int):
    """A paper as it was sent (kept when the step that sent it was recorded)."""
    notice = notice_or_404(notice_id)
    return _kept_page(notice, papers.paper(get_db(), notice_id, paper_id) or abort(404))


@bp.route("/notices/<int:notice_id>/cost-letter")
def cost_letter(notice_id: int):
    """The cost notice to the owner: what the abatement cost, the protest, the payments, the
    interest, and what follows if it is not paid."""
    return _reprint("cost-notice", notice_or_404(notice_id))


def _access_refused(context: dict[str, Any]):
    # Corrective measures, A: the request follows only a missed correction date (a request
    # already recorded prints again as it was).
    why = access_block_words(context["line"])
    if why and not context["steps"]["access_requested_on"]:
        flash(
            f"{why}: the letter asking for access to abate follows only a missed correction date.",
            "error",
        )
        notice_id = context["notice"]["id"]
        return redirect(url_for("enforcement.notice_page", notice_id=notice_id), code=303)
    return None


@bp.route("/notices/<int:notice_id>/access-letter")
def access_letter(notice_id: int):
    """The request for the owner's permission to enter and abate (corrective measures)."""
    return _reprint("access", notice_or_404(notice_id), _access_refused)


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
        # Not a step of a notice: the letter is not kept (what it asks is on the case).
        "unkept": None,
        "unkept_title": "",
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
