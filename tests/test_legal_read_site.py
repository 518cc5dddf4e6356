"""The legal read of 3 December 2026 (findings B1, C1-C16), through the frozen site's pages
in both languages: each corrected sentence as a person reads it."""

from __future__ import annotations

import html
import re

from helpers import built_pages


def text(build, url: str) -> str:
    """The words of a built page as read: tags dropped, spaces collapsed."""
    page = (build / url.strip("/") / "index.html").read_text(encoding="utf-8")
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.DOTALL)
    words = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())
    # A tag closed before punctuation ("<a>§ 216-7</a>,") leaves no space in what is read.
    return re.sub(r" (?=[,.;:)])", "", words)


def test_b1_the_spanish_rule_covers_causing_a_discharge_by_any_means(build):
    """B1 (seed 99, "or cause to be discharged"): not only making another person discharge."""
    rule = "Nadie puede descargar ni hacer que se descargue al sistema de drenaje pluvial nada"
    assert rule in text(build, "/es/ordinance/")
    guide = "El § 216-6 dice que nadie puede descargar ni hacer que se descargue al sistema"
    assert guide in text(build, "/es/learn/motor-oil/")
    assert guide in text(build, "/es/learn/lawn-chemicals/")
    exempt = "nadie puede descargar ni hacer que se descargue nada que no sea agua pluvial"
    assert exempt in text(build, "/es/exempt-discharges/")
    for page in built_pages(build, "es"):
        assert "hacer que otro descargue" not in page.read_text(encoding="utf-8"), page


def test_c1_the_articles_title_is_named_as_added(build):
    """C1 (seed 1-7: the text gives the article no title)."""
    added = (
        "The Article's title, and the section numbers and titles, were added to help you find"
        " your way and are not part of the adopted text, except § 216-4 (Definitions),"
        " § 216-6 and § 216-7, which the text itself names."
    )
    assert added in text(build, "/ordinance/")
    assert (
        "El título del Artículo y los números y los títulos de las secciones se agregaron para"
        " ayudarle a orientarse"
    ) in text(build, "/es/ordinance/")


def test_c2_the_spanish_summary_says_the_official_text_is_in_english(build):
    page = text(build, "/es/ordinance/")
    assert "El texto oficial de la ley está en inglés. Esta página resume cada sección" in page
    assert "se publica solo en inglés" not in page


def test_c3_the_home_page_names_the_cleanup_and_who_is_bound(build):
    """C3 (seed 153): the duty to find, contain and clean up, and the person responsible for
    emergency response for a facility or operation, are the law's too."""
    assert (
        "If you are responsible for a facility or operation, or for its emergency response, and"
        " know of or suspect a release there that reaches, or may reach, the storm sewer system,"
        " the law requires you to take all necessary steps to find, contain and clean it up, and"
        " to tell the Village of Horseheads in person, by telephone or by fax"
    ) in text(build, "/")
    assert (
        "Si usted es responsable de una instalación o una operación, o de su respuesta a"
        " emergencias, y sabe o sospecha de un derrame allí que llega, o puede llegar, al sistema"
        " de drenaje pluvial, la ley le exige tomar todas las medidas necesarias para encontrarlo,"
        " contenerlo y limpiarlo, y avisar a la Villa de Horseheads en persona"
    ) in text(build, "/es/")


def test_c4_c8_the_motor_oil_guide_says_what_the_release_section_and_the_state_say(build):
    """C4 (seed 153: "such release", one reaching or that may reach the system) and C8 (the
    State's small-spill rule: "has not and will not reach")."""
    oil = text(build, "/learn/motor-oil/")
    assert (
        "§ 216-12 covers a known or suspected release at a facility or operation that is"
        " reaching, or may reach, the storm sewer system. The person responsible for the"
        " facility or operation, or for its emergency response, must take all necessary steps"
        " to find, contain and clean it up."
    ) in oil
    assert "contained and under control, and has not reached and will not reach water or" in oil
    oil = text(build, "/es/learn/motor-oil/")
    assert (
        "El § 216-12 trata de un derrame, conocido o sospechado, en una instalación o una"
        " operación, que llega, o puede llegar, al sistema de drenaje pluvial."
    ) in oil
    assert "y no ha llegado ni llegará al agua ni a ningún terreno, como la tierra)" in oil


