"""The second content pack (tests/packs/wrenfield) carries what issue 24 added as content: the
dead-fish hazard rule, under the Town's own name, and a small fictional outfall inventory of
its own, imported with the project's importer against the Town's service area (one row,
typed with another town's coordinates, refused with its reason); and, for issue 25, its own
Spanish translation, so the checker's word on a missing one is tested on a second pack."""

from __future__ import annotations

import datetime as dt
import functools
import html
import re
import shutil
from pathlib import Path

import pytest
from helpers import hidden_fields, post, report_data, rows, sign_in
from pack_traces import PACK, traces

from content_model.check import check_pack
from content_model.loader import load_content
from portal.outfalls import checking, readers
from portal.outfalls.checking import Refusal
from static_site.freeze import main as freeze_main

INVENTORY = PACK / "outfalls.csv"
OUTSIDE = (
    "42.16550, -76.82010 is outside the service area (the Town of Wrenfield: latitude 42.9 to"
    " 42.98, longitude -76.1 to -75.98)"
)
# A spot inside the Town's service area.
IN_TOWN = {"latitude": "42.94010", "longitude": "-76.04100", "address": "Mill Road culvert"}


@pytest.fixture
def content_dir():
    """`app` serves the Town's pack."""
    return PACK


def test_a_dead_fish_report_is_hazardous_by_the_towns_own_rule(app, client):
    sent = post(
        client,
        report_data(
            indicators=["dead-animals"],
            odor="",
            description="Three fish floating at the culvert.",
            **IN_TOWN,
        ),
    )
    assert sent.status_code == 303
    # Words alone, no box ticked: "fish kill" is one of the rule's words in the pack.
    sent = post(
        client,
        report_data(
            indicators=[], odor="", description="A fish kill below the mill pond.", **IN_TOWN
        ),
    )
    assert sent.status_code == 303
    sign_in(client, app)
    queue = client.get("/staff/", query_string={"flag": "hazard"}).text
    assert queue.count("Hazardous: dead fish or wildlife") == 2
    assert not traces(queue)


def test_a_fish_kill_staff_found_is_hazardous_by_the_towns_own_rule(app, client):
    sign_in(client, app)
    app.config["CLOCK"] = lambda: dt.datetime(2026, 6, 1, 14, 0, tzinfo=dt.UTC)
    page = client.get("/staff/found/new").text
    assert not traces(page)
    saved = client.post(
        "/staff/found/new",
        data={
            **hidden_fields(page),
            "description": "Fish kill in the brook below the outfall.",
            "found_at": "2026-06-01T09:30",
            "found_by": "Town engineer",
            "how_found": "other-work",
            "confirmed": "no",
            **IN_TOWN,
        },
    )
    assert saved.headers["Location"] == "/staff/cases/1/"
    case = client.get("/staff/cases/1/").text
    assert "Hazardous: dead fish or wildlife" in case and "SF-2026-0001" in case
    assert not traces(case)


def test_the_towns_inventory_is_read_against_its_own_service_area():
    area = load_content(PACK).settings.service_area
    sheet = readers.read_file("outfalls.csv", INVENTORY.read_bytes())
    records, refusals = checking.check_rows(sheet, area, today=dt.date(2026, 11, 30))
    assert [record.code for record in records] == [f"WO-{n:02d}" for n in range(1, 15)]
    assert refusals == [Refusal(16, "latitude, longitude", OUTSIDE, "WO-15")]
    assert records[4].values == {
        "latitude": 42.9356,
        "longitude": -76.0387,
        "structure_type": "outfall",
        "conveyance": "closed-pipe",
        "material": "rcp",
        "shape": "elliptical",
        "size_in": 24.0,
        "height_in": 36.0,
        "receiving_water": "Wren Test Brook",
        "drainage_area": "Town Centre",
        "condition": "fair",
        "location": "End of Chapel Street",
    }
    assert records[13].values["structure_type"] == "catch-basin"


def test_the_towns_inventory_imports_once_and_again_unchanged(app):
    def imported() -> list[str]:
        return app.test_cli_runner().invoke(args=["outfalls", "import", str(INVENTORY)]).output

    assert imported().splitlines() == [
        "outfalls.csv: 15 rows read",
        "added 14, updated 0, unchanged 0, refused 1",
        f"  row 16 (WO-15), latitude, longitude: {OUTSIDE}",
    ]
    assert imported().splitlines()[1] == "added 0, updated 0, unchanged 14, refused 1"
    stored = rows(
        app,
        "SELECT code, drainage_area, screened_on FROM outfalls o LEFT JOIN"
        " outfall_paper_screenings p ON p.outfall_id = o.id"
        " WHERE code IN ('WO-01', 'WO-13', 'WO-14') ORDER BY code",
    )
    assert stored == [
        {"code": "WO-01", "drainage_area": "Mill", "screened_on": "2024-06-12"},
        {"code": "WO-13", "drainage_area": "East Hollow", "screened_on": "2021-07-30"},
        {"code": "WO-14", "drainage_area": "Mill", "screened_on": None},
    ]


