"""The whole pack as the loader puts it together (content_model/loader.py): the pages in
their order, the exempt list's links to them, the translation beside the English, and what
a content editor is told when one of them is wrong. The test pack, one thing changed."""

from __future__ import annotations

import pytest
from pack_traces import PACK
from test_content_check import _replace, _yaml, broken_pack

from content_model.fields import ContentError
from content_model.loader import load_content


# Loaded by each test that reads it, not once per module: mutmut runs for a mutant only
# the tests during which the loader ran.
@pytest.fixture
def pack():
    return load_content(PACK)


def refused(tmp_path, *edits) -> str:
    with pytest.raises(ContentError) as error:
        load_content(broken_pack(tmp_path, *edits))
    return str(error.value)


def test_the_pages_in_their_order(pack):
    assert [page.slug for page in pack.pages] == [
        "pet-waste",
        "motor-oil",
        "lawn-chemicals",
        "yard-waste",
        "car-washing",
        "pools-and-hot-tubs",
        "paint-and-cleaners",
        "fats-oils-grease",
        "trash-and-litter",
        "soil-and-sediment",
    ]
    assert pack.page_by_slug["car-washing"].title == "Car washing"


def test_pages_of_the_same_order_go_by_their_file_name(tmp_path):
    root = broken_pack(tmp_path, _replace("learn/pet-waste.md", "order: 1", "order: 5"))
    slugs = [page.slug for page in load_content(root, translated=False).pages]
    assert slugs[:5] == ["motor-oil", "lawn-chemicals", "yard-waste", "car-washing", "pet-waste"]


def test_the_english_content_and_its_languages(pack):
    assert (pack.language, pack.pending_review, pack.languages) == ("en", False, ("en", "es"))
    assert (pack.law_title, pack.law_article, pack.summaries, pack.glossary) == ("", "", (), ())
    assert pack.section_title("147-12") == "Notification of spills"
    assert pack.in_language("fr") is pack
    assert pack.in_language("en") is pack


def test_the_spanish_content(pack):
    spanish = pack.in_language("es")
    assert (spanish.language, spanish.pending_review, spanish.languages) == ("es", True, ("en",))
    assert spanish.settings.name == "el Pueblo de Wrenfield"
    assert spanish.settings.office.phone.number == "(315) 555-0142", "numbers stay English"
    assert spanish.law_article == "Artículo I"
    assert spanish.law_title == "Descargas, actividades y conexiones ilícitas"
    assert list(spanish.plain_definitions) == ["hazardous-materials"]
    assert spanish.plain_definitions["hazardous-materials"].startswith("cualquier material,")
    assert spanish.section_title("147-12") == "Aviso de derrames"
    assert spanish.summaries[11].number == "147-12"
    assert spanish.pages[0].slug == "pet-waste" and spanish.pages[0].order == 1
    assert (spanish.pages[0].title, pack.pages[0].title) == ("Desechos de mascotas", "Pet waste")
    assert spanish.exempt.entries[0].note.startswith("El agua potable limpia de una llave")
    assert spanish.exempt.intro.startswith("Solo el agua pluvial")
    assert spanish.ordinance is pack.ordinance, "the law is English only"
    assert spanish.glossary[0].english == "storm sewer system (MS4)"


def test_a_translated_exempt_entry_keeps_the_english_keywords_too(pack):
    english, spanish = pack.exempt.entries[0], pack.in_language("es").exempt.entries[0]
    assert english.name == "water line flushing or other potable water sources"
    assert spanish.name == ("el lavado de tuberías de agua u otras fuentes de agua potable")
    assert english.keywords == ("hydrant", "water main", "water line")
    assert spanish.keywords[-3:] == ("hydrant", "water main", "water line")
    assert len(spanish.keywords) > 3
    assert spanish.slug == english.slug


def test_without_translations(tmp_path):
    content = load_content(PACK, translated=False)
    assert content.translations == {} and content.languages == ("en",)


def test_search_words_in_either_language(pack):
    content = load_content()
    assert pack.in_language("es").search == pack.search, "the test pack has none"
    assert pack.search.shortcuts == ()
    spanish = content.in_language("es").search
    assert spanish.shortcuts[0].title == "Reportar un problema"
    assert spanish.contact[:2] == ("a quién llamo", "a quién llamar")
    assert content.search.contact[:2] == ("who do I call", "who to call")


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda root: [p.unlink() for p in (root / "learn").glob("*.md")],
            "learn/: no education pages (*.md) found",
        ),
        (
            _yaml("exempt-discharges.yaml", lambda d: d["entries"][1].update(learn="lawn-care")),
            "exempt-discharges.yaml: entries[1].learn: no page learn/lawn-care.md",
        ),
        (
            _yaml("exempt-discharges.yaml", lambda d: d["questions"][0].update(learn="car-wash")),
            "exempt-discharges.yaml: questions[0].learn: no page learn/car-wash.md",
        ),
        (
            lambda root: (root / "site.es.yaml").unlink(),
            "site.es.yaml: missing",
        ),
        (
            lambda root: (root / "learn" / "motor-oil.es.md").unlink(),
            "learn/motor-oil.es.md: missing",
        ),
        (
            _yaml("site.es.yaml", lambda d: d["office"].pop("hours")),
            "site.yaml: office.hours: no Spanish",
        ),
        (
            _yaml("exempt-discharges.es.yaml", lambda d: d["entries"][2].pop("name")),
            "exempt-discharges.yaml: entries[2].name: no Spanish",
        ),
        (
            _replace("site.es.yaml", "municipality:", "municipality: ["),
            "site.es.yaml: not valid YAML: while parsing",
        ),
        (
            lambda root: (root / "open311.yaml").unlink(),
            "open311.yaml: file is missing",
        ),
    ],
    ids=[
        "no pages",
        "entry links no page",
        "question links no page",
        "no Spanish site",
        "no Spanish page",
        "a field without Spanish",
        "an exempt name without Spanish",
        "Spanish not YAML",
        "no open311",
    ],
)
def test_a_pack_refused(tmp_path, edit, message):
    found = refused(tmp_path, edit)
    assert found.startswith(message) if "YAML" in message else found == message
