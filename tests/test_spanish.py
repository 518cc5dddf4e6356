"""The site and the portal in Spanish: chosen, never guessed; the same page in the other
language; a report keeps the language it was filed in; and no English left on a Spanish
page outside the law's official text and proper names."""

from __future__ import annotations

import datetime as dt
import html
import json
import re
import shutil
from pathlib import Path

import pytest
from helpers import (
    built_pages,
    open_form,
    page_url,
    parse_page,
    post,
    report_data,
    rows,
    save_case,
    sign_in,
)
from mailserver import body

from bench.weights import FORM_PAGE_BUDGET, page_weight
from content_model.check import check_pack
from content_model.fields import CONTENT_DIR
from portal.core.display import clock, day, when

# Words that mark English prose (with spaces, so "Reportar" or "Main Street" do not count).
ENGLISH = re.compile(
    r"\b(the|and|your|you|report|reports|what|with|this|that|from|will|which|have|please|"
    r"send|call|here|about|when|where|must|may|not)\b",
    re.IGNORECASE,
)
# Proper names, addresses and the law's official names, as the content has them.
KEPT = (
    "Horseheads Village Hall",
    "202 South Main Street",
    "Horseheads, New York 14845",
    "Village of Horseheads Code",
    "Main Street",
    "Municipal Home Rule Law",
    "General Construction Law",
    "Environmental Conservation Law",
    "Village Hall",
    "filter backwash",
    "nuisance",
    "Stormwater Management Officer",
)