# ---------------------------------------------------------------- the Town in Spanish


@pytest.fixture
def pack_copy(tmp_path) -> Path:
    copy = tmp_path / "wrenfield"
    shutil.copytree(PACK, copy)
    return copy


def test_the_towns_spanish_translation_is_whole():
    assert check_pack(PACK) == []
    spanish = load_content(PACK).in_language("es")
    assert spanish.settings.name == "el Pueblo de Wrenfield"
    assert spanish.pending_review
    assert [page.title for page in spanish.pages][:2] == [
        "Desechos de mascotas",
        "Aceite de motor y líquidos de autos",
    ]


def test_the_checker_names_the_towns_missing_guide_and_the_site_is_not_built(
    pack_copy, tmp_path, monkeypatch, capsys
):
    (pack_copy / "learn" / "yard-waste.es.md").unlink()
    assert [str(problem) for problem in check_pack(pack_copy)] == [
        "learn/yard-waste.es.md: missing\n"
        "    fix: write it in Spanish, beside the English learn/yard-waste.md"
    ]
    monkeypatch.setenv("SITE_CONTENT_DIR", str(pack_copy))
    assert freeze_main([str(tmp_path / "build")]) == 1
    assert "learn/yard-waste.es.md: missing" in capsys.readouterr().err
    assert not (tmp_path / "build" / "index.html").exists()


def test_the_checker_names_the_towns_missing_field_and_the_site_is_not_built(
    pack_copy, tmp_path, monkeypatch, capsys
):
    site = pack_copy / "site.es.yaml"
    text = site.read_text(encoding="utf-8")
    label = "  highway:\n    label: Departamento de Carreteras del Pueblo\n"
    assert label in text
    site.write_text(text.replace(label, ""), encoding="utf-8")
    assert [str(problem) for problem in check_pack(pack_copy)] == [
        "site.yaml: phones.highway.label: no Spanish\n"
        "    fix: give `phones.highway.label` in Spanish in site.es.yaml"
    ]
    monkeypatch.setenv("SITE_CONTENT_DIR", str(pack_copy))
    assert freeze_main([str(tmp_path / "build")]) == 1
    assert "site.yaml: phones.highway.label: no Spanish" in capsys.readouterr().err
    assert not (tmp_path / "build" / "index.html").exists()


def test_the_towns_law_summary_is_asked_for_each_section(pack_copy):
    summaries = pack_copy / "ordinance.es.yaml"
    text = summaries.read_text(encoding="utf-8")
    start = text.index('  "147-14":')
    summaries.write_text(text[:start] + text[text.index('  "147-15":') :], encoding="utf-8")
    assert [str(problem).split("\n")[0] for problem in check_pack(pack_copy)] == [
        "ordinance.es.yaml: sections.147-14.title: missing",
        "ordinance.es.yaml: sections.147-14.summary: missing",
    ]


def test_the_towns_plain_words_for_a_quoted_definition_are_asked_for(pack_copy):
    summaries = pack_copy / "ordinance.es.yaml"
    text = summaries.read_text(encoding="utf-8")
    summaries.write_text(text[: text.index("definitions:")], encoding="utf-8")
    assert [str(problem).split("\n")[0] for problem in check_pack(pack_copy)] == [
        "ordinance.es.yaml: definitions.hazardous-materials: missing",
    ]


def test_the_towns_spanish_keeps_to_its_glossary(pack_copy):
    guide = pack_copy / "learn" / "car-washing.es.md"
    text = guide.read_text(encoding="utf-8")
    assert "Alcaldía del Pueblo" in text
    guide.write_text(text.replace("Alcaldía del Pueblo", "Alcaldía de la Villa"), encoding="utf-8")
    assert [str(problem).split("\n")[0] for problem in check_pack(pack_copy)] == [
        "learn/car-washing.es.md: uses 'Villa': the glossary says 'Pueblo' for 'Town'"
    ]


@functools.cache
def town_site():
    """The Town's site, served (not frozen), built once for the tests that read its pages."""
    from static_site import create_app as create_site

    return create_site({"CONTENT_DIR": str(PACK)}).test_client()


