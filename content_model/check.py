"""The content checker: every problem of a content pack at once, each with file, field and fix.

The loader (`load_content`) stops at the first thing wrong, which is right for an app but
slow going for someone adopting the project: fix one thing, run again, meet the next. The
checker reads each file on its own and looks for the mistakes an adopter makes (a field
left out, a phone number that is not one, a holiday that cannot fall every year, a service
area that misses the office, a section cited that the ordinance lacks), then lets the
loader judge the rest. `python -m content_model check [DIR]` prints them; both apps start
through `load_checked`, so a broken pack stops them with the same messages.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from content_model.enforcement import unknown_enforcement
from content_model.exempt import load_exempt
from content_model.fields import (
    CONTENT_DIR,
    UNKNOWN_FIELD,
    ContentError,
    Fields,
    parse_yaml,
    slugify,
)
from content_model.learn import FRONT_MATTER, load_learn_page
from content_model.loader import Content, load_content, translate
from content_model.ordinance import REQUIRED_ROLES, Ordinance, Provision, ordinance_from
from content_model.site import (
    _clock_time,
    _closure,
    _holiday,
    _location,
    _map_tiles,
    _month_day,
    _service_area,
    _timezone,
    load_settings,
    unknown_settings,
)
from content_model.translation import (
    IN_ENGLISH,
    avoided_words,
    guides,
    languages,
    translated_file,
)

# The fields site.yaml must have (dotted paths); each one missing is its own problem.
SITE_REQUIRED = (
    "municipality.name", "municipality.short_name", "municipality.kind", "municipality.state",
    "municipality.code_title", "office.name", "office.street", "office.locality",
    "office.phone", "office.phone_label", "office.hours", "office.opens", "office.closes",
    "smo.title", "phones.emergency.label", "phones.emergency.number", "phones.police.label",
    "phones.police.number", "phones.spill_hotline.label", "phones.spill_hotline.number",
    "referral_agencies", "reporting_year_starts", "timezone", "service_area.name",
    "service_area.south", "service_area.west", "service_area.north", "service_area.east",
    "service_area.center.latitude", "service_area.center.longitude", "service_area.center.zoom",
    "unofficial_notice", "legal_notice", "penalties", "online_filing", "holidays.source",
    "holidays.observed", "written_confirmation.contents", "record_keeping_reading",
    "state_reporting.within", "state_reporting.petroleum", "state_reporting.hazardous",
)  # fmt: skip

# A citation of a section, with an optional subdivision: '§ N-6', '§ N-6 A(1)', '§ N-13 B'.
CITATION = re.compile(r"§\s?(\d+-\d+)(?:\s([A-Z])(?![A-Za-z])(\(\d+\))?(\([a-z]\))?)?")
# 'Subsection A(1)' in a section's own text names a subdivision of that section.
SUBSECTION = re.compile(r"Subsection ([A-Z])(\(\d+\))?(\([a-z]\))?")
# A Markdown link to a part of the ordinance page: '[the list](/ordinance/#sec-216-6-a-1)'.
ANCHOR_LINK = re.compile(r"\]\([^)\s]*#(sec-[a-z0-9-]+)\)")
PHONE_CHARACTERS = re.compile(r"^\+?[\d\s().-]+$")
SHORT_NUMBERS = {f"{n}11" for n in range(2, 10)}  # 211 to 911


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


def _get(data: Any, path: str) -> Any:
    for key in path.split("."):
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return data


def _read(root: Path, name: str) -> tuple[Any, Problem | None]:
    try:
        return parse_yaml((root / name).read_text(encoding="utf-8")), None
    except FileNotFoundError:
        return None, Problem(name, "", "file is missing", _fix_missing_file(name))
    except yaml.YAMLError as error:
        return None, Problem(
            name, "", f"not valid YAML: {error}", "correct the YAML at the line and column named"
        )


def _fix_missing_file(name: str) -> str:
    return f"copy {name} from {CONTENT_DIR.name}/ into the pack and change it"


def _from_error(error: ContentError) -> Problem:
    """A loader error ('file: field: message') as a problem, with a fix for its kind."""
    parts = str(error).split(": ", 2)
    if len(parts) < 3:
        parts = [parts[0], "", parts[-1]]
    file, field, message = parts
    if message == "file is missing":
        fix = _fix_missing_file(file)
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


# ---------------------------------------------------------------- site.yaml


def _check_site(root: Path) -> Iterator[Problem]:
    data, problem = _read(root, "site.yaml")
    if problem:
        yield problem
        return
    if not isinstance(data, dict):
        yield Problem("site.yaml", "", "expected a mapping of fields", "start from the default")
        return
    reported: set[str] = set()
    for required in SITE_REQUIRED:
        keys = required.split(".")
        # The outermost field missing is the one to name: `phones.police`, not its label.
        missing = (".".join(keys[:n]) for n in range(1, len(keys) + 1))
        path = next((p for p in missing if _get(data, p) in (None, "")), None)
        if path is not None and path not in reported:
            reported.add(path)
            parent, _, leaf = path.rpartition(".")
            where = f"under `{parent}`" if parent else "at the top level"
            yield Problem(
                "site.yaml", path, "is missing", f"add `{leaf}` {where} (see the default pack)"
            )
    yield from _check_values(data)
    yield from _check_phones(data)
    yield from _check_holidays(data)
    yield from _check_office_in_area(data)
    yield from _check_unknown_fields(root)


def _check_unknown_fields(root: Path) -> Iterator[Problem]:
    """Every field of site.yaml that nothing reads: a misspelt switch would otherwise be
    ignored and its default used (a holiday rule that moves legal deadlines, say)."""
    try:
        errors = unknown_settings(root / "site.yaml")
    except ContentError:
        return  # the file's first error is reported by the loader's check
    for error in errors:
        yield dataclasses.replace(_from_error(error), from_loader=False)


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
        (data.get("timezone"), lambda: _timezone(fields)),
        (office.get("opens"), lambda: _clock_time(office_fields, "opens")),
        (office.get("closes"), lambda: _clock_time(office_fields, "closes")),
        (data.get("reporting_year_starts"), lambda: _month_day(fields, "reporting_year_starts")),
        (data.get("map_tiles"), lambda: _map_tiles(fields)),
        (data.get("service_area"), lambda: _service_area(fields.mapping("service_area"))),
    ]
    closures = holidays.get("closures")
    for i, value in enumerate(closures if isinstance(closures, list) else []):
        checks.append((value, lambda i=i, value=value: _closure(holiday_fields, i, value)))
    for value, check in checks:
        if value is None:
            continue  # a missing field is named above
        try:
            check()
        except ContentError as error:
            problem = _from_error(error)
            fix = next(
                (fix for key, fix in VALUE_FIXES.items() if problem.field.startswith(key)),
                problem.fix,
            )
            yield Problem(problem.file, problem.field, problem.message, fix)


def _phone_fields(data: dict) -> Iterator[tuple[str, Any]]:
    for path in ("office.phone", "office.fax", "smo.fax"):
        yield path, _get(data, path)
    phones = data.get("phones")
    if isinstance(phones, dict):
        for key, phone in phones.items():
            yield f"phones.{key}.number", _get(phone, "number")


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
    observed = _get(data, "holidays.observed")
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
            holiday = _holiday(fields)
        except ContentError as error:
            problem = _from_error(error)
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
    if _get(data, "office.location") is None or not isinstance(data.get("service_area"), dict):
        return
    try:
        area = _service_area(Fields(data, "site.yaml").mapping("service_area"))
        where = _location(Fields(data["office"], "site.yaml", "office."))
    except ContentError:
        return
    if not area.contains(where["latitude"], where["longitude"]):
        yield Problem(
            "site.yaml",
            "service_area",
            f"the office at {area.outside(where['latitude'], where['longitude'])}",
            "widen the service_area box to take in the office, or correct office.location",
        )


# ---------------------------------------------------------------- citations


def _anchors(provisions: Iterable[Provision]) -> Iterator[str]:
    for provision in provisions:
        if provision.anchor:
            yield provision.anchor
        yield from _anchors(provision.items)


def _texts(provisions: Iterable[Provision]) -> Iterator[str]:
    for provision in provisions:
        yield provision.text
        yield from _texts(provision.items)


class Citations:
    """What a pack's texts may cite: the ordinance's sections and their subdivisions."""

    def __init__(self, ordinance: Ordinance) -> None:
        self.ordinance = ordinance
        self.anchors = {
            anchor for section in ordinance.sections for anchor in _anchors(section.body)
        } | {section.anchor for section in ordinance.sections}
        numbers = [s.number for s in ordinance.sections]
        self.span = f"§ {numbers[0]} to § {numbers[-1]}"

    def missing(self, text: str, own: str | None = None) -> Iterator[str]:
        """Each citation in `text` the ordinance cannot answer ('§ N-6 A(9)'); `own` is
        the section the text belongs to, for its 'Subsection A(1)' mentions."""
        for match in CITATION.finditer(text):
            number, *labels = match.groups()
            if number not in self.ordinance.by_number or not self._has(number, labels):
                yield " ".join(match.group(0).split())  # a no-break space printed plainly
        for match in ANCHOR_LINK.finditer(text):
            if match.group(1) not in self.anchors:
                yield f"a link to #{match.group(1)}"
        if own:
            for match in SUBSECTION.finditer(text):
                if not self._has(own, match.groups()):
                    yield f"{match.group(0)} (of § {own})"

    def _has(self, number: str, labels: list[str | None]) -> bool:
        anchor = f"sec-{number}"
        for label in labels:
            if label is None:
                break
            anchor = f"{anchor}-{slugify(label)}"
            if anchor not in self.anchors:
                return False
        return True

    def problem(self, file: str, field: str, cited: str) -> Problem:
        return Problem(
            file,
            field,
            f"cites {cited}, which is not in the ordinance",
            f"cite a section or subdivision the ordinance has ({self.span}), "
            "or add it to ordinance.yaml",
        )


def _check_ordinance_citations(ordinance: Ordinance, citations: Citations) -> Iterator[Problem]:
    for i, section in enumerate(ordinance.sections):
        texts = [*_texts(section.body)]
        texts += [t for d in section.definitions for t in _texts(d.body)]
        for cited in sorted({c for t in texts for c in citations.missing(t, section.number)}):
            yield citations.problem("ordinance.yaml", f"sections[{i}] (§ {section.number})", cited)


def _check_roles(data: Any, chapter: str, numbers: set[str]) -> Iterator[Problem]:
    roles = _get(data, "roles") if isinstance(data, dict) else None
    roles = roles if isinstance(roles, dict) else {}
    for role in REQUIRED_ROLES:
        if role not in roles:
            yield Problem(
                "ordinance.yaml",
                f"roles.{role}",
                "is missing",
                f"name the section that does this job, like `{role}: {chapter}-N`",
            )
    for role, number in roles.items():
        if str(number) not in numbers:
            yield Problem(
                "ordinance.yaml",
                f"roles.{role}",
                f"§ {number} is not in the ordinance",
                "give the number of the section that does this job",
            )


def _ordinance(root: Path) -> tuple[Ordinance | None, list[Problem]]:
    """The ordinance and its problems; roles that do not resolve are reported and set
    aside, so the citations of every file can still be checked against the sections."""
    data, problem = _read(root, "ordinance.yaml")
    if problem:
        return None, [problem]
    sections = _get(data, "sections") if isinstance(data, dict) else None
    numbers = {str(_get(s, "number")) for s in sections or [] if isinstance(s, dict)}
    chapter = str(_get(data, "chapter") or "N") if isinstance(data, dict) else "N"
    problems = list(_check_roles(data, chapter, numbers))
    if problems and numbers:
        first = min(numbers)
        roles = _get(data, "roles") if isinstance(_get(data, "roles"), dict) else {}
        kept = {role: n for role, n in roles.items() if str(n) in numbers}
        data = dict(data, roles={**{role: first for role in REQUIRED_ROLES}, **kept})
    try:
        return ordinance_from(data), problems
    except ContentError as error:
        return None, [*problems, _from_error(error)]


def _check_texts(file: str, data: Any, citations: Citations, path: str = "") -> Iterator[Problem]:
    """Every text value of a YAML file, walked for citations the ordinance cannot answer."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _check_texts(file, value, citations, f"{path}{key}.")
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _check_texts(file, value, citations, f"{path.rstrip('.')}[{i}].")
    elif isinstance(data, str):
        for cited in citations.missing(data):
            yield citations.problem(file, path.rstrip("."), cited)


