"""The kinds of case: one descriptor per kind, registered by the package that owns it.

A case is a row of `cases` (what every kind shares) and a row of its kind's details table.
Everything the shared code needs to know about a kind (its reference prefix, its table, its
words, the statuses it uses, its mail, its status page, its parts of the staff pages, its
export columns, its searchable text) is in its `Kind`, and the shared code loops over the
registry: storage, statuses, mail, the status page, the staff queue, the case page and its
print, exports, the search index and the annual figures. A kind that is not registered is
refused where a case of it would be stored or shown, loudly (`UnknownKind`), never handled
by an "else" meant for another kind.

Kinds register when their package is imported (the app factory imports every feature), so
the registry is complete before the first database connection builds its search index;
each has a rank, so their order never depends on the order of imports.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import sqlite_utils
from sqlite_utils import Migrations

from portal.core.statuses import STATUSES

Row = dict[str, Any]
# (heading, how to get the value in words from a row of the case joined with its details).
Column = tuple[str, Callable[[Row], Any]]

NAME = re.compile(r"^[a-z][a-z0-9_]*$")
PREFIX = re.compile(r"^[A-Z]{2,5}$")


class KindError(ValueError):
    """A kind that cannot be registered as described, or a case of a kind never registered."""


class UnknownKind(KindError, LookupError):
    """A case whose kind no package registered (a file from a newer or another install)."""


@dataclass(frozen=True)
class Counted:
    """How the annual figures count discharges found through a kind of case."""

    label: str  # "resident reports": "Confirmed through resident reports"
    # The status that, with "confirmed illicit discharge", means the discharge was
    # eliminated (for a notification: closed once the release was dealt with, our reading).
    eliminated_status: str
    # When a case's opening log entry happened, where that is earlier than it was typed
    # ({case id: local ISO time}): a discharge staff found on paper and recorded later counts
    # in the period it was found in, not the one it was typed in.
    happened_at: Callable[[sqlite_utils.Database], dict[int, str]] | None = None
    # What the figures' page says of that reading.
    note: str = ""


@dataclass(frozen=True)
class PublicWords:
    """What the pages every public form shares say of a case of a kind (the "already sent"
    page), in English marked for the catalogue (N_): each is shown in the page's language."""

    sent: str  # "This report was already sent."
    sent_as: str  # "This report was already sent as %(reference)s, on %(when)s"
    nothing_new: str  # "We have not made a second report from it."
    tell_more: str  # "... call %(office)s at %(number)s ..., or send a new report."
    follow: str  # "See what happens with your report here. Anyone with the link can see..."
    another: str  # "Something else to report?"
    start: str  # "Start a new report"
    form: str  # the endpoint of a new, blank form: "report.form"


@dataclass(frozen=True)
class Kind:
    """What a kind of case is, for the code every kind shares."""

    key: str  # cases.kind, e.g. "report"
    prefix: str  # of its references, e.g. IDR-2026-0042
    table: str  # its details: one row per case, keyed by case_id
    alias: str  # the details table's name in shared SQL (the queue's joins)
    label: str  # "Resident report": the case page, exports
    plural: str  # "Resident reports": the queue's filter
    short: str  # "Report": the queue's tag beside a reference
    statuses: tuple[str, ...]  # keys of STATUSES a case of it can have, in staff's order
    # Where it comes among the kinds (the queue's filter, the export's columns, the figures):
    # lower first, whatever order the packages were imported in.
    rank: int
    # Queue the mail of a newly stored case (inside the caller's transaction): (db, case, token).
    queue_mail: Callable[[sqlite_utils.Database, Row, str], None]
    # The public status page of a case of it: (db, case, token) -> a Flask response.
    status_page: Callable[[sqlite_utils.Database, Row, str], Any]
    # Extra values its staff partials need: (db, case, details) -> dict.
    staff_context: Callable[[sqlite_utils.Database, Row, Row], Mapping[str, Any]] = (
        lambda db, case, details: {}
    )
    # Why a case of it is hazardous (the queue, the digest, the export): (rules, row) -> names.
    hazards: Callable[[Any, Row], list[str]] = lambda rules, row: []
    # The staff CSV's own columns (after the shared ones), over the case joined with details.
    export_columns: tuple[Column, ...] = ()
    # Text an officer may search for: (label, a column of its details table).
    search_columns: tuple[tuple[str, str], ...] = ()
    # Who or what a case of it is about, in a few words, where the address alone says too
    # little (the digest): a filing's facility. None: the address says it.
    about: Callable[[Row], str | None] = lambda details: None
    # Whether staff may mark a case of it a duplicate of another (the case page's link).
    duplicates: bool = False
    # Whether someone outside sends a case of it (a resident, a business): the case page offers
    # a note to them and its print warns it names them. False for cases staff open themselves.
    sender: bool = True
    counted: Counted | None = None
    # Its tables, as numbered migrations (applied after the portal's own).
    migrations: Migrations | None = None
    # The staff page that records a case of it, and the queue's words for the link to it
    # ("staff_found.new_finding", "Record a discharge staff found"); None: none to link.
    record_page: tuple[str, str] | None = None
    # What the public pages say of it, for a kind the public sends through a form that uses
    # portal/intake/submit.py; None for one staff open.
    public_words: PublicWords | None = None
    # For a kind with the "confirmed" status (confirmed in writing): whether a confirmation is
    # on record for a case, (db, case id) -> bool. Until one is, staff cannot choose it.
    confirmation_on_record: Callable[[sqlite_utils.Database, int], bool] = lambda db, case_id: False

    # Its staff templates, named for its key: what the case page and its print show of the
    # details (given `case`, `details` and what `staff_context` returns), and a few words for
    # the queue (given `row` with its `details`).
    @property
    def case_partial(self) -> str:
        return f"staff/kinds/{self.key}_case.html"

    @property
    def print_partial(self) -> str:
        return f"staff/kinds/{self.key}_print.html"

    @property
    def queue_partial(self) -> str:
        return f"staff/kinds/{self.key}_queue.html"


