"""A learn page as the loader reads it (content_model/learn.py): its front matter, each field
and its default, a translation that takes the English page's order and sections, and what a
content editor is told for each thing refused."""

from __future__ import annotations

import pytest
from test_content_law import law

from content_model.fields import ContentError
from content_model.learn import LearnPage, load_learn_page

FRONT = 'title: Car washing\nsummary: Wash on the lawn.\norder: 5\nsections: ["9-2", "9-1"]\n'


def page(tmp_path, text, name="car-washing.md", english=None):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load_learn_page(path, law(), english)


def refused(tmp_path, text, name="car-washing.md", english=None) -> str:
    with pytest.raises(ContentError) as error:
        page(tmp_path, text, name, english)
    return str(error.value)


def test_a_page_as_read(tmp_path):
    read = page(tmp_path, f"---\n{FRONT}keywords: [' soap ', suds]\n---\n\n## Why\n\nSoap.\n\n")
    assert read == LearnPage(
        slug="car-washing",
        title="Car washing",
        summary="Wash on the lawn.",
        order=5,
        sections=("9-2", "9-1"),
        body="## Why\n\nSoap.",
        keywords=("soap", "suds"),
    )


def test_a_page_without_keywords_or_sections(tmp_path):
    front = "title: Car washing\nsummary: Wash on the lawn.\norder: 5\nsections: []\n"
    read = page(tmp_path, f"---\n{front}---\nSoap.\n")
    assert (read.keywords, read.sections, read.body) == ((), (), "Soap.")


def test_a_summary_of_160_characters_is_kept_and_161_refused(tmp_path):
    front = FRONT.replace("Wash on the lawn.", "x" * 160)
    assert page(tmp_path, f"---\n{front}---\nSoap.\n").summary == "x" * 160
    front = FRONT.replace("Wash on the lawn.", "x" * 161)
    assert refused(tmp_path, f"---\n{front}---\nSoap.\n") == (
        "learn/car-washing.md: summary: is 161 characters; keep it to 160"
    )


def test_a_translation_takes_the_english_pages_order_sections_and_slug(tmp_path):
    english = page(tmp_path, f"---\n{FRONT}---\nSoap.\n")
    spanish = page(
        tmp_path,
        "---\ntitle: Lavar el carro\nsummary: En el césped.\n---\nJabón.\n",
        "car-washing.es.md",
        english,
    )
    assert spanish == LearnPage(
        slug="car-washing",
        title="Lavar el carro",
        summary="En el césped.",
        order=5,
        sections=("9-2", "9-1"),
        body="Jabón.",
    )


def test_a_translation_that_is_not_a_mapping_is_refused(tmp_path):
    english = page(tmp_path, f"---\n{FRONT}---\nSoap.\n")
    assert refused(tmp_path, "---\n- a list\n---\nJabón.\n", "car-washing.es.md", english) == (
        "learn/car-washing.es.md: the top level: expected a mapping of fields"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (f"{FRONT}---\nSoap.\n", "front matter: must start with a '---' block"),
        (f"---\n{FRONT}Soap.\n", "front matter: must start with a '---' block"),
        ("---\ntitle: [Car\n---\nSoap.\n", "front matter: not valid YAML: while parsing"),
        ("---\n- title\n---\nSoap.\n", "the top level: expected a mapping of fields"),
        (f"---\n{FRONT}---\n\n  \n", "body: is empty"),
        (f"---\n{FRONT}---\nSoap <b>now</b>.\n", "body: must be Markdown without raw HTML"),
        (f"---\n{FRONT}---\nSoap.<!-- note -->\n", "body: must be Markdown without raw HTML"),
        (f"---\n{FRONT}---\nUse 1 < 2 cups of soap.\n", None),
        (
            f"---\n{FRONT.replace('9-1', '9-7')}---\nSoap.\n",
            "sections: § 9-7 is not in the ordinance",
        ),
        (
            f"---\n{FRONT.replace('sections: ', 'sections: 9-2 #')}---\nSoap.\n",
            "sections: must be a list",
        ),
        (
            f"---\n{FRONT.replace('order: 5', 'order: fifth')}---\nSoap.\n",
            "order: must be a whole number",
        ),
        (f"---\n{FRONT.replace('order: 5', 'rank: 5')}---\nSoap.\n", "order: is missing"),
        (f"---\n{FRONT.replace('title: Car washing', '')}---\nSoap.\n", "title: is missing"),
        (
            f"---\n{FRONT.replace('summary: Wash on the lawn.', '')}---\nSoap.\n",
            "summary: is missing",
        ),
        (f"---\n{FRONT}author: me\n---\nSoap.\n", "author: is not a field this file has"),
    ],
)
def test_a_page_refused(tmp_path, text, message):
    if message is None:
        assert page(tmp_path, text).body == "Use 1 < 2 cups of soap."
    elif "YAML" in message:
        assert refused(tmp_path, text).startswith(f"learn/car-washing.md: {message}")
    else:
        assert refused(tmp_path, text) == f"learn/car-washing.md: {message}"
