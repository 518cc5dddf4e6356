"""Figures from the system tests: the crash test and the hostile inputs, run by pytest."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUITES = {
    "crash test (gunicorn, 20 clients, kill -9 mid-load)": ["tests/test_crash.py"],
    "hostile inputs (property-based fuzzing of every public form)": ["tests/test_fuzz.py"],
    "hostile files and requests (fixed corpus)": [
        "tests/test_photos.py",
        "tests/test_portal_safety.py",
        "tests/test_report.py",
    ],
}
# Lines the tests print about what they tried: "crash: ..." and "<form>: N inputs, ...".
FIGURE = re.compile(r"^(crash: .*|[\w /.=<>-]+: \d+ inputs.*)$")
RESULT = re.compile(r"^=*\s*(\d+ (?:passed|failed).*? in [\d.]+s.*?)\s*=*$")


def run() -> None:
    for title, paths in SUITES.items():
        result = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", *paths],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
        lines = result.stdout.splitlines()
        figures = [m.group(1) for line in lines if (m := FIGURE.match(line.strip()))]
        outcome = next((m.group(1) for line in lines if (m := RESULT.match(line))), "no result")
        print(f"{title}: {outcome}")
        for figure in figures:
            print(f"  {figure}")