def spanish_text(html: str) -> str:
    """A page's words, without what is marked English (lang="en": the law's own names and
    text), scripts, styles and tags, and without the names kept as they are."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.DOTALL)
    html = re.sub(r'<(\w+)\b[^>]*\blang="en"[^>]*>.*?</\1>', " ", html, flags=re.DOTALL)
    html = re.sub(r'<link [^>]*hreflang="en"[^>]*>', " ", html)
    text = re.sub(r"<[^>]+>", " ", html)
    for name in KEPT:
        text = text.replace(name, " ")
    return " ".join(text.split())


def english_left(html: str) -> list[str]:
    text = spanish_text(html)
    return [text[max(0, m.start() - 40) : m.end() + 40] for m in ENGLISH.finditer(text)]


# ---------------------------------------------------------------- the site


def test_every_page_is_built_in_spanish_with_its_language(build):
    english = {page_url(build, page) for page in built_pages(build, "en")}
    spanish = {page_url(build, page) for page in built_pages(build, "es")}
    assert spanish == {"/es" + url for url in english}
    for page in built_pages(build, "es"):
        assert '<html lang="es">' in page.read_text(encoding="utf-8"), page
    for page in built_pages(build, "en"):
        assert '<html lang="en">' in page.read_text(encoding="utf-8"), page


@pytest.mark.parametrize(
    ("english", "spanish"),
    [
        ("/", "/es/"),
        ("/learn/pet-waste/", "/es/learn/pet-waste/"),
        ("/ordinance/", "/es/ordinance/"),
        ("/exempt-discharges/", "/es/exempt-discharges/"),
        ("/contact/", "/es/contact/"),
        ("/search/", "/es/search/"),
    ],
)
def test_the_language_link_keeps_the_page(build, english, spanish):
    def page(url: str) -> str:
        return (build / url.strip("/") / "index.html").read_text(encoding="utf-8")

    link = f'<a class="language-link" href="{spanish}" lang="es" hreflang="es">Español</a>'
    assert link in page(english)
    back = f'<a class="language-link" href="{english}" lang="en" hreflang="en">English</a>'
    assert back in page(spanish)


def test_every_page_names_both_languages_and_a_default(build):
    for page in built_pages(build):
        url = page_url(build, page)
        english = url.removeprefix("/es")
        alternates = parse_page(page).alternates
        assert alternates == [("en", english), ("es", "/es" + english), ("x-default", english)]


def test_every_spanish_page_says_the_translation_awaits_review(build):
    note = "Esta traducción está esperando la revisión de la Villa."
    for page in built_pages(build, "es"):
        assert note in page.read_text(encoding="utf-8"), page
    for page in built_pages(build, "en"):
        assert "Esta traducción" not in page.read_text(encoding="utf-8"), page


def test_no_english_is_left_on_a_spanish_page(build):
    found = {
        page_url(build, page): left
        for page in built_pages(build, "es")
        if (left := english_left(page.read_text(encoding="utf-8")))
    }
    assert not found, found


def test_the_english_check_finds_english():
    assert len(english_left("<p>Tell the Village about it.</p>")) == 2  # "Tell the", "about"
    assert english_left('<p>Ver <span lang="en">the official text</span>.</p>') == []


def test_spanish_pages_link_into_the_portal_in_spanish(build):
    home = parse_page(build / "es" / "index.html")
    assert "/report/?lang=es" in home.links and "/notify/?lang=es" in home.links
    assert "/report/" in parse_page(build / "index.html").links


def test_the_law_is_english_and_the_spanish_page_sums_it_up(build, content):
    html = es_html(build, "ordinance")
    assert '<h2 id="official-heading">El texto oficial está en inglés</h2>' in html
    # Our English copy is unofficial, and the Spanish page says so (fresh Spanish read).
    assert "copia no oficial" in html and "El texto oficial del §" not in html
    assert (
        "El resumen no es la ley y no es un consejo legal: donde los dos no coincidan, vale el"
        " texto en inglés."
    ) in html
    for section in content.ordinance.sections:
        assert (
            f'<h2 id="sec-{section.number}" data-pagefind-weight="10">§ {section.number}.' in html
        )
        assert f'<a href="/ordinance/#sec-{section.number}" hreflang="en">' in html
    # The English page is the law, whole, as before.
    english = (build / "ordinance" / "index.html").read_text(encoding="utf-8")
    assert "No person shall discharge or cause to be discharged into the MS4" in english


def test_spanish_guides_give_the_whole_penalty_range(build, content):
    for page in content.pages:
        text = parse_page(build / "es" / "learn" / page.slug / "index.html").text
        for words in (
            "de $50 a $350 por una primera violación",
            "de $350 a $700",
            "de $700 a $1,000",
            "hasta 15 días de cárcel",
            "dentro de cinco años",
            "Cada semana que sigue una violación cuenta como una violación aparte",
        ):
            assert words in text, (page.slug, words)


def test_the_spill_hotline_comes_with_the_whole_state_rule_in_spanish(build):
    rule = (
        "dentro de las dos horas siguientes al descubrimiento",
        "menos de 5 galones",
        "está contenido y bajo control",
        "no ha llegado ni llegará al agua ni a ningún terreno",
        "se limpia dentro de las dos horas",
        "en la cantidad que se debe reportar o más",
    )
    for url in ("index.html", "learn/motor-oil/index.html", "contact/index.html"):
        text = parse_page(build / "es" / url).text
        for words in rule:
            assert words in text, (url, words)


def test_an_exempt_entry_links_to_the_official_english_words(build):
    html = es_html(build, "exempt-discharges")
    # A link that opens the English page says so, as the summary page's do.
    assert '<a href="/ordinance/#sec-216-6-a-1" hreflang="en">§ 216-6 A(1) (en inglés)</a>' in html
    for label in ("2", "3", "4"):
        assert (
            f'<a href="/ordinance/#sec-216-6-a-{label}" hreflang="en">§ 216-6 A({label}) (en'
            " inglés)</a>"
        ) in html
    english = (build / "exempt-discharges" / "index.html").read_text(encoding="utf-8")
    assert '<a href="/ordinance/#sec-216-6-a-1">§ 216-6 A(1)</a>' in english


# ---------------------------------------------------------------- the Spanish read


def es_text(build, *parts: str) -> str:
    return parse_page(build.joinpath("es", *parts, "index.html")).text


def es_html(build, *parts: str) -> str:
    return build.joinpath("es", *parts, "index.html").read_text(encoding="utf-8")


def test_the_spanish_unofficial_notice_says_the_numbers_and_titles_are_ours(build):
    text = es_text(build, "ordinance")
    assert (
        "El título del Artículo y los números y los títulos de las secciones se agregaron para"
        " ayudarle a orientarse y no son parte del texto adoptado, salvo el § 216-4 (Definiciones), el § 216-6 y el"
        " § 216-7, que el propio texto nombra."
    ) in text


def test_the_spanish_summaries_say_what_the_law_says(build):
    """Seed 8, 140-142, 171-193, 196, 199 and 201: no more, no less than the English."""
    text = es_text(build, "ordinance")
    for words in (
        # § 216-1: stormwater, not only rain.
        "lo que entra al sistema de drenaje pluvial que no sea agua pluvial (agua de lluvia,"
        " agua que corre por la superficie, nieve derretida y drenaje)",
        # § 216-10 B(4), B(5).
        "También puede exigir que la instalación ponga los equipos de medición que hagan falta"
        " de forma razonable, y quien descarga debe mantenerlos siempre seguros y funcionando"
        " bien, a su costo.",
        "Demorar el acceso de la Villa sin razón es una violación de esta ley, y el operador que"
        " le niegue un acceso razonable comete una infracción.",
        # § 216-13 A(2), C and D.
        "el aviso da un plazo y dice que, si no se hace a tiempo, lo hará una agencia del"
        " gobierno o un contratista y el costo se le cobrará a quien cometió la violación.",
        "En lugar de una multa civil, una persona puede ser elegible para otras medidas, si el"
        " abogado de la Villa (Village Attorney) lo recomienda y el oficial está de acuerdo,"
        " cuando la violación no fue intencional, la persona no tiene violaciones anteriores de"
        " esta ley, el daño al ambiente fue mínimo, actuó rápido para corregirla y cooperó en la"
        " investigación y la solución.",
        # C lists its five conditions without "and" or "or": our reading, said as one.
        "La ley no dice si deben cumplirse todas estas condiciones o si basta con una; nuestra"
        " interpretación es que deben cumplirse todas.",
        "ir a talleres sobre cómo cumplir la ley, pintar o marcar los desagües pluviales, o"
        " ayudar a limpiar ríos, arroyos o quebradas.",
        # § 216-15.
        "dentro de cinco días hábiles después de que la Junta de Fideicomisarios confirme la"
        " decisión del oficial",
        "Todo el costo de esas medidas, y de mantenerlas, es de quien hizo la descarga.",
        # § 216-16.
        "dentro de 30 días después de recibir ese aviso del costo.",
        "una tasación especial (special assessment) sobre la propiedad y un gravamen (lien) sobre"
        " ella.",
        "y lo paga en no más de 12 pagos iguales. Desde el día 31 después de terminar la"
        " corrección, lo que falta por pagar tiene un interés del 9% al año. Lo que no se pague"
        " se agrega a la factura de impuestos de la propiedad.",
        # § 216-18.
        "una condición causada o permitida en contra de esta ley",
        "Puede corregirse o repararse por vía sumaria, sin más trámites, a costo de quien"
        " cometió la violación,",
    ):
        assert words in text, words
    # "Agua de lluvia" only as the first of the definition's four (legal C14), never alone.
    defined = "agua de lluvia, agua que corre por la superficie, nieve derretida y drenaje"
    assert text.count("agua de lluvia") == text.count(defined) == 2
    for gone in (
        "pedir equipos de medición",
        "Las cantidades están en cada guía",
        "se corrige a tiempo",
        "a costo de quien la causó",
    ):
        assert gone not in text, gone


# ---------------------------------------------------------------- the legal read of the Spanish

# What the § 216-6 rule says in each guide's "Qué dice la ley" (finding 2.5, seed 99: "No
# person shall discharge or cause to be discharged"); pet waste says it once, impersonally.
NO_ONE_MAY = "nadie puede descargar ni hacer que se descargue al sistema de drenaje pluvial"


def test_the_spanish_summaries_say_what_round_6_found_missing(build):
    """Findings 2.5 and 3.1 to 3.12 (seed 8, 84, 97, 99, 117-128, 144, 150-153, 175, 194,
    201, 202): each summary says what its section says, no more and no less."""
    text = es_text(build, "ordinance")
    for words in (
        # 2.5 and 3.1, § 216-6.
        "Nadie puede descargar ni hacer que se descargue al sistema de drenaje pluvial nada"
        " que no sea agua pluvial (agua de lluvia, agua que corre por la superficie, nieve"
        " derretida y drenaje), salvo las descargas que la ley exime o permite con condiciones",
        # 3.2, § 216-5.
        "el oficial puede delegar sus funciones por escrito, en la medida en que la Villa lo"
        " autorice.",
        # 3.3, § 216-7 A(2) and B.
        "o que hacen, o ayudan a hacer, que la Villa quede bajo las condiciones especiales de ese"
        " permiso (las define el § 216-4). Cuando se le avisa a una persona que su actividad causa"
        " o ayuda a causar violaciones de ese permiso,",
        # 3.5, § 216-8 A and B.
        "para detener una descarga, real o que amenaza ocurrir, que presenta o puede presentar un"
        " peligro inminente y considerable para el medio ambiente,",
        "Si la persona no cumple la suspensión, el oficial puede tomar las medidas que crea"
        " necesarias para evitar o reducir el daño al sistema de drenaje pluvial o el peligro para"
        " las personas.",
        "El oficial puede devolver el acceso si la descarga ilícita paró y se tomaron medidas para"
        " que no vuelva a pasar, o negarlo por escrito si no paró o es probable que vuelva a"
        " pasar.",
        # 3.4, § 216-9.
        "La Villa puede pedir prueba de que lo cumple antes de permitir descargas al sistema de"
        " drenaje pluvial.",
        # 3.6, § 216-10 B(6).
        "si puede mostrar causa probable (probable cause) para creer que puede haber una"
        " violación de esta ley, o que hace falta inspeccionar o tomar muestras como parte de un"
        " programa de rutina",
        # 3.7, § 216-11 (2) and (3).
        "A quien sea responsable de una propiedad que es, o puede ser, la fuente de una descarga"
        " ilícita o de una actividad que contamina el agua pluvial se le puede exigir poner más"
        " buenas prácticas para reducirla o terminarla, a su propio costo.",
        "Cumplir todas las condiciones de un permiso SPDES del Estado vigente para el agua pluvial"
        " de una actividad industrial cuenta, en lo posible, como cumplir esta sección.",
        # 3.8, § 216-12.
        "debe tomar todas las medidas necesarias para que el derrame se encuentre, se contenga y"
        " se limpie.",
        # 3.9, § 216-14.
        "La Junta debe oír la apelación dentro de 30 días después de presentada y, dentro de"
        " cinco días después de decidir, archivar su decisión en la oficina de la Secretaría de"
        " la Villa (Village Clerk) y enviar una copia por correo certificado a quien hizo la"
        " descarga.",
        # 3.11, § 216-19.
        "y la agencia autorizada para hacerla cumplir puede, a su criterio, usar varios recursos"
        " a la vez.",
    ):
        assert words in text, words
    for gone in (
        "nieve derretida y el agua que corre",
        "Nadie puede descargar al",
        "una descarga peligrosa",
        "hay motivo para creer",
        "debe contenerlo y limpiarlo",
        "puede recibir otras medidas",
        "de inmediato y sin más trámites",
        "dentro de 30 días y enviar",
    ):
        assert gone not in text, gone


def test_the_spanish_guides_say_no_one_may_discharge_or_have_it_discharged(build, content):
    said = [page.slug for page in content.pages if NO_ONE_MAY in es_text(build, "learn", page.slug)]
    assert len(said) == len(content.pages) - 1 and "pet-waste" not in said, said
    for page in content.pages:
        assert "nadie puede descargar al" not in es_text(build, "learn", page.slug), page.slug


def test_a_spanish_guide_names_its_reading_as_the_others_do(build):
    cars = es_text(build, "learn", "car-washing")
    assert (
        "Nuestra interpretación: un lavado de autos para recaudar fondos o un negocio que lava"
        " vehículos no es el lavado de autos de una casa particular"
    ) in cars
    assert "forma de leer" not in cars


def test_the_spanish_summary_page_gives_the_penalties_under_their_section(build):
    html = es_html(build, "ordinance")
    section = html[html.index('<h2 id="sec-216-13"') : html.index('<h2 id="sec-216-14"')]
    assert (
        '<p class="penalties">Según el <a href="#sec-216-13">§ 216-13</a> B, una persona'
        " condenada por una violación puede recibir una multa de $50 a $350 por una primera"
        " violación;"
    ) in section
    assert html.count('<p class="penalties">') == 1


def test_nothing_on_the_spanish_law_pages_calls_our_copy_official(build):
    """The legal read of the Spanish: the description, the article's title and the links."""
    html = es_html(build, "ordinance")
    assert (
        '<meta name="description" content="Un resumen en palabras sencillas de cada sección de'
        ' la ley, con un enlace a su texto en inglés (copia no oficial).">'
    ) in html
    assert '<p>Su título, en inglés: <span lang="en">' in html
    assert "Leer toda la ley en inglés (copia no oficial)" in html
    assert "oficial en inglés" not in html and "nombre oficial" not in html
    home = es_html(build)
    assert "con su texto en inglés (copia no oficial)." in home
    assert "Si usted es responsable de una instalación o una operación, o de su" in home


