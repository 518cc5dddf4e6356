"""One copy of two rules the inventory shares with the rest of the app: whether a place is in
the service area (ServiceArea.contains, content_model/site_values.py) and the same day N
years later (add_years, portal/core/dates.py, its 29 February choice an argument). A second copy drifts
from the first (the review found each written three times, with three 29 February choices),
so this walks the app's code and fails on any comparison of a place with the box's sides, or
any years-later date arithmetic, outside those two functions."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APP = ("portal", "content_model", "static_site")
SIDES = {"south", "north", "west", "east"}

# The one place each rule is written: (file, function).
SERVICE_AREA = {("content_model/site_values.py", "contains")}
# The loader's check that the box is a box (south < north, west < east) compares side with
# side, not a place with the box.
BOX_SHAPE = {("content_model/site_values.py", "read_service_area")}
YEARS_LATER = {("portal/core/dates.py", "add_years")}
# The permit year's next start is built from the pack's month and day, not moved from a date;
# the loader refuses a 29 February start, so no leap-day choice arises there.
NOT_A_COPY = {("portal/staff/figures_period.py", "reporting_year")}

# Copies outside this branch's area, each being replaced by a call to add_years on its own
# branch. Remove an entry when its copy is gone (the test says so).
NOT_YET_ONE: set[tuple[str, str]] = set()


def _python_files(root: Path):
    for top in APP:
        for path in sorted((root / top).rglob("*.py")):
            yield path.relative_to(root).as_posix(), ast.parse(path.read_text(encoding="utf-8"))


def _functions(tree: ast.AST):
    """(function name, node) for every node, by the innermost function holding it."""

    def walk(node: ast.AST, name: str):
        for child in ast.iter_child_nodes(node):
            inner = (
                child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else name
            )
            yield inner, child
            yield from walk(child, inner)

    yield from walk(tree, "")


def _names(node: ast.AST) -> set[str]:
    """The attribute, variable and string-key names an expression reads."""
    found = set()
    for part in ast.walk(node):
        if isinstance(part, ast.Attribute):
            found.add(part.attr)
        elif isinstance(part, ast.Name):
            found.add(part.id)
        elif isinstance(part, ast.Constant) and isinstance(part.value, str):
            found.add(part.value)
    return found


def service_area_comparisons(root: Path = ROOT) -> set[tuple[str, str]]:
    """Where a value is compared with a side of the box."""
    found = set()
    for file, tree in _python_files(root):
        for function, node in _functions(tree):
            ordered = isinstance(node, ast.Compare) and not isinstance(
                node.ops[0], ast.Eq | ast.NotEq
            )
            if ordered and _names(node) & SIDES:
                found.add((file, function))
    for top in ("static/js", "templates", "portal"):
        for path in sorted((root / top).rglob("*")):
            if path.suffix in (".js", ".html"):
                text = path.read_text(encoding="utf-8")
                if re.search(
                    r"\b(south|north|west|east)\b\s*[<>]=?\s*[\w.]|[\w.)]\s*[<>]=?\s*"
                    r"[\w.]*\b(south|north|west|east)\b",
                    text,
                ):
                    found.add((path.relative_to(root).as_posix(), ""))
    return found


def years_later_arithmetic(root: Path = ROOT) -> set[tuple[str, str]]:
    """Where a date is moved to another year by hand: `day.replace(year=…)`, or a date built
    from `day.year + n`, or a function whose name says it does (anniversary, years_after)."""
    found = set()
    for file, tree in _python_files(root):
        for function, node in _functions(tree):
            if isinstance(node, ast.FunctionDef) and re.search(
                r"anniversar|years?_(after|later)|"
                r"add_years",
                node.name,
            ):
                found.add((file, node.name))
            if not isinstance(node, ast.Call):
                continue
            callee = node.func
            if (
                isinstance(callee, ast.Attribute)
                and callee.attr == "replace"
                and any(k.arg == "year" for k in node.keywords)
            ):
                found.add((file, function))
            named = callee.attr if isinstance(callee, ast.Attribute) else getattr(callee, "id", "")
            first = node.args[0] if node.args else None
            if named == "date" and isinstance(first, ast.BinOp) and "year" in _names(first):
                found.add((file, function))
    return found


def test_the_service_area_is_compared_in_one_place():
    assert service_area_comparisons() - BOX_SHAPE == SERVICE_AREA


def test_the_same_day_years_later_is_computed_in_one_place():
    found = years_later_arithmetic()
    assert found - NOT_YET_ONE - NOT_A_COPY == YEARS_LATER
    gone = NOT_YET_ONE - found
    assert not gone, f"{sorted(gone)} no longer copy the rule: remove them from NOT_YET_ONE"


def test_the_walk_finds_a_copy_when_there_is_one(tmp_path):
    """A planted copy of each rule, in a throwaway app tree, is found."""
    (tmp_path / "portal").mkdir()
    (tmp_path / "portal" / "copy.py").write_text(
        "def in_box(area, lat, lon):\n"
        "    return area.south <= lat <= area.north\n"
        "def five_years_on(day):\n"
        "    return day.replace(year=day.year + 5)\n"
        "def next_year(day):\n"
        "    return dt.date(day.year + 1, day.month, 28)\n",
        encoding="utf-8",
    )
    (tmp_path / "static" / "js").mkdir(parents=True)
    (tmp_path / "static" / "js" / "map.js").write_text("if (lat < box.north) {}\n")
    assert service_area_comparisons(tmp_path) == {
        ("portal/copy.py", "in_box"),
        ("static/js/map.js", ""),
    }
    assert years_later_arithmetic(tmp_path) == {
        ("portal/copy.py", "five_years_on"),
        ("portal/copy.py", "next_year"),
    }
