"""The workspace's blueprint: every page under /staff/ that is not enforcement's."""

from flask import Blueprint

from portal.web.routes import NO_STORE, declare_blueprint

# Every page of it shows what people sent or staff wrote: never kept by a browser.
bp = declare_blueprint(Blueprint("staff", __name__, url_prefix="/staff"), caching=NO_STORE)