def test_the_spanish_exempt_page_names_the_system_as_the_law_does(build):
    html = es_html(build, "exempt-discharges")
    assert (
        "nadie puede descargar ni hacer que se descargue nada que no sea agua pluvial al"
        " sistema de drenaje pluvial de la Villa: las calles, los sumideros, los bordillos,"
    ) in html
    assert "los sumideros, las aceras" not in html


def test_the_exemptions_summary_names_and_links_the_exempt_page(build):
    html = es_html(build, "ordinance")
    section = html[html.index('<h2 id="sec-216-6"') : html.index('<h2 id="sec-216-7"')]
    assert "(la lista está en la página &#34;Qué puede ir al desagüe pluvial&#34;)" in section
    assert '<p><a href="/es/exempt-discharges/">Qué puede ir al desagüe pluvial</a></p>' in section
    page = es_html(build, "exempt-discharges")
    assert "<h1>Qué puede ir al desagüe pluvial</h1>" in page


def test_the_exempt_page_reads_as_plain_spanish(build):
    text = es_text(build, "exempt-discharges")
    assert "¿Ve que entra a un desagüe algo que no debería? Reportar un problema." in text
    assert "Los drenajes de cimientos o de zapatas" in text
    assert "algo que no debe entra" not in text


def test_the_home_page_names_the_law_in_spanish(build):
    html = es_html(build)
    assert (
        '<p>Estas reglas vienen del código de la Villa (<span lang="en">Village of Horseheads'
        ' Code</span>), en el <a href="/es/ordinance/">Capítulo 216, Artículo I: Descargas,'
        " actividades y conexiones ilícitas</a>. Lea un resumen sencillo de cada sección, con su"
        " texto en inglés (copia no oficial).</p>"
    ) in html
    assert "Article I" not in html