def test_c7_the_lawn_guides_plan_is_named_our_reading(build):
    """C7 (reading S4; seed 101 does not say what the plan holds)."""
    assert (
        "Our reading: a plan for reducing pollutants includes keeping fertilizer and pesticides"
        " out of the runoff."
    ) in text(build, "/learn/lawn-chemicals/")
    assert (
        "Nuestra interpretación: un plan para reducir los contaminantes incluye mantener el"
        " fertilizante y los pesticidas fuera del agua que corre."
    ) in text(build, "/es/learn/lawn-chemicals/")


def test_c5_c6_the_exempt_page_says_whose_permit_and_which_channels(build):
    """C5 (seed 107: "issued to the discharger and administered under the authority of the
    Department"; "waste discharge order") and C6 (seed 47: "man-made channels")."""
    exempt = text(build, "/exempt-discharges/")
    assert (
        "waiver or waste discharge order issued to the discharger and administered under the"
        " authority of the New York State Department of Environmental Conservation, as long as"
    ) in exempt
    assert "curbs, gutters, ditches, man-made channels and storm drains the Village owns" in exempt
    assert (
        "una orden de descarga de desechos del Sistema Estatal de Eliminación de Descargas de"
        " Contaminantes (SPDES) dada a quien descarga y administrada bajo la autoridad del"
        " Departamento de Conservación Ambiental"
    ) in text(build, "/es/exempt-discharges/")


def test_c12_the_spanish_only_readings_are_said_in_english_too(build):
    """C12 (seed 175-185, 194): the readings the Spanish summaries give, named our reading on
    the English page after the section's text."""
    law = text(build, "/ordinance/")
    assert (
        "The violator cooperated in investigation and resolution. D. Alternative remedies may"
        " consist of one or more of the following:"
    ) in law
    assert (
        "Our reading. The law does not say whether all of the conditions in C(1) to (5) must hold"
        " or one is enough; we read it as all five. Back to contents"
    ) in law
    assert (
        "Our reading. The 15 days count from the notice's issuance, which we read as the day it"
        " is served or mailed, not from the day you receive it."
    ) in law
    assert (
        "dentro de 15 días desde la fecha en que se emitió el aviso (nuestra interpretación: el"
        " día en que se entrega o se envía por correo, no desde que lo recibió)."
    ) in text(build, "/es/ordinance/")


def test_c9_to_c11_c13_the_spanish_summaries_keep_the_laws_measure(build):
    """C9 (seed 8, "maximum extent practicable"), C10 (seed 127, reinstating access without
    the officer's prior approval), C11 (seed 128, "subject to"), C13 (seed 199)."""
    law = text(build, "/es/ordinance/")
    for words in (
        "Controla, en la mayor medida que sea factible, lo que entra al sistema",
        "Restablecer el acceso cortado sin la aprobación previa del oficial es una infracción.",
        "Quien esté sujeto a un permiso del Estado para descargas de agua pluvial",
        "el costo se vuelve una tasación especial (special assessment) sobre la propiedad",
    ):
        assert words in law, words
    for old in ("mayor medida posible", "Volver a conectarse", "Quien tenga un", "cargo especial"):
        assert old not in law, old
    soil = text(build, "/es/learn/soil-and-sediment/")
    assert "El § 216-9 dice que quien esté sujeto a un permiso del Estado" in soil


def test_c14_one_spanish_rendering_of_the_stormwater_definition(build):
    """C14 (seed 84: "Rainwater, surface runoff, snowmelt and drainage")."""
    words = "agua de lluvia, agua que corre por la superficie, nieve derretida y drenaje"
    for url in ("/es/ordinance/", "/es/exempt-discharges/", "/es/learn/pet-waste/"):
        page = text(build, url)
        assert words in page, url
        assert "agua que corre por el suelo" not in page, url


def test_c15_c16_the_spanish_says_what_the_english_says_in_natural_spanish(build):
    """C15 (the cards and the home page as the English has them) and C16 (natural Spanish)."""
    home = text(build, "/es/")
    assert "Espuma o aceite en un arroyo, alguien que tira algo a un desagüe" in home
    assert "lo que vale es la página en inglés." in home and " vale la página" not in home
    cards = text(build, "/es/learn/")
    assert "Limpie adentro y deshágase bien de lo que sobre." in cards
    assert "Tape y barra; nunca use la manguera." in cards
    lawn = text(build, "/es/learn/lawn-chemicals/")
    assert "No esparza fertilizante ni rocíe pesticidas" in lawn
    assert "Deje los recortes de césped sobre el césped." in lawn
    assert "Deje los recortes de césped sobre el césped." in text(build, "/es/learn/yard-waste/")
