"""The workspace's blueprint: every page under /staff/ that is not enforcement's."""

from flask import Blueprint

bp = Blueprint("staff", __name__, url_prefix="/staff")