def test_each_guide_explains_the_ms4_permit_the_first_time(build, content):
    """Round 6's walk, polish 5: "MS4" is named where it first appears, the § 216-7 sentence
    parses, and the State is "el Estado"."""
    named = "una violación del permiso SPDES del sistema de drenaje pluvial de la Villa (en inglés, MS4)"
    conditions = (
        ", o que hacen, o ayudan a hacer, que la Villa quede sujeta a las condiciones especiales"
        " de ese permiso. "
    )
    explained = (
        "Ese permiso es el que el Estado le da a la Villa para el agua pluvial que descarga su"
        " sistema de drenaje pluvial (SPDES es la sigla en inglés del sistema de permisos del"
        " Estado para las descargas al agua)."
    )
    said = []
    for page in content.pages:
        text = es_text(build, "learn", page.slug)
        assert "permiso MS4" not in text and "su permiso MS4" not in text, page.slug
        assert "quede bajo las condiciones" not in text and "del estado" not in text, page.slug
        if "MS4" in text:
            said.append(page.slug)
            first = text.index("MS4")
            assert text.index(named) + len(named) - len("MS4)") == first, page.slug
            assert text[first + len("MS4)") :].startswith(conditions + explained), page.slug
    assert len(said) == 8 and "car-washing" not in said and "pools-and-hot-tubs" not in said


