"""The training log's page (/staff/training/): the form that adds a session and every session
logged, latest first. Under /staff/, behind the workspace's sign-in (portal/accounts/auth.py
guards every /staff/ path), never kept by a browser."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for

from portal.accounts.auth import current_staff
from portal.core.clock import local_stamp
from portal.core.db import get_db
from portal.training import records
from portal.training.forms import TrainingForm
from portal.web.routes import NO_STORE, declare_blueprint

bp = declare_blueprint(
    Blueprint("training", __name__, url_prefix="/staff/training"), caching=NO_STORE
)


@bp.route("/", methods=["GET", "POST"])
def log():
    form = TrainingForm()
    status = 200
    if request.method == "POST":
        if form.validate():
            records.add(
                get_db(), form.values(), actor=current_staff()["username"], stamp=local_stamp()
            )
            flash("The training is logged.", "success")
            return redirect(url_for("training.log"), code=303)
        status = 422
    return render_template(
        "staff/training.html", form=form, sessions=records.sessions(get_db())
    ), status
