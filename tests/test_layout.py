"""The shape of the tree: both apps stand on the content model, neither on the other."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def imported_modules(package: str) -> dict[str, set[str]]:
    """Every module a package's files import, by file."""
    found = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        names = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module)
        found[str(path.relative_to(ROOT))] = names
    return found


@pytest.mark.parametrize(
    ("package", "forbidden"),
    [
        ("portal", "static_site"),
        ("static_site", "portal"),
        ("content_model", "portal"),
        ("content_model", "static_site"),
    ],
)
def test_no_package_imports_the_one_beside_it(package, forbidden):
    offenders = {
        path: sorted(n for n in names if n == forbidden or n.startswith(f"{forbidden}."))
        for path, names in imported_modules(package).items()
    }
    assert {path: names for path, names in offenders.items() if names} == {}


def test_mail_composing_and_the_outbox_do_not_import_each_other():
    modules = imported_modules("portal/mail")
    assert "portal.mail.compose" not in modules["portal/mail/outbox.py"]
    assert "portal.mail" not in modules["portal/mail/outbox.py"]


def test_records_choices_and_mail_never_import_a_form():
    """Labels come from each feature's choices module, not from WTForms forms."""
    modules = {
        **imported_modules("portal/mail"),
        **imported_modules("portal/notification"),
        **imported_modules("portal/report"),
        **imported_modules("portal/intake"),
    }
    for path in (
        "portal/mail/compose.py",
        "portal/mail/outbox.py",
        "portal/mail/courier.py",
        "portal/notification/deadlines.py",
        "portal/notification/records.py",
        "portal/notification/choices.py",
        "portal/report/choices.py",
        "portal/intake/storage.py",
        "portal/status/views.py",
    ):
        names = modules.get(path) or imported_modules("portal")[path]
        assert not {n for n in names if n.endswith(".forms") or n.startswith("wtforms")}, path


# ---------------------------------------------------------------- layers that only point down

PACKAGES = ("portal", "content_model", "static_site")


def module_imports() -> dict[str, set[str]]:
    """Each module of the three packages, with the modules of theirs it imports anywhere in
    its source (inside functions too): `from portal.staff import bp` names portal.staff
    (its __init__ defines bp), `from portal.core import db` names portal.core.db alone."""
    files = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            files[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    found = {}
    for name, path in files.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        names = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, *([node.module] if node.module else [])])
                for alias in node.names:
                    names.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in files else base)
        found[name] = {n for n in names if n in files and n != name}
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            part = []
            while True:
                other = stack.pop()
                part.append(other)
                if other == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def package_of(module: str, graph: dict[str, set[str]]) -> str:
    """The package a module belongs to: itself for a package, else its parent. A command
    (`python -m content_model check`, its __main__) is a layer of its own, on top: it may
    use a subpackage (content_model.check) that uses the package below it."""
    if module.endswith(".__main__") or any(other.startswith(f"{module}.") for other in graph):
        return module
    return module.rpartition(".")[0] or module


def test_no_module_imports_one_that_imports_it_back():
    assert cycles(module_imports()) == []


def test_no_package_imports_one_that_imports_it_back():
    """Packages form layers: portal.core at the bottom, portal.web and the shared intake and
    mail above it, the features above those, the app factory on top."""
    modules = module_imports()
    packages: dict[str, set[str]] = {}
    for module, imported in modules.items():
        own = package_of(module, modules)
        packages.setdefault(own, set()).update(
            other for other in map(lambda m: package_of(m, modules), imported) if other != own
        )
    assert cycles(packages) == []


def test_the_cycle_finder_finds_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