def test_the_guides_say_lawn_one_way_and_read_plainly(content):
    """Round 6's walk, polish 4: "césped" in every guide's text ("pasto" and "zacate" only as
    search words), "las sartenes", "deshacerse de los desechos"."""
    spanish = content.in_language("es")
    [lawn] = [term for term in spanish.glossary if term.english == "lawn (grass)"]
    assert lawn.translation == "césped"
    for page in spanish.pages:
        assert not re.search(r"\b(pasto|zacate)\b", page.body), page.slug
    assert "pasto" in spanish.page_by_slug["lawn-chemicals"].keywords
    assert "Por ejemplo, lave sobre el césped," in spanish.page_by_slug["car-washing"].body
    soil = spanish.page_by_slug["soil-and-sediment"].body
    assert "**Cubra pronto la tierra sin plantas.** Siembre césped o ponga mantillo" in soil
    fats = spanish.page_by_slug["fats-oils-grease"].body
    assert "**Limpie las sartenes con una toalla de papel** antes de lavarlas." in fats
    for slug in ("motor-oil", "lawn-chemicals", "paint-and-cleaners"):
        body = spanish.page_by_slug[slug].body
        assert "cómo deshacerse de los desechos peligrosos de la casa" in body, slug
        assert "desechar los desechos" not in body, slug


def test_the_exempt_page_says_an_approval_is_not_compliance_in_the_subjunctive(build):
    """Round 6's walk, polish 4: "no quiere decir que la descarga cumpla otras leyes"."""
    text = es_text(build, "exempt-discharges")
    assert "no quiere decir que la descarga cumpla otras leyes." in text
    assert "la descarga cumple otras leyes" not in text


def test_village_hall_has_one_spanish_name(build, content):
    [term] = [term for term in content.in_language("es").glossary if term.english == "Village Hall"]
    assert term.translation == "Alcaldía de la Villa"
    for page in content.pages:
        text = es_text(build, "learn", page.slug)
        if "Alcaldía de la Villa" in text:
            first = text.index("Alcaldía de la Villa")
            assert text[first:].startswith("Alcaldía de la Villa (Village Hall)"), page.slug
    assert "Alcaldía de la Villa (Village Hall)" in es_text(build, "exempt-discharges")


def test_the_office_hours_end_the_sentence_once(build):
    for url in ("contact", "es/contact"):
        text = parse_page(build / url / "index.html").text
        assert "p.m.." not in text and "p. m.." not in text, url
    assert "abierto de lunes a viernes, de 8 a. m. a 4 p. m. Horseheads Village Hall" in es_text(
        build, "contact"
    )
    english = parse_page(build / "contact" / "index.html").text
    assert "open Monday to Friday, 8 a.m. to 4 p.m. Horseheads Village Hall" in english


def test_the_search_leaves_out_the_banner_and_the_legal_note(build):
    """/es/search/ excerpts began with the pending-review banner."""
    home = es_html(build)
    assert '<p class="translation-note" data-pagefind-ignore>Esta traducción' in home
    guide = (build / "learn" / "pet-waste" / "index.html").read_text(encoding="utf-8")
    assert '<p class="legal-notice" data-pagefind-ignore>A plain-language guide' in guide


# ---------------------------------------------------------------- the checker


