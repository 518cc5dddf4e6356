"""How stored values are shown to people, in the page's language."""

from __future__ import annotations

import datetime as dt

from babel.dates import format_date, format_time

# Babel's (CLDR's) patterns for the languages other than English, in the English style of
# the pages: the long date, a 12-hour clock ("1:05 p. m."), and the weekday before the date.
PATTERNS = {
    "es": {"date": "d 'de' MMMM 'de' y", "clock": "h:mm a", "day": "EEEE, d 'de' MMMM 'de' y"},
}


def _moment(value: str | dt.datetime) -> dt.datetime:
    return value if isinstance(value, dt.datetime) else dt.datetime.fromisoformat(value)


def sentence(value: object) -> str:
    """A value that ends a sentence, with its full stop: one only, when the value ends with
    its own ("MH-17." or "2:10 p.m." stays as it is; "MH-17" becomes "MH-17.")."""
    text = str(value).rstrip()
    return text if text.endswith((".", "!", "?", "…")) else f"{text}."


def date_words(moment: dt.date) -> str:
    """A date without its weekday, in English: 'January 1, 1990'."""
    return f"{moment:%B} {moment.day}, {moment.year}"


def when(value: str | dt.datetime | None, language: str = "en") -> str:
    """'2026-11-29T13:05:00-05:00' -> 'November 29, 2026 at 1:05 p.m.'
    ('29 de noviembre de 2026, 1:05 p. m.' in Spanish)."""
    if not value:
        return ""
    moment = _moment(value)
    if language in PATTERNS:
        date = format_date(moment, PATTERNS[language]["date"], locale=language)
        return f"{date}, {clock(moment, language)}"
    return f"{date_words(moment)} at {clock(moment)}"


def clock(value: str | dt.datetime | dt.time, language: str = "en") -> str:
    """The time of day as people write it: '4:00 p.m.' ('4:00 p. m.')"""
    moment = value if isinstance(value, dt.time | dt.datetime) else _moment(value)
    if language in PATTERNS:
        # CLDR puts narrow no-break spaces in 'p. m.': plain ones, as people type it (and
        # as mail in plain text shows it everywhere).
        text = format_time(moment, PATTERNS[language]["clock"], locale=language)
        return text.replace("\u202f", " ").replace("\xa0", " ")
    hour = moment.hour % 12 or 12
    half = "a.m." if moment.hour < 12 else "p.m."
    return f"{hour}:{moment:%M} {half}"


def day(value: str | dt.date | dt.datetime | None, language: str = "en") -> str:
    """A date with its weekday: 'Monday, November 30, 2026' ('lunes, 30 de noviembre de 2026')."""
    if not value:
        return ""
    moment = _moment(value) if isinstance(value, str) else value
    if language in PATTERNS:
        return format_date(moment, PATTERNS[language]["day"], locale=language)
    return f"{moment:%A}, {moment:%B} {moment.day}, {moment.year}"
