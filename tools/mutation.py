"""`make mutation`: mutmut over the modules where a wrong line costs most, each against the
tests that are about it, with a score per module. Outside `make test` and CI (it runs for
long). docs/testing.md records the last score and explains every mutant that survived.

Each module is mutated in its own copy of the last commit (instance/mutation/<name>/),
with its own mutmut settings (the module, the tests about it), so the runs can go one at
a time and be compared. `python tools/mutation.py [NAME ...]` runs only the modules named;
`--list` prints each module's surviving mutants too (`mutmut show NAME` in its folder
prints the diff of one).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "instance" / "mutation"

# name: (the files mutated, the tests that are about them). Browser tests are left out:
# each mutant runs the module's tests again, and these are the tests that say what it does.
MODULES = {
    "deadlines": (
        ["portal/core/deadlines.py"],
        ["tests/test_deadlines.py", "tests/test_business_days_law.py"],
    ),
    "enforcement-rules": (
        ["portal/enforcement/rules.py", "portal/enforcement/costs.py"],
        [
            "tests/test_enforcement_rules.py",
            "tests/test_enforcement_standing.py",
            "tests/test_enforcement_costs.py",
        ],
    ),
    # The notice's dates and its page model, against the timeline's own tables and the
    # pages that show them at the last day of each period.
    "enforcement-timeline": (
        ["portal/enforcement/timeline.py", "portal/enforcement/notice_page.py"],
        [
            "tests/test_enforcement_timeline.py",
            "tests/test_enforcement_appeal_day.py",
            "tests/test_enforcement_last_days.py",
            "tests/test_enforcement_records.py",
            "tests/test_enforcement_dates_table.py",
            "tests/test_enforcement_page_forms.py",
            # The papers kept as mailed: the protest date and payments the timeline reads back.
            "tests/test_enforcement_papers.py",
            "tests/test_enforcement_papers_kept.py",
        ],
    ),
    "notification-rules": (
        [
            "portal/notification/deadlines.py",
            "portal/notification/records.py",
            "portal/notification/compliance.py",
        ],
        [
            "tests/test_notify.py",
            "tests/test_release_notices.py",
            "tests/test_notification_boundaries.py",
            "tests/test_outbox.py",
            "tests/test_notification_record.py",
            "tests/test_notification_deadlines_shown.py",
            "tests/test_notification_case_notice.py",
            "tests/test_notification_outcome.py",
        ],
    ),
    "annual-figures": (
        [
            "portal/staff/annual_figures.py",
            "portal/staff/figures.py",
            "portal/staff/figures_period.py",
            "portal/notification/figures.py",
            "portal/enforcement/figures.py",
            "portal/trackdown/figures.py",
            "portal/training/figures.py",
        ],
        [
            "tests/test_annual_figures.py",
            "tests/test_annual_idde_figures.py",
            "tests/test_staff_training.py",
            "tests/test_notification_boundaries.py",
            "tests/test_release_notices.py",
            "tests/test_staff_work.py::test_the_permit_year_runs_january_3_to_january_2",
        ],
    ),
    "intake-storage": (
        ["portal/intake/storage.py", "portal/core/cases.py"],
        ["tests/test_storage.py"],
    ),
    "mail-outbox": (
        ["portal/mail/outbox.py"],
        ["tests/test_outbox.py", "tests/test_outbox_smtp.py", "tests/test_outbox_batch.py"],
    ),
    "staff-sign-in": (
        ["portal/accounts/auth.py", "portal/accounts/second_factor.py", "portal/accounts/totp.py"],
        ["tests/test_staff_access.py", "tests/test_second_factor.py"],
    ),
    "open311-public": (["portal/open311/public.py"], ["tests/test_open311_public.py"]),
    "content-loading": (
        [
            "content_model/fields.py",
            "content_model/site.py",
            "content_model/site_values.py",
            "content_model/ordinance.py",
            "content_model/exempt.py",
            "content_model/learn.py",
            "content_model/loader.py",
            "content_model/check/*",
        ],
        [
            "tests/test_content.py",
            "tests/test_content_check.py",
            "tests/test_content_fields.py",
            "tests/test_content_site.py",
            "tests/test_content_site_refused.py",
            "tests/test_content_check_site.py",
            "tests/test_content_law.py",
            "tests/test_content_learn.py",
            "tests/test_content_loader.py",
            "tests/test_content_check_law.py",
            "tests/test_content_check_pack.py",
            # flask and gunicorn start in a folder of their own, where the mutated code
            # finds no mutmut settings and fails to start at all (the other tests cover it).
            "--deselect=tests/test_content_check.py::"
            "test_gunicorn_and_flask_check_name_the_problems_of_a_broken_pack",
        ],
    ),
    "rotation-screening": (
        [
            "portal/outfalls/rotation.py",
            "portal/screening/route.py",
            "portal/screening/corrections.py",
            "content_model/outfalls.py",
        ],
        [
            "tests/test_screening.py",
            "tests/test_screening_boundaries.py",
            "tests/test_screening_corrections.py",
            "tests/test_rotation_inputs.py",
            "tests/test_outfall_settings.py",
        ],
    ),
}

# What the tests read besides the code (mutmut copies tests/ and pyproject.toml itself).
ALSO_COPY = [
    "content",
    "templates",
    "static",
    "static_site",
    "bench",
    "netlify.toml",
    "README.md",
    "docs",
    "translations",
]
CAUGHT = ("killed", "timeout")
RESULT = re.compile(r"^\s+(\S+): (.+)$")


def _folder(name: str) -> Path:
    return WORK / re.sub(r"\W+", "-", name)


def prepare(name: str, paths: list[str], tests: list[str], commit: str) -> Path:
    """The committed tree at `commit` (what the score is measured on, whatever is being
    edited meanwhile), with this module's mutmut settings."""
    folder = _folder(name)
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", commit], cwd=ROOT, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    # The compiled catalogues are built, never committed: tests of a page in Spanish read them.
    for catalogue in (folder / "translations").glob("*/LC_MESSAGES/messages.po"):
        babel = [Path(sys.executable).parent / "pybabel", "-q", "compile", "-i", str(catalogue)]
        subprocess.run([*babel, "-o", str(catalogue.with_suffix(".mo"))], check=True)
    # The HTML checker's and axe's npm packages are not committed (tests/node_modules); the
    # tests of a module that checks its pages' HTML need them.
    packages = ROOT / "tests" / "node_modules"
    if packages.exists():
        (folder / "tests" / "node_modules").symlink_to(packages.resolve())
    # mutmut reads [tool.mutmut] from pyproject.toml, else [mutmut] from setup.cfg.
    lines = "\n    ".join
    (folder / "setup.cfg").write_text(
        "[mutmut]\n"
        f"source_paths =\n    portal\n    content_model\n"
        f"only_mutate =\n    {lines(paths)}\n"
        f"pytest_add_cli_args_test_selection =\n    {lines(tests)}\n"
        "pytest_add_cli_args =\n    -p\n    no:cacheprovider\n    -x\n    -q\n"
        f"also_copy =\n    {lines(ALSO_COPY)}\n"
        # The suites under test use threads, SMTP servers and subprocesses of their own.
        "process_isolation = forkserver\n"
        "use_git_change_detection = false\n",
        encoding="utf-8",
    )
    return folder


