"""What the content checker tells a content editor about ordinance.yaml, the exempt list and
the learn pages (content_model/check/ordinance.py, learn.py), beyond tests/test_content_check.py:
the file missing, roles left out with the law still read, citations in definitions, lists and
links, and each learn page's front matter."""

from __future__ import annotations

from test_content_check import CITE_FIX, SPAN, _replace, _yaml
from test_content_check_site import told
from test_content_law import ROLES

from content_model.check import check_pack

ROLE_FIX = "name the section that does this job, like `{role}: {chapter}-N`"


def test_a_missing_ordinance(tmp_path):
    assert told(tmp_path, lambda root: (root / "ordinance.yaml").unlink()) == [
        "ordinance.yaml: file is missing\n"
        "    fix: copy ordinance.yaml from content/ into the pack and change it"
    ]


def test_an_ordinance_that_is_not_yaml(tmp_path):
    [problem] = told(tmp_path, _replace("ordinance.yaml", "chapter: '147'", "chapter: ['147'"))
    assert problem.startswith("ordinance.yaml: not valid YAML: while parsing")
    assert problem.endswith("\n    fix: correct the YAML at the line and column named")


def test_roles_left_out_are_named_and_the_rest_still_checked(tmp_path):
    found = told(
        tmp_path,
        _replace("ordinance.yaml", "  appeals: 147-14\n", ""),
        _replace("ordinance.yaml", "  penalties: 147-13\n", "  penalties: 147-99\n"),
        _replace("learn/car-washing.md", "Under § 147-6 A(1)", "Under § 147-6 A(9)"),
    )
    assert found == [
        "ordinance.yaml: roles.appeals: is missing\n"
        f"    fix: {ROLE_FIX.format(role='appeals', chapter='147')}",
        "ordinance.yaml: roles.penalties: § 147-99 is not in the ordinance\n"
        "    fix: give the number of the section that does this job",
        f"learn/car-washing.md: body: cites § 147-6 A(9), which is not in the ordinance\n"
        f"    fix: {CITE_FIX}",
    ]


def test_every_role_left_out(tmp_path):
    def no_roles(d):
        d.pop("roles")

    # (The sections stood in for the roles then trip enforcement.yaml's check too.)
    found = told(tmp_path, _yaml("ordinance.yaml", no_roles))
    assert [p.split("\n")[0] for p in found[:10]] == [
        f"ordinance.yaml: roles.{role}: is missing" for role in ROLES
    ]


def test_an_ordinance_without_a_chapter(tmp_path):
    found = told(
        tmp_path,
        _replace("ordinance.yaml", "chapter: '147'\n", ""),
        _replace("ordinance.yaml", "  appeals: 147-14\n", ""),
    )
    assert found == [
        f"ordinance.yaml: roles.appeals: is missing\n"
        f"    fix: {ROLE_FIX.format(role='appeals', chapter='N')}",
        "ordinance.yaml: chapter: is missing\n"
        "    fix: add `chapter` (the default pack's ordinance.yaml shows it)",
    ]


def test_citations_in_a_definition_and_a_section_each_once_in_order(tmp_path):
    found = told(
        tmp_path,
        _replace(
            "ordinance.yaml", "(33 U.S.C. §\u00a01251 et seq.)", "(§ 147-40, § 147-30, § 147-40)"
        ),
        _replace("ordinance.yaml", "provided in Subsection A(1)", "provided in Subsection C"),
    )
    assert found == [
        "ordinance.yaml: sections[3] (§ 147-4): cites § 147-30, which is not in the ordinance\n"
        f"    fix: {CITE_FIX}",
        "ordinance.yaml: sections[3] (§ 147-4): cites § 147-40, which is not in the ordinance\n"
        f"    fix: {CITE_FIX}",
        "ordinance.yaml: sections[5] (§ 147-6): cites Subsection C (of § 147-6), which is not "
        f"in the ordinance\n    fix: {CITE_FIX}",
    ]


def test_a_citation_of_a_part_the_section_has_passes(tmp_path):
    assert told(tmp_path, _replace("site.yaml", "Under § 147-13 B", "Under § 147-6 A(1)")) == []


def test_a_citation_in_a_list_of_site_yaml(tmp_path):
    def cite(d):
        d["written_confirmation"]["contents"][1] = "what was released (§ 147-12 C)"

    assert told(tmp_path, _yaml("site.yaml", cite)) == [
        "site.yaml: written_confirmation.contents[1]: cites § 147-12 C, which is not in the "
        f"ordinance\n    fix: {CITE_FIX}"
    ]


def test_a_link_to_a_section_the_law_has_passes_and_one_it_lacks_is_named(tmp_path):
    found = told(
        tmp_path,
        _replace(
            "exempt-discharges.yaml",
            "(§ 147-6 A(1))",
            "([the list](/ordinance/#sec-147-6-a-1), [the rest](/ordinance/#sec-147-21))",
        ),
    )
    assert found == [
        "exempt-discharges.yaml: questions[0].answer: cites a link to #sec-147-21, which is "
        f"not in the ordinance\n    fix: {CITE_FIX}"
    ]


