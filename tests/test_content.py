"""The content loader: the real files load, and a broken file is named with its field."""

from __future__ import annotations

import datetime as dt
import re
import shutil
from pathlib import Path

import pytest
import yaml

from content_model.fields import CONTENT_DIR, ContentError, slugify
from content_model.loader import load_content

REQUIRED_PAGES = {
    "pet-waste",
    "motor-oil",
    "lawn-chemicals",
    "yard-waste",
    "car-washing",
    "pools-and-hot-tubs",
    "paint-and-cleaners",
    "fats-oils-grease",
}


def test_real_content_loads(content):
    assert content.settings.name == "Village of Horseheads"
    assert [s.number for s in content.ordinance.sections] == [f"216-{n}" for n in range(1, 21)]
    assert set(content.page_by_slug) >= REQUIRED_PAGES


def test_unknown_contacts_stay_unset(content):
    """No SMO e-mail or fax was found in public sources, so none is invented."""
    assert content.settings.smo_email is None
    assert content.settings.smo_fax is None
    assert content.settings.office.fax is None


def test_phone_numbers_become_tel_links(content):
    phones = content.settings.phones
    assert phones["spill_hotline"].tel == "+18004577362"
    assert phones["emergency"].tel == "911"
    assert content.settings.office.phone.tel == "+16077395691"


def test_subdivisions_are_nested(content):
    section = content.ordinance.by_number["216-13"]
    a = section.body[0]
    assert a.label == "A." and a.anchor == "sec-216-13-a"
    assert [item.label for item in a.items] == ["(1)", "(2)"]
    assert [item.label for item in a.items[0].items] == [f"({c})" for c in "abcdef"]
    assert a.items[0].items[4].text == "Payment of a fine; and"


def test_definitions_are_terms_and_meanings(content):
    definitions = {d.term: d for d in content.ordinance.by_number["216-4"].definitions}
    assert len(definitions) == 28
    assert (
        definitions["STORMWATER"].body[0].text
        == "Rainwater, surface runoff, snowmelt and drainage."
    )
    assert [p.label for p in definitions["ILLICIT CONNECTIONS"].body[1:]] == ["A.", "B."]
    assert definitions["303(d) LIST"].slug == "303-d-list"


def test_every_exempt_discharge_of_the_law_has_an_entry(content):
    """Each item of the list in § 216-6 A(1) is its own entry, in the law's order."""
    law = content.ordinance.by_number["216-6"].body[0].items[0].text
    listed = law.split(": ", 1)[1].split(". ")[0]
    items = [re.sub(r"^and ", "", item.strip()) for item in listed.split(",")]
    assert [entry.name for entry in content.exempt.entries] == items
    assert [c.label for c in content.exempt.conditional] == ["(2)", "(3)", "(4)"]
    assert all(entry.note for entry in content.exempt.entries)


def test_learn_pages_cover_why_what_and_the_law(content):
    for page in content.pages:
        for heading in ("## Why it matters", "## What to do instead", "## What the law says"):
            assert heading in page.body, f"{page.slug}: missing {heading!r}"
        assert page.sections, page.slug


def test_the_default_map_is_openstreetmap_with_its_required_credit(content):
    tiles = content.settings.map_tiles
    assert tiles.url == "https://tile.openstreetmap.org/{z}/{x}/{y}.png"
    assert tiles.attribution == "© OpenStreetMap contributors"
    assert tiles.attribution_url == "https://www.openstreetmap.org/copyright"
    assert tiles.max_zoom == 19


def test_slugify():
    assert slugify("BEST MANAGEMENT PRACTICES (BMPs)") == "best-management-practices-bmps"
    assert slugify("303(d) LIST") == "303-d-list"


# ------------------------------------------------------------ broken files


def _edit_yaml(name, change):
    def edit(root: Path):
        path = root / name
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        change(data)
        path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")

    return edit


