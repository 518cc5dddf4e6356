"""Case statuses, once: what staff call each, what the public is told, whether the case needs
nothing more, and its colour on the staff map (which kinds of case use each: their
descriptors, portal/core/kinds.py).

Every page, mail, filter, map and count reads this table; templates get it as `statuses`
(a status is a tuple whose first two items are its label and its public wording).
"""

from __future__ import annotations

from typing import NamedTuple

# Marks the public words for the catalogues: pages show them in their language.
from content_model.site import N_


class Status(NamedTuple):
    label: str  # what staff and the public call it
    public: str  # what the public status page and the update mail say it means
    closed: bool  # the case needs nothing more (the "open" filter and map leave it out)
    color: str  # its marker on the staff map: at least 3:1 against white (WCAG 1.4.11)
    investigated: bool = False  # counts as investigated in the annual MS4 figures


# In the order staff choose from; the map legend keeps it too.
STATUSES: dict[str, Status] = {
    "received": Status(
        label=N_("Received"),
        public=N_("It has arrived and staff will review it soon."),
        closed=False,
        color="#1f6fb4",  # blue
    ),
    "investigating": Status(
        label=N_("Being investigated"),
        public=N_("Staff are looking into it."),
        closed=False,
        color="#c25400",  # orange
        investigated=True,
    ),
    "referred": Status(
        label=N_("Passed to another agency"),
        public=N_("It has been sent to the agency that handles it."),
        closed=False,
        color="#7b3294",  # purple
        investigated=True,
    ),
    "resolved": Status(
        label=N_("Resolved"),
        public=N_("The problem was found and dealt with."),
        closed=True,
        color="#1a7f37",  # green
        investigated=True,
    ),
    "no-violation": Status(
        label=N_("No violation found"),
        public=N_("Staff looked into it and found no violation."),
        closed=True,
        color="#00838f",  # teal
        investigated=True,
    ),
    "exempt": Status(
        label=N_("Allowed discharge"),
        public=N_("What was seen is a discharge the law allows."),
        closed=True,
        color="#8c564b",  # brown
        investigated=True,
    ),
    "duplicate": Status(
        label=N_("Already reported"),
        public=N_("Someone reported the same problem; it is handled there."),
        closed=True,
        color="#6e6e6e",  # grey
    ),
    # Only for a written confirmation on record: a letter mailed to the office, its mailing
    # date recorded, or the filing where the content accepts it (the workflow refuses it
    # otherwise). "{office}" is the content's office name (portal/web/language.py fills it in).
    "confirmed": Status(
        label=N_("Confirmed in writing"),
        public=N_("Staff have received the written confirmation mailed to {office}."),
        closed=False,
        color="#c2185b",  # magenta
    ),
    "follow-up": Status(
        label=N_("Follow-up needed"),
        public=N_("Staff may contact you for more information."),
        closed=False,
        color="#9a7400",  # ochre
    ),
    "closed": Status(
        label=N_("Closed"),
        # Staff may close a filing while the notice or a mailed confirmation is still due, or
        # a source still keeps its record: the wording promises nothing about what the law
        # requires.
        public=N_(
            "Staff have finished following up this filing. That does not change what the law"
            " requires of the facility: a notice not yet given must still be given; a written"
            " confirmation still due must still be mailed, and a commercial or industrial"
            " source keeps its written record for at least three years."
        ),
        closed=True,
        color="#263238",  # near black
    ),
}

CLOSED = frozenset(key for key, status in STATUSES.items() if status.closed)
INVESTIGATED = tuple(key for key, status in STATUSES.items() if status.investigated)
COLORS = {key: status.color for key, status in STATUSES.items()}
