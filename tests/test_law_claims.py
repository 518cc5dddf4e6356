"""What the built site says about the law: the whole penalty range, the notices, the sources."""

from __future__ import annotations

import re

import pytest
from helpers import built_pages, page_url, parse_page

# § 216-13 B (seed line 173): every part a reader needs besides the first-offense fine, in
# plain words or in the law's own (the ordinance page quotes it).
PENALTY_PARTS = {
    "conviction": r"convicted|conviction",
    "second offense": r"\$350 (?:to|nor more than) \$700",
    "third offense": r"\$700 (?:to|nor more than) \$1,000",
    "jail": r"15 days",
    "five years": r"within (?:a period of )?five years",
    "continued violation": r"[Ee]ach week",
}
FIRST_OFFENSE = re.compile(r"\$50\b")


def page_texts(build):
    return [(page_url(build, page), parse_page(page).text) for page in built_pages(build)]


def missing_penalty_parts(text: str) -> list[str]:
    """The parts of § 216-13 B a text leaves out, if it gives the first-offense range."""
    if not FIRST_OFFENSE.search(text):
        return []
    return [name for name, pattern in PENALTY_PARTS.items() if not re.search(pattern, text)]


def test_no_page_gives_the_first_offense_fine_without_the_rest(build):
    partial = {url: missing for url, text in page_texts(build)
               if (missing := missing_penalty_parts(text))}  # fmt: skip
    assert not partial, partial


@pytest.mark.parametrize(
    "text",
    ["A first offense can bring a fine of $50 to $350. Fines go up for repeat offenses.",
     "Fines run from $50 to $350 on conviction of a first offense."],
)  # fmt: skip
def test_the_penalty_check_catches_the_old_wording(text):
    assert missing_penalty_parts(text)


def test_every_learn_page_states_the_whole_range_once(build, content):
    for page in content.pages:
        text = parse_page(build / "learn" / page.slug / "index.html").text
        assert text.count("$700 to $1,000") == 1, page.slug
        assert not missing_penalty_parts(text)


def test_pages_that_explain_the_law_carry_the_plain_language_notice(build, content):
    explaining = ["index.html", "learn/index.html", "exempt-discharges/index.html"] + [
        f"learn/{page.slug}/index.html" for page in content.pages
    ]
    for name in explaining:
        assert content.settings.legal_notice in parse_page(build / name).text, name


def test_the_unofficial_copy_says_which_numbers_the_text_names(build, content):
    text = parse_page(build / "ordinance" / "index.html").text
    assert "Unofficial copy." in text
    assert "except § 216-4 (Definitions), § 216-6 and § 216-7, which the text itself names" in text


def test_the_exempt_page_heads_its_lists_as_the_law_does(build):
    text = parse_page(build / "exempt-discharges" / "index.html").text
    assert "when done without pollutants" not in text
    assert "only with approval or a permit" not in text.lower()
    assert "rainwater, surface runoff, snowmelt and drainage" in text
    assert "Can I wash my own car in the driveway? Yes." in text
