"""The base of every public form: a submission key, a honeypot, a map point and photos."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.csrf import _FlaskFormCSRF
from markupsafe import escape
from wtforms import HiddenField, MultipleFileField, StringField

from content_model.language import current_language
from portal.intake.fields import coordinate_field

MAX_PHOTOS = 3


class _TokenWhenShown:
    """A CSRF token made only if the form is rendered: a valid form only redirects, and
    signing a fresh token for a page nobody sees is wasted work on every submission."""

    def __init__(self, make: Callable[[], str]) -> None:
        self.make, self.token = make, None

    def __str__(self) -> str:
        if self.token is None:
            self.token = self.make()
        return self.token

    def __html__(self) -> str:
        return str(escape(str(self)))


class _LazyCSRF(_FlaskFormCSRF):
    def generate_csrf_token(self, csrf_token_field) -> _TokenWhenShown:  # type: ignore[override]
        return _TokenWhenShown(lambda: super(_LazyCSRF, self).generate_csrf_token(csrf_token_field))


class PublicForm(FlaskForm):
    """What every public form has: a submission key, a honeypot, a map point and photos."""

    class Meta:
        csrf_class = _LazyCSRF

    # Set when the form is first shown; the same key twice is the same submission.
    submission_key = HiddenField()
    # A field people never see; software that fills every field gives itself away.
    nickname = StringField(_l("Leave this field empty"))
    latitude = coordinate_field(_l("Latitude"), -90, 90)
    longitude = coordinate_field(_l("Longitude"), -180, 180)
    photos = MultipleFileField(_l("Photos"))
    kept_photos = HiddenField()

    def __init__(self, *args, clock: Callable[[], dt.datetime], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.clock = clock

    def carry_photos(self, photos: list[dict[str, Any]]) -> None:
        """Photos already received ride along with the form when it is shown again."""
        self.kept_photos.data = ",".join(photo["id"] for photo in photos)

    @property
    def has_point(self) -> bool:
        return self.latitude.data is not None and self.longitude.data is not None

    def validate(self, extra_validators=None) -> bool:
        valid = super().validate(extra_validators)
        lat, lon = self.latitude, self.longitude
        if not (lat.errors or lon.errors) and (lat.data is None) != (lon.data is None):
            missing = lon if lon.data is None else lat
            missing.errors.append(
                _(
                    "Give the %(name)s too, or clear both coordinates.",
                    name=str(missing.label.text).lower(),
                )
            )
            valid = False
        return valid

    def case_fields(
        self,
        service_code: str,
        area_contains: Callable[[float, float], bool],
        *,
        address: str | None,
        name: str | None,
        email: str | None,
        phone: str | None,
    ) -> dict[str, Any]:
        """The columns every case has; whether the point is in the service area, if given."""
        lat, lon = self.latitude.data, self.longitude.data
        return {
            "service_code": service_code,
            "latitude": lat,
            "longitude": lon,
            "address": address or None,
            "in_service_area": None if lat is None else int(area_contains(lat, lon)),
            "contact_name": name or None,
            "contact_email": email or None,
            "contact_phone": phone or None,
            # The page's language: the case's pages and mail to its filer follow it.
            "language": current_language(),
        }
