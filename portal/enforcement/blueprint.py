"""Enforcement's blueprint: its pages sit under /staff/ beside the workspace's, behind the
same sign-in check (portal/accounts/auth.py guards every /staff/ path)."""

from flask import Blueprint

from portal.web.routes import NO_STORE, declare_blueprint

bp = declare_blueprint(Blueprint("enforcement", __name__, url_prefix="/staff"), caching=NO_STORE)
