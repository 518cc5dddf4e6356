"""What every test's portal would otherwise redo, done once per test process: each
template compiled, each content pack checked and loaded. Every test builds its own app
(its own database, settings, Jinja environment), so without these each test pays for
compiling every template it renders and for parsing every YAML file of the pack."""

from __future__ import annotations

import hashlib
from pathlib import Path

import jinja2
import pytest
from flask import Flask

import portal
import static_site
from content_model.check import load_checked
from content_model.fields import CONTENT_DIR
from content_model.loader import Content


class CompiledTemplates(jinja2.BytecodeCache):
    """Each template compiled once per test process, not once per app (each test's portal
    has its own Jinja environment): the source's checksum and the options that change the
    compiled code are in the key, so an edited template or another setting compiles anew."""

    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}

    def get_bucket(self, environment, name, filename, source) -> jinja2.bccache.Bucket:
        options = (
            environment.trim_blocks,
            environment.lstrip_blocks,
            environment.keep_trailing_newline,
            environment.newline_sequence,
            environment.optimized,
            environment.autoescape(name) if callable(environment.autoescape) else None,
            sorted(environment.extensions),
            getattr(environment, "newstyle_gettext", None),
        )
        return super().get_bucket(environment, f"{name}|{options}", filename, source)

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key in self.compiled:
            bucket.bytecode_from_string(self.compiled[bucket.key])

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


# Every Flask app of the test process (portals, the site's freezer) shares it.
Flask.jinja_options = {**Flask.jinja_options, "bytecode_cache": CompiledTemplates()}


def share_compiled_templates() -> None:
    """Every Flask app of the test process (the portals, the site's freezer) shares one cache."""
    Flask.jinja_options = {**Flask.jinja_options, "bytecode_cache": CompiledTemplates()}


def pack_digest(directory: Path) -> str:
    """What a pack holds: every file's path and bytes (a test may edit a copy it made)."""
    digest = hashlib.blake2b()
    for path in sorted(directory.rglob("*")):
        if path.is_file():
            digest.update(str(path.relative_to(directory)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


_CHECKED: dict[tuple[Path, str], Content] = {}


def checked_once(directory: Path | str | None = None) -> Content:
    """`load_checked`, once for each pack as its files are now; a pack with problems raises
    every time (a failure is never kept)."""
    root = Path(directory or CONTENT_DIR).resolve()
    key = (root, pack_digest(root))
    if key not in _CHECKED:
        _CHECKED[key] = load_checked(directory)
    return _CHECKED[key]


def share_checked_packs(patch: pytest.MonkeyPatch) -> None:
    """Both apps start through `load_checked`: they get the kept result instead. Kept for
    one pytest session only (`make mutation` runs sessions in forks of one process, each
    with another mutant of the code that loads packs)."""
    _CHECKED.clear()
    patch.setattr(portal, "load_checked", checked_once)
    patch.setattr(static_site, "load_checked", checked_once)
