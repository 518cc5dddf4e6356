"""The portal's one SQLite file: connection, schema and transactions."""

from __future__ import annotations

import os
import sqlite3
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlite_utils
from flask import Flask, current_app, g

from portal.core import migrations, search_index

# Every connection's settings (bench/baseline.py uses the same, to be a fair yardstick).
# synchronous = FULL: a commit is on disk before the person is shown its reference. In WAL
# mode NORMAL syncs only at checkpoints, so a power cut or a crash of the machine (not of
# the process) could take the last commits with it: a reference shown, then gone. The
# cost, one fsync per commit, is measured in docs/benchmarks.md.
PRAGMAS = (
    "PRAGMA foreign_keys = ON",
    "PRAGMA busy_timeout = 30000",
    "PRAGMA journal_mode = WAL",
    "PRAGMA synchronous = FULL",
)


def connect(path: str | Path) -> sqlite_utils.Database:
    """Open the database file in WAL mode, creating or migrating the schema on first use."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    # Autocommit at the driver level: `transaction()` below says where each one begins.
    conn = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
    db = sqlite_utils.Database(conn)
    for pragma in PRAGMAS:
        db.execute(pragma)
    migrate(db)
    return db


def migrate(db: sqlite_utils.Database) -> None:
    """Bring the file up to date: every pending migration (portal/core/migrations.py, then
    each feature's and each kind's), then the search index as the registered kinds make it.
    One write transaction: two workers starting at once migrate it once."""
    if not migrations.pending(db) and search_index.up_to_date(db):
        return
    with transaction(db):
        if migrations.pending(db):  # asked again now that this worker holds the write lock
            # The search view and triggers name the tables a migration may build again.
            search_index.drop(db)
            migrations.apply(db)
        search_index.ensure(db)


@contextmanager
def transaction(db: sqlite_utils.Database) -> Iterator[sqlite_utils.Database]:
    """One write transaction: everything inside commits together or not at all.

    BEGIN IMMEDIATE takes the write lock up front, so two workers numbering
    references at once wait for each other instead of failing halfway.
    Inside it, write with `insert()` below or `db.execute`, never with
    sqlite-utils' table methods, which commit on their own.
    """
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def rows(db: sqlite_utils.Database, sql: str, params: list[Any] | tuple = ()) -> list[dict]:
    """Every row a query returns, as dicts."""
    cursor = db.execute(sql, list(params))
    columns = [c[0] for c in cursor.description]
    return [dict(zip(columns, row, strict=True)) for row in cursor]


def one(db: sqlite_utils.Database, sql: str, params: list[Any] | tuple = ()) -> dict | None:
    """The first row a query returns, as a dict, or None."""
    found = rows(db, sql, params)
    return found[0] if found else None


def value(db: sqlite_utils.Database, sql: str, params: list[Any] | tuple = ()) -> Any:
    """The first column of the first row a query returns (a count, one field), or None
    when there is no row."""
    row = db.execute(sql, list(params)).fetchone()
    return row[0] if row else None


# Each table's columns, by connection: the schema is settled when a connection opens, and
# asking sqlite-utils on every insert costs three statements (a PRAGMA among them).
_COLUMNS: weakref.WeakKeyDictionary[sqlite_utils.Database, dict[str, frozenset[str]]] = (
    weakref.WeakKeyDictionary()
)


def table_columns(db: sqlite_utils.Database, table: str) -> frozenset[str]:
    known = _COLUMNS.setdefault(db, {})
    if table not in known:
        known[table] = frozenset(db[table].columns_dict)
    return known[table]


def insert(db: sqlite_utils.Database, table: str, record: dict[str, Any]) -> int:
    """Insert one row without committing (for use inside `transaction`); return its id."""
    known = table_columns(db, table)
    unknown = set(record) - set(known)
    if unknown:
        raise KeyError(f"{table} has no columns {sorted(unknown)}")
    columns = ", ".join(f'"{name}"' for name in record)
    marks = ", ".join("?" for _ in record)
    cursor = db.execute(
        f'INSERT INTO "{table}" ({columns}) VALUES ({marks})', list(record.values())
    )
    return cursor.lastrowid


class Pool:
    """Open connections kept between requests.

    Opening a connection costs its PRAGMAs, and closing the last one of a WAL database
    checkpoints the whole log to disk: per request, that was most of a submission's
    time. A connection goes back here after its request, idle, never mid-transaction.
    """

    def __init__(self, path: str, size: int = 8) -> None:
        self.path, self.size = path, size
        self.idle: list[sqlite_utils.Database] = []
        self.lock = threading.Lock()
        self.pid = os.getpid()

    def take(self) -> sqlite_utils.Database:
        with self.lock:
            if self.pid != os.getpid():  # a forked worker must not share its parent's files
                self.idle, self.pid = [], os.getpid()
            if self.idle:
                return self.idle.pop()
        return connect(self.path)

    def give_back(self, db: sqlite_utils.Database) -> None:
        if db.conn.in_transaction:  # an interrupted request: never reuse half a transaction
            db.conn.rollback()
        with self.lock:
            if len(self.idle) < self.size and self.pid == os.getpid():
                self.idle.append(db)
                return
        db.conn.close()


def get_db() -> sqlite_utils.Database:
    """The request's database connection, from the app's pool on first use."""
    if "db" not in g:
        g.db = current_app.extensions["db_pool"].take()
    return g.db


def init_db(app: Flask) -> None:
    # Create or migrate the schema now, so a bad path or a locked file fails at start-up.
    connect(app.config["DATABASE"]).conn.close()
    app.extensions["db_pool"] = Pool(app.config["DATABASE"])

    @app.teardown_appcontext
    def release_db(error: BaseException | None) -> None:
        db = g.pop("db", None)
        if db is not None:
            current_app.extensions["db_pool"].give_back(db)
