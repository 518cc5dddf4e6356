"""site.yaml: every field the loader finds missing, every value its own readers refuse, phone
numbers, holidays that cannot fall every year, the office outside the service area, and
fields nothing reads."""

from __future__ import annotations

import copy
import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from content_model.check.problems import Problem, from_error, read_file, value_at
from content_model.fields import CONTENT_DIR, ContentError, Fields, parse_yaml
from content_model.site import load_settings, unknown_settings
from content_model.site_values import (
    read_clock_time,
    read_closure,
    read_holiday,
    read_location,
    read_map_tiles,
    read_month_day,
    read_service_area,
    read_timezone,
)

PHONE_CHARACTERS = re.compile(r"^\+?[\d\s().-]+$")
SHORT_NUMBERS = {f"{n}11" for n in range(2, 10)}  # 211 to 911


def is_phone_number(number: str) -> bool:
    """A North American number with its area code (10 digits, or 11 starting with 1),
    or a three-digit service number such as 911, written with digits and ( ) - . + only."""
    digits = re.sub(r"\D", "", number)
    if not PHONE_CHARACTERS.match(number):
        return False
    return (
        (len(digits) == 10 and digits[0] not in "01")
        or (len(digits) == 11 and digits[0] == "1")
        or digits in SHORT_NUMBERS
    )


def check_site(root: Path) -> Iterator[Problem]:
    data, problem = read_file(root, "site.yaml")
    if problem:
        yield problem
        return
    if not isinstance(data, dict):
        # Named as the loader names it, so the loader's own error is not listed too.
        yield Problem(
            "site.yaml", "the top level", "expected a mapping of fields", "start from the default"
        )
        return
    yield from _missing_fields(data)
    yield from _check_values(data)
    yield from _check_phones(data)
    yield from _check_holidays(data)
    yield from _check_office_in_area(data)
    yield from _check_unknown_fields(root)


# Enough for every field of a site.yaml: the loader is asked again once per field it names.
MOST_TRIALS = 300
FIELD_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def _missing_fields(data: dict) -> Iterator[Problem]:
    """Each field the loader asks for and the pack lacks. The loader itself is the list of
    what is required: it is run again and again, each field it stops at filled in from the
    default pack (or left out, if the default has none), until it reads the file through.
    Values it refuses are named by the value checks, each with its fix."""
    default = parse_yaml((CONTENT_DIR / "site.yaml").read_text(encoding="utf-8"))
    trial, named = copy.deepcopy(data), set()
    for _ in range(MOST_TRIALS):
        try:
            load_settings(Path("site.yaml"), trial)
            return
        except ContentError as error:
            problem = from_error(error)
        if problem.field in named or not problem.field:
            return
        named.add(problem.field)
        if problem.message == "is missing":
            parent, _, leaf = problem.field.rpartition(".")
            where = f"under `{parent}`" if parent else "at the top level"
            yield Problem(
                "site.yaml",
                problem.field,
                "is missing",
                f"add `{leaf}` {where} (see the default pack)",
            )
            _fill(trial, default, problem.field)
        else:
            # A value refused (named by the value checks below, with its fix): the whole
            # item of a list is replaced, so a holiday rule's next field is not blamed too.
            item = re.match(r".*\]", problem.field)
            _fill(trial, default, item.group(0) if item else problem.field)


def _fill(trial: Any, default: Any, field: str) -> None:
    """Put the default pack's value at the dotted path `field` (like holidays.observed[2].day)
    into `trial`, or take the field out of `trial` when the default has none there."""
    keys = [name if name else int(index) for name, index in FIELD_PART.findall(field)]
    *path, last = keys
    for key in path:
        trial = _step(trial, key)
        default = _step(default, key)
        if trial is None:
            return
    value = _step(default, last)
    if value is None:
        if isinstance(trial, dict):
            trial.pop(last, None)
        elif isinstance(trial, list) and isinstance(last, int) and last < len(trial):
            trial.pop(last)
    elif isinstance(trial, dict) or (isinstance(trial, list) and last < len(trial)):
        trial[last] = copy.deepcopy(value)


def _step(data: Any, key: str | int) -> Any:
    if isinstance(key, int):
        return data[key] if isinstance(data, list) and key < len(data) else None
    return data.get(key) if isinstance(data, dict) else None


def _check_unknown_fields(root: Path) -> Iterator[Problem]:
    """Every field of site.yaml that nothing reads: a misspelt switch would otherwise be
    ignored and its default used (a holiday rule that moves legal deadlines, say)."""
    try:
        errors = unknown_settings(root / "site.yaml")
    except ContentError:
        return  # the file's first error is reported by the loader's check
    for error in errors:
        yield dataclasses.replace(from_error(error), from_loader=False)


