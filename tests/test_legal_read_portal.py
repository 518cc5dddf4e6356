"""The legal read of 3 December 2026 (findings B3, C17-C21, C28, C30), through the portal's
pages, mail and Open311, in both languages: each corrected sentence as a person reads it."""

from __future__ import annotations

import html
import re


def words(page: str) -> str:
    """A page's words, tags dropped and spaces collapsed."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.DOTALL)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def test_b3_the_form_promises_only_what_the_village_does_with_a_reporters_details(client):
    """B3: no guarantee of confidentiality; what may be published is what issue 35 shows."""
    page = words(client.get("/report/").text)
    assert (
        "We do not publish your name or contact details. Only the Stormwater Management"
        " Officer and the staff who handle your report see them, unless the law requires the"
        " Village to disclose them (to be confirmed by the Village Attorney). Staff may publish"
        " a report they choose, without personal details: a short summary of what was seen"
        " (never your own words), its status and the place, only roughly (to about 100 m, or"
        " the nearest drain or street); a house address, a license plate or a photo staff did"
        " not choose is never published. Leave these fields empty to report anonymously."
    ) in page
    assert "They are never published" not in page


def test_b3_the_spanish_form_says_the_same(client):
    page = words(client.get("/report/?lang=es").text)
    assert (
        "No publicamos su nombre ni sus datos de contacto. Solo el Oficial de Manejo de Aguas"
        " Pluviales y el personal que atiende su reporte los ven, salvo que la ley obligue a la"
        " Villa a darlos a conocer (aún debe confirmarlo el abogado de la Villa). El personal"
        " puede publicar un reporte que elija, sin datos personales: un breve resumen de lo que"
        " se vio (nunca sus propias palabras), su estado y el lugar, solo aproximado (a unos"
        " 100 m, o el desagüe o la calle más cercanos); nunca se publica una dirección de casa,"
        " una placa de vehículo ni una foto que el personal no haya elegido. Deje estos campos"
        " vacíos para reportar sin dar su nombre."
    ) in page
    assert "Nunca se publican." not in page
