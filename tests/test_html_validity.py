"""Every built page is valid HTML, by the Nu HTML Checker (one JVM start for the whole build)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlsplit

from helpers import built_pages

VNU_JAR = Path(__file__).resolve().parent / "node_modules/vnu-jar/build/dist/vnu.jar"


def test_every_page_is_valid_html(build):
    java = shutil.which("java")
    assert java, "java is missing: run `make test`, which installs it"
    assert VNU_JAR.is_file(), f"{VNU_JAR} is missing: run `make test`, which installs it"
    pages = built_pages(build)
    assert pages, "the build has no pages"

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
        where = path.removeprefix(str(build.resolve()) + "/") or "?"
        line = message.get("lastLine", message.get("firstLine", "?"))
        errors.append(f"{where}:{line}: {message.get('type')}: {message.get('message')}")
    assert not errors, f"{len(errors)} HTML error(s):\n" + "\n".join(errors)
    assert result.returncode == 0, result.stderr