def test_spanish_joins_de_and_a_with_the_towns_article():
    """The catalogue's "de %(kind)s" with "el Pueblo" read "de el Pueblo" (the pack's
    translator): Spanish says "del Pueblo" and "al Pueblo"."""
    from content_model.language import contract_articles

    assert contract_articles("avisar a el Pueblo de el Condado") == "avisar al Pueblo del Condado"
    assert contract_articles("De el Pueblo, A el Pueblo") == "Del Pueblo, Al Pueblo"
    assert contract_articles("la Villa de El Paso, a él, de ella") == (
        "la Villa de El Paso, a él, de ella"
    )
    page = town_site().get("/es/").text
    assert "esperando la revisión del Pueblo" in page
    assert " de el " not in page and " a el " not in page


def test_the_towns_spanish_pages_carry_round_5s_fixes():
    """The Town's Spanish says what its law says, as the Village's does (round 5's Spanish
    read): the same summaries under the Town's names, and the same plain words."""
    client = town_site()
    law = " ".join(client.get("/es/ordinance/").text.split())
    for words in (
        "que no sea agua pluvial (lluvia, agua que corre por el suelo, nieve derretida y drenaje)",
        "aunque se hayan hecho hace años, cuando eran permitidas.",
        "usted puede pedirle que lo reconsidere y que haya una audiencia.",
        "Demorar el acceso del Pueblo sin razón es una violación de esta ley",
        "quien descarga debe mantenerlos siempre seguros y funcionando bien, a su costo.",
        "medidas razonables para que no lleguen por accidente materiales prohibidos",
        "y sepa o sospeche de un derrame",
        "dentro de 15 días desde la fecha en que se emitió el aviso (no desde que lo recibió).",
        "si el abogado del Pueblo (Town Attorney) lo recomienda",
        "dentro de cinco días hábiles después de que la Junta del Pueblo confirme la decisión",
        "dentro de 30 días después de recibir ese aviso del costo.",
        "y lo paga en no más de 12 pagos iguales. Desde el día 31 después de terminar la"
        " corrección, lo que falta por pagar tiene un interés del 9% al año.",
        "Puede corregirse o repararse por vía sumaria, sin más trámites",
        '<p class="penalties">Según el <a href="#sec-147-13">§ 147-13</a> B,',
        '<p><a href="/es/exempt-discharges/">Qué puede ir al desagüe pluvial</a></p>',
    ):
        assert words in law, words
    assert "agua de lluvia" not in law and "Villa" not in law
    home = client.get("/es/").text
    assert (
        'Estas reglas vienen del código del Pueblo (<span lang="en">Code of the Town of'
        ' Wrenfield</span>), en el <a href="/es/ordinance/">Capítulo 147, Artículo I:'
    ) in home
    exempt = client.get("/es/exempt-discharges/").text
    assert "Los drenajes de cimientos o de zapatas" in exempt
    assert (
        '<a href="/ordinance/#sec-147-6-a-1" hreflang="en">§ 147-6 A(1) (en inglés)</a>' in exempt
    )
    contact = client.get("/es/contact/").text
    assert "de 7:30 a. m. a 3:30 p. m.</p>" in contact and "p. m..</p>" not in contact
    oil = client.get("/es/learn/motor-oil/").text
    assert "Alcaldía del Pueblo (Town Hall)" in oil
    assert "Ese permiso es el que el Estado le da al Pueblo para el agua pluvial" in oil


def town_text(url: str) -> str:
    """A page of the Town's site in words: no tags (a section number is a link), entities
    read."""
    page = town_site().get(url).text
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).replace(" )", ")").split())


def test_the_towns_spanish_summaries_say_what_round_6_found_missing():
    """Round 6's legal read: the Town's summaries say what its law says, as the Village's do
    (findings 2.5 and 3.1-3.12)."""
    law = town_text("/es/ordinance/")
    for words in (
        "Nadie puede descargar ni hacer que se descargue al sistema de drenaje pluvial",
        "en la medida en que el Pueblo lo autorice.",
        "que el Pueblo quede bajo las condiciones especiales de ese permiso (las define el"
        " § 147-4).",
        "una descarga, real o que amenaza ocurrir, que presenta o puede presentar un peligro"
        " inminente y considerable",
        "El Pueblo puede pedir prueba de que lo cumple antes de permitir descargas al sistema de"
        " drenaje pluvial.",
        "si puede mostrar causa probable (probable cause) para creer",
        "Cumplir todas las condiciones de un permiso SPDES del Estado vigente",
        "para que el derrame se encuentre, se contenga y se limpie.",
        "archivar su decisión en la oficina de la Secretaría del Pueblo (Town Clerk)",
        "una persona puede ser elegible para otras medidas",
        "usar varios recursos a la vez.",
    ):
        assert words in law, words
    assert "Nadie puede descargar al" not in law and "de inmediato y sin más" not in law


