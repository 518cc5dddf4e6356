"""Now and today where the municipality is (the server may keep UTC)."""

from __future__ import annotations

import datetime as dt

from flask import current_app


def local_now() -> dt.datetime:
    """Now, in the municipality's time zone, to the second."""
    tz = current_app.extensions["content"].settings.timezone
    return dt.datetime.now(tz).replace(microsecond=0)


def local_today() -> dt.date:
    return local_now().date()


def local_stamp() -> str:
    """Now as stored in the database: local time with its offset, "2026-03-01T00:30:00-05:00"."""
    return local_now().isoformat(timespec="seconds")
