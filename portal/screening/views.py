"""Dry-weather screening in the staff workspace: picking the outfall (nearest by GPS, or by
its id) and the field sheet. A saved sheet's page, its void and correction, and its case are
in saved_views.py; the rotation's due list and a day's route in route_views.py, all on the
same blueprint."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)

from portal.accounts.auth import current_staff, staff_name
from portal.core.cases import new_submission_key
from portal.core.clock import local_now, local_stamp, local_today
from portal.core.db import get_db, insert, rows, transaction, value
from portal.core.display import day
from portal.intake.pending import SUBMISSION_KEY, keep_photos
from portal.intake.storage import move_pending_photos
from portal.outfalls import inventory, rotation
from portal.screening import ori, sheet
from portal.web.routes import NO_STORE, declare, declare_blueprint

# Staff pages: what they show stays off a shared computer's disk and back button.
bp = Blueprint("screening", __name__, url_prefix="/staff/screenings")
declare_blueprint(bp, caching=NO_STORE)
NEAREST = 10
NEAREST_WITHIN_M = 3000


def rotation_rule():
    """The rotation's settings (content/outfalls.yaml)."""
    return current_app.extensions["outfalls"]


def place_asked(args: Any) -> tuple[float, float] | None:
    """A latitude and longitude from the query string, if both are numbers in range."""
    try:
        lat, lon = float(args.get("lat", "")), float(args.get("lon", ""))
    except ValueError:
        return None
    return (lat, lon) if -90 <= lat <= 90 and -180 <= lon <= 180 else None


def _with_turns(db: Any, near: list[dict[str, Any]]) -> None:
    """Each outfall listed with its `turn` in the rotation: which of them it wants, at a
    headwall with three pipes in view (officer's week 2026-12-03 F4)."""
    if not near:
        return
    marks = ", ".join("?" for _ in near)
    ids = tuple(outfall["id"] for outfall in near)
    found = rotation.turns(db, rotation_rule(), local_today(), f"o.id IN ({marks})", ids)
    turns = {row["id"]: row["turn"] for row in found}
    for outfall in near:
        outfall["turn"] = turns.get(outfall["id"])


@bp.route("/")
def pick():
    """Which outfall: the nearest to where the phone is, or the one whose id is typed."""
    db = get_db()
    typed = " ".join(request.args.get("q", "").split())[:40]
    matches = []
    if typed:
        exact = inventory.by_code(db, typed)
        if exact:
            return redirect(url_for("screening.new_sheet", outfall_id=exact["id"]))
        matches = rows(
            db,
            "SELECT id, code, structure_type, location, receiving_water FROM outfalls"
            " WHERE code LIKE ? OR location LIKE ? ORDER BY code LIMIT 20",
            [f"%{typed}%", f"%{typed}%"],
        )
    place = place_asked(request.args)
    near = []
    if place:
        near = inventory.nearest(
            db, *place, limit=NEAREST, within_m=NEAREST_WITHIN_M, outfalls_only=True
        )
        _with_turns(db, near)
    recent = rows(
        db,
        "SELECT s.id, s.screened_at, s.overall, s.voided_at, s.wet_weather, o.code"
        " FROM screenings s JOIN outfalls o ON o.id = s.outfall_id"
        " ORDER BY s.screened_at DESC, s.id DESC LIMIT 10",
    )
    return render_template(
        "staff/outfalls/pick.html",
        typed=typed,
        matches=matches,
        place=place,
        near=near,
        within=NEAREST_WITHIN_M,
        recent=recent,
        overall_words=dict(sheet.OVERALL),
        bad_place=bool(request.args.get("lat") or request.args.get("lon")) and not place,
    )


def outfall_of(outfall_id: int) -> dict[str, Any]:
    return inventory.get(get_db(), outfall_id) or abort(404)


def _blank_sheet() -> sheet.SheetForm:
    return sheet.SheetForm(
        formdata=None,
        data={
            "screened_at": local_now().replace(tzinfo=None, second=0),
            "inspector": staff_name(),
            "sheet_key": new_submission_key(),
        },
    )


def _sheet_page(outfall, form, photos=(), status: int = 200, expired: bool = False):
    return render_template(
        "staff/outfalls/sheet.html",
        outfall=outfall,
        form=form,
        kept=list(photos),
        indicators=ori.INDICATORS,
        sheet_targets=sheet.TARGETS,
        rule=rotation_rule(),
        expired=expired,
        fresh=request.method == "GET",
    ), status


def _retired_problem(outfall: dict[str, Any], screened_at: Any) -> str | None:
    """A structure retired is out of the inventory from its retirement day: a sheet of that
    day or later is refused (else a retired outfall's screening is counted); one
    made before it, typed late, is the structure's history and is kept."""
    retired_on = outfall.get("retired_on")
    if not retired_on or not isinstance(screened_at, dt.datetime):
        return None
    if screened_at.date().isoformat() < retired_on:
        return None
    return (
        f"{outfall['code']} was retired on {day(retired_on)}: a screening from that day on is"
        " not of the inventory. Bring it back into service on its page first."
    )