def _replace(name, old, new):
    def edit(root: Path):
        path = root / name
        text = path.read_text(encoding="utf-8")
        assert old in text
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    return edit


def _delete(name):
    return lambda root: (root / name).unlink()


BROKEN = [
    ("site.yaml missing", _delete("site.yaml"), "site.yaml: file is missing"),
    (  # Legal C17: the pages name the holidays a Sunday does not move.
        "flag day unnamed",
        _replace("site.yaml", "  not_moved: Flag Day\n", ""),
        "site.yaml: holidays.not_moved: must name the holidays with shift: false",
    ),
    (
        "site.yaml not yaml",
        _replace("site.yaml", "municipality:", "municipality: ["),
        "site.yaml: not valid YAML",
    ),
    (
        "no name",
        _edit_yaml("site.yaml", lambda d: d["municipality"].pop("name")),
        "site.yaml: municipality.name: is missing",
    ),
    (
        "empty phone",
        _edit_yaml("site.yaml", lambda d: d["office"].update(phone="  ")),
        "site.yaml: office.phone: must be non-empty text",
    ),
    (
        "no spill hotline",
        _edit_yaml("site.yaml", lambda d: d["phones"].pop("spill_hotline")),
        "site.yaml: phones.spill_hotline: is missing",
    ),
    (
        "bad closure",
        _edit_yaml("site.yaml", lambda d: d["holidays"].update(closures=["12/24"])),
        "site.yaml: holidays.closures[0]: '12/24' is not a date",
    ),
    (
        "bad weekday",
        _edit_yaml("site.yaml", lambda d: d["holidays"]["observed"][1].update(weekday="Funday")),
        "site.yaml: holidays.observed[1].weekday: must be a weekday name",
    ),
    (
        "no day",
        _edit_yaml("site.yaml", lambda d: d["holidays"]["observed"][0].pop("day")),
        "site.yaml: holidays.observed[0].day: give a day",
    ),
    (
        "tiles over http",
        _edit_yaml(
            "site.yaml", lambda d: d["map_tiles"].update(url="http://t.example/{z}/{x}/{y}.png")
        ),
        "site.yaml: map_tiles.url: must be an https:// address with {z}, {x} and {y}",
    ),
    (
        "tiles without credit",
        _edit_yaml("site.yaml", lambda d: d["map_tiles"].pop("attribution")),
        "site.yaml: map_tiles.attribution: is missing",
    ),
    (
        "section of another chapter",
        _replace("ordinance.yaml", "number: 216-3", "number: 217-3"),
        "ordinance.yaml: sections[2].number: '217-3' is not a section of chapter 216",
    ),
    (
        "section twice",
        _replace("ordinance.yaml", "number: 216-3", "number: 216-2"),
        "ordinance.yaml: sections[2].number: 216-2 appears twice",
    ),
    (
        "empty provision",
        _edit_yaml("ordinance.yaml", lambda d: d["sections"][0]["body"][1].update(text="")),
        "ordinance.yaml: sections[0].body[1].text: must be non-empty text",
    ),
    (
        "bad label",
        _edit_yaml("ordinance.yaml", lambda d: d["sections"][0]["body"][1].update(label="A)")),
        "ordinance.yaml: sections[0].body[1].label: 'A)' is not a label",
    ),
    (
        "exempt name not in law",
        _edit_yaml("exempt-discharges.yaml", lambda d: d["entries"][3].update(name="rising water")),
        "exempt-discharges.yaml: entries[3].name: 'rising water' is not in the words of § 216-6",
    ),
    (
        "exempt without note",
        _edit_yaml("exempt-discharges.yaml", lambda d: d["entries"][0].pop("note")),
        "exempt-discharges.yaml: entries[0].note: is missing",
    ),
    (
        "no front matter",
        _replace(
            "learn/pet-waste.md",
            "---\n",
            "",
        ),
        "learn/pet-waste.md: front matter: must start with a '---' block",
    ),
    (
        "learn page without title",
        _replace("learn/motor-oil.md", "title:", "titel:"),
        "learn/motor-oil.md: title: is missing",
    ),
    (
        "learn page cites a missing section",
        _replace("learn/pet-waste.md", "sections: [", 'sections: ["216-99", '),
        "learn/pet-waste.md: sections: § 216-99 is not in the ordinance",
    ),
    (
        "learn keywords not a list",
        _replace("learn/motor-oil.md", 'keywords: ["oil change", ', 'keywords: "oil change" #'),
        "learn/motor-oil.md: keywords: must be a list",
    ),
    (
        "empty learn keyword",
        _replace("learn/motor-oil.md", 'keywords: ["oil change", ', 'keywords: [" ", '),
        "learn/motor-oil.md: keywords: must be a list of words or phrases",
    ),
    (
        "bad colour",
        _replace("site.yaml", 'brand: "#0b4f6c"', 'brand: "navy"'),
        "site.yaml: colours.brand: must be a colour like #0b4f6c, not 'navy'",
    ),
    (
        "raw html",
        _replace(
            "learn/yard-waste.md", "## Why it matters", "<script>x</script>\n## Why it matters"
        ),
        "learn/yard-waste.md: body: must be Markdown without raw HTML",
    ),
    (
        "raw html in capitals",
        _replace(
            "learn/yard-waste.md", "## Why it matters", "<SCRIPT>x</SCRIPT>\n## Why it matters"
        ),
        "learn/yard-waste.md: body: must be Markdown without raw HTML",
    ),
    (
        "raw html, a capital tag never closed",
        _replace(
            "learn/yard-waste.md",
            "## Why it matters",
            "Keep it out. <IMG SRC=x ONERROR=alert(1)>\n\n## Why it matters",
        ),
        "learn/yard-waste.md: body: must be Markdown without raw HTML",
    ),
    # A misspelt switch that decides legal deadlines must not pass as its default.
    (
        "misspelt holiday switch",
        _replace("site.yaml", "saturday_to_friday: false", "saturday_to_fridy: true"),
        "site.yaml: holidays.saturday_to_fridy: is not a field this file has (did you mean saturday_to_friday?)",
    ),
    (
        "unknown office field",
        _edit_yaml("site.yaml", lambda d: d["office"].update(opening="08:00")),
        "site.yaml: office.opening: is not a field this file has (did you mean opens?)",
    ),
    (
        "unknown field in a list item",
        _edit_yaml("site.yaml", lambda d: d["holidays"]["observed"][0].update(shifted=False)),
        "site.yaml: holidays.observed[0].shifted: is not a field this file has (did you mean shift?)",
    ),
    (
        "unknown ordinance field",
        _edit_yaml("ordinance.yaml", lambda d: d["sections"][0].update(titel="x")),
        "ordinance.yaml: sections[0].titel: is not a field this file has (did you mean title?)",
    ),
    (
        "unknown exempt field",
        _edit_yaml("exempt-discharges.yaml", lambda d: d["entries"][0].update(keyword="hose")),
        "exempt-discharges.yaml: entries[0].keyword: is not a field this file has (did you mean keywords?)",
    ),
    (
        "unknown learn page field",
        _replace("learn/motor-oil.md", "title:", "keyword: oil\ntitle:"),
        "learn/motor-oil.md: keyword: is not a field this file has (did you mean keywords?)",
    ),
    (
        "unknown open311 field",
        _replace("open311.yaml", "jurisdiction_id:", "jurisdiction: x\njurisdiction_id:"),
        "open311.yaml: jurisdiction: is not a field this file has (did you mean jurisdiction_id?)",
    ),
    (
        "search words for a missing section",
        _replace("search.yaml", '"216-13":', '"216-99":'),
        "search.yaml: sections.216-99: § 216-99 is not in the ordinance",
    ),
    (
        "empty search word",
        _replace("search.yaml", "contact: [who do I call,", 'contact: [" ",'),
        "search.yaml: contact: must be a list of words or phrases",
    ),
    (
        "shortcut to an unknown page",
        _replace("search.yaml", "portal: report", "portal: staff"),
        "search.yaml: shortcuts[0].portal: must be one of report, notify",
    ),
    (
        "shortcut without words",
        _edit_yaml("search.yaml", lambda d: d["shortcuts"][0].pop("words")),
        "search.yaml: shortcuts[0].words: is missing",
    ),
]