_KINDS: dict[str, Kind] = {}


def register(kind: Kind) -> Kind:
    """Add a kind; refuse one that clashes with another or names what does not exist."""
    known = _KINDS.get(kind.key)
    if known is kind:
        return kind
    if known is not None:
        raise KindError(f"kind {kind.key!r} is registered already")
    if not NAME.match(kind.key) or not NAME.match(kind.table) or not NAME.match(kind.alias):
        raise KindError(f"kind {kind.key!r}: key, table and alias must be lower-case names")
    if not PREFIX.match(kind.prefix):
        raise KindError(f"kind {kind.key!r}: prefix {kind.prefix!r} must be 2 to 5 capitals")
    for other in _KINDS.values():
        for part in ("prefix", "table", "alias"):
            if getattr(other, part) == getattr(kind, part):
                raise KindError(f"kind {kind.key!r}: {part} is kind {other.key!r}'s already")
        # A spreadsheet with two columns of one heading mixes them up when read back.
        clash = {h for h, _ in other.export_columns} & {h for h, _ in kind.export_columns}
        if clash:
            raise KindError(
                f"kind {kind.key!r}: export heading {sorted(clash)[0]!r} is kind "
                f"{other.key!r}'s already"
            )
    unknown = [s for s in kind.statuses if s not in STATUSES]
    if unknown or "received" not in kind.statuses:
        raise KindError(f"kind {kind.key!r}: statuses must include 'received' (unknown: {unknown})")
    if kind.counted and kind.counted.eliminated_status not in kind.statuses:
        raise KindError(f"kind {kind.key!r}: counted as eliminated in a status it lacks")
    _KINDS[kind.key] = kind
    return kind


def unregister(key: str) -> None:
    """Take a kind out again (a test's throwaway kind)."""
    _KINDS.pop(key, None)


def get(key: str) -> Kind:
    try:
        return _KINDS[key]
    except KeyError:
        raise UnknownKind(f"no kind of case {key!r} is registered") from None


def all_kinds() -> tuple[Kind, ...]:
    """Every registered kind, by rank."""
    return tuple(sorted(_KINDS.values(), key=lambda kind: (kind.rank, kind.key)))


def statuses_for(key: str) -> tuple[str, ...]:
    """The statuses a case of this kind can have, in the order staff choose from."""
    return get(key).statuses


def joins(case: str = "c") -> str:
    """SQL: every kind's details table joined to `cases` as `case` (each by its alias)."""
    return "".join(
        f" LEFT JOIN {k.table} {k.alias} ON {k.alias}.case_id = {case}.id" for k in all_kinds()
    )


def attach_details(db: sqlite_utils.Database, rows: list[Row]) -> list[Row]:
    """Give each case row its kind (`kind_of`) and its row of details (`details`), one read
    per kind present."""
    for kind in {row["kind"] for row in rows}:
        own = [row for row in rows if row["kind"] == kind]
        described = get(kind)
        marks = ", ".join("?" for _ in own)
        cursor = db.execute(
            f"SELECT * FROM {described.table} WHERE case_id IN ({marks})", [r["id"] for r in own]
        )
        columns = [c[0] for c in cursor.description]
        found = {row[0]: dict(zip(columns, row, strict=True)) for row in cursor}
        for row in own:
            row["kind_of"], row["details"] = described, found.get(row["id"], {})
    return rows


# What a case staff flagged hazardous is, where its kind's rule found nothing.
SET_BY_STAFF = "Flagged by staff"


def hazards_of(rules: Any, row: Row) -> list[str]:
    """Why a case is hazardous, by its kind's rule, from its `details`; unless staff set or
    cleared the flag on it (cases.hazard_call, "set" or "cleared"): the officer decides."""
    call = row.get("hazard_call")
    if call == "cleared":
        return []
    found = get(row["kind"]).hazards(rules, row["details"])
    return found or ([SET_BY_STAFF] if call == "set" else [])