def test_the_towns_spanish_guides_carry_the_villages_fixes():
    """Round 6's legal read: the Town's guides and exempt page say what its law says, as the
    Village's were made to (finding 2.5, 3.17 and the second pack's section 6)."""
    text = town_text
    rule = "nadie puede descargar ni hacer que se descargue al sistema de drenaje pluvial"
    for slug in (
        "car-washing",
        "fats-oils-grease",
        "lawn-chemicals",
        "motor-oil",
        "paint-and-cleaners",
        "pools-and-hot-tubs",
        "soil-and-sediment",
        "trash-and-litter",
        "yard-waste",
    ):
        guide = text(f"/es/learn/{slug}/")
        assert rule in guide, slug
        assert "lista corta" not in guide, slug
    pets = text("/es/learn/pet-waste/")
    assert "lista corta" not in pets and "salvo las descargas que el § 147-6 A(1) exime" in pets
    cars = text("/es/learn/car-washing/")
    assert "Nuestra interpretación: un lavado de autos para recaudar fondos" in cars
    assert "El § 147-11 exige al dueño o al operador de un establecimiento comercial" in cars
    assert "permite al Pueblo exigir a los negocios" not in cars
    oil = text("/es/learn/motor-oil/")
    assert (
        "Derrame pequeño (se sabe que es menos de 5 galones, está contenido y"
        " bajo control, y no llega al agua ni a ningún terreno, como la tierra): absórbalo con"
        " arena para gatos o trapos dentro de las dos horas."
    ) in oil
    assert (
        "Se debe avisar de inmediato a los servicios de emergencia de un derrame de materiales"
        " peligrosos que llega, o puede llegar, al sistema de drenaje pluvial."
    ) in oil
    assert "cualquier derrame de materiales peligrosos" not in oil
    soil = text("/es/learn/soil-and-sediment/")
    assert "y el Pueblo puede pedir prueba de que lo cumple antes de permitir descargas" in soil
    assert "a su propio costo." in soil and "a costo del dueño" not in soil
    for slug in ("fats-oils-grease", "trash-and-litter"):
        assert "donde encuentre un problema" not in text(f"/es/learn/{slug}/"), slug
    exempt = text("/es/exempt-discharges/")
    assert "Sí, por regla general. La ley exime" in exempt
    assert "salvo que el Departamento de Conservación Ambiental del Estado o el Pueblo" in exempt


def test_the_towns_spanish_definition_of_hazardous_materials_is_the_laws(client):
    """Round 6, finding 2.4 (seed 33): substantial, present or potential, otherwise managed."""
    page = " ".join(client.get("/notify/?lang=es").text.split())
    assert (
        "puede causar un peligro considerable, actual o posible, para la salud humana, la"
        " seguridad, la propiedad o el medio ambiente (o contribuir de manera importante a ese"
        " peligro) si no se trata, no se guarda, no se transporta, no se desecha o no se maneja"
        " de alguna otra forma como se debe."
    ) in page
    assert "peligro grave" not in page


def test_the_towns_spanish_guides_carry_the_walks_polish():
    """Round 6's Spanish walk, polish 4 and 5, in the Town's guides as in the Village's:
    "MS4" named where it first appears, the § 147-7 sentence that parses, "el Estado",
    "césped", "las sartenes", "deshacerse de"; and the everyday words search finds."""
    named = "del permiso SPDES del sistema de drenaje pluvial del Pueblo (en inglés, MS4), o que"
    named += " hacen, o ayudan a hacer, que el Pueblo quede sujeto a las condiciones especiales"
    named += " de ese permiso. Ese permiso es el que el Estado le da al Pueblo"
    for slug in (
        "fats-oils-grease",
        "lawn-chemicals",
        "motor-oil",
        "paint-and-cleaners",
        "pet-waste",
        "soil-and-sediment",
        "trash-and-litter",
        "yard-waste",
    ):
        guide = town_text(f"/es/learn/{slug}/")
        assert named in guide, slug
        assert "permiso MS4" not in guide and "del estado" not in guide, slug
    assert "lave sobre el césped" in town_text("/es/learn/car-washing/")
    assert "Limpie las sartenes" in town_text("/es/learn/fats-oils-grease/")
    assert "cómo deshacerse de los desechos peligrosos" in town_text("/es/learn/motor-oil/")
    soil = town_text("/es/learn/soil-and-sediment/")
    assert "Siembre césped" in soil and "lodo, fango, barro" in soil
    assert "carro, coche, troca" in town_text("/es/learn/car-washing/")
    assert "alberca, pileta, jacuzzi" in town_text("/es/learn/pools-and-hot-tubs/")
    exempt = town_text("/es/exempt-discharges/")
    assert "no quiere decir que la descarga cumpla otras leyes." in exempt
