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

from pathlib import Path

from content_model.check.enforcement import check_enforcement
from content_model.check.learn import check_learn
from content_model.check.ordinance import (
    Citations,
    check_ordinance_citations,
    check_texts,
    ordinance_of,
)
from content_model.check.outfalls import check_outfalls
from content_model.check.problems import Problem, from_error, read_file
from content_model.check.site import check_site, is_phone_number
from content_model.check.translations import check_translations
from content_model.exempt import load_exempt
from content_model.fields import CONTENT_DIR, ContentError
from content_model.loader import Content, load_content
from content_model.site import load_settings

__all__ = ["Problem", "check_pack", "is_phone_number", "load_checked", "report"]


def check_pack(directory: Path | str | None = None) -> list[Problem]:
    """Every problem of the pack in `directory` (the default pack without one), in file order."""
    root = Path(directory) if directory else CONTENT_DIR
    if not root.is_dir():
        return [Problem(str(root), "", "is not a folder", "give the folder that holds site.yaml")]
    found = list(check_site(root))
    try:
        load_settings(root / "site.yaml")
    except ContentError as error:
        found.append(from_error(error))
    ordinance, problems = ordinance_of(root)
    found += problems
    if ordinance is None:
        return _unique(found)
    citations = Citations(ordinance)
    found += check_ordinance_citations(ordinance, citations)
    site, _ = read_file(root, "site.yaml")
    found += check_texts("site.yaml", site, citations)
    exempt, _ = read_file(root, "exempt-discharges.yaml")
    found += check_texts("exempt-discharges.yaml", exempt, citations)
    try:
        load_exempt(root / "exempt-discharges.yaml", ordinance)
    except ContentError as error:
        found.append(from_error(error))
    found += check_learn(root, ordinance, citations)
    found += check_outfalls(root)
    found += check_enforcement(root, ordinance)
    if not found:
        found += check_translations(root)
    if not found:
        try:  # what only the whole pack can tell: the exempt list's links to learn pages
            load_content(root)
        except ContentError as error:
            found.append(from_error(error))
    return _unique(found)


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
