"""The messages the public scripts write, in the page's language.

Each script holds its own English and lays these over it: a page not in English carries
them as a data-words attribute (JSON) on the element the script works on, as
templates/portal/_share.html does for share.js. `{name}` in a message is filled in by the
script (a reference, a number, a time, "25%"). An English page carries
nothing, so it weighs what it did.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from flask_babel import gettext as _
from markupsafe import Markup, escape

from content_model.theme import page_language


def _report() -> dict[str, str]:
    """static/js/report.js: the exempt hint, the characters left, the photo list."""
    return {
        "good": _("Good to know:"),
        "allowed": _(
            " some discharges are allowed, such as {names}. If that is what you saw, "
            "you may not need to report it. "
        ),
        "see": _("See what may go down a storm drain"),
        "still": _(". You can still send your report."),
        "left1": _("{n} character left"),
        "left": _("{n} characters left"),
        "over1": _("{n} character too many"),
        "over": _("{n} characters too many"),
        "remove": _("Remove"),
        "removeName": _("Remove {name}"),
        "add": _("Add a photo"),
        "another": _("Add another photo"),
        "list": _("Photos to send"),
        "tooMany": _("Photos over the limit, not added: {k}."),
        "tooBig": _("{name} is {size}, over the {limit} limit. Choose a smaller photo."),
        # As the server says it (portal/intake/photos.py), after the file's name.
        "notPhoto": _(
            "This file is not a photo we can read. Attach a JPEG, PNG, WebP or GIF image."
        ),
    }


def _location() -> dict[str, str]:
    """static/js/location.js: finding the phone's location, the map and its pin."""
    return {
        "unavailable": _(
            "The map is not available right now. "
            "Use your location or type an address or landmark below."
        ),
        "loading": _("Loading the map…"),
        "noTiles": _(
            "The map pictures could not be loaded (the map server cannot be reached), "
            "so the map is not shown. Use your location, or type an address or landmark below."
        ),
        "pinned": _("Pin placed at {lat}, {lon}."),
        "ask": _("Move the pin here? It replaces your location ({fix})."),
        "move": _("Move the pin here"),
        "keep": _("Keep my location"),
        "kept": _("Your location is kept."),
        "finding": _("Finding your location…"),
        "fix": _("found by your phone, accurate to about {m}"),
        "found": _("Location found (accurate to about {m})."),
        "adjust": _(" You can adjust it on the map."),
        "denied": _(
            "Location is turned off for this site. You can type an address or landmark instead."
        ),
        "slow": _(
            "Finding your location took too long. "
            "Try again, or type an address or landmark instead."
        ),
        "failed": _("Your location could not be found. Type an address or landmark instead."),
        "map": _("Map"),
        "keys": _(
            "With a keyboard: move the map with the arrow keys, "
            "then press Enter to drop the pin in the middle."
        ),
        "loaded": _("Map loaded."),
    }


def _sent_news() -> dict[str, str]:
    """A report kept on the phone and sent since (offline.js and news.js both say it)."""
    return {
        "sentAs": _("Your report saved on this phone has been sent as {reference}"),
        "what": _(" ({what})"),
        "whatWhere": _(" ({what}, at {where})"),
        "seeIt": _("See it and keep its status link"),
        "listed": _(". It is listed under "),
        "mine": _("My reports"),
    }


def _send() -> dict[str, str]:
    """static/js/send.js: sending the report form with progress."""
    return {
        "already": _(
            "This report was already sent as {reference}. "
            "We have not made a second report from it. "
        ),
        "seeStatus": _("See its status link"),
        "startNew": _("Start a new report"),
        "forElse": _(" for something else."),
        "failed": _("Your report could not be sent. Check your connection and press Send again."),
        "progress": _("{part} sent"),
        "opening": _("Sent. Opening your reference…"),
        "sending": _("Sending…"),
        "sendingReport": _("Sending your report"),
    }


def _offline() -> dict[str, str]:
    """static/js/offline.js: the draft, reports kept on the phone, "My reports"."""
    return {
        **_sent_news(),
        "tooMany": _(
            "Too many reports have come from this connection in a short time, so yours is "
            "saved on this phone. We will try again {wait}, at {at}, while this page is open "
            "(or when you next open the form)."
        ),
        "soon": _("in a few seconds"),
        "minute": _("in about a minute"),
        "minutes": _("in about {n} minutes"),
        "problem": _("A report saved on this phone could not be sent as it is. "),
        "putBack": _("Put it back in the form"),
        "waiting1": _("One report is saved on this phone; sent when you are back online."),
        "waiting": _("{n} reports are saved on this phone; sent when you are back online."),
        "discard": _("Discard it"),
        "gone": _("The draft is gone from this phone."),
        "savedSync": _(
            "Saved on this phone. It will be sent by itself when you are back online, "
            "even if you close this page."
        ),
        "savedPage": _(
            "Saved on this phone. It will be sent when you are back online while this form "
            "is open, or the next time you open it: keep this page open if you can."
        ),
        "onceSent": _(" Once sent, it is listed under "),
        "withLink": _(" with its status link."),
        "back": _("Your saved report is back in the form. Check it and press Send report."),
        "started": _("The report you started on {when} is filled in from this phone. "),
        "at": _(", at {where}"),
        "checked": _(" (checked {when})"),
        "line": _("Sent {when} Status: {status}{checked}."),
        "forget1": _(
            "Forget the report kept on this device? Only this list goes: your reports stay "
            "with us, and their status links still work."
        ),
        "forget": _(
            "Forget all {n} reports kept on this device? Only this list goes: your reports "
            "stay with us, and their status links still work."
        ),
        "yes1": _("Yes, forget it"),
        "yes": _("Yes, forget them"),
        "no1": _("No, keep it"),
        "no": _("No, keep them"),
        "forgotten": _("This phone no longer keeps any of your reports."),
    }


SCRIPTS: dict[str, Callable[[], dict[str, str]]] = {
    "report": _report,
    "location": _location,
    "news": _sent_news,
    "send": _send,
    "offline": _offline,
}


def words_for(*scripts: str) -> dict[str, str]:
    """The messages of these scripts in the page's language."""
    return {key: text for script in scripts for key, text in SCRIPTS[script]().items()}


def data_words(*scripts: str) -> Markup:
    """` data-words="{…}"` on a page not in English; nothing on an English page."""
    if page_language() == "en":
        return Markup("")
    return Markup(' data-words="{}"').format(escape(json.dumps(words_for(*scripts))))
