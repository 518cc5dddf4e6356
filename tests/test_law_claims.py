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
    return [(page_url(build, page), parse_page(page).text) for page in built_pages(build, "en")]


def missing_penalty_parts(text: str) -> list[str]:
    """The parts of § 216-13 B a text leaves out, if it gives the first-offense range."""
    if not FIRST_OFFENSE.search(text):
        return []
    return [name for name, pattern in PENALTY_PARTS.items() if not re.search(pattern, text)]


def test_no_page_gives_the_first_offense_fine_without_the_rest(build):
    partial = {
        url: missing for url, text in page_texts(build) if (missing := missing_penalty_parts(text))
    }
    assert not partial, partial


@pytest.mark.parametrize(
    "text",
    [
        "A first offense can bring a fine of $50 to $350. Fines go up for repeat offenses.",
        "Fines run from $50 to $350 on conviction of a first offense.",
    ],
)
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
    # Yes, as a rule: the exemption's two conditions (§ 216-6 A(1)) go with it.
    assert "Can I wash my own car in the driveway? Yes, as a rule." in text
    assert "substantial contributor of pollutants" in text


def text_of(build, *parts: str) -> str:
    return parse_page(build.joinpath(*parts, "index.html")).text


def test_the_learn_pages_state_sections_6_and_7_as_the_law_does(build, content):
    """§ 216-6 A(2)-(4) are not clean-water exceptions; § 216-7 B binds only what
    causes or contributes to violations of the permit."""
    for page in content.pages:
        text = text_of(build, "learn", page.slug)
        assert "short list of clean-water exceptions" not in text, page.slug
        assert "engaged in such an activity" not in text, page.slug
        if "216-7" in page.sections:
            assert (
                "If the Village notifies you that you are causing or contributing to"
                " violations of its MS4 permit, you must take" in text
            ), page.slug


def test_the_learn_pages_word_their_readings_and_duties_fairly(build):
    lawn = text_of(build, "learn", "lawn-chemicals")
    assert "Lawn watering is on the A(1) list, but it stops being exempt if" in lawn
    assert "not clean water" not in lawn
    # The State's fertilizer law, with its 20-foot rule, and where it comes from.
    assert "Environmental Conservation Law section 17-2103" in lawn
    assert "within 20 feet of a creek, pond or other surface water" in lawn and "3 feet" in lawn
    cars = text_of(build, "learn", "car-washing")
    assert "Our reading: a fundraiser car wash or a business that washes vehicles" in cars
    assert "§ 216-11 requires the owner or operator of a commercial or industrial" in cars
    soil = text_of(build, "learn", "soil-and-sediment")
    assert "anyone subject to a State industrial or construction stormwater permit" in soil
    assert "at the owner's expense" not in soil and "at their own expense" in soil
    oil = text_of(build, "learn", "motor-oil")
    assert "may also need to be reported" not in oil
    assert "within two hours of discovery, unless all four of these hold" in oil
    assert "that is reaching, or may reach, the storm sewer system" in oil
    # The small-spill advice keeps the State rule's conditions.
    assert (
        "Small spill (known to be under 5 gallons, contained and under control, and has not"
        " reached and will not reach water or any land, such as soil): soak it up with cat"
        " litter or rags within two hours." in oil
    )


def test_round3_section_11_and_section_6_are_stated_whole_on_every_page(build):
    # Seeds 148, 150 and 99-107.
    for slug in ("fats-oils-grease", "trash-and-litter"):
        page = text_of(build, "learn", slug)
        assert (
            "§ 216-11 requires the owner or operator of a commercial or industrial"
            " establishment to provide at their own expense reasonable protection" in page
        ), slug
        assert "where it finds a problem" not in page and "businesses must" not in page, slug
    # Seed 150: the source of an illicit discharge or of an activity contaminating
    # stormwater; and pet waste's page states the section 216-6 rule once.
    for slug in ("car-washing", "fats-oils-grease", "trash-and-litter"):
        assert (
            "a source of an illicit discharge, or of an activity contaminating stormwater,"
            in text_of(build, "learn", slug)
        ), slug
    assert text_of(build, "learn", "pet-waste").count("except the discharges § 216-6 A(1)") == 1
    for slug in ("car-washing", "pools-and-hot-tubs", "pet-waste"):
        page = text_of(build, "learn", slug)
        assert "short list" not in page, slug
        assert (
            "except the discharges § 216-6 A(1) exempts and those it allows on conditions in"
            " A(2) to A(4)" in page
        ), slug


def test_every_guide_says_no_one_may_discharge_or_cause_to_be_discharged(build, content):
    """Round 6, finding 2.5 (seed 99): "No person shall discharge or cause to be discharged".
    Pet waste states the rule once, without naming who discharges."""
    rule = "§ 216-6 says no one may discharge, or cause to be discharged, anything but stormwater"
    said = [page.slug for page in content.pages if rule in text_of(build, "learn", page.slug)]
    assert len(said) == len(content.pages) - 1 and "pet-waste" not in said, said
    for page in content.pages:
        assert "no one may discharge anything" not in text_of(build, "learn", page.slug)


def test_the_home_page_names_who_must_tell_and_the_mailed_confirmation(build):
    home = text_of(build)
    assert "A spill or release at a facility I am responsible for" in home
    # The duty's trigger, and all three means (seed 153).
    assert (
        "If you are responsible for a facility or operation, or for its emergency response, and"
        " know of or suspect a release there that reaches, or may reach, the storm sewer system,"
        " the law requires you to take all necessary steps to find, contain and clean it up,"
        " and to tell the Village of Horseheads"
        " in person, by telephone or by fax (no fax number is published, so call or come in)"
        " by the next business day, and to confirm a notice in person or by telephone by a"
        " letter mailed within three business days. You may also file a record here." in home
    )
    assert "My business" not in home and "Then file a record here" not in home


def test_the_unofficial_copy_does_not_say_who_keeps_the_official_text(build):
    text = text_of(build, "ordinance")
    assert "The Village Clerk keeps the official text" not in text
    assert "The official text is the Village of Horseheads Code as the Village publishes it" in text


def test_the_open311_service_says_what_the_law_allows(client, content):
    [service] = client.get("/open311/v2/services.json").get_json()
    words = service["description"]
    assert words.startswith(
        "Something other than stormwater (rain, snowmelt, surface runoff and drainage)"
    )
    assert "creek" not in words
    assert "apart from the discharges § 216-6 exempts or allows on conditions." in words
    assert content.settings.legal_notice in words