@bp.route("/outfall/<int:outfall_id>/new", methods=["GET"])
@declare(photo_previews=True)
def new_sheet(outfall_id: int):
    return _sheet_page(outfall_of(outfall_id), _blank_sheet())


@bp.route("/outfall/<int:outfall_id>/new", methods=["POST"])
@declare(photo_previews=True, on_expired=lambda: expired())
def submit(outfall_id: int):
    outfall = outfall_of(outfall_id)
    form = sheet.SheetForm()
    if not SUBMISSION_KEY.match(form.sheet_key.data or ""):
        form.sheet_key.data = new_submission_key()
    db = get_db()
    sent = value(db, "SELECT id FROM screenings WHERE sheet_key = ?", [form.sheet_key.data])
    if sent is not None:
        # Sent again (a retry on a weak signal after the first one arrived): one screening.
        return redirect(url_for("screening.saved", screening_id=sent), code=303)
    valid = form.validate()
    retired = _retired_problem(outfall, form.screened_at.data)
    if retired and not form.screened_at.errors:
        form.screened_at.errors = [*form.screened_at.errors, retired]
        valid = False
    photos, errors = keep_photos(form, form.sheet_key.data)
    if not valid or errors:
        form.photos.errors = [*form.photos.errors, *errors]
        form.kept_photos.data = ",".join(photo["id"] for photo in photos)
        return _sheet_page(outfall, form, photos, 422)
    actor = current_staff()["username"]
    values = {"outfall_id": outfall_id, **sheet_values(form)}
    # The same sheet saved again under a new key (Back after Save brings the sheet back with
    # a fresh one): the same outfall, minute, inspector and every
    # answer is the screening already stored, not a second one.
    same = " AND ".join(f"{name} IS ?" for name in values)
    same_sheet = value(
        db, f"SELECT id FROM screenings WHERE {same} AND voided_at IS NULL", list(values.values())
    )
    if same_sheet is not None:
        flash("This screening was saved already: nothing new was stored.", "success")
        return redirect(url_for("screening.saved", screening_id=same_sheet), code=303)
    with transaction(db):
        screening = insert(
            db,
            "screenings",
            {
                **values,
                "sheet_key": form.sheet_key.data,
                "recorded_at": local_stamp(),
                "recorded_by": actor,
            },
        )
        ids = [photo["id"] for photo in photos]
        move_pending_photos(
            db, "screening_photos", "screening_id", screening, ids, form.sheet_key.data
        )
    flash(
        f"Screening of {outfall['code']} saved"
        + (" as a wet-weather visit." if values["wet_weather"] else "."),
        "success",
    )
    return redirect(url_for("screening.saved", screening_id=screening, recorded=1), code=303)


def sheet_values(form: sheet.SheetForm) -> dict[str, Any]:
    """The screening's columns, as the sheet (or its correction) gives them."""
    hours, inches = _float(form.hours_since_rain.data), _float(form.rain_inches.data)
    return {
        "screened_at": form.screened_at.data.isoformat(timespec="minutes"),
        "inspector": form.inspector.data.strip(),
        "hours_since_rain": hours,
        "rain_inches": inches,
        "flow": form.flow.data,
        "observations": json.dumps(form.observations(), sort_keys=True),
        "notes": (form.notes.data or "").strip() or None,
        "overall": form.overall.data,
        "wet_weather": int(rotation_rule().wet_weather(hours, inches)),
        # The inventory's fields added in the sheet's second version (portal/screening/ori.py).
        "air_temperature_f": _float(form.air_temperature_f.data),
        # Each list in the sheet's order, whatever the order sent.
        **{
            name: json.dumps(
                [code for code, _ in pairs if code in (getattr(form, name).data or [])]
            )
            for name, pairs in ori.LISTS.items()
        },
        "known_industries": form.known_industries.data or None,
        "submerged_water": form.submerged_water.data,
        "submerged_sediment": form.submerged_sediment.data,
        "flow_trap": form.flow_trap.data,
        "call_reason": form.call_reason.data or None,
    }


def _float(number: Any) -> float | None:
    return None if number is None else float(number)


def expired():
    """The sheet again after a stale CSRF token (hours at the outfalls), with what was typed."""
    outfall_id = (request.view_args or {}).get("outfall_id")
    outfall = outfall_of(outfall_id)
    form = sheet.SheetForm()
    if not SUBMISSION_KEY.match(form.sheet_key.data or ""):
        form.sheet_key.data = new_submission_key()
    photos, errors = keep_photos(form, form.sheet_key.data)
    form.photos.errors = errors
    form.kept_photos.data = ",".join(photo["id"] for photo in photos)
    return _sheet_page(outfall, form, photos, 400, expired=True)
