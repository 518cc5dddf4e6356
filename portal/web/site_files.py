"""Serve the frozen site beside the portal, so one local server shows everything.

Only for `make run` and tests: in production Netlify serves the frozen site and
proxies the portal's paths to gunicorn.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Flask, abort, redirect, request, send_from_directory
from werkzeug.security import safe_join

from content_model.theme import WASM_PATHS
from portal.web.headers import content_security_policy


def init_site_files(app: Flask, directory: Path | str) -> None:
    root = Path(directory).resolve()
    bp = Blueprint("site_files", __name__)

    @bp.route("/", defaults={"path": ""})
    @bp.route("/<path:path>")
    def serve(path: str):
        target = safe_join(str(root), path)
        if target is None:
            abort(404)
        if Path(target).is_dir():
            if path and not path.endswith("/"):
                return redirect(f"{request.path}/", code=308)
            path = f"{path}index.html"
        if not (root / path).is_file():
            abort(404)
        response = send_from_directory(root, path)
        if f"/{path}".startswith(WASM_PATHS):
            # Pagefind compiles WebAssembly, in the page and in its worker; nowhere else may.
            response.headers["Content-Security-Policy"] = content_security_policy(wasm=True)
        return response

    app.register_blueprint(bp)