def run(name: str, paths: list[str], tests: list[str], commit: str, show: bool) -> tuple[int, int]:
    folder = prepare(name, paths, tests, commit)
    mutmut = Path(sys.executable).parent / "mutmut"
    started = time.monotonic()
    log = folder / "mutmut-run.log"
    # The tests' frozen site, made once from the unmutated copy for every mutant's run.
    site = folder / "site-build"
    freeze = f"from static_site.freeze import freeze; freeze({str(site)!r})"
    subprocess.run([sys.executable, "-c", freeze], cwd=folder, check=True, capture_output=True)
    for _ in range(3):
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "TEST_SITE_BUILD": str(site)}
        with log.open("w") as out:
            subprocess.run(
                [str(mutmut), "run"],
                cwd=folder,
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
                check=False,
            )
        # mutmut first runs the tests unmutated, and stops if one fails; on a machine this
        # busy a timing test now and then does (mutmut picks up where it stopped).
        if "failed to collect stats" not in log.read_text(errors="replace"):
            break
    return score(name, folder, show, f"; {time.monotonic() - started:.0f} s")


def score(name: str, folder: Path, show: bool, note: str = "") -> tuple[int, int]:
    """Print the module's score from the results mutmut keeps in its folder."""
    mutmut = Path(sys.executable).parent / "mutmut"
    log = folder / "mutmut-run.log"
    listed = subprocess.run(
        [str(mutmut), "results", "--all", "true"], cwd=folder, capture_output=True, text=True
    ).stdout
    statuses = dict(m.groups() for line in listed.splitlines() if (m := RESULT.match(line)))
    counts = Counter(statuses.values())
    # A mutant that makes the tests run past mutmut's time limit (an endless loop) is
    # caught as surely as one that fails them.
    killed, total = counts["killed"] + counts["timeout"], len(statuses)
    percent = f"{100 * killed / total:.1f} %" if total else "no mutants (see mutmut-run.log)"
    other = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()) if s not in CAUGHT)
    print(
        f"{name:<34} {killed:>4} killed of {total:>4}  {percent:>8}  ({other or 'none left'}{note})"
    )
    # A survivor that only changes the case of SQL keywords and names (SQLite ignores it),
    # its quoted values untouched, cannot be caught by any test: it is named, not hidden.
    same = [m for m, status in statuses.items() if status == "survived" and _case_only(folder, m)]
    if same:
        adjusted = killed / (total - len(same))
        print(
            f"    {len(same)} of the survivors only change the case of SQL: without them"
            f" {100 * adjusted:.1f} %"
        )
    if counts["not checked"] == total:
        print(f"    mutmut did not run the tests; see {log.relative_to(ROOT)}")
    elif show:
        for mutant, status in sorted(statuses.items()):
            if status not in CAUGHT:
                print(f"    {status:<10} {mutant}")
    return killed, total


