"""The whole test suite's time: `make test` itself (ruff, then pytest on every core with the
tests' files where the Makefile puts them), with the machine's load before and after (the
figure the README gives is this one, on an idle machine)."""

from __future__ import annotations

import os
import re
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMAND = ["make", "--no-print-directory", "test"]
RESULT = re.compile(r"^=*\s*(\d+ passed.*?) in [\d.]+s")


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.1f} (1 min), {five:.1f} (5 min)"


def run() -> None:
    before = load()
    began = time.monotonic()
    result = subprocess.run(COMMAND, cwd=ROOT, capture_output=True, text=True, check=False)
    wall = time.monotonic() - began
    lines = result.stdout.splitlines()
    outcome = next((m.group(1) for line in lines if (m := RESULT.match(line))), "no result")
    print(
        f"Test suite (make test, pytest on {os.cpu_count()} cores): {outcome},"
        f" wall {wall:.0f} s ({wall / 60:.1f} min); load average before {before},"
        f" after {load()}"
    )