@pytest.fixture
def pack(tmp_path) -> Path:
    copy = tmp_path / "pack"
    shutil.copytree(CONTENT_DIR, copy)
    return copy


def test_the_checker_names_each_missing_translation(pack):
    (pack / "learn" / "pet-waste.es.md").unlink()
    exempt = pack / "exempt-discharges.es.yaml"
    text = exempt.read_text(encoding="utf-8")
    note = "    note: >-\n      Esto es natural. No necesita nada de usted, solo que no le agregue nada.\n"
    assert note in text
    exempt.write_text(text.replace(note, ""), encoding="utf-8")
    problems = [str(problem).split("\n")[0] for problem in check_pack(pack)]
    assert problems == [
        "exempt-discharges.yaml: entries[3].note: no Spanish",
        "learn/pet-waste.es.md: missing",
    ]


def test_the_checker_holds_translations_to_the_glossary(pack):
    page = pack / "learn" / "yard-waste.es.md"
    page.write_text(
        page.read_text(encoding="utf-8").replace(
            "sistema de drenaje pluvial", "alcantarillado pluvial", 1
        ),
        encoding="utf-8",
    )
    problems = [str(problem).split("\n")[0] for problem in check_pack(pack)]
    assert problems == [
        "learn/yard-waste.es.md: uses 'alcantarillado pluvial': the glossary says"
        " 'sistema de drenaje pluvial' for 'storm sewer system (MS4)'"
    ]


def test_a_pack_without_translations_is_english_only(tmp_path):
    """The Town's pack without its translations.yaml: its Spanish files are not asked for."""
    copy = tmp_path / "wrenfield"
    shutil.copytree(Path(__file__).parent / "packs" / "wrenfield", copy)
    (copy / "translations.yaml").unlink()
    for translated in [*copy.glob("*.es.yaml"), *copy.glob("learn/*.es.md")]:
        translated.unlink()
    assert check_pack(copy) == []


# ---------------------------------------------------------------- dates


def test_dates_in_spanish():
    moment = dt.datetime(2026, 11, 30, 13, 5)
    assert when(moment, "es") == "30 de noviembre de 2026, 1:05 p. m."
    assert day(moment, "es") == "lunes, 30 de noviembre de 2026"
    assert clock(dt.time(9, 0), "es") == "9:00 a. m."
    assert when(moment) == "November 30, 2026 at 1:05 p.m."


# ---------------------------------------------------------------- the portal


def page_language(html: str) -> str:
    return re.search(r'<html lang="(\w+)">', html).group(1)


def test_the_browser_language_alone_never_switches(client):
    page = client.get("/report/", headers={"Accept-Language": "es-MX,es;q=0.9"})
    assert page_language(page.text) == "en"
    assert "<h1>Report a problem</h1>" in page.text
    # It only offers the other language, in that language.
    assert (
        '<p class="language-offer" lang="es">Esta página también está en español:'
        ' <a href="/report/?lang=es" hreflang="es">Español</a></p>'
    ) in page.text
    assert "Set-Cookie" not in page.headers or "lang=" not in page.headers["Set-Cookie"]


def test_a_link_from_a_spanish_page_is_remembered(client):
    first = client.get("/report/?lang=es", headers={"Accept-Language": "en-US"})
    assert page_language(first.text) == "es"
    assert "<h1>Reportar un problema</h1>" in first.text
    assert "lang=es; Expires=" in first.headers["Set-Cookie"]
    assert (
        "HttpOnly" in first.headers["Set-Cookie"] and "SameSite=Lax" in first.headers["Set-Cookie"]
    )
    later = client.get("/report/mine/", headers={"Accept-Language": "en-US"})
    assert page_language(later.text) == "es"
    link = (
        '<a class="language-link" href="/report/mine/?lang=en" lang="en" hreflang="en">English</a>'
    )
    assert link in later.text
    assert "language-offer" not in later.text


def test_staff_pages_stay_english(client):
    client.get("/report/?lang=es")
    assert page_language(client.get("/staff/").text) == "en"