@pytest.mark.parametrize(
    ("edit", "message"), [case[1:] for case in BROKEN], ids=[case[0] for case in BROKEN]
)
def test_broken_content_names_file_and_field(tmp_path, edit, message):
    root = tmp_path / "content"
    shutil.copytree(CONTENT_DIR, root)
    edit(root)
    with pytest.raises(ContentError) as error:
        load_content(root)
    assert str(error.value).startswith(message), str(error.value)


def test_a_pack_that_does_not_say_keeps_saturday_holidays_on_saturday(tmp_path):
    """GCL § 24 moves a Sunday holiday to Monday and says nothing of Saturday: a pack that
    leaves `saturday_to_friday` out gets no Friday holiday (July 4, 2026 is a Saturday)."""
    from portal.core.deadlines import BusinessCalendar

    root = tmp_path / "content"
    shutil.copytree(CONTENT_DIR, root)
    _replace("site.yaml", "  saturday_to_friday: false\n", "")(root)
    rules = load_content(root).settings.holidays
    assert rules.saturday_to_friday is False and rules.sunday_to_monday is True
    calendar = BusinessCalendar(rules)
    assert calendar.is_business_day(dt.date(2026, 7, 3))
    assert calendar.next_business_day(dt.date(2026, 7, 2)) == dt.date(2026, 7, 3)
    # Without `sunday_to_monday` either, the Sunday rule of GCL § 24 still applies.
    _replace("site.yaml", "  sunday_to_monday: true\n", "")(root)
    calendar = BusinessCalendar(load_content(root).settings.holidays)
    assert not calendar.is_business_day(dt.date(2027, 7, 5)), "July 4, 2027 is a Sunday"


