"""The status page a person reaches with the secret link from their confirmation: each kind
of case shows its own (for a filed record of a release it is also the receipt: a record to
keep, not the notice the law asks for nor the facility's on-site written record)."""

from __future__ import annotations

from flask import Blueprint, abort

from portal.core import kinds
from portal.core.cases import find_by_token
from portal.core.db import get_db
from portal.web.limits import TOKEN_PAGES
from portal.web.routes import NO_STORE, declare

bp = Blueprint("status", __name__, url_prefix="/status")


@bp.route("/<token>/")
@declare(limit=TOKEN_PAGES, caching=NO_STORE)
def show(token: str):
    db = get_db()
    # Only the token opens a case; a wrong one gets the same 404 as an unknown page.
    case = find_by_token(db, token) or abort(404)
    return kinds.get(case["kind"]).status_page(db, case, token)
