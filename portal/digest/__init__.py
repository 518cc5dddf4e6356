"""The morning digest: one mail per officer each business day (morning.py), made by the
courier's minute sweep, to which this feature adds it at start-up."""

from __future__ import annotations

from flask import Flask

from portal.digest.morning import queue_digests
from portal.mail.courier import add_job


def init_digest(app: Flask) -> None:
    add_job(app, queue_digests)
