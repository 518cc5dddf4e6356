"""Rate-limit counters in a SQLite file, shared by every gunicorn worker on the machine.

Flask-Limiter's `memory://` keeps one set of counters per worker: with two workers a
client gets each limit twice over, and which worker answers is chance. This store needs
no server (unlike memcached or Redis): `sqlite:///path/to/limits.sqlite3`.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from urllib.parse import unquote

from limits.storage import Storage

SCHEMA = """CREATE TABLE IF NOT EXISTS counters (
    key TEXT PRIMARY KEY,
    count INTEGER NOT NULL,
    expires REAL NOT NULL
)"""

# One statement, so two workers counting the same key at once cannot both miss a hit.
INCREMENT = """INSERT INTO counters (key, count, expires) VALUES (:key, :amount, :expires)
ON CONFLICT (key) DO UPDATE SET
    count = CASE WHEN expires <= :now THEN :amount ELSE count + :amount END,
    expires = CASE WHEN expires <= :now THEN :expires ELSE expires END
RETURNING count"""


class SQLiteStorage(Storage):
    """Fixed-window counters (Flask-Limiter's default strategy) in one SQLite table."""

    STORAGE_SCHEME = ["sqlite"]  # noqa: RUF012 (the registry reads a plain list)

    def __init__(self, uri: str, wrap_exceptions: bool = False, **options: float | str | bool):
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self.path = unquote(uri.partition("://")[2])
        if not self.path:
            raise ValueError(f"{uri!r} names no file: use sqlite:///absolute/path.sqlite3")
        self.local = threading.local()
        self.writes = 0
        self._connection().execute(SCHEMA)

    def _connection(self) -> sqlite3.Connection:
        """One connection per thread, opened again in a forked worker."""
        conn = getattr(self.local, "conn", None)
        if conn is None or self.local.pid != os.getpid():
            conn = sqlite3.connect(self.path, timeout=10, isolation_level=None)
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = OFF")  # counters may be lost in a crash
            self.local.conn, self.local.pid = conn, os.getpid()
        return conn

    @property
    def base_exceptions(self) -> type[Exception]:
        return sqlite3.Error

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        now = time.time()
        row = self._connection().execute(
            INCREMENT, {"key": key, "amount": amount, "expires": now + expiry, "now": now}
        )
        count = row.fetchone()[0]
        self.writes += 1
        if self.writes % 1000 == 0:  # now and then, forget windows long over
            self._connection().execute("DELETE FROM counters WHERE expires <= ?", [now])
        return count

    def _row(self, key: str) -> tuple[int, float] | None:
        found = self._connection().execute(
            "SELECT count, expires FROM counters WHERE key = ? AND expires > ?", [key, time.time()]
        )
        return found.fetchone()

    def get(self, key: str) -> int:
        row = self._row(key)
        return row[0] if row else 0

    def get_expiry(self, key: str) -> float:
        row = self._row(key)
        return row[1] if row else time.time()

    def check(self) -> bool:
        try:
            self._connection().execute("SELECT 1")
        except sqlite3.Error:
            return False
        return True

    def reset(self) -> int | None:
        return self._connection().execute("DELETE FROM counters").rowcount

    def clear(self, key: str) -> None:
        self._connection().execute("DELETE FROM counters WHERE key = ?", [key])
