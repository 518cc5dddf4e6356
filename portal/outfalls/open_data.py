"""The inventory as open data: /open-data/outfalls.geojson, for anyone only if the content
says so (content/outfalls.yaml, open_data.public); otherwise that address is not found and
staff download it from the inventory page. No free text is in it (inventory.PRIVATE_FIELDS)."""

from __future__ import annotations

from flask import Blueprint, abort, current_app

from content_model.outfalls import OPEN_DATA_PATH
from portal.outfalls.views import geojson_response
from portal.web.routes import Limit, declare

# The site's proxy passes this path to the portal when the inventory is public
# (static_site/freeze.py writes it into Netlify's _redirects).
bp = Blueprint("open_data", __name__, url_prefix=OPEN_DATA_PATH.rstrip("/"))


@bp.route("/outfalls.geojson")
@declare(limit=Limit("OPEN_DATA_RATE_LIMIT"))
def outfalls_geojson():
    if not current_app.extensions["outfalls"].public:
        abort(404)
    response = geojson_response(public=True)
    # Open data: any site may fetch it (no cookies are read here).
    response.headers["Access-Control-Allow-Origin"] = "*"
    response.headers["Cache-Control"] = "public, max-age=3600"
    return response
