"""What the portal's templates can use beyond the shared theme: labels, filters, limits."""

from __future__ import annotations

import json

from babel.lists import format_list
from flask import Flask
from werkzeug.local import LocalProxy

from content_model.language import current_content, current_language
from content_model.loader import Content
from content_model.site import tel_uri
from content_model.theme import init_theme, site_links
from portal.core import kinds
from portal.core.display import clock, day, sentence, when
from portal.web.language import init_portal_language, translated_wordings
from portal.web.script_words import data_words


def init_templates(app: Flask, content: Content) -> None:
    # The portal does not serve the site's pages, but links to them.
    init_theme(app, content, site_url=site_links(content.languages[1:]))
    init_portal_language(app)
    app.jinja_env.globals.update(
        # In the page's language (the staff pages are English).
        statuses=LocalProxy(lambda: translated_wordings(content.settings.office.name)),
        # A kind of case by its key (cases.kind): its words and its templates.
        kind_of=kinds.get,
        # The messages of the public scripts on a page not in English (script_words.py).
        data_words=data_words,
        spill_section=content.ordinance.spill_section,
        # The law's own definition, for the form's "is it hazardous?" (None: the law has none).
        hazardous_defined=content.ordinance.defined("hazardous-materials"),
        # A translation's plain words for it, said before the law's English (None in English).
        hazardous_plain=LocalProxy(
            lambda: current_content().plain_definitions.get("hazardous-materials")
        ),
        # For the report form's live hint: [name, [keywords]] of each exempt discharge, in
        # the page's language (a translation's keywords come with the English ones).
        exempt_keywords=LocalProxy(exempt_keywords),
    )
    app.jinja_env.filters.update(
        when=lambda value: when(value, current_language()),
        day=lambda value: day(value, current_language()),
        # Several days in one phrase: "Friday, February 12, 2027 and Monday, February 15, 2027".
        days=lambda values: format_list(
            [day(v, current_language()) for v in values], locale=current_language()
        ),
        clock=lambda value: clock(value, current_language()),
        tel=tel_uri,
        # `{{ value|sentence }}` where a sentence ends with a value: one full stop.
        sentence=sentence,
        fromjson=json.loads,
    )


def exempt_keywords() -> str:
    entries = current_content().exempt.entries
    # [name, keywords] and, only where there are any, the words that hold the hint back.
    # Not their negations: while typing, "no chlorine" holds the hint back too (the safe
    # side, and the form's weight budget); the sent page reads them (exempt_hints).
    pairs = [
        [entry.name, list(entry.keywords)] + ([list(entry.unless)] if entry.unless else [])
        for entry in entries
        if entry.keywords
    ]
    return json.dumps(pairs, ensure_ascii=False)
