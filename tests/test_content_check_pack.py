"""The content checker on a whole pack (content_model/check/__init__.py, problems.py,
translations.py, outfalls.py, enforcement.py): a folder that is not one, the report's words,
the app's start on a checked pack, a translation's gaps and glossary, and the files checked
by their own loaders."""

from __future__ import annotations

import shutil

import pytest
from pack_traces import PACK
from test_content_check import _replace, _yaml, broken_pack
from test_content_check_site import told

from content_model.check import Problem, check_pack, load_checked, report
from content_model.fields import CONTENT_DIR, ContentError


def test_a_folder_that_is_not_there(tmp_path):
    assert [str(p) for p in check_pack(tmp_path / "nowhere")] == [
        f"{tmp_path / 'nowhere'}: is not a folder\n    fix: give the folder that holds site.yaml"
    ]


def test_the_report_counts_the_problems():
    one = Problem("site.yaml", "timezone", "is missing", "add it")
    other = Problem("learn/", "", "no pages", "copy them")
    assert report([one], "pack") == (
        "1 problem in the content pack pack:\nsite.yaml: timezone: is missing\n    fix: add it"
    )
    assert report([one, other], "pack") == (
        "2 problems in the content pack pack:\n"
        "site.yaml: timezone: is missing\n    fix: add it\n"
        "learn/: no pages\n    fix: copy them"
    )


def test_a_checked_pack_loads_and_a_broken_one_is_refused_with_the_report(tmp_path):
    assert load_checked(PACK).settings.name == "Town of Wrenfield"
    assert load_checked().settings.name == "Village of Horseheads"
    root = broken_pack(tmp_path, _yaml("site.yaml", lambda d: d.pop("timezone")))
    with pytest.raises(ContentError) as error:
        load_checked(root)
    assert str(error.value) == (
        f"1 problem in the content pack {root}:\n"
        "site.yaml: timezone: is missing\n"
        "    fix: add `timezone` at the top level (see the default pack)"
    )


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda root: (root / "site.es.yaml").unlink(),
            "site.es.yaml: missing\n    fix: write it in Spanish, beside the English site.yaml",
        ),
        (
            lambda root: (root / "ordinance.es.yaml").unlink(),
            "ordinance.es.yaml: missing\n"
            "    fix: write it in Spanish, beside the English ordinance.yaml",
        ),
        (
            lambda root: (root / "learn" / "motor-oil.es.md").unlink(),
            "learn/motor-oil.es.md: missing\n"
            "    fix: write it in Spanish, beside the English learn/motor-oil.md",
        ),
        (
            _yaml("site.es.yaml", lambda d: d["office"].pop("hours")),
            "site.yaml: office.hours: no Spanish\n"
            "    fix: give `office.hours` in Spanish in site.es.yaml",
        ),
        (
            _yaml("exempt-discharges.es.yaml", lambda d: d["entries"][2].pop("name")),
            "exempt-discharges.yaml: entries[2].name: no Spanish\n"
            "    fix: give `entries[2].name` in Spanish in exempt-discharges.es.yaml",
        ),
        (
            _replace("site.es.yaml", "legal_notice: >-", "legal_notice: >-\n  Sin vertido."),
            "site.es.yaml: uses 'vertido': the glossary says 'derrame' for 'release (of a "
            "material, a spill)'\n    fix: use the glossary's word",
        ),
        (
            _replace("learn/car-washing.es.md", "\n## ", "\nUna coladera.\n\n## "),
            "learn/car-washing.es.md: uses 'coladera': the glossary says 'desagüe pluvial' for "
            "'storm drain'\n    fix: use the glossary's word",
        ),
        (
            _yaml("exempt-discharges.yaml", lambda d: d["entries"][1].update(learn="lawn-care")),
            "exempt-discharges.yaml: entries[1].learn: no page learn/lawn-care.md\n"
            "    fix: change `entries[1].learn` as the message says",
        ),
    ],
    ids=[
        "no Spanish site",
        "no Spanish law",
        "no Spanish page",
        "a field without Spanish",
        "an exempt name without Spanish",
        "a word the glossary avoids",
        "a word the glossary avoids, in a page",
        "a link to no page",
    ],
)
def test_a_translation_and_the_whole_pack(tmp_path, edit, message):
    assert told(tmp_path, edit) == [message]


def test_every_gap_of_a_translation_at_once(tmp_path):
    found = told(
        tmp_path,
        lambda root: (root / "learn" / "motor-oil.es.md").unlink(),
        _yaml("site.es.yaml", lambda d: d["office"].pop("hours")),
    )
    assert found == [
        "site.yaml: office.hours: no Spanish\n"
        "    fix: give `office.hours` in Spanish in site.es.yaml",
        "learn/motor-oil.es.md: missing\n"
        "    fix: write it in Spanish, beside the English learn/motor-oil.md",
    ]


def test_a_translation_that_is_not_yaml(tmp_path):
    [problem] = told(tmp_path, _replace("site.es.yaml", "municipality:", "municipality: ["))
    assert problem.startswith("site.es.yaml: not valid YAML: while parsing")
    assert problem.endswith("\n    fix: correct the YAML at the line and column named")


def test_a_pack_without_translations_is_clean(tmp_path):
    assert told(tmp_path, lambda root: (root / "translations.yaml").unlink()) == []


def test_the_outfall_settings_are_checked(tmp_path):
    edit = _replace("outfalls.yaml", "every_years: 3", "every_years: 0")
    assert told(tmp_path, edit) == [
        "outfalls.yaml: screening.every_years: must be a whole number of years from 1 to 20\n"
        "    fix: change `screening.every_years` as the message says"
    ]


def test_an_enforcement_file_the_loader_refuses(tmp_path):
    [problem] = told(tmp_path, lambda root: (root / "enforcement.yaml").unlink())
    assert problem == (
        "enforcement.yaml: file is missing\n"
        "    fix: copy enforcement.yaml from content/ into the pack and change it"
    )


def test_a_problem_without_a_field():
    assert (
        str(Problem("learn/", "", "no pages", "copy them"))
        == "learn/: no pages\n    fix: copy them"
    )
    assert Problem("a", "b", "c", "d") == Problem("a", "b", "c", "d", from_loader=True)


def test_a_word_the_glossary_avoids_in_the_exempt_list_the_law_and_search_words(tmp_path):
    found = told(
        tmp_path,
        _replace("exempt-discharges.es.yaml", "intro: >-", "intro: >-\n  Sin cloaca."),
        _replace("ordinance.es.yaml", "title: Propósito", "title: Propósito y coladera"),
    )
    assert found == [
        "exempt-discharges.es.yaml: uses 'cloaca': the glossary says 'sistema de drenaje "
        "pluvial' for 'storm sewer system (MS4)'\n    fix: use the glossary's word",
        "ordinance.es.yaml: uses 'coladera': the glossary says 'desagüe pluvial' for 'storm "
        "drain'\n    fix: use the glossary's word",
    ]
    root = tmp_path / "default"
    shutil.copytree(CONTENT_DIR, root)
    _replace("search.es.yaml", "contact: [", "contact: [cloaca, ")(root)
    assert [str(p) for p in check_pack(root)] == [
        "search.es.yaml: uses 'cloaca': the glossary says 'sistema de drenaje pluvial' for "
        "'storm sewer system (MS4)'\n    fix: use the glossary's word"
    ]
