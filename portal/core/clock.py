"""Now and today where the municipality is (the server may keep UTC).

Tests set "now" with the app setting CLOCK: a function returning an aware datetime
(any zone), so a filing can be made on 29 February or at 00:30 local on a UTC server.
"""

from __future__ import annotations

import datetime as dt

from flask import current_app


def local_now() -> dt.datetime:
    """Now, in the municipality's time zone, to the second."""
    tz = current_app.extensions["content"].settings.timezone
    clock = current_app.config.get("CLOCK")
    now = clock().astimezone(tz) if clock else dt.datetime.now(tz)
    return now.replace(microsecond=0)


def local_today() -> dt.date:
    return local_now().date()


def local_stamp() -> str:
    """Now as stored in the database: local time with its offset, "2026-03-01T00:30:00-05:00"."""
    return local_now().isoformat(timespec="seconds")
