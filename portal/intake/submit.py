"""What every public form does when it is sent, once: its key and photos checked, the form
shown again with its errors, stored once, a form sent again after a change answered with
the "already sent" page, and a form whose CSRF token expired shown again with what was
typed. A new public form describes itself in a `Submission` and calls it:

    SENT = Submission("report", form=_form, redisplay=redisplay, sent=thanks)

    @declare(limit=FORM, photo_previews=True, on_expired=lambda: SENT.expired())
    def submit():
        return SENT.submit(lambda form: (case_fields(form), detail_fields(form)))
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import current_app, render_template, url_for
from flask.typing import ResponseReturnValue

from portal.core import kinds
from portal.core.cases import Stored, find_by_token, status_token
from portal.core.clock import local_now
from portal.core.db import get_db
from portal.intake.forms import PublicForm
from portal.intake.pending import keep_photos, recover, store_submission, submission_key
from portal.intake.storage import DuplicateSubmission, PhotoExpired
from portal.web.language import follow_case

Photos = list[dict[str, Any]]
# What a valid form stores: the case's shared fields and its kind's details.
Fields = Callable[[PublicForm], tuple[dict[str, Any], dict[str, Any]]]


def token_for(key: str) -> str:
    """The status token of the case a form's key stores (derived, never stored)."""
    return status_token(current_app.secret_key, key)


def was_stored(key: str) -> bool:
    return find_by_token(get_db(), token_for(key)) is not None


def already_sent(key: str) -> ResponseReturnValue:
    """The form with this key was stored before and comes back changed (Back after Send,
    then Send): no second case, the page says so in its kind's words and gives its status
    link (409). The key is the form's own, as secret as the link: only the page that carried
    it could send it."""
    token = token_for(key)
    case = find_by_token(get_db(), token)
    follow_case(case)
    page = render_template(
        "portal/already_sent.html",
        case=case,
        words=kinds.get(case["kind"]).public_words,
        status_url=url_for("status.show", token=token, _external=True),
        status_path=url_for("status.show", token=token),
    )
    return page, 409


@dataclass(frozen=True)
class Submission:
    """A public form's sending: its kind, how to make the form from the request, how to show
    it again (form, photos, expired) and what to answer once it is stored."""

    kind: str
    form: Callable[[], PublicForm]
    redisplay: Callable[..., ResponseReturnValue]
    sent: Callable[[Stored], ResponseReturnValue]
    # The answer to a form sent again after a change (a form's script may want JSON).
    already: Callable[[str], ResponseReturnValue] = already_sent

    def submit(self, fields: Fields) -> ResponseReturnValue:
        """The whole POST of a one-step form."""
        form = self.form()
        key = submission_key(form)
        photos, photo_errors = keep_photos(form, key)
        if not form.validate() or photo_errors:
            if was_stored(key):
                # Sent already, and brought back by Back with a field the browser did not
                # keep: nothing to correct, it is in. Its link, not a list of errors.
                return self.already(key)
            form.photos.errors = photo_errors
            return self.redisplay(form, photos)
        case, details = fields(form)
        return self.store(form, photos, case, details, local_now())

    def store(
        self,
        form: PublicForm,
        photos: Photos,
        case: dict[str, Any],
        details: dict[str, Any],
        now: dt.datetime,
    ) -> ResponseReturnValue:
        """Store a valid form once, received at `now` (the moment its details were worked
        out at), and answer (a form of several steps calls this at its last): the form
        again if a kept photo is gone, the "already sent" page if its key was used for a
        different form."""
        try:
            stored = store_submission(
                form, photos, kind=self.kind, case=case, details=details, now=now
            )
        except PhotoExpired as error:
            form.photos.errors = [error.message]
            return self.redisplay(form, [])
        except DuplicateSubmission:
            return self.already(form.submission_key.data)
        return self.sent(stored)

    def expired(self) -> ResponseReturnValue:
        """The form again after a missing or stale CSRF token, with everything kept (photos
        uploaded with it are named, to attach again)."""
        form = self.form()
        return self.redisplay(form, recover(form, expired=True), expired=True)
