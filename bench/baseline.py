"""A bare Flask app that stores the same report fields in SQLite: the load bench's yardstick.

It does what any web form must (parse the form, open the database, insert one row, commit,
redirect) and nothing the portal adds (validation, CSRF, references, status tokens, mail),
so the portal's throughput over this one is the price of everything the portal does.
Served by the same gunicorn, with the same workers, and driven by the same load generator.
"""

from __future__ import annotations

import os
import secrets
import sqlite3

from flask import Flask, g, make_response, redirect, request

PAGE = (
    '<!doctype html><title>Report</title><form method="post">'
    '<input name="csrf_token" type="hidden" value="{token}"></form>'
)
FIELDS = ("description", "address", "observed_at", "indicators", "submission_key")


def create_app() -> Flask:
    app = Flask(__name__)
    path = os.environ["BASELINE_DATABASE"]
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA journal_mode = WAL")
        db.execute(
            "CREATE TABLE IF NOT EXISTS reports (id INTEGER PRIMARY KEY, description TEXT,"
            " address TEXT, observed_at TEXT, indicators TEXT, submission_key TEXT UNIQUE)"
        )
    db.close()

    def get_db() -> sqlite3.Connection:
        if "db" not in g:
            g.db = sqlite3.connect(path, timeout=10)
            g.db.execute("PRAGMA busy_timeout = 10000")
        return g.db

    @app.teardown_appcontext
    def close(_error) -> None:
        db = g.pop("db", None)
        if db is not None:
            db.close()

    @app.get("/report/")
    def form():
        response = make_response(PAGE.format(token=secrets.token_urlsafe(16)))
        response.set_cookie("session", secrets.token_urlsafe(16))
        return response

    @app.post("/report/")
    def submit():
        db = get_db()
        with db:
            db.execute(
                "INSERT INTO reports (description, address, observed_at, indicators,"
                " submission_key) VALUES (?, ?, ?, ?, ?)",
                [request.form.get(name, "") for name in FIELDS],
            )
        return redirect("/report/sent/", code=303)

    return app
