"""A problem of a content pack (file, field, message, fix), and the readings every file's
check shares: a value by its dotted path, a file read, a loader error as a problem."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from content_model.fields import (
    CONTENT_DIR,
    UNKNOWN_FIELD,
    ContentError,
    parse_yaml,
)


@dataclass(frozen=True)
class Problem:
    file: str
    field: str
    message: str
    fix: str
    # Found by the loader (its first error in a file), not by a check of the checker's own.
    from_loader: bool = field(default=False, compare=False)

    def __str__(self) -> str:
        where = f"{self.file}: {self.field}" if self.field else self.file
        return f"{where}: {self.message}\n    fix: {self.fix}"


def value_at(data: Any, path: str) -> Any:
    for key in path.split("."):
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return data


def read_file(root: Path, name: str) -> tuple[Any, Problem | None]:
    try:
        return parse_yaml((root / name).read_text(encoding="utf-8")), None
    except FileNotFoundError:
        return None, Problem(name, "", "file is missing", fix_missing_file(name))
    except yaml.YAMLError as error:
        return None, Problem(
            name, "", f"not valid YAML: {error}", "correct the YAML at the line and column named"
        )


def fix_missing_file(name: str) -> str:
    return f"copy {name} from {CONTENT_DIR.name}/ into the pack and change it"


def from_error(error: ContentError) -> Problem:
    """A loader error ('file: field: message') as a problem, with a fix for its kind."""
    parts = str(error).split(": ", 2)
    if len(parts) < 3 or parts[1].startswith("not valid YAML"):
        # A whole file's problem ('site.yaml: file is missing', 'site.yaml: not valid YAML:
        # while parsing ...'): no field.
        parts = [parts[0], "", str(error).partition(": ")[2]]
    file, field, message = parts
    if message == "file is missing":
        fix = fix_missing_file(file)
    elif message == "is missing":
        fix = f"add `{field.rsplit('.', 1)[-1]}` (the default pack's {file} shows it)"
    elif message.startswith("not valid YAML"):
        fix = "correct the YAML at the line and column named"
    elif message.startswith(UNKNOWN_FIELD):
        leaf = field.rsplit(".", 1)[-1]
        fix = f"remove `{leaf}`, or spell it as the field it was meant to be"
    else:
        fix = f"change `{field or file}` as the message says"
    return Problem(file, field, message, fix, from_loader=True)