def test_a_report_filed_in_spanish_stays_spanish(app, client, mail_server):
    client.get("/report/?lang=es")
    sent = post(client, report_data(indicators=["suds"], observed_at="2026-11-29T13:05"))
    assert sent.status_code == 303
    assert rows(app, "SELECT language FROM cases") == [{"language": "es"}]
    thanks_url = sent.headers["Location"]
    # Opened later in a browser set to English, with the choice forgotten or changed.
    for cookie in ("en", None):
        if cookie:
            client.set_cookie("lang", cookie)
        else:
            client.delete_cookie("lang")
        thanks = client.get(thanks_url, headers={"Accept-Language": "en-US"})
        assert "<h1>Reporte recibido</h1>" in thanks.text
        status_url = re.search(r'<p class="status-link"><a href="([^"]+)"', thanks.text).group(1)
        status = client.get(status_url, headers={"Accept-Language": "en-US"})
        assert page_language(status.text) == "es"
        assert "Usted reportó espuma, en Main Street bridge over the creek, visto el" in status.text
        assert '<time datetime="2026-11-29">domingo, 29 de noviembre de 2026</time>' in status.text
        assert "<strong>Recibido</strong>. Llegó y el personal lo revisará pronto." in status.text
    # The person may still ask for it in English.
    asked = client.get(status_url + "?lang=en")
    assert "<h1>Status of" in asked.text
    [ack] = mail_server.to("pat@example.test")
    assert ack["Subject"] == "Recibimos su reporte IDR-2026-0001"
    text = body(ack)
    assert "Gracias por su reporte a la Villa de Horseheads." in text
    assert "Su referencia: IDR-2026-0001" in text
    [smo] = mail_server.to("smo@village.test")
    assert smo["Subject"].startswith("New illicit discharge report IDR-2026-0001")
    said = "Filed in Spanish: their status page and mail are in Spanish; write the public note in Spanish."
    assert said in body(smo) and said in body(smo, "html")


def test_a_report_in_spanish_words_is_read_in_spanish(app, client, mail_server):
    """The hazard rules and the exempt-discharge hint know the Spanish words, with or
    without accents, and name the exemption in Spanish."""
    form = client.get("/report/?lang=es")
    keywords = html.unescape(re.search(r'data-exempt-keywords="([^"]*)"', form.text).group(1))
    assert [
        "el agua de piscinas sin cloro",
        ["piscina", "alberca", "pileta", "pool", "swimming pool"],
        ["cloro", "clorada"],
    ] in json.loads(keywords)
    said = "Sale agua de la piscina del vecino a la calle y huele a quimicos."
    sent = post(client, report_data(description=said, odor=""))
    thanks = " ".join(client.get(sent.headers["Location"]).text.split())
    assert "algunas descargas se permiten, como el agua de piscinas sin cloro." in thanks
    [smo] = mail_server.to("smo@village.test")
    # Pool water smelling of chemicals is no hazardous material by § 216-4 (officer's week M1).
    assert smo["Subject"] == "New illicit discharge report IDR-2026-0001"
    english = client.get("/report/?lang=en").text
    assert "piscina" not in english


# What a Spanish-speaking resident types: their own words are theirs, in any language.
IN_SPANISH = {
    "description": "Espuma blanca que sale del tubo debajo del puente.",
    "address": "Puente de la calle principal",
    "source_description": "El lavado de autos junto al puente",
}


def test_a_spanish_report_and_its_mail_have_no_english(app, client, mail_server):
    form = client.get("/report/?lang=es")
    assert not english_left(form.text), english_left(form.text)
    invalid = client.post(
        "/report/send/",
        data={**open_form(client), **report_data(**IN_SPANISH, contact_email="pat at example")},
        content_type="multipart/form-data",
    )
    assert invalid.status_code == 422
    assert "Escriba un correo electrónico como nombre@ejemplo.com, o déjelo vacío." in invalid.text
    assert '<h2 id="error-summary-title">Corrija esto</h2>' in invalid.text
    assert not english_left(invalid.text), english_left(invalid.text)
    sent = post(client, report_data(**IN_SPANISH))
    thanks = client.get(sent.headers["Location"])
    assert not english_left(thanks.text), english_left(thanks.text)
    status_url = re.search(r'<p class="status-link"><a href="([^"]+)"', thanks.text).group(1)
    status = client.get(status_url)
    assert not english_left(status.text), english_left(status.text)
    # The office keeps its English name beside its number, as in an address (the glossary).
    assert (
        '¿Preguntas? Llame al <a href="tel:+16077395691">(607) 739-5691</a>'
        " (Horseheads Village Hall) y dé su referencia." in status.text
    )
    mine = client.get("/report/mine/")
    assert not english_left(mine.text), english_left(mine.text)
    missing = client.get("/es/no-such-page/")
    assert missing.status_code == 404 and page_language(missing.text) == "es"
    [ack] = mail_server.to("pat@example.test")
    for part in (body(ack), body(ack, "html")):
        assert not english_left(part), english_left(part)
        assert "Esta traducción está esperando la revisión de la Villa." in part
    # Each of the State's cases on a line of its own, after its paragraph's break.
    assert "le enviaremos un correo electrónico.\r\n\r\nSi el problema empeora" in body(ack)
    assert (
        "dentro de las dos horas siguientes al descubrimiento:\r\n- un derrame de petróleo"
        in body(ack)
    )


