"""The inventory in the staff workspace: the list, one structure, its edit form and photos,
the import page, and the GeoJSON for staff."""

from __future__ import annotations

import datetime as dt
import json
import math
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_wtf import FlaskForm

from portal.accounts.auth import current_staff
from portal.core.cases import new_submission_key
from portal.core.clock import local_stamp, local_today
from portal.core.db import get_db, rows, transaction, value
from portal.intake.pending import keep_photos
from portal.intake.storage import move_pending_photos
from portal.outfalls import history, import_plan, inventory
from portal.outfalls.choices import VOCABULARIES, labels
from portal.outfalls.forms import (
    MAX_IMPORT_BYTES,
    ImportForm,
    OutfallForm,
    PaperDayForm,
    PhotosForm,
    RetireForm,
)
from portal.outfalls.rotation import turn_of, turns
from portal.staff import filings
from portal.staff.cases import photo_response
from portal.web.routes import NO_STORE, declare_blueprint

# Staff pages: what they show stays off a shared computer's disk and back button.
bp = Blueprint("outfalls", __name__, url_prefix="/staff/outfalls")
declare_blueprint(bp, caching=NO_STORE)
PER_PAGE = 100
STATES = ("overdue", "due", "later")


def _settings():
    return current_app.extensions["outfalls"]


def _filters() -> dict[str, str]:
    """The list's filters from the query string, each kept only if it is one we know."""
    args = request.args
    found = {"q": " ".join(args.get("q", "").split())[:100]}
    kind = args.get("type", "")
    found["type"] = kind if kind in labels("structure_type") else ""
    condition = args.get("condition", "")
    found["condition"] = condition if condition in labels("condition") else ""
    found["water"] = args.get("water", "")[:200]
    found["due"] = args.get("due", "") if args.get("due") in STATES else ""
    return found


@bp.route("/")
def inventory_list():
    db = get_db()
    filters = _filters()
    where, params = ["1 = 1"], []
    if filters["q"]:
        where.append(
            "(code LIKE ? OR location LIKE ? OR receiving_water LIKE ?"
            " OR drainage_area LIKE ? OR notes LIKE ? OR owner LIKE ?)"
        )
        params += [f"%{filters['q']}%"] * 6
    for name, column in (
        ("type", "structure_type"),
        ("condition", "condition"),
        ("water", "receiving_water"),
    ):
        if filters[name]:
            where.append(f"{column} = ?")
            params.append(filters[name])
    listed = rows(
        db,
        "SELECT id, code, structure_type, structure_type_other, location, owner,"
        " receiving_water, drainage_area, condition, retired_on"
        f" FROM outfalls WHERE {' AND '.join(where)} ORDER BY code",
        params,
    )
    by_id = {row["id"]: row["turn"] for row in turns(db, _settings(), local_today())}
    for row in listed:
        row["turn"] = by_id.get(row["id"])
    if filters["due"]:
        listed = [row for row in listed if row["turn"] and row["turn"].state == filters["due"]]
    total = len(listed)
    try:
        page = max(1, min(int(request.args.get("page", "1")), 10_000))
    except ValueError:
        page = 1
    pages = max(1, math.ceil(total / PER_PAGE))
    waters = [
        row["receiving_water"]
        for row in rows(
            db,
            "SELECT DISTINCT receiving_water FROM outfalls WHERE receiving_water IS NOT NULL"
            " ORDER BY receiving_water",
        )
    ]
    return render_template(
        "staff/outfalls/list.html",
        rows=listed[(page - 1) * PER_PAGE : page * PER_PAGE],
        total=total,
        page=page,
        pages=pages,
        filters=filters,
        args={k: v for k, v in filters.items() if v},
        waters=waters,
        type_labels=labels("structure_type"),
        condition_labels=labels("condition"),
        stored=value(db, "SELECT count(*) FROM outfalls"),
    )


def _get(outfall_id: int) -> dict:
    return inventory.get(get_db(), outfall_id) or abort(404)


@bp.route("/<int:outfall_id>/")
def detail(outfall_id: int):
    return _detail_page(_get(outfall_id), PhotosForm(formdata=None))


