"""WTForms' HTML attributes, built faster: the same output, without str.format per attribute.

WTForms writes every attribute of every input, label and option with `Markup.format`
(Python's string.Formatter, with an escape per field), and the report form has some sixty
of them: that was most of the time its page took to render (docs/benchmarks.md). A form
shown to anyone asks for mostly the same attributes every time (ids, names, types, hints),
so those are also kept per process. `install()` puts `html_params` below in WTForms' place;
tests/test_widgets.py holds its output to WTForms' own.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import wtforms.widgets
import wtforms.widgets.core as core
from markupsafe import Markup, escape

ORIGINAL = core.html_params
# Values whose rendering depends only on their type and value, so a rendering can be kept.
_PLAIN = frozenset({str, int, float, bool, Markup, type(None)})


def _attribute(key: str, value: Any) -> str | None:
    """One attribute as WTForms writes it (True: the bare name; False: left out)."""
    if value is True:
        return core.clean_key(key)
    if value is False:
        return None
    text = str(escape(value))
    if '"' in text:  # a Markup value is not escaped again, but may not end the quotes
        text = text.replace('"', "&quot;")
    return f'{escape(core.clean_key(key))}="{text}"'


_kept = lru_cache(maxsize=1024)(lambda key, _kind, value: _attribute(key, value))


def html_params(**kwargs: Any) -> Markup:
    """The attributes, sorted by name, exactly as `wtforms.widgets.html_params` writes them.

    Each attribute's text is kept per process, except `value`: that may be what a person
    typed, and nothing a person sends is kept beyond its request."""
    parts = []
    for key, value in sorted(kwargs.items()):
        kind = type(value)
        part = (
            _kept(key, kind, value) if key != "value" and kind in _PLAIN else _attribute(key, value)
        )
        if part is not None:
            parts.append(part)
    return Markup(" ".join(parts))


def install() -> None:
    """Make WTForms' widgets and labels use `html_params` (idempotent)."""
    core.html_params = html_params  # lists, selects, options, text areas
    wtforms.widgets.html_params = html_params  # labels
    core.Input.html_params = staticmethod(html_params)  # every <input>
    core.Button.html_params = staticmethod(html_params)
