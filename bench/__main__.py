"""`python -m bench [--record docs/benchmarks.md]`: print every figure; optionally record them."""

import argparse
import datetime as dt
import io
import os
import platform
import sys
from pathlib import Path

from bench import load, outfalls, portal, profile, resize, send, site, staff, suite, system

SECTIONS = {
    "site": site,
    "portal": portal,
    "resize": resize,
    "send": send,
    "staff": staff,
    "outfalls": outfalls,
    "load": load,
    "profile": profile,
    "system": system,
    "suite": suite,
}


class Tee(io.TextIOBase):
    """Print as usual, and keep a copy for the record."""

    def __init__(self, stream) -> None:
        self.stream, self.copy = stream, io.StringIO()

    def write(self, text: str) -> int:
        self.stream.write(text)
        self.stream.flush()
        return self.copy.write(text)


parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
parser.add_argument("--record", type=Path, help="also write the figures to this Markdown file")
parser.add_argument(
    "sections", nargs="*", help=f"only these sections, of {', '.join(SECTIONS)} (default: all)"
)
args = parser.parse_args()
if unknown := set(args.sections) - set(SECTIONS):
    parser.error(f"no such section: {', '.join(sorted(unknown))}")
tee = Tee(sys.stdout)
sys.stdout = tee
for name in args.sections or SECTIONS:
    SECTIONS[name].run()
    print()
sys.stdout = tee.stream
if args.record:
    when = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    machine = f"{os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"
    args.record.parent.mkdir(parents=True, exist_ok=True)
    # Hand-written sections below the run (## headings, e.g. a before/after comparison) stay.
    old = args.record.read_text(encoding="utf-8") if args.record.exists() else ""
    kept = old[old.index("\n## ") :] if "\n## " in old else ""
    args.record.write_text(
        "# Benchmarks\n\n"
        f"The latest run of `make bench` ({when}, {machine}). Figures, not tests: the page\n"
        "weight budgets are also checked by the test suite; timings vary with the machine.\n\n"
        "```text\n" + tee.copy.getvalue().strip() + "\n```\n" + kept,
        encoding="utf-8",
    )
    print(f"recorded in {args.record}")