def _check_learn(root: Path, ordinance: Ordinance, citations: Citations) -> Iterator[Problem]:
    files = guides(root)
    if not files:
        yield Problem("learn/", "", "no education pages (*.md) found",
                      "copy the default pack's learn/ folder and change the pages")  # fmt: skip
    for path in files:
        name = f"learn/{path.name}"
        match = FRONT_MATTER.match(path.read_text(encoding="utf-8"))
        try:
            meta = parse_yaml(match.group(1)) if match else None
        except yaml.YAMLError:
            meta = None  # the loader says so below
        if match and isinstance(meta, dict):
            listed = meta.get("sections")
            for number in listed if isinstance(listed, list) else []:  # else the loader says
                if str(number) not in ordinance.by_number:
                    yield Problem(
                        name,
                        "sections",
                        f"§ {number} is not in the ordinance",
                        f"list sections the ordinance has ({citations.span})",
                    )
            for cited in sorted(set(citations.missing(match.group(2)))):
                yield citations.problem(name, "body", cited)
        try:
            load_learn_page(path, ordinance)
        except (ContentError, yaml.YAMLError) as error:
            yield _from_error(ContentError(str(error)))


def _check_enforcement(root: Path, ordinance: Ordinance) -> Iterator[Problem]:
    """enforcement.yaml against the ordinance, then every field of it that nothing reads."""
    try:
        errors = unknown_enforcement(ordinance, root)
    except ContentError as error:
        yield _from_error(error)
        return
    for error in errors:
        yield dataclasses.replace(_from_error(error), from_loader=False)