def test_the_status_of_a_report_filed_in_english_stays_english(app, client):
    sent = post(client, report_data())
    client.get("/report/?lang=es")
    thanks = client.get(sent.headers["Location"])
    assert "<h1>Report received</h1>" in thanks.text
    assert rows(app, "SELECT language FROM cases") == [{"language": "en"}]


def test_staff_see_the_language_a_report_was_filed_in_and_write_to_it(app, client, mail_server):
    client.get("/report/?lang=es")
    post(client, report_data())
    client.delete_cookie("lang")
    sign_in(client, app)
    page = client.get("/staff/cases/1/").text
    assert page_language(page) == "en"
    assert "<dt>Language</dt><dd>Spanish: their status page and mail are in it</dd>" in page
    assert "Never published. They read Spanish: write it in Spanish." in page
    save_case(client, 1, status="investigating", public_note="Vamos el lunes.")
    [update] = [m for m in mail_server.to("pat@example.test") if m["Subject"].startswith("Nov")]
    assert update["Subject"] == "Novedades sobre IDR-2026-0001"
    text = body(update)
    assert "Hay novedades sobre IDR-2026-0001, que usted envió a la Villa de Horseheads." in text
    assert "Estado: En investigación. El personal lo está investigando." in text
    assert "Nota del Oficial de Manejo de Aguas Pluviales:\r\nVamos el lunes." in text
    assert not english_left(text), english_left(text)


SCRIPTS = Path(__file__).parent.parent / "static" / "js"


def script_words(page: str) -> dict[str, dict[str, str]]:
    """Each data-words on a page, by its element's id, script name or class."""
    found = {}
    for attrs, words in re.findall(r'<\w+\b([^>]*?)data-words="([^"]*)"', page):
        host = re.search(r'\b(?:id|src|class)="([^"]+)"', attrs).group(1).split("/")[-1]
        found[host] = json.loads(html.unescape(words))
    return found


@pytest.mark.parametrize(
    ("path", "carried"),
    [
        (
            "/report/",
            {"report.js": ["report"], "location-tools": ["location"], "form": ["send", "offline"]},
        ),
        ("/report/mine/", {"my-reports": ["offline"]}),
        ("/thanks", {"news.js": ["news"], "share": ["share"]}),
    ],
)
def test_the_scripts_get_their_words_in_spanish_on_a_spanish_page(client, path, carried):
    """Each message a script lays over its English is one of its own keys, and in Spanish."""
    if path == "/thanks":  # the page after Send, of a report filed in English, then Spanish
        english = client.get(post(client, report_data()).headers["Location"]).text
        client.get("/report/?lang=es")
        page = client.get(post(client, report_data()).headers["Location"]).text
    else:
        english = client.get(path + "?lang=en").text
        page = client.get(path + "?lang=es").text
    assert "data-words" not in english
    given = script_words(page)
    assert set(given) == set(carried)
    for host, scripts in carried.items():
        source = "".join((SCRIPTS / f"{name}.js").read_text(encoding="utf-8") for name in scripts)
        for key, text in given[host].items():
            assert re.search(rf"\b{key}: '", source), f"{host}: {key} is no key of {scripts}"
            # What the script fills in ({what}: the report's own words) is no English.
            assert not english_left(re.sub(r"\{\w+\}", " ", text)), (host, key, text)


def test_a_script_fills_in_what_its_words_name():
    """The Spanish message names the same {placeholders} as the English one."""
    from babel.messages.pofile import read_po

    with open("translations/es/LC_MESSAGES/messages.po", "rb") as po:
        for message in read_po(po):
            if message.id and "{" in message.id and message.string:
                names = sorted(re.findall(r"\{(\w+)\}", message.id))
                assert sorted(re.findall(r"\{(\w+)\}", message.string)) == names, message.id


def test_the_spanish_form_stays_within_the_form_budget(client):
    html = client.get("/report/?lang=es").data
    _, total = page_weight(html, lambda url: client.get(url).data)
    assert total <= FORM_PAGE_BUDGET


def test_alternates_name_the_published_address_once_it_is_known():
    """Lighthouse's SEO audit: search engines ignore a relative hreflang. With the published
    address (SITE_PUBLIC_URL, or public_url in site.yaml) each alternate is a full address;
    without one they stay relative."""
    from static_site import create_app as create_site

    published = create_site({"PUBLIC_URL": "https://stormwater.village.test/"}).test_client()
    page = published.get("/es/learn/pet-waste/").text
    assert (
        '<link rel="alternate" hreflang="en" href="https://stormwater.village.test/learn/pet-waste/">'
        in page
    )
    assert (
        '<link rel="alternate" hreflang="x-default"'
        ' href="https://stormwater.village.test/learn/pet-waste/">' in page
    )
    local = create_site().test_client().get("/es/learn/pet-waste/").text
    assert '<link rel="alternate" hreflang="es" href="/es/learn/pet-waste/">' in local