def test_an_exempt_entry_the_law_does_not_name(tmp_path):
    assert told(
        tmp_path,
        _yaml("exempt-discharges.yaml", lambda d: d["entries"][3].update(name="rising water")),
    ) == [
        "exempt-discharges.yaml: entries[3].name: 'rising water' is not in the words of § 147-6\n"
        "    fix: change `entries[3].name` as the message says"
    ]


def test_an_exempt_entry_without_its_note(tmp_path):
    assert told(
        tmp_path, _yaml("exempt-discharges.yaml", lambda d: d["entries"][0].pop("note"))
    ) == [
        "exempt-discharges.yaml: entries[0].note: is missing\n"
        "    fix: add `note` (the default pack's exempt-discharges.yaml shows it)"
    ]


def test_an_exempt_list_that_is_not_yaml(tmp_path):
    [problem] = told(tmp_path, _replace("exempt-discharges.yaml", "section:", "section: ["))
    assert problem.startswith("exempt-discharges.yaml: not valid YAML: while parsing")
    assert problem.endswith("\n    fix: correct the YAML at the line and column named")


def test_no_learn_pages(tmp_path):
    def empty(root):
        for page in (root / "learn").glob("*.md"):
            page.unlink()

    assert told(tmp_path, empty) == [
        "learn/: no education pages (*.md) found\n"
        "    fix: copy the default pack's learn/ folder and change the pages"
    ]


def test_a_learn_page_with_its_sections_and_body_both_wrong(tmp_path):
    found = told(
        tmp_path,
        _replace("learn/car-washing.md", 'sections: ["147-1"', 'sections: ["147-88", 147, "147-1"'),
        _replace("learn/car-washing.md", "## Why it matters", "§ 147-9 Z and § 147-31.\n\n## Why"),
    )
    assert found == [
        "learn/car-washing.md: sections: § 147-88 is not in the ordinance\n"
        f"    fix: list sections the ordinance has {SPAN}",
        "learn/car-washing.md: sections: § 147 is not in the ordinance\n"
        f"    fix: list sections the ordinance has {SPAN}",
        "learn/car-washing.md: body: cites § 147-31, which is not in the ordinance\n"
        f"    fix: {CITE_FIX}",
        "learn/car-washing.md: body: cites § 147-9 Z, which is not in the ordinance\n"
        f"    fix: {CITE_FIX}",
    ]


def test_a_learn_page_whose_front_matter_is_not_yaml(tmp_path):
    [problem] = told(
        tmp_path, _replace("learn/car-washing.md", "title: Car washing", "title: [Car")
    )
    assert problem.startswith("learn/car-washing.md: front matter: not valid YAML: while parsing")
    assert problem.endswith("\n    fix: correct the YAML at the line and column named")


def test_a_learn_page_whose_sections_are_not_a_list(tmp_path):
    edit = _replace("learn/car-washing.md", 'sections: ["147-1"', 'sections: "147-1" #')
    assert told(tmp_path, edit) == [
        "learn/car-washing.md: sections: must be a list\n"
        "    fix: change `sections` as the message says"
    ]


def test_a_learn_page_without_front_matter(tmp_path):
    assert told(
        tmp_path,
        _replace(
            "learn/car-washing.md",
            "---\n",
            "",
        ),
    ) == [
        "learn/car-washing.md: front matter: must start with a '---' block\n"
        "    fix: change `front matter` as the message says"
    ]


def test_a_learn_page_field_nothing_reads(tmp_path):
    assert told(tmp_path, _replace("learn/car-washing.md", "order: 5", "order: 5\nauthor: me")) == [
        "learn/car-washing.md: author: is not a field this file has\n"
        "    fix: remove `author`, or spell it as the field it was meant to be"
    ]


def test_the_default_pack_is_checked_without_a_folder_named():
    assert check_pack() == []


def test_an_ordinance_that_is_a_list(tmp_path):
    def as_list(root):
        (root / "ordinance.yaml").write_text("- number: 147-1\n", encoding="utf-8")

    found = told(tmp_path, as_list)
    assert found[0] == (
        "ordinance.yaml: roles.definitions: is missing\n"
        "    fix: name the section that does this job, like `definitions: N-N`"
    )
    assert found[10:] == [
        "ordinance.yaml: the top level: expected a mapping of fields\n"
        "    fix: change `the top level` as the message says"
    ]


def test_an_ordinance_without_sections(tmp_path):
    found = told(tmp_path, _yaml("ordinance.yaml", lambda d: d.update(sections=[])))
    assert found[0] == (
        "ordinance.yaml: roles.definitions: § 147-4 is not in the ordinance\n"
        "    fix: give the number of the section that does this job"
    )
    assert found[-1] == (
        "ordinance.yaml: sections: must list the sections\n"
        "    fix: change `sections` as the message says"
    )


def test_a_provision_without_its_text(tmp_path):
    edit = _yaml("ordinance.yaml", lambda d: d["sections"][5]["body"][0].pop("text"))
    assert told(tmp_path, edit) == [
        "ordinance.yaml: sections[5].body[0].text: is missing\n"
        "    fix: add `text` (the default pack's ordinance.yaml shows it)"
    ]
