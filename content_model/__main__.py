"""`python -m content_model check [DIR]`: every problem of a content pack, or that it is ready."""

from __future__ import annotations

import argparse
import sys
import time

from content_model.check import check_pack, report
from content_model.fields import CONTENT_DIR


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m content_model",
        description="Check a content pack: every problem at once, with file, field and fix.",
    )
    parser.add_argument("command", choices=["check"])
    parser.add_argument(
        "directory",
        nargs="?",
        default=str(CONTENT_DIR),
        help="the pack's folder (default: content/)",
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    problems = check_pack(args.directory)
    if problems:
        print(report(problems, args.directory), file=sys.stderr)
        return 1
    elapsed = time.perf_counter() - started
    print(f"{args.directory}: no problems found ({elapsed:.2f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
