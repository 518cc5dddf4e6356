"""The officer's triage on a case page: the hazard flag set or cleared by hand, and a call the
municipality made recorded (portal/staff/village_calls.py holds the forms and what the page shows).
Each kept in the case's audit log with who and when."""

from __future__ import annotations

from flask import flash, redirect, request, url_for

from portal.accounts.auth import current_staff
from portal.core.clock import local_stamp
from portal.core.db import get_db, insert, transaction
from portal.intake.fields import options
from portal.staff import cases
from portal.staff.blueprint import bp
from portal.staff.danger import forget_hazards
from portal.staff.village_calls import HazardFlagForm, VillageCallForm, called_choices
from portal.staff.workflow import log


@bp.route("/cases/<int:case_id>/hazard", methods=["POST"])
def hazard_flag(case_id: int):
    """Set or clear the hazard flag (or give it back to the rules): the queue and every list
    follow it from the next refresh."""
    case = cases.get_case(case_id)
    form = HazardFlagForm(request.form)
    if not form.validate():
        return cases.render_case_page(case, cases.case_form(case), status=422, flag_form=form)
    wanted = form.hazard_call.data or None
    if wanted == case["hazard_call"]:
        flash("The hazard flag is as it was: nothing was saved.", "success")
    else:
        db = get_db()
        with transaction(db):
            db.execute("UPDATE cases SET hazard_call = ? WHERE id = ?", [wanted, case_id])
            forget_hazards(db, case_id)
            reason = (form.reason.data or "").strip()
            log(
                db,
                case_id,
                current_staff()["username"],
                "hazard_flag",
                **{"from": case["hazard_call"], "to": wanted, "reason": reason},
            )
        flash("Hazard flag saved.", "success")
    return redirect(url_for("staff.case", case_id=case_id, _anchor="hazard"), code=303)


@bp.route("/cases/<int:case_id>/calls", methods=["POST"])
def village_call(case_id: int):
    """A call the municipality made about the case: whom, when, who, the State's spill number."""
    case = cases.get_case(case_id)
    form = VillageCallForm(request.form)
    form.called.choices = options(called_choices())
    if not form.validate():
        return cases.render_case_page(case, cases.case_form(case), status=422, call_form=form)
    actor = current_staff()["username"]
    db = get_db()
    with transaction(db):
        call = {
            "case_id": case_id,
            "called": form.called.data,
            "other": (form.other.data or "").strip() or None,
            "called_at": form.called_at.data.isoformat(timespec="minutes"),
            "called_by": form.called_by.data.strip(),
            "spill_number": (form.spill_number.data or "").strip() or None,
            "notes": (form.notes.data or "").strip() or None,
            "recorded_at": local_stamp(),
            "recorded_by": actor,
        }
        insert(db, "village_calls", call)
        whom = call["other"] or dict(called_choices())[call["called"]]
        kept = ("called", "called_at", "called_by", "spill_number")
        log(db, case_id, actor, "village_call", whom=whom, **{k: call[k] for k in kept})
    flash("Call recorded.", "success")
    return redirect(url_for("staff.case", case_id=case_id, _anchor="hazard"), code=303)
