"""The ordinance page: the whole seed text, linked citations, anchors and the glossary."""

from __future__ import annotations

import itertools
import re

import pytest
from helpers import DATA, parse_page

SEED = (DATA / "ordinance-seed.txt").read_text(encoding="utf-8")
LABEL_LINE = re.compile(r"^(?:[A-Z]\.|\(\d+\)|\([a-z]\))$")
# A sentence ends at . ; : ? or ! followed by a space and a capital, digit or bracket.
SENTENCE_END = re.compile(r"(?<=[.;:?!])\s+(?=[A-Z0-9(\[])")


def seed_sentences() -> list[str]:
    sentences = []
    for line in SEED.splitlines():
        line = " ".join(line.split())
        if line and not LABEL_LINE.match(line):
            sentences += SENTENCE_END.split(line)
    return sentences


@pytest.fixture(scope="module")
def ordinance_page(build):
    return parse_page(build / "ordinance" / "index.html")


def test_seed_splits_into_many_sentences():
    assert len(seed_sentences()) > 180


def test_every_sentence_of_the_seed_appears_unchanged(ordinance_page):
    missing = [s for s in seed_sentences() if s not in ordinance_page.text]
    assert not missing, f"{len(missing)} sentences missing, first: {missing[:3]}"


def test_every_label_appears_with_its_text(ordinance_page):
    lines = [" ".join(line.split()) for line in SEED.splitlines()]
    for label, text in itertools.pairwise(lines):
        if LABEL_LINE.match(label):
            assert f"{label} {text}" in ordinance_page.text


def test_sections_and_definitions_have_anchors(ordinance_page, content):
    for section in content.ordinance.sections:
        assert f"sec-{section.number}" in ordinance_page.ids
    for definition in content.ordinance.definitions:
        assert f"def-{definition.slug}" in ordinance_page.ids
    assert {f"sec-216-{n}" for n in range(1, 21)} <= ordinance_page.ids


def test_table_of_contents_lists_every_section(build):
    html = (build / "ordinance" / "index.html").read_text(encoding="utf-8")
    contents = re.search(r'<nav class="toc" id="contents".*?</nav>', html, re.S).group(0)
    toc = re.findall(r'href="(#sec-216-\d+)"', contents)
    assert [f"#sec-216-{n}" for n in range(1, 21)] == list(dict.fromkeys(toc))


def test_glossary_links_every_defined_term(ordinance_page, content):
    for definition in content.ordinance.definitions:
        assert f"#def-{definition.slug}" in ordinance_page.links


def test_every_section_citation_is_a_link(build):
    html = (build / "ordinance" / "index.html").read_text(encoding="utf-8")
    citations = re.findall(r"(<a href=\"#sec-216-\d+\">)?§ 216-(\d+)", html)
    assert citations, "the text cites sections of the chapter"
    unlinked = [number for link, number in citations if not link]
    # Headings and contents entries name their own section; every other mention is a link.
    in_text = re.sub(r"<(h2|a)\b.*?</\1>", "", html, flags=re.DOTALL)
    assert "§ 216-" not in in_text, unlinked


def test_unofficial_copy_notice(ordinance_page, content):
    assert "Unofficial copy." in ordinance_page.text
    assert content.settings.unofficial_notice in ordinance_page.text
