"""What every content file is read with: one YAML mapping, field by field, each error
naming the file and the field, and a field nothing reads refused."""

from __future__ import annotations

import difflib
import re
from pathlib import Path
from typing import Any

import yaml

CONTENT_DIR = Path(__file__).resolve().parent.parent / "content"

# How a field that nothing reads is refused (the checker words its fix by it).
UNKNOWN_FIELD = "is not a field this file has"


class ContentError(ValueError):
    """A content file is missing, malformed or incomplete."""


def slugify(text: str) -> str:
    """Lower-case words joined by hyphens: 'BEST PRACTICES (BMPs)' -> 'best-practices-bmps'."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


class Fields:
    """One YAML mapping, read field by field; every error names the file and the field.

    It remembers which fields were read, so a field nobody reads (a misspelt
    `saturday_to_fridy: true`, which would otherwise be ignored and leave the Saturday
    rule at its default) is refused by `refuse_unknown` instead of passing unseen.
    """

    def __init__(self, data: Any, file: str, path: str = "", parent: Fields | None = None):
        if not isinstance(data, dict):
            where = path.rstrip(".") or "the top level"
            raise ContentError(f"{file}: {where}: expected a mapping of fields")
        self.data, self.file, self.path = data, file, path
        self.read: set[str] = set()
        self.children: list[Fields] = []
        if parent is not None:
            parent.children.append(self)

    def fail(self, key: str, message: str) -> ContentError:
        return ContentError(f"{self.file}: {self.path}{key}: {message}")

    def known(self, *keys: str) -> None:
        """Fields read by other means (a whole mapping passed on as it is)."""
        self.read.update(keys)

    def unknown(self) -> list[ContentError]:
        """A field of this mapping, or of one read through it, that nothing reads."""
        errors = []
        for key in self.data:
            if str(key) not in self.read:
                near = difflib.get_close_matches(str(key), sorted(self.read), n=1)
                hint = f" (did you mean {near[0]}?)" if near else ""
                errors.append(self.fail(str(key), f"{UNKNOWN_FIELD}{hint}"))
        for child in self.children:
            errors += child.unknown()
        return errors

    def refuse_unknown(self) -> None:
        errors = self.unknown()
        if errors:
            raise errors[0]

    def _get(self, key: str, optional: bool) -> Any:
        self.read.add(key)
        value = self.data.get(key)
        if value is None and not optional:
            raise self.fail(key, "is missing")
        return value

    def text(self, key: str, optional: bool = False) -> str | None:
        value = self._get(key, optional)
        if value is None:
            return None
        if not isinstance(value, str | int) or isinstance(value, bool) or not str(value).strip():
            raise self.fail(key, "must be non-empty text")
        return str(value).strip()

    def number(self, key: str, low: float, high: float) -> float:
        value = self._get(key, False)
        if (
            not isinstance(value, int | float)
            or isinstance(value, bool)
            or not low <= value <= high
        ):
            raise self.fail(key, f"must be a number from {low} to {high}")
        return float(value)

    def integer(self, key: str, optional: bool = False) -> int | None:
        value = self._get(key, optional)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            raise self.fail(key, "must be a whole number")
        return value

    def flag(self, key: str, default: bool) -> bool:
        self.read.add(key)
        value = self.data.get(key, default)
        if not isinstance(value, bool):
            raise self.fail(key, "must be true or false")
        return value

    def mapping(self, key: str) -> Fields:
        return Fields(self._get(key, False), self.file, f"{self.path}{key}.", self)

    def records(self, key: str, optional: bool = False) -> list[Fields]:
        value = self._get(key, optional) or []
        if not isinstance(value, list):
            raise self.fail(key, "must be a list")
        path = f"{self.path}{key}"
        return [Fields(item, self.file, f"{path}[{i}].", self) for i, item in enumerate(value)]

    def values(self, key: str, optional: bool = False) -> list[Any]:
        value = self._get(key, optional) or []
        if not isinstance(value, list):
            raise self.fail(key, "must be a list")
        return value


# libyaml's parser when PyYAML has it: the same safe loading, many times faster (both apps
# check and load the whole pack as they start).
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_yaml(text: str) -> Any:
    return yaml.load(text, Loader=SAFE_LOADER)


def read_yaml(path: Path) -> Any:
    try:
        return parse_yaml(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ContentError(f"{path.name}: file is missing") from None
    except yaml.YAMLError as error:
        raise ContentError(f"{path.name}: not valid YAML: {error}") from None


def keywords(fields: Fields, key: str = "keywords") -> tuple[str, ...]:
    """An optional `keywords` list (or another list under `key`): words or phrases people
    use for the thing."""
    keywords = tuple(str(k).strip() for k in fields.values(key, optional=True))
    if not all(keywords):
        raise fields.fail(key, "must be a list of words or phrases")
    return keywords
