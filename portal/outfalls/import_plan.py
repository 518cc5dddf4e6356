"""An import's plan and report: the checked records compared with the stored inventory
(added, updated by id, unchanged; a new id at the place of a stored structure refused), and
what the import did, for the page and the command. Pure: inventory.import_file reads the
file (readers), checks its rows (checking), plans here and stores the plan (inventory.apply).

A re-import updates by id: a cell left empty keeps what is stored (a file without a column
changes nothing of it), and structures missing from the file stay.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from portal.outfalls.checking import PAPER_DAY, PLACES, Other, Record, Refusal


@dataclass
class Plan:
    """What an import does: records to add, to update (with the fields that change), and
    those already stored as the file has them."""

    added: list[Record] = field(default_factory=list)
    updated: list[tuple[Record, int, dict[str, Any]]] = field(default_factory=list)
    unchanged: list[Record] = field(default_factory=list)

    def records(self) -> list[Record]:
        """Every record the plan stores or finds stored (none of those refused)."""
        return [*self.added, *(record for record, _, _ in self.updated), *self.unchanged]


def _same(stored: Any, given: Any) -> bool:
    if isinstance(given, float) and stored is not None:
        return round(float(stored), PLACES) == round(given, PLACES)
    return stored == given


def plan(records: list[Record], stored: Mapping[str, Mapping[str, Any]]) -> Plan:
    """Compare the file's records with what is stored (`stored`: by id, case-folded, each
    with its row `id` and its fields)."""
    result = Plan()
    for record in records:
        current = stored.get(record.code.casefold())
        if current is None:
            result.added.append(record)
            continue
        changes = {
            name: value
            for name, value in record.values.items()
            if not (
                value in current.get("paper_days", ())
                if name == PAPER_DAY
                else _same(current.get(name), value)
            )
        }
        if changes:
            result.updated.append((record, current["id"], changes))
        else:
            result.unchanged.append(record)
    return result


# A new id this close to a stored structure with another id is taken for a renamed one
# (renamed in the portal, then the old GIS file imported again), not a second structure.
SAME_PLACE_M = 5.0
# About 11 m of latitude and 8 m of longitude here: the neighbouring cells hold every
# structure within SAME_PLACE_M.
_CELL = 10_000


def _cell_of(latitude: float, longitude: float) -> tuple[int, int]:
    return round(latitude * _CELL), round(longitude * _CELL)


def same_place(
    planned: Plan,
    stored: Mapping[str, Mapping[str, Any]],
    codes_in_file: set[str],
    id_column: str,
    distance: Any,
) -> list[Refusal]:
    """Take out of `planned.added` each new id within SAME_PLACE_M of a structure stored
    under another id (in service, and not in this file), and refuse it naming that one.
    `distance(lat, lon, lat, lon)` gives metres."""
    cells: dict[tuple[int, int], list[Mapping[str, Any]]] = {}
    for key, row in stored.items():
        if key not in codes_in_file and not row.get("retired_on"):
            cells.setdefault(_cell_of(row["latitude"], row["longitude"]), []).append(row)
    refusals, kept = [], []
    for record in planned.added:
        lat, lon = record.values["latitude"], record.values["longitude"]
        a, b = _cell_of(lat, lon)
        near = [
            (distance(lat, lon, row["latitude"], row["longitude"]), row["code"])
            for da in (-1, 0, 1)
            for db in (-1, 0, 1)
            for row in cells.get((a + da, b + db), ())
        ]
        near = sorted(pair for pair in near if pair[0] <= SAME_PLACE_M)
        if not near:
            kept.append(record)
            continue
        metres, other = near[0]
        refusals.append(
            Refusal(
                record.number,
                id_column,
                f"a new id {metres:.1f} m from {other}, stored under that id: if {other} is"
                f" {record.code} renamed, give the file's row the id {other} (or rename it back"
                f" on its page); if {record.code} is another structure at that place, import"
                ' again with "Add new ids beside a stored structure" ticked (--beside)',
                record.code,
            )
        )
    planned.added = kept
    return refusals


@dataclass
class Report:
    """What an import did (or would do, checking only), for the page and the command."""

    file: str
    unit: str
    read: int
    added: int
    updated: int
    unchanged: int
    refusals: list[Refusal]
    ignored: list[str]
    not_in_file: int
    checked_only: bool = False
    refused_file: str | None = None
    # The words no list knows, kept as "other" on the rows imported (or checked).
    others: list[Other] = field(default_factory=list)

    @property
    def rows_refused(self) -> int:
        """The rows refused whole (a cell refused alone left its row in)."""
        return len({r.number for r in self.refusals if not r.cell_only})

    def lines(self) -> list[str]:
        """The report as plain lines (the command prints them; the page shows the same)."""
        if self.refused_file:
            return [f"{self.file}: nothing imported.", self.refused_file]
        units = self.unit if self.read == 1 else f"{self.unit}s"
        verb = "would be" if self.checked_only else ""
        head = f"{self.file}: {self.read} {units} read" + (
            " (checked only: nothing was changed)" if self.checked_only else ""
        )
        counts = (
            f"{'would add' if verb else 'added'} {self.added},"
            f" {'would update' if verb else 'updated'} {self.updated},"
            f" unchanged {self.unchanged}, refused {self.rows_refused}"
        )
        cells = len(self.refusals) - sum(not r.cell_only for r in self.refusals)
        if cells:
            counts += f", cells left out {cells}"
        if self.others:
            counts += f", kept as other {len(self.others)}"
        lines = [head, counts]
        for refusal in self.refusals:
            which = (
                f" ({refusal.code})"
                if refusal.code and refusal.reason[:1] != refusal.code[:1]
                else ""
            )
            lines.append(f"  {self.unit} {refusal.number}{which}, {refusal.field}: {refusal.words}")
        for other in self.others:
            where = f"{self.unit} {other.number} ({other.code}), {other.field}"
            lines.append(f"  {where}: {other.words}")
        if self.ignored:
            lines.append("Columns not read: " + ", ".join(self.ignored))
        if self.not_in_file:
            many = self.not_in_file != 1
            are = "are" if many else "is"
            lines.append(
                f"{self.not_in_file} structure{'s' * many} in the inventory {are}"
                " not in this file and stay as they are."
            )
        return lines
