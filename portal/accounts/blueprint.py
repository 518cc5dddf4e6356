"""Sign-in's blueprint: its pages sit under /staff/ with the workspace's."""

from flask import Blueprint

from portal.web.routes import NO_STORE, declare_blueprint

# Sign-in pages carry a form's token and an account's state: never kept by a browser.
bp = declare_blueprint(Blueprint("accounts", __name__, url_prefix="/staff"), caching=NO_STORE)
