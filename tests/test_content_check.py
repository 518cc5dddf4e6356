"""The content checker on both packs, and on the test pack broken one thing at a time: each
problem named with its file, field and fix, all of them at once, from the command line and
when either app starts."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from crashload import Gunicorn, flask_command, free_port, portal_env
from pack_traces import PACK

from content_model.check import check_pack, is_phone_number
from content_model.fields import CONTENT_DIR, ContentError
from portal import create_app as create_portal
from static_site.freeze import main as freeze_main


def _yaml(name, change):
    def edit(root: Path):
        path = root / name
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        change(data)
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")

    return edit


def _replace(name, old, new):
    def edit(root: Path):
        path = root / name
        text = path.read_text(encoding="utf-8")
        assert old in text, f"{old!r} not in {name}"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    return edit


def _site(change):
    return _yaml("site.yaml", change)


def _holiday(index, **rule):
    return _site(lambda d: d["holidays"]["observed"].__setitem__(index, rule))


SPAN = "(§ 147-1 to § 147-20)"
CITE_FIX = f"cite a section or subdivision the ordinance has {SPAN}, or add it to ordinance.yaml"
PHONE_FIX = (
    "write it with its area code, like (315) 555-0100 or 1-800-457-7362, "
    "or a three-digit number such as 911 (in quotes)"
)
RULE_FIX = (
    "give `day` for a fixed date, or `weekday` with `nth` (1 to 4, or -1 for the last) "
    "or `after_first` (a weekday name)"
)

BROKEN = [
    (
        "missing field",
        _site(lambda d: d["office"].pop("hours")),
        "site.yaml: office.hours: is missing\n"
        "    fix: add `hours` under `office` (see the default pack)",
    ),
    (
        "missing phone",
        _site(lambda d: d["phones"].pop("police")),
        "site.yaml: phones.police: is missing\n"
        "    fix: add `police` under `phones` (see the default pack)",
    ),
    (
        "words for a phone",
        _site(lambda d: d["phones"]["police"].update(number="call the sheriff")),
        "site.yaml: phones.police.number: 'call the sheriff' is not a phone number\n"
        f"    fix: {PHONE_FIX}",
    ),
    (
        "phone without area code",
        _site(lambda d: d["office"].update(phone="555-0142")),
        f"site.yaml: office.phone: '555-0142' is not a phone number\n    fix: {PHONE_FIX}",
    ),
    (
        "February 29",
        _holiday(4, name="Leap Day", month=2, day=29),
        "site.yaml: holidays.observed[4].day: February 29 is not a date in three years of four, "
        "so the holiday cannot be computed for every year\n"
        "    fix: give a rule that falls every year, or list the years' days under "
        "holidays.closures",
    ),
    (
        "permit year from February 29",
        _site(lambda d: d.update(reporting_year_starts="02-29")),
        "site.yaml: reporting_year_starts: February 29 is not a date in three years of four, so no "
        "year could start on it\n"
        '    fix: write the month and day in quotes, like "01-03"',
    ),
    (
        "holiday with no day",
        _holiday(2, name="Presidents' Day", month=2),
        "site.yaml: holidays.observed[2].day: give a day, or a weekday with nth or after_first\n"
        f"    fix: {RULE_FIX}",
    ),
    (
        "fifth Monday",
        _holiday(2, name="Presidents' Day", month=2, weekday="monday", nth=5),
        f"site.yaml: holidays.observed[2].nth: must be 1 to 4, or -1 for the last\n    fix: {RULE_FIX}",
    ),
    (
        "office outside the area",
        _site(lambda d: d["office"]["location"].update(latitude=43.5)),
        "site.yaml: service_area: the office at 43.50000, -76.03910 is outside the service area "
        "(the Town of Wrenfield: latitude 42.9 to 42.98, longitude -76.1 to -75.98)\n"
        "    fix: widen the service_area box to take in the office, or correct office.location",
    ),
    (
        "penalties cite a missing section",
        _replace("site.yaml", "Under § 147-13 B", "Under § 147-31 B"),
        f"site.yaml: penalties: cites § 147-31 B, which is not in the ordinance\n    fix: {CITE_FIX}",
    ),
    (
        "bad time zone",
        _site(lambda d: d.update(timezone="America/Wrenfield")),
        "site.yaml: timezone: 'America/Wrenfield' is not a known time zone\n"
        "    fix: use a name from the time zone database, like America/New_York",
    ),
    (
        "closing time",
        _site(lambda d: d["office"].update(closes="4 pm")),
        "site.yaml: office.closes: '4 pm' is not a time like 16:00\n"
        '    fix: write a 24-hour time in quotes, like "16:00"',
    ),
    (
        "closure not a date",
        _site(lambda d: d["holidays"].update(closures=["2026-11-27", "Dec 24"])),
        "site.yaml: holidays.closures[1]: 'Dec 24' is not a date (YYYY-MM-DD)\n"
        "    fix: write each closure as a date, like 2026-12-24",
    ),
    (
        "learn page lists a missing section",
        _replace("learn/car-washing.md", 'sections: ["147-1"', 'sections: ["147-77", "147-1"'),
        "learn/car-washing.md: sections: § 147-77 is not in the ordinance\n"
        f"    fix: list sections the ordinance has {SPAN}",
    ),
    (
        "learn page links a missing subdivision",
        _replace("learn/car-washing.md", "Under § 147-6 A(1)", "Under § 147-6 A(9)"),
        f"learn/car-washing.md: body: cites § 147-6 A(9), which is not in the ordinance\n    fix: {CITE_FIX}",
    ),
    (
        "learn page links a missing part of the law",
        _replace(
            "learn/car-washing.md",
            "## Why it matters",
            "See [the list](/ordinance/#sec-147-6-a-9).\n\n## Why it matters",
        ),
        "learn/car-washing.md: body: cites a link to #sec-147-6-a-9, which is not in the ordinance\n"
        f"    fix: {CITE_FIX}",
    ),
    (
        "ordinance cites a missing section",
        _replace("ordinance.yaml", "defined in §\u00a0147-7", "defined in §\u00a0147-70"),
        "ordinance.yaml: sections[10] (§ 147-11): cites § 147-70, which is not in the ordinance\n"
        f"    fix: {CITE_FIX}",
    ),
    (
        "ordinance names a missing subsection",
        _replace("ordinance.yaml", "provided in Subsection A(1)", "provided in Subsection A(7)"),
        "ordinance.yaml: sections[5] (§ 147-6): cites Subsection A(7) (of § 147-6), which is not "
        f"in the ordinance\n    fix: {CITE_FIX}",
    ),
    (
        "role without a section",
        _replace("ordinance.yaml", "penalties: 147-13", "penalties: 147-31"),
        "ordinance.yaml: roles.penalties: § 147-31 is not in the ordinance\n"
        "    fix: give the number of the section that does this job",
    ),
    (
        "role left out",
        _replace("ordinance.yaml", "  release_notification: 147-12\n", ""),
        "ordinance.yaml: roles.release_notification: is missing\n"
        "    fix: name the section that does this job, like `release_notification: 147-N`",
    ),
    (
        "exempt list missing",
        lambda root: (root / "exempt-discharges.yaml").unlink(),
        "exempt-discharges.yaml: file is missing\n"
        "    fix: copy exempt-discharges.yaml from content/ into the pack and change it",
    ),
    # Misspelt, a switch that moves legal deadlines would silently keep its default.
    (
        "misspelt holiday switch",
        _replace("site.yaml", "saturday_to_friday: true", "saturday_to_fridy: true"),
        "site.yaml: holidays.saturday_to_fridy: is not a field this file has (did you mean "
        "saturday_to_friday?)\n    fix: remove `saturday_to_fridy`, or spell it as the field it was meant to be",
    ),
    (
        "unknown phone field",
        _site(lambda d: d["phones"]["police"].update(numbr="911")),
        "site.yaml: phones.police.numbr: is not a field this file has (did you mean number?)\n"
        "    fix: remove `numbr`, or spell it as the field it was meant to be",
    ),
    # The enforcement sections are the ordinance's roles: a list of its own is refused, and
    # so is a misspelt reading (it would leave the default in force and move a deadline).
    (
        "enforcement lists sections of its own",
        _replace("enforcement.yaml", "violable:", "sections:\n  notice: '147-13'\nviolable:"),
        "enforcement.yaml: sections: is not a field this file has\n"
        "    fix: remove `sections`, or spell it as the field it was meant to be",
    ),
    (
        "misspelt enforcement reading",
        _replace("enforcement.yaml", "  roll_to_business_day:", "  roll_to_busines_day:"),
        "enforcement.yaml: readings.roll_to_busines_day: is not a field this file has (did you mean"
        " roll_to_business_day?)\n    fix: remove `roll_to_busines_day`, or spell it as the field it was meant to be",
    ),
    (
        "enforcement role left out",
        _replace("ordinance.yaml", "  corrective_measures: 147-15", "  correction: 147-15"),
        "ordinance.yaml: roles.corrective_measures: is missing\n"
        "    fix: name the section that does this job, like `corrective_measures: 147-N`",
    ),
    (
        "exempt note cites a missing section",
        _replace("exempt-discharges.yaml", "(§ 147-6 A(1))", "(§ 147-9 A(1))"),
        "exempt-discharges.yaml: questions[0].answer: cites § 147-9 A(1), which is not in the "
        f"ordinance\n    fix: {CITE_FIX}",
    ),
    (
        "missing reading",
        _site(lambda d: d.pop("record_keepers_reading")),
        "site.yaml: record_keepers_reading: is missing\n"
        "    fix: add `record_keepers_reading` at the top level (see the default pack)",
    ),
]


def broken_pack(tmp_path: Path, *edits) -> Path:
    root = tmp_path / "pack"
    shutil.copytree(PACK, root)
    for edit in edits:
        edit(root)
    return root


@pytest.mark.parametrize("pack", [CONTENT_DIR, PACK], ids=["default", "test pack"])
def test_both_packs_are_clean(pack):
    assert check_pack(pack) == []


@pytest.mark.parametrize(
    ("edit", "message"), [case[1:] for case in BROKEN], ids=[case[0] for case in BROKEN]
)
def test_one_broken_thing_gives_its_message(tmp_path, edit, message):
    problems = check_pack(broken_pack(tmp_path, edit))
    assert [str(p) for p in problems] == [message]


# Cases that undo another's edit (no police phone to misspell, no exempt list to cite from),
# and unknown fields, which are named once the file's values can be read.
OVERLAPPING = {
    "missing phone",
    "fifth Monday",
    "exempt list missing",
    "unknown phone field",
    "misspelt holiday switch",
    "enforcement lists sections of its own",
    "misspelt enforcement reading",
}


def test_every_problem_is_reported_at_once(tmp_path):
    cases = [case for case in BROKEN if case[0] not in OVERLAPPING]
    found = [str(p) for p in check_pack(broken_pack(tmp_path, *(case[1] for case in cases)))]
    assert sorted(found) == sorted(case[2] for case in cases)


@pytest.mark.parametrize(
    ("number", "ok"),
    [
        ("911", True),
        ("(607) 739-5691", True),
        ("1-800-457-7362", True),
        ("+1 315 555 0142", True),
        ("555-0142", False),
        ("(315) 555-014", False),
        ("call us", False),
        ("811 or 911", False),
        ("(015) 555-0142", False),
        ("123", False),
    ],
)
def test_what_counts_as_a_phone_number(number, ok):
    assert is_phone_number(number) is ok


def run_check(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "content_model", "check", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_command_lists_the_problems_and_fails(tmp_path):
    root = broken_pack(tmp_path, BROKEN[2][1], BROKEN[4][1])
    result = run_check(str(root))
    assert result.returncode == 1
    assert result.stderr.startswith(f"2 problems in the content pack {root}:\n")
    assert BROKEN[2][2] in result.stderr and BROKEN[4][2] in result.stderr


def test_the_command_passes_a_clean_pack():
    result = run_check(str(PACK))
    assert result.returncode == 0 and "no problems found" in result.stdout
    assert run_check().returncode == 0, "without a folder: the default pack"


def test_the_portal_does_not_start_on_a_broken_pack(tmp_path):
    root = broken_pack(tmp_path, BROKEN[2][1], BROKEN[7][1])
    with pytest.raises(ContentError) as error:
        create_portal({"CONTENT_DIR": str(root), "DATABASE": str(tmp_path / "db.sqlite3")})
    assert BROKEN[2][2] in str(error.value) and BROKEN[7][2] in str(error.value)
    assert not (tmp_path / "db.sqlite3").exists(), "stopped before touching anything"


def test_make_site_does_not_build_a_broken_pack(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SITE_CONTENT_DIR", str(broken_pack(tmp_path, BROKEN[5][1])))
    assert freeze_main([str(tmp_path / "build")]) == 1
    assert BROKEN[5][2] in capsys.readouterr().err
    assert not (tmp_path / "build" / "index.html").exists()


def test_gunicorn_and_flask_check_name_the_problems_of_a_broken_pack(tmp_path):
    """As deployed: PORTAL_CONTENT_DIR names a pack with a problem."""
    env = portal_env(tmp_path) | {"PORTAL_CONTENT_DIR": str(broken_pack(tmp_path, BROKEN[2][1]))}
    checked = flask_command(env, tmp_path, "check")
    assert checked.returncode == 1 and BROKEN[2][2] in checked.stderr
    log = Gunicorn(free_port(), env, tmp_path).refused_start()
    assert BROKEN[2][2].splitlines()[0] in log


def test_the_command_refuses_a_misspelt_switch(tmp_path):
    edit = next(case[1] for case in BROKEN if case[0] == "misspelt holiday switch")
    result = run_check(str(broken_pack(tmp_path, edit)))
    assert result.returncode == 1
    assert "site.yaml: holidays.saturday_to_fridy: is not a field this file has" in result.stderr


def test_every_unknown_field_is_named_at_once(tmp_path):
    names = ("misspelt holiday switch", "unknown phone field")
    edits = [case[1] for case in BROKEN if case[0] in names]
    found = [str(p) for p in check_pack(broken_pack(tmp_path, *edits))]
    assert sorted(found) == sorted(case[2] for case in BROKEN if case[0] in names)
