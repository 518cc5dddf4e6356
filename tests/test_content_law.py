"""ordinance.yaml and exempt-discharges.yaml as the loader reads them (content_model/
ordinance.py, exempt.py): a small law of two sections, its anchors, definitions and roles,
the exempt list that quotes it, and what a content editor is told for each thing refused."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from content_model.exempt import ConditionalAllowance, ExemptDischarge, Question, load_exempt
from content_model.fields import ContentError
from content_model.ordinance import ordinance_from

ROLES = (
    "definitions",
    "enforcement_officer",
    "exemptions",
    "release_notification",
    "penalties",
    "notice_of_violation",
    "appeals",
    "corrective_measures",
    "cost_of_abatement",
    "access_and_monitoring",
)

LAW = {
    "chapter": "9",
    "article": "Article II",
    "title": "Drains",
    "head": {
        "history": "[Adopted 2009]",
        "references_heading": "GENERAL REFERENCES",
        "references": ["Zoning — See Ch. 190.", 58],
        "adoption": "[L.L. No. 3-2009]",
    },
    "roles": {**dict.fromkeys(ROLES, "9-1"), "release_notification": "9-2", "own_job": "9-2"},
    "sections": [
        {
            "number": "9-1",
            "title": "Definitions",
            "body": [{"text": "Terms:"}],
            "definitions": [
                {
                    "term": "STORM WATER (SW)",
                    "body": [{"text": "Rain."}, {"label": "A.", "text": "Snowmelt."}],
                }
            ],
        },
        {
            "number": "9-2",
            "title": "Prohibitions",
            "body": [
                {
                    "label": "A.",
                    "text": "Nothing but rain, or melted snow.",
                    "items": [
                        {
                            "label": "(1)",
                            "text": "Exempt: lawn watering.",
                            "items": [{"label": "(a)", "text": "Small car washing."}],
                        }
                    ],
                },
                {"text": "Unlabelled words."},
            ],
        },
    ],
}


def law(change=None, file="ordinance.yaml"):
    data = copy.deepcopy(LAW)
    if change:
        change(data)
    return ordinance_from(data, file)


def refused(call) -> str:
    with pytest.raises(ContentError) as error:
        call()
    return str(error.value)


def test_the_law_as_read():
    o = law()
    assert (o.chapter, o.article, o.title) == ("9", "Article II", "Drains")
    assert (o.head.history, o.head.references_heading, o.head.adoption) == (
        "[Adopted 2009]",
        "GENERAL REFERENCES",
        "[L.L. No. 3-2009]",
    )
    assert o.head.references == ("Zoning — See Ch. 190.", "58")
    assert [(s.number, s.title, s.anchor) for s in o.sections] == [
        ("9-1", "Definitions", "sec-9-1"),
        ("9-2", "Prohibitions", "sec-9-2"),
    ]
    assert list(o.by_number) == ["9-1", "9-2"]
    assert o.spill_section == "9-2"
    assert o.roles == {
        **dict.fromkeys(ROLES, "9-1"),
        "release_notification": "9-2",
        "own_job": "9-2",
    }


def test_each_labelled_provision_has_an_anchor_below_its_section():
    a, plain = law().by_number["9-2"].body
    assert (a.label, a.text, a.anchor) == ("A.", "Nothing but rain, or melted snow.", "sec-9-2-a")
    [one] = a.items
    assert (one.label, one.anchor) == ("(1)", "sec-9-2-a-1")
    [small] = one.items
    assert (small.label, small.text, small.anchor, small.items) == (
        "(a)",
        "Small car washing.",
        "sec-9-2-a-1-a",
        (),
    )
    assert (plain.label, plain.anchor, plain.items) == (None, None, ())


def test_a_definition_has_its_slug_and_words_and_no_anchors():
    o = law()
    [definition] = o.definitions
    assert (definition.term, definition.slug) == ("STORM WATER (SW)", "storm-water-sw")
    assert [(p.label, p.anchor) for p in definition.body] == [(None, None), ("A.", None)]
    assert o.defined("storm-water-sw") == "Rain. Snowmelt."
    assert o.defined("storm-water") is None
    assert o.by_number["9-2"].definitions == ()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: d["sections"][1]["body"][0].update(label="A)"),
            "sections[1].body[0].label: 'A)' is not a label like A., (1) or (a)",
        ),
        (
            lambda d: d["sections"][1]["body"][0]["items"][0].update(label="1."),
            "sections[1].body[0].items[0].label: '1.' is not a label like A., (1) or (a)",
        ),
        (
            lambda d: d["sections"][0]["definitions"][0]["body"][1].update(label="a"),
            "sections[0].definitions[0].body[1].label: 'a' is not a label like A., (1) or (a)",
        ),
        (
            lambda d: d["sections"][1].update(number="10-2"),
            "sections[1].number: '10-2' is not a section of chapter 9",
        ),
        (
            lambda d: d["sections"][1].update(number="9-2a"),
            "sections[1].number: '9-2a' is not a section of chapter 9",
        ),
        (
            lambda d: d["sections"][1].update(number="99-2"),
            "sections[1].number: '99-2' is not a section of chapter 9",
        ),
        (lambda d: d["sections"][1].update(number="9-1"), "sections[1].number: 9-1 appears twice"),
        (lambda d: d.update(sections=[]), "sections: must list the sections"),
        (lambda d: d.pop("sections"), "sections: is missing"),
        (lambda d: d["sections"][1].pop("title"), "sections[1].title: is missing"),
        (lambda d: d["sections"][1]["body"][1].pop("text"), "sections[1].body[1].text: is missing"),
        (
            lambda d: d["sections"][0]["definitions"][0].pop("term"),
            "sections[0].definitions[0].term: is missing",
        ),
        (lambda d: d["roles"].pop("appeals"), "roles.appeals: is missing"),
        (
            lambda d: d["roles"].update(appeals="9-7"),
            "roles.appeals: § 9-7 is not in the ordinance",
        ),
        (
            lambda d: d["roles"].update(own_job="9-8"),
            "roles.own_job: § 9-8 is not in the ordinance",
        ),
        (lambda d: d["head"].pop("adoption"), "head.adoption: is missing"),
        (lambda d: d["head"].pop("references"), "head.references: is missing"),
        (lambda d: d.pop("article"), "article: is missing"),
        (lambda d: d.pop("head"), "head: is missing"),
        (lambda d: d.update(preamble="x"), "preamble: is not a field this file has"),
        (
            lambda d: d["sections"][1]["body"][0].update(item=[]),
            "sections[1].body[0].item: is not a field this file has (did you mean items?)",
        ),
    ],
)
def test_a_law_refused(change, message):
    assert refused(lambda: law(change)) == f"ordinance.yaml: {message}"


def test_a_law_named_by_its_file():
    assert refused(lambda: law(lambda d: d.pop("title"), "ordinance.es.yaml")) == (
        "ordinance.es.yaml: title: is missing"
    )
    assert refused(lambda: ordinance_from({"chapter": "9"})) == "ordinance.yaml: head: is missing"


EXEMPT = {
    "section": "9-2",
    "intro": "Only rain.",
    "entries": [
        {
            "name": "lawn watering",
            "note": "Water less.",
            "keywords": [" sprinkler "],
            "learn": "lawn",
        },
        {"name": "car washing", "note": "Use a bucket."},
        {"name": "rain", "note": "Natural."},
    ],
    "conditional": [{"label": "(2)", "title": "Approved", "note": "In writing."}],
    "caveat": "Unless polluting.",
    "questions": [
        {"question": "My car?", "answer": "Yes.", "learn": "car"},
        {"question": "My pool?", "answer": "Wait."},
    ],
}


def exempt(change=None):
    data = copy.deepcopy(EXEMPT)
    if change:
        change(data)
    return load_exempt(Path("exempt-discharges.yaml"), law(), data)


def test_the_exempt_list_as_read():
    e = exempt()
    assert (e.section, e.intro, e.caveat) == ("9-2", "Only rain.", "Unless polluting.")
    assert e.entries == (
        ExemptDischarge("lawn watering", "lawn-watering", "Water less.", ("sprinkler",), "lawn"),
        ExemptDischarge("car washing", "car-washing", "Use a bucket.", (), None),
        ExemptDischarge("rain", "rain", "Natural.", (), None),
    )
    assert e.conditional == (ConditionalAllowance("(2)", "Approved", "In writing."),)
    assert e.questions == (Question("My car?", "Yes.", "car"), Question("My pool?", "Wait.", None))


def test_an_exempt_list_without_questions():
    assert exempt(lambda d: d.pop("questions")).questions == ()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(section="9-3"), "section: § 9-3 is not in the ordinance"),
        (
            lambda d: d["entries"][2].update(name="Terms"),
            "entries[2].name: 'Terms' is not in the words of § 9-2",
        ),
        (
            lambda d: d["entries"][0].update(name="lawn sprinkling"),
            "entries[0].name: 'lawn sprinkling' is not in the words of § 9-2",
        ),
        (lambda d: d["entries"][1].pop("note"), "entries[1].note: is missing"),
        (lambda d: d.pop("conditional"), "conditional: is missing"),
        (lambda d: d["conditional"][0].pop("title"), "conditional[0].title: is missing"),
        (lambda d: d["questions"][1].pop("answer"), "questions[1].answer: is missing"),
        (lambda d: d.pop("caveat"), "caveat: is missing"),
        (lambda d: d.pop("intro"), "intro: is missing"),
        (
            lambda d: d["entries"][0].update(keywords=[""]),
            "entries[0].keywords: must be a list of words or phrases",
        ),
        (
            lambda d: d["questions"][0].update(link="car"),
            "questions[0].link: is not a field this file has",
        ),
    ],
)
def test_an_exempt_list_refused(change, message):
    assert refused(lambda: exempt(change)) == f"exempt-discharges.yaml: {message}"


def test_an_exempt_name_is_looked_for_in_the_sections_words_read_as_one_text():
    """The provisions' texts are joined by a space: a name may run from one into the next."""
    read = exempt(lambda d: d["entries"][2].update(name="melted snow. Exempt: lawn"))
    assert read.entries[2].name == "melted snow. Exempt: lawn"