@pytest.mark.parametrize(
    ("latitude", "longitude", "inside"),
    [
        (42.16, -76.82, True),  # the village
        (42.16, -75.0, False),
        (42.16, -78.0, False),  # east and west, at a latitude inside
        (44.0, -76.82, False),
        (41.0, -76.82, False),  # north and south, at a longitude inside
        (44.0, -75.0, False),
    ],
)
def test_the_service_area_holds_a_point_only_inside_on_both_axes(
    content, latitude, longitude, inside
):
    area = content.settings.service_area
    assert area.contains(latitude, longitude) is inside


def test_search_words_are_content(content):
    words = content.search
    assert words.sections == {
        "216-13": ("fine", "fines", "penalty", "penalties", "ticket", "punishment")
    }
    assert "who do I call" in words.contact and "emergency" in words.contact
    [report, spill] = words.shortcuts
    assert (report.portal, report.title) == ("report", "Report a problem")
    assert {"report", "complaint"} <= set(report.words)
    assert (spill.portal, spill.title) == (
        "notify",
        "A spill or release at a facility I am responsible for",
    )
    assert {"spill", "release", "leak", "facility", "business", "plant", "notify"} <= set(
        spill.words
    )
    # "notification of spills" is the law's section title: the section answers it.
    assert "spills" not in spill.words and "notification" not in spill.words


def test_a_pack_without_search_words_has_none(tmp_path):
    root = tmp_path / "content"
    shutil.copytree(CONTENT_DIR, root)
    (root / "search.yaml").unlink()
    words = load_content(root).search
    assert (words.sections, words.contact, words.shortcuts) == ({}, (), ())