def _detail_page(outfall: dict, photos_form: PhotosForm, status: int = 200, **forms):
    db = get_db()
    forms.setdefault("retire_form", RetireForm(formdata=None))
    forms.setdefault("paper_form", PaperDayForm(formdata=None))
    screenings = rows(
        db,
        "SELECT id, screened_at, inspector, flow, overall, voided_at, wet_weather"
        " FROM screenings WHERE outfall_id = ?"
        " ORDER BY screened_at DESC, id DESC",
        [outfall["id"]],
    )
    page = render_template(
        "staff/outfalls/detail.html",
        outfall=outfall,
        labels={name: labels(name) for name in VOCABULARIES},
        photos=inventory.photos_of(db, outfall["id"]),
        photos_form=photos_form,
        screenings=screenings,
        turn=turn_of(db, outfall, _settings(), local_today()),
        paper_days=history.paper_days(db, outfall["id"]),
        changes=history.changes_of(db, outfall["id"]),
        change_words=history.change_words,
        today_iso=local_today().isoformat(),
        **forms,
        every_years=_settings().every_years,
        nearby=[
            n
            for n in inventory.nearest(
                db, outfall["latitude"], outfall["longitude"], limit=6, within_m=300
            )
            if n["id"] != outfall["id"]
        ],
    )
    return page, status


@bp.route("/new", methods=["GET", "POST"])
def new():
    form = OutfallForm()
    if request.method == "GET":
        form.structure_type.data = "outfall"
    return _edit(form, None)


@bp.route("/<int:outfall_id>/edit", methods=["GET", "POST"])
def edit(outfall_id: int):
    outfall = _get(outfall_id)
    form = OutfallForm(data=outfall) if request.method == "GET" else OutfallForm()
    if request.method == "GET":
        for name in ("size_in", "height_in"):
            value = outfall[name]
            getattr(form, name).data = f"{value:g}" if value is not None else ""
        since = outfall["inventoried_on"]
        form.inventoried_on.data = dt.date.fromisoformat(since) if since else None
    return _edit(form, outfall)


def _since_problem(db: Any, form: OutfallForm, outfall: dict | None) -> str | None:
    if outfall is None:
        return None
    return history.since_problem(db, outfall["id"], form.inventoried_on.data)


def _edit(form: OutfallForm, outfall: dict | None):
    status = 200
    if request.method == "POST":
        db = get_db()
        if form.validate():
            other = inventory.by_code(db, form.code.data)
            if other and (outfall is None or other["id"] != outfall["id"]):
                form.code.errors = [f"{other['code']} is already in the inventory."]
            elif not (problem := _since_problem(db, form, outfall)):
                saved = inventory.save(
                    db,
                    outfall["id"] if outfall else None,
                    form.values(),
                    current_staff()["username"],
                    local_stamp(),
                )
                moved = history.day_moved(outfall, form.inventoried_on.data) if outfall else None
                note = filings.filed_note(db, moved) if moved else ""
                flash(f"{form.code.data} saved.{note}", "success")
                return redirect(url_for("outfalls.detail", outfall_id=saved), code=303)
            else:
                form.inventoried_on.errors = [problem]
        status = 422
    return render_template(
        "staff/outfalls/edit.html", form=form, outfall=outfall, every_years=_settings().every_years
    ), status


@bp.route("/<int:outfall_id>/photos", methods=["POST"])
def add_photos(outfall_id: int):
    outfall = _get(outfall_id)
    form = PhotosForm()
    if not form.validate():
        return _detail_page(outfall, form, 422)
    key = new_submission_key()
    photos, errors = keep_photos(form, key)
    if not photos and not errors:
        errors = ["Choose one or more photos to add."]
    if errors:
        form.photos.errors = errors
        for photo in photos:  # nothing half-added: the refused try adds none of them
            get_db().execute("DELETE FROM pending_photos WHERE id = ?", [photo["id"]])
        return _detail_page(outfall, form, 422)
    db = get_db()
    with transaction(db):
        added = {"added_at": local_stamp(), "added_by": current_staff()["username"]}
        ids = [photo["id"] for photo in photos]
        move_pending_photos(db, "outfall_photos", "outfall_id", outfall_id, ids, key, added)
    flash(f"{len(photos)} photo{'s' if len(photos) != 1 else ''} added.", "success")
    return redirect(
        url_for("outfalls.detail", outfall_id=outfall_id, _anchor="outfall-photos"), 303
    )


def _done(outfall_id: int, message: str, anchor: str):
    flash(message, "success")
    return redirect(url_for("outfalls.detail", outfall_id=outfall_id, _anchor=anchor), 303)


