"""The status page a person reaches with the secret link from their confirmation."""

from __future__ import annotations

from flask import Blueprint, abort, render_template

from portal.cases import find_by_token
from portal.db import get_db

bp = Blueprint("status", __name__, url_prefix="/status")


@bp.route("/<token>/")
def show(token: str):
    # Only the token opens a case; a wrong one gets the same 404 as an unknown page.
    case = find_by_token(get_db(), token) or abort(404)
    return render_template("portal/status.html", case=case)