QUOTED = re.compile(r"'[^']*'")
SQL = re.compile(r"\b(SELECT|UPDATE|INSERT|DELETE|WHERE|FROM|SET|AND|VALUES|IS NULL)\b")


def _case_only(folder: Path, mutant: str) -> bool:
    """Whether a mutant's diff only changes letter case outside SQL's quoted values."""
    mutmut = Path(sys.executable).parent / "mutmut"
    diff = subprocess.run(
        [str(mutmut), "show", mutant], cwd=folder, capture_output=True, text=True
    ).stdout.splitlines()
    old = [line[1:] for line in diff if line.startswith("-") and not line.startswith("---")]
    new = [line[1:] for line in diff if line.startswith("+") and not line.startswith("+++")]
    if not old or len(old) != len(new):
        return False
    return all(
        a.lower() == b.lower()
        and a != b
        and SQL.search(a)
        and QUOTED.findall(a) == QUOTED.findall(b)
        for a, b in zip(old, new, strict=True)
    )


def main() -> None:
    parser = argparse.ArgumentParser(prog="python tools/mutation.py", description=__doc__)
    parser.add_argument("modules", nargs="*", help=f"of: {', '.join(MODULES)} (default: all)")
    parser.add_argument("--list", action="store_true", help="list the mutants not killed")
    parser.add_argument(
        "--report",
        action="store_true",
        help="only print the scores of the last run, from its folders",
    )
    args = parser.parse_args()
    if unknown := set(args.modules) - set(MODULES):
        parser.error(f"no such module: {', '.join(sorted(unknown))}")
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    if not args.report:
        print(f"Mutation score per module (mutmut, on the committed tree at {commit}):")
    killed = total = 0
    for name in args.modules or MODULES:
        paths, tests = MODULES[name]
        if args.report:
            k, t = score(name, _folder(name), args.list)
        else:
            k, t = run(name, paths, tests, commit, args.list)
        killed, total = killed + k, total + t
    if total:
        print(f"{'all':<34} {killed:>4} killed of {total:>4}  {100 * killed / total:.1f} %")


if __name__ == "__main__":
    main()
