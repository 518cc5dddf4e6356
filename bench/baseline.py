"""A bare Flask app that stores the same report fields in SQLite: the load bench's yardstick.

It does what any web form must (parse the form, insert one row, commit, redirect) and
nothing the portal adds (validation, CSRF, references, status tokens, mail), so the
portal's throughput over this one is the price of everything the portal does.

To be a fair yardstick it gets every advantage the portal has: one connection per
thread kept open between requests (as the portal's pool does), the portal's own pragmas
(`portal.core.db.PRAGMAS`: WAL, the same `synchronous`, the same busy timeout), the same
gunicorn with the same workers, and the same load generator (bench/load.py).
"""

from __future__ import annotations

import os
import secrets
import sqlite3
import threading

from flask import Flask, make_response, redirect, request

from portal.core.db import PRAGMAS

PAGE = (
    '<!doctype html><title>Report</title><form method="post">'
    '<input name="csrf_token" type="hidden" value="{token}"></form>'
)
FIELDS = ("description", "address", "observed_at", "indicators", "submission_key")


def create_app() -> Flask:
    app = Flask(__name__)
    path = os.environ["BASELINE_DATABASE"]
    local = threading.local()
    pragmas = list(PRAGMAS)
    # Only to measure what the portal's choice costs (bench/load.py): e.g. NORMAL.
    if synchronous := os.environ.get("BASELINE_SYNCHRONOUS"):
        pragmas = [p for p in pragmas if "synchronous" not in p]
        pragmas.append(f"PRAGMA synchronous = {synchronous}")

    def connect() -> sqlite3.Connection:
        db = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
        for pragma in pragmas:
            db.execute(pragma)
        return db

    setup = connect()
    setup.execute(
        "CREATE TABLE IF NOT EXISTS reports (id INTEGER PRIMARY KEY, description TEXT,"
        " address TEXT, observed_at TEXT, indicators TEXT, submission_key TEXT UNIQUE)"
    )
    setup.close()

    def get_db() -> sqlite3.Connection:
        # Per thread and per process: a forked gunicorn worker opens its own.
        if getattr(local, "pid", None) != os.getpid():
            local.db, local.pid = connect(), os.getpid()
        return local.db

    @app.get("/report/")
    def form():
        response = make_response(PAGE.format(token=secrets.token_urlsafe(16)))
        response.set_cookie("session", secrets.token_urlsafe(16))
        return response

    @app.post("/report/")
    def submit():
        db = get_db()
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute(
                "INSERT INTO reports (description, address, observed_at, indicators,"
                " submission_key) VALUES (?, ?, ?, ?, ?)",
                [request.form.get(name, "") for name in FIELDS],
            )
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        return redirect("/report/sent/", code=303)

    return app
