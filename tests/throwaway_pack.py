"""Throwaway packs: a copy of the default content with one line of one file changed, for the
tests that turn a content switch the other way and read its effect on a page."""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path

from content_model.fields import CONTENT_DIR


def text(page: str) -> str:
    """A page's words, tags and spacing dropped."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)).replace("\xa0", " "))


def throwaway_pack(root: Path, name: str, line: str, replacement: str) -> Path:
    """A copy of the default pack at `root` with `line` of `name` (it holds it once) replaced."""
    shutil.copytree(CONTENT_DIR, root)
    path = root / name
    words = path.read_text(encoding="utf-8")
    assert words.count(line) == 1, line
    path.write_text(words.replace(line, replacement), encoding="utf-8")
    return root