# How to mend a value the loader refuses, by the field it names.
VALUE_FIXES = {
    "timezone": "use a name from the time zone database, like America/New_York",
    "office.opens": 'write a 24-hour time in quotes, like "08:00"',
    "office.closes": 'write a 24-hour time in quotes, like "16:00"',
    "reporting_year_starts": 'write the month and day in quotes, like "01-03"',
    "holidays.closures": "write each closure as a date, like 2026-12-24",
    "map_tiles": "give an https:// address with {z}, {x} and {y}, its credit and max_zoom, "
    "or map_tiles: null for no map",
    "service_area": "give the box's edges in degrees (south < north, west < east) and a "
    "center inside it",
}


def _check_values(data: dict) -> Iterator[Problem]:
    """The loader's own tests of each value, one at a time, so each failing one is named."""
    fields = Fields(data, "site.yaml")
    office = data.get("office") if isinstance(data.get("office"), dict) else {}
    holidays = data.get("holidays") if isinstance(data.get("holidays"), dict) else {}
    office_fields, holiday_fields = (
        Fields(office, "site.yaml", "office."),
        Fields(holidays, "site.yaml", "holidays."),
    )
    checks = [
        (data.get("timezone"), lambda: read_timezone(fields)),
        (office.get("opens"), lambda: read_clock_time(office_fields, "opens")),
        (office.get("closes"), lambda: read_clock_time(office_fields, "closes")),
        (
            data.get("reporting_year_starts"),
            lambda: read_month_day(fields, "reporting_year_starts"),
        ),
        (data.get("map_tiles"), lambda: read_map_tiles(fields)),
        (data.get("service_area"), lambda: read_service_area(fields.mapping("service_area"))),
    ]
    closures = holidays.get("closures")
    for i, value in enumerate(closures if isinstance(closures, list) else []):
        checks.append((value, lambda i=i, value=value: read_closure(holiday_fields, i, value)))
    for value, check in checks:
        if value is None:
            continue  # a missing field is named above
        try:
            check()
        except ContentError as error:
            problem = from_error(error)
            if problem.message == "is missing":
                continue  # named, with its fix, by _missing_fields
            fix = next(
                (fix for key, fix in VALUE_FIXES.items() if problem.field.startswith(key)),
                problem.fix,
            )
            yield Problem(problem.file, problem.field, problem.message, fix)


def _phone_fields(data: dict) -> Iterator[tuple[str, Any]]:
    for path in ("office.phone", "office.fax", "smo.fax"):
        yield path, value_at(data, path)
    phones = data.get("phones")
    if isinstance(phones, dict):
        for key, phone in phones.items():
            yield f"phones.{key}.number", value_at(phone, "number")


def _check_phones(data: dict) -> Iterator[Problem]:
    for path, number in _phone_fields(data):
        if number in (None, ""):
            continue
        if not isinstance(number, str) or not is_phone_number(number):
            yield Problem(
                "site.yaml",
                path,
                f"{number!r} is not a phone number",
                "write it with its area code, like (315) 555-0100 or 1-800-457-7362, "
                "or a three-digit number such as 911 (in quotes)",
            )


def _check_holidays(data: dict) -> Iterator[Problem]:
    observed = value_at(data, "holidays.observed")
    if not isinstance(observed, list):
        return
    for i, rule in enumerate(observed):
        if not isinstance(rule, dict):
            yield Problem(
                "site.yaml",
                f"holidays.observed[{i}]",
                "is not a holiday rule",
                "write it like {name: Labor Day, month: 9, weekday: monday, nth: 1}",
            )
            continue
        fields = Fields(rule, "site.yaml", f"holidays.observed[{i}].")
        try:
            holiday = read_holiday(fields)
        except ContentError as error:
            problem = from_error(error)
            if problem.message == "is missing":
                continue  # named, with its fix, by _missing_fields
            yield Problem(
                problem.file,
                problem.field,
                problem.message,
                "give `day` for a fixed date, or `weekday` with `nth` (1 to 4, or -1 for "
                "the last) or `after_first` (a weekday name)",
            )
            continue
        if (holiday.month, holiday.day) == (2, 29):
            yield Problem(
                "site.yaml",
                f"holidays.observed[{i}].day",
                "February 29 is not a date in three years of four, so the holiday cannot be "
                "computed for every year",
                "give a rule that falls every year, or list the years' days under "
                "holidays.closures",
            )


def _check_office_in_area(data: dict) -> Iterator[Problem]:
    """The office within the service area, judged by the area the app itself checks places
    against (a box or location the loader refuses is named by the value checks)."""
    if value_at(data, "office.location") is None or not isinstance(data.get("service_area"), dict):
        return
    try:
        area = read_service_area(Fields(data, "site.yaml").mapping("service_area"))
        where = read_location(Fields(data["office"], "site.yaml", "office."))
    except ContentError:
        return
    if not area.contains(where["latitude"], where["longitude"]):
        yield Problem(
            "site.yaml",
            "service_area",
            f"the office at {area.outside(where['latitude'], where['longitude'])}",
            "widen the service_area box to take in the office, or correct office.location",
        )
