"""A saved screening in the staff workspace: its page, its void and its correction, the case
opened from it or linked to it, and its photos. On the blueprint of views.py."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from typing import Any

from flask import (
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)

from portal.accounts.auth import current_staff
from portal.core.clock import local_now, local_today
from portal.core.db import get_db, one, rows
from portal.core.display import sentence
from portal.outfalls import rotation
from portal.screening import cases, corrections, ori, record, sheet
from portal.screening.views import bp, outfall_of, rotation_rule, sheet_values
from portal.staff.cases import photo_response


def screening_of(screening_id: int) -> dict[str, Any]:
    db = get_db()
    row = one(db, "SELECT * FROM screenings WHERE id = ?", [screening_id])
    if row is None:
        abort(404)
    row["observations"] = json.loads(row["observations"])
    row["photos"] = rows(
        db,
        "SELECT id, position, width, height FROM screening_photos WHERE screening_id = ?"
        " ORDER BY position",
        [screening_id],
    )
    return row


@bp.route("/<int:screening_id>/")
def saved(
    screening_id: int,
    link_error: str | None = None,
    typed: str = "",
    status: int = 200,
    void_form: sheet.VoidForm | None = None,
):
    screening = screening_of(screening_id)
    outfall = outfall_of(screening["outfall_id"])
    db = get_db()
    turn = rotation.turn_of(db, outfall, rotation_rule(), local_today())
    case = None
    if screening["case_id"]:
        case = one(
            db, "SELECT id, reference, status FROM cases WHERE id = ?", [screening["case_id"]]
        )
    return render_template(
        "staff/outfalls/saved.html",
        screening=screening,
        outfall=outfall,
        case=case,
        link_error=link_error,
        typed=typed,
        turn=turn,
        rule=rotation_rule(),
        flows=dict(sheet.FLOWS),
        overall_words=dict(sheet.OVERALL),
        follow_up=screening["overall"] in sheet.FOLLOW_UP,
        indicators=sheet.indicator_lines(screening["observations"]),
        tests=sheet.test_lines(screening["observations"]),
        void_form=void_form or sheet.VoidForm(formdata=None),
        changes=corrections.history(db, screening_id),
        labels=CHANGE_LABELS,
        **record_context(screening),
    ), status


def record_context(screening: dict[str, Any]) -> dict[str, Any]:
    """What the page and the print both show of the inventory's added fields, the call
    against the signs and the hazard."""
    return {
        "ori_rows": record.ori_rows(screening),
        "call_check": record.call_against_signs(screening),
        "hazards": record.hazards(screening),
    }


# What the screening's history calls each column a correction changed.
CHANGE_LABELS = {
    "screened_at": "Date and time",
    "inspector": "Screened by",
    "hours_since_rain": "Hours since the last rain",
    "rain_inches": "Rain (inches)",
    "flow": "Flow",
    "observations": "Observations and field tests",
    "notes": "Notes",
    "overall": "Overall call",
    "wet_weather": "Wet weather",
    "air_temperature_f": "Air temperature (°F)",
    "land_use": "Land use",
    "known_industries": "Known industries",
    "submerged_water": "Submerged in water",
    "submerged_sediment": "Submerged in sediment",
    "pool_quality": "Poor pool quality",
    "benthic_growth": "Pipe benthic growth",
    "flow_trap": "Intermittent flow trap",
    "call_reason": "Why the call is lower than what was seen",
}


@bp.route("/<int:screening_id>/void", methods=["POST"])
def void(screening_id: int):
    """Void the screening, with the reason: kept and shown, counted nowhere."""
    screening = screening_of(screening_id)
    form = sheet.VoidForm()
    if not form.validate():
        return saved(screening_id, status=422, void_form=form)
    try:
        corrections.void(get_db(), screening, current_staff()["username"], form.reason.data)
    except corrections.AlreadyVoid as done:
        flash(str(done), "success")
    else:
        flash("The screening is void: it stays on record, and is no longer counted.", "success")
    return redirect(url_for("screening.saved", screening_id=screening_id), code=303)


def _correction_page(screening, form, status: int = 200):
    return render_template(
        "staff/outfalls/correct.html",
        screening=screening,
        outfall=outfall_of(screening["outfall_id"]),
        form=form,
        indicators=ori.INDICATORS,
        sheet_targets=sheet.TARGETS,
        rule=rotation_rule(),
        wet=bool(form.wet_ok.errors),
    ), status


@bp.route("/<int:screening_id>/correct", methods=["GET", "POST"])
def correct(screening_id: int):
    """Correct the screening's fields, with the reason (its history keeps the old values)."""
    screening = screening_of(screening_id)
    if screening["voided_at"]:
        abort(409, "A void screening is not corrected: it stays as it was voided.")
    if request.method == "GET":
        form = sheet.CorrectionForm(formdata=None, data=_sheet_data(screening))
        return _correction_page(screening, form)
    form = sheet.CorrectionForm()
    if not form.validate():
        return _correction_page(screening, form, 422)
    changed = corrections.correct(
        get_db(), screening, sheet_values(form), current_staff()["username"], form.reason.data
    )
    flash(
        "The screening is corrected: its history below keeps what it said before."
        if changed
        else "Nothing differed from the saved screening: nothing was changed.",
        "success",
    )
    return redirect(url_for("screening.saved", screening_id=screening_id), code=303)