@bp.route("/<int:outfall_id>/retire", methods=["POST"])
def retire(outfall_id: int):
    """Retire a structure (the day and why), or bring a retired one back into service."""
    outfall = _get(outfall_id)
    actor, stamp = current_staff()["username"], local_stamp()
    if outfall["retired_on"]:
        form = FlaskForm()
        if not form.validate():
            abort(400)
        inventory.retire(get_db(), outfall_id, None, None, actor=actor, stamp=stamp)
        return _done(outfall_id, f"{outfall['code']} is back in service.", "in-service")
    form = RetireForm()
    if not form.validate():
        return _detail_page(outfall, PhotosForm(formdata=None), 422, retire_form=form)
    if form.in_error.data:  # from the first day it counted: out of every period
        day, reason = (
            history.first_day(get_db(), outfall_id),
            f"entered in error: {form.retired_reason.data}",
        )
    else:
        day, reason = form.retired_on.data.isoformat(), form.retired_reason.data
    inventory.retire(get_db(), outfall_id, day, reason, actor=actor, stamp=stamp)
    note = filings.filed_note(get_db(), day)
    return _done(outfall_id, f"{outfall['code']} retired.{note}", "in-service")


@bp.route("/<int:outfall_id>/paper", methods=["POST"])
@bp.route("/<int:outfall_id>/paper/<int:paper_id>", methods=["POST"])
def paper_day(outfall_id: int, paper_id: int | None = None):
    """Add a screening day on paper, or correct or remove one."""
    outfall = _get(outfall_id)
    db = get_db()
    actor, stamp = current_staff()["username"], local_stamp()
    removing = paper_id is not None and request.form.get("action") == "remove"
    form = PaperDayForm()
    if removing:
        if not FlaskForm().validate():
            abort(400)
    elif not form.validate():
        return _detail_page(outfall, PhotosForm(formdata=None), 422, paper_form=form)
    day = None if removing else form.screened_on.data.isoformat()
    # The day it had: a correction or a removal changes the figures from then too.
    had = value(
        db,
        "SELECT screened_on FROM outfall_paper_screenings WHERE id = ? AND outfall_id = ?",
        [paper_id, outfall_id],
    )
    with transaction(db):
        if paper_id is None:
            done = history.add_paper_day(db, outfall_id, day, actor=actor, stamp=stamp)
        else:
            reason = "removed by hand" if removing else "corrected by hand"
            done = history.change_paper_day(
                db, outfall_id, paper_id, day, actor=actor, stamp=stamp, reason=reason
            )
    if not done and paper_id is not None and not removing:
        form.screened_on.errors = [
            f"{outfall['code']} already has that paper day, or it is the day stored."
        ]
        return _detail_page(outfall, PhotosForm(formdata=None), 422, paper_form=form)
    words = "removed" if removing else "corrected" if paper_id else "added"
    message = f"Paper screening day {words}." if done else "That paper day was already there."
    changed_from = min(d for d in (day, had) if d) if done and (day or had) else None
    if changed_from:
        message += filings.filed_note(db, changed_from)
    return _done(outfall_id, message, "paper-days")


@bp.route("/photos/<int:photo_id>")
def photo(photo_id: int):
    return photo_response("outfall_photos", photo_id, "outfall")


@bp.route("/import", methods=["GET", "POST"])
def import_page():
    form = ImportForm()
    report, status = None, 200
    if request.method == "POST":
        if form.validate():
            upload = form.file.data
            data = upload.read(MAX_IMPORT_BYTES + 1)
            if len(data) > MAX_IMPORT_BYTES:
                form.file.errors = [f"The file is over {MAX_IMPORT_BYTES // 2**20} MB."]
            else:
                name = (upload.filename or "file").rsplit("/", 1)[-1][:120]
                report = inventory.import_file(
                    get_db(),
                    name,
                    data,
                    current_app.extensions["content"].settings.service_area,
                    actor=f"import {name} by {current_staff()['username']}",
                    stamp=local_stamp(),
                    check_only=form.check_only.data,
                    beside=form.beside.data,
                )
        status = 422 if form.errors or (report and report.refused_file) else 200
    return render_template(
        "staff/outfalls/import.html",
        form=form,
        report=report,
        every_years=_settings().every_years,
        same_place_m=import_plan.SAME_PLACE_M,
    ), status


def geojson_response(public: bool) -> Response:
    """The inventory as a GeoJSON FeatureCollection (a download)."""
    features = list(
        inventory.geojson_features(get_db(), public=public, rule=_settings(), today=local_today())
    )
    body = json.dumps({"type": "FeatureCollection", "features": features}, ensure_ascii=False)
    response = Response(body, mimetype="application/geo+json")
    response.headers["Content-Disposition"] = 'attachment; filename="outfalls.geojson"'
    return response


@bp.route("/outfalls.geojson")
def staff_geojson():
    return geojson_response(public=False)
