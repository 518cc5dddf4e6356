"""The Nu HTML Checker (npm `vnu-jar`, on Java), run over saved pages."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

VNU_JAR = Path(__file__).resolve().parent / "node_modules/vnu-jar/build/dist/vnu.jar"


def html_errors(pages: list[Path], root: Path) -> list[str]:
    """The checker's errors for these files, one JVM start for all of them."""
    java = shutil.which("java")
    assert java, "java is missing: run `make test`, which installs it"
    assert VNU_JAR.is_file(), f"{VNU_JAR} is missing: run `make test`, which installs it"
    assert pages, "no pages to check"

    result = subprocess.run(
        [java, "-jar", str(VNU_JAR), "--errors-only", "--format", "json", *map(str, pages)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    # The checker writes its JSON report to stderr and exits 1 when it finds errors.
    try:
        report = json.loads(result.stderr)
    except json.JSONDecodeError:
        raise AssertionError(
            f"the Nu HTML Checker failed (exit {result.returncode}):\n{result.stderr}"
        ) from None

    errors = []
    for message in report["messages"]:
        path = unquote(urlsplit(message.get("url", "")).path)
        where = path.removeprefix(str(root.resolve()) + "/") or "?"
        line = message.get("lastLine", message.get("firstLine", "?"))
        errors.append(f"{where}:{line}: {message.get('type')}: {message.get('message')}")
    assert errors or result.returncode == 0, result.stderr
    return errors


def assert_valid_pages(pages: dict[str, Any], folder: Path) -> None:
    """Every response (by name) an HTML page the portal answered without failing (no 5xx),
    with no error from the checker; each is saved as folder/name.html for it."""
    files = []
    for name, response in pages.items():
        assert response.mimetype == "text/html" and response.status_code < 500, name
        files.append(folder / f"{name}.html")
        files[-1].write_bytes(response.data)
    errors = html_errors(files, folder)
    assert not errors, f"{len(errors)} HTML error(s):\n" + "\n".join(errors)