def _sheet_data(screening: dict[str, Any]) -> dict[str, Any]:
    """A saved screening as the sheet's fields (the correction form starts from it)."""
    seen = screening["observations"]
    data = {
        "screened_at": dt.datetime.fromisoformat(screening["screened_at"]),
        "inspector": screening["inspector"],
        "hours_since_rain": screening["hours_since_rain"],
        "rain_inches": screening["rain_inches"],
        "flow": screening["flow"],
        "notes": screening["notes"],
        "overall": screening["overall"],
        "flow_gpm": seen.get("flow_gpm"),
        "wet_ok": bool(screening["wet_weather"]),
        "air_temperature_f": screening["air_temperature_f"],
        "known_industries": screening["known_industries"],
        "submerged_water": screening["submerged_water"],
        "submerged_sediment": screening["submerged_sediment"],
        "flow_trap": screening["flow_trap"],
        "call_reason": screening["call_reason"],
        **{name: json.loads(screening[name] or "[]") for name in ori.LISTS},
    }
    for name in ori.MEASURES:
        data[name] = seen.get(name)
    for name in ori.INDICATORS:
        data[name] = seen.get(name, "none")
        if f"{name}_severity" in seen:
            data[f"{name}_severity"] = str(seen[f"{name}_severity"])
    for name in sheet.TESTS:
        data[name] = seen.get(name)
    return {k: (Decimal(str(v)) if isinstance(v, float) else v) for k, v in data.items()}


@bp.route("/<int:screening_id>/case", methods=["POST"])
def open_case(screening_id: int):
    """One tap: the case following this screening up, opened now or found (a second tap)."""
    screening = screening_of(screening_id)
    outfall = outfall_of(screening["outfall_id"])
    stored = cases.open_case(
        get_db(),
        screening,
        outfall,
        actor=current_staff()["username"],
        secret=current_app.secret_key,
        now=local_now(),
    )
    if stored.created:
        flash(
            sentence(f"Case {stored.reference} opened from the screening of {outfall['code']}"),
            "success",
        )
    return redirect(url_for("staff.case", case_id=stored.case_id), code=303)


@bp.route("/<int:screening_id>/link", methods=["POST"])
def link_case(screening_id: int):
    """Link the screening to a case there already, picked by its reference."""
    screening = screening_of(screening_id)
    outfall = outfall_of(screening["outfall_id"])
    typed = request.form.get("reference", "")[:40]
    try:
        case = cases.link_case(
            get_db(), screening, outfall, typed, actor=current_staff()["username"]
        )
    except cases.LinkError as error:
        return saved(screening_id, link_error=str(error), typed=typed, status=422)
    flash(
        sentence(f"The screening of {outfall['code']} is linked to {case['reference']}"), "success"
    )
    return redirect(url_for("screening.saved", screening_id=screening_id), code=303)


@bp.route("/photos/<int:photo_id>")
def photo(photo_id: int):
    return photo_response("screening_photos", photo_id, "screening")