# ---------------------------------------------------------------- the whole pack


def check_pack(directory: Path | str | None = None) -> list[Problem]:
    """Every problem of the pack in `directory` (the default pack without one), in file order."""
    root = Path(directory) if directory else CONTENT_DIR
    if not root.is_dir():
        return [Problem(str(root), "", "is not a folder", "give the folder that holds site.yaml")]
    found = list(_check_site(root))
    try:
        load_settings(root / "site.yaml")
    except ContentError as error:
        found.append(_from_error(error))
    ordinance, problems = _ordinance(root)
    found += problems
    if ordinance is None:
        return _unique(found)
    citations = Citations(ordinance)
    found += _check_ordinance_citations(ordinance, citations)
    site, _ = _read(root, "site.yaml")
    found += _check_texts("site.yaml", site, citations)
    exempt, _ = _read(root, "exempt-discharges.yaml")
    found += _check_texts("exempt-discharges.yaml", exempt, citations)
    try:
        load_exempt(root / "exempt-discharges.yaml", ordinance)
    except ContentError as error:
        found.append(_from_error(error))
    found += _check_learn(root, ordinance, citations)
    found += _check_outfalls(root)
    found += _check_enforcement(root, ordinance)
    if not found:
        found += _check_translations(root)
    if not found:
        try:  # what only the whole pack can tell: the exempt list's links to learn pages
            load_content(root)
        except ContentError as error:
            found.append(_from_error(error))
    return _unique(found)


