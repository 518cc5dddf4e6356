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
    modules = {**imported_modules("portal/mail"), **imported_modules("portal/notification"),
               **imported_modules("portal/report"), **imported_modules("portal/intake")}  # fmt: skip
    for path in ("portal/mail/compose.py", "portal/mail/outbox.py", "portal/mail/courier.py",
                 "portal/notification/records.py", "portal/notification/choices.py",
                 "portal/report/choices.py", "portal/intake/storage.py", "portal/status/views.py"):  # fmt: skip
        names = modules.get(path) or imported_modules("portal")[path]
        assert not {n for n in names if n.endswith(".forms") or n.startswith("wtforms")}, path
