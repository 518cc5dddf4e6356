"""What the portal's templates can use beyond the shared theme: labels, filters, limits."""

from __future__ import annotations

import json

from flask import Flask

from content_model.loader import Content
from content_model.site import tel_uri
from content_model.theme import init_theme, site_links
from portal.core.display import clock, day, when
from portal.core.statuses import public_wordings
from portal.intake import widgets
from portal.intake.fields import field_attrs
from portal.intake.forms import MAX_PHOTOS
from portal.intake.photos import MAX_UPLOAD_BYTES
from portal.notification.records import record_duty
from portal.report.choices import CHOICE_LABELS


def init_templates(app: Flask, content: Content) -> None:
    widgets.install()  # forms render their attributes without str.format (a page's main cost)
    # The portal does not serve the site's pages, but links to them.
    init_theme(app, content, site_url=site_links())
    from portal.mail.compose import public_url_for

    app.jinja_env.globals.update(
        # A link to share: on PORTAL_PUBLIC_URL, never on a host a request claims (review L7).
        public_url_for=public_url_for,
        labels=CHOICE_LABELS,
        field_attrs=field_attrs,
        statuses=public_wordings(content.settings.office.name),
        spill_section=content.ordinance.spill_section,
        # The law's own definition, for the form's "is it hazardous?" (None: the law has none).
        hazardous_defined=content.ordinance.defined("hazardous-materials"),
        max_photos=MAX_PHOTOS,
        record_duty=record_duty,
        max_photo_bytes=MAX_UPLOAD_BYTES,
        # For the report form's live hint: [name, [keywords]] of each exempt discharge.
        exempt_keywords=json.dumps(
            [[e.name, list(e.keywords)] for e in content.exempt.entries if e.keywords]
        ),
    )
    app.jinja_env.filters.update(when=when, day=day, clock=clock, tel=tel_uri, fromjson=json.loads)