# ---------------------------------------------------------------- translations


def _check_translations(root: Path) -> list[Problem]:
    """Every field and file a translation lacks, and every word its glossary rules out."""
    try:
        wanted = languages(root)
        if not wanted:
            return []
        english = load_content(root, translated=False)
    except ContentError:
        return []  # the loader's own error is reported with the rest
    found = []
    for language, pending in wanted.items():
        name = IN_ENGLISH[language]
        try:
            translated, missing = translate(root, english, language, pending)
        except ContentError as error:
            found.append(_from_error(error))
            continue
        for gap in missing:
            if gap.field:
                fix = f"give `{gap.field}` in {name} in {translated_file(gap.file, language)}"
            else:
                original = gap.file.replace(f".{language}.", ".")
                fix = f"write it in {name}, beside the English {original}"
            found.append(Problem(gap.file, gap.field, gap.message, fix))
        if translated is not None:
            found += _check_glossary(root, translated)
    return found


def _check_glossary(root: Path, content: Content) -> Iterator[Problem]:
    language = content.language
    texts = [
        (translated_file(name, language), (root / translated_file(name, language)))
        for name in ("site.yaml", "exempt-discharges.yaml", "search.yaml", "ordinance.yaml")
    ]
    texts += [
        (f"learn/{translated_file(page.slug + '.md', language)}",
         root / "learn" / translated_file(page.slug + ".md", language))
        for page in content.pages
    ]  # fmt: skip
    for file, path in texts:
        if path.exists():
            for gap in avoided_words(content.glossary, file, path.read_text(encoding="utf-8")):
                yield Problem(gap.file, gap.field, gap.message, "use the glossary's word")


def _check_outfalls(root: Path) -> list[Problem]:
    """content/outfalls.yaml, if the pack has one (the screening rotation, open data)."""
    from content_model.outfalls import load_outfall_settings

    try:
        load_outfall_settings(root)
    except ContentError as error:
        return [_from_error(error)]
    return []


def _unique(problems: list[Problem]) -> list[Problem]:
    """Each problem once; the loader's only where the checker said nothing of that field."""
    fields = {(p.file, p.field) for p in problems if not p.from_loader}
    result: list[Problem] = []
    for problem in problems:
        if problem in result or (problem.from_loader and (problem.file, problem.field) in fields):
            continue
        result.append(problem)
    return result


def report(problems: list[Problem], directory: Path | str) -> str:
    count = f"{len(problems)} problem{'s' if len(problems) != 1 else ''}"
    return f"{count} in the content pack {directory}:\n" + "\n".join(map(str, problems))


def load_checked(directory: Path | str | None = None) -> Content:
    """The pack, loaded once the checker finds nothing wrong; else a ContentError that
    lists every problem (how both apps start)."""
    problems = check_pack(directory)
    if problems:
        raise ContentError(report(problems, directory or CONTENT_DIR))
    return load_content(directory)
