"""What every public form shares: fields, validators, the base form, photo intake,
pending uploads, and storing a case."""

from __future__ import annotations

from flask import Flask

from portal.intake import widgets
from portal.intake.fields import field_attrs
from portal.intake.forms import MAX_PHOTOS
from portal.intake.pending import UploadsInMemory
from portal.intake.photos import (
    MAX_LONG_SIDE,
    MAX_UPLOAD_BYTES,
    SEND_LIMIT_BYTES,
    SEND_TARGET_BYTES,
)
from portal.intake.storage import delete_abandoned_photos
from portal.mail.courier import add_job


def init_intake(app: Flask) -> None:
    """Uploads read into memory, photos of forms never sent swept by the courier, and what
    the form templates need."""
    app.request_class = UploadsInMemory
    widgets.install()  # forms render their attributes without str.format (a page's main cost)
    add_job(app, delete_abandoned_photos)
    app.jinja_env.globals.update(
        field_attrs=field_attrs,
        max_photos=MAX_PHOTOS,
        max_photo_bytes=MAX_UPLOAD_BYTES,
        # What the browser makes a photo before sending it: the size the server keeps,
        # the bytes to aim for, and the most it sends.
        max_photo_side=MAX_LONG_SIDE,
        photo_target_bytes=SEND_TARGET_BYTES,
        photo_limit_bytes=SEND_LIMIT_BYTES,
    )
