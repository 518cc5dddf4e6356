"""The business release notification in Spanish: every step, its errors, the receipt and the
mail the business receives, with the law's words unchanged and no English left."""

from __future__ import annotations

import io
import re

from helpers import hidden_fields, jpeg, notification_data, open_form, post, report_data, rows
from mailserver import body
from test_spanish import IN_SPANISH as IN_SPANISH_REPORT
from test_spanish import english_left, page_language

# What a Spanish-speaking business owner types: their own words, in their language.
IN_SPANISH = {
    "facility_name": "Taller Rivera",
    "facility_address": "12 Depot Street",
    "responsible_name": "Ana Rivera",
    "responsible_title": "Gerente",
    "materials": "Diésel",
    "address": "Muelle de carga detrás del 12 de Depot Street",
    "amount_reached": "una taza o dos",
    "cause": "Una manguera rota",
    "cleanup": "Barreras absorbentes alrededor del desagüe",
    "prevention": "Mangueras nuevas; revisión cada semana",
    "prior_notice_to": "La secretaria de la Villa",
    "responsible_email": "ana@taller.test",
}
# The law's own words, quoted in English inside the Spanish (marked lang="en" on a page;
# a plain-text mail cannot mark them).
LAW_QUOTES = ("“no later than the next business day”",)


def english_in_mail(text: str) -> list[str]:
    for quote in LAW_QUOTES:
        text = text.replace(quote, " ")
    return english_left(text)


def walk(client, data: dict) -> dict[str, object]:
    """Every step of the notification in Spanish, as a person who came from a Spanish page."""
    first = client.get("/notify/?lang=es")
    triage = {name: data[name] for name in ("danger", "hazardous", "petroleum")}
    details = client.post(
        "/notify/", data={**hidden_fields(first.text), "step": "triage", **triage}
    )
    payload = {**hidden_fields(details.text), **data, "step": "details"}
    review = client.post("/notify/", data=payload, content_type="multipart/form-data")
    if review.status_code != 200:  # refused: the form again, with its errors
        return {"triage": first, "details": details, "review": review}
    final = client.post("/notify/", data={**hidden_fields(review.text), "step": "confirm"})
    receipt = client.get(final.headers["Location"])
    return {"triage": first, "details": details, "review": review, "receipt": receipt}


def test_every_step_and_the_receipt_are_in_spanish(app, client, mail_server):
    pages = walk(client, notification_data(**IN_SPANISH))
    for name, page in pages.items():
        assert page.status_code == 200, name
        assert page_language(page.text) == "es", name
        assert not english_left(page.text), (name, english_left(page.text))
    assert "<h1>Reportar un derrame en una instalación</h1>" in pages["triage"].text
    assert "Registro de un derrame · Paso 2 de 3" in pages["details"].text
    assert "<h1>Revise su registro</h1>" in pages["review"].text
    receipt = pages["receipt"].text
    assert "<h1>Registro recibido</h1>" in receipt
    assert '<p class="kicker">La Villa de Horseheads · Registro de un derrame (no es el' in receipt
    assert re.search(
        r"<dt>Guarde el registro escrito de la instalación hasta</dt><dd>por lo menos el <time"
        r' datetime="\d{4}-\d\d-\d\d">[^<]+</time>\. Nuestra interpretación\. La ley no dice',
        receipt,
    ), "one 'hasta', and no capital after a colon"
    assert rows(app, "SELECT language FROM cases") == [{"language": "es"}]


def test_the_notice_duties_say_what_the_english_says(client):
    page = client.get("/notify/?lang=es").text
    assert (
        'La ley (<a href="/es/ordinance/#sec-216-12">§ 216-12</a>) exige que la persona'
        " responsable de una instalación u operación, o de su respuesta a emergencias, cuando"
        " sabe o sospecha de un derrame que"
        " causa o puede causar una descarga al sistema de drenaje pluvial, avise a la Villa de"
        " Horseheads en persona, por teléfono o por fax (no hay un número de fax publicado, así"
        " que llame o vaya en persona) a más tardar el siguiente día hábil. Este formulario no lo"
        " hace por usted:"
    ) in page
    assert (
        "Después, un aviso dado en persona o por teléfono se debe confirmar con un aviso escrito"
        " enviado por correo a la Villa dentro de tres días hábiles."
    ) in page
    # The law's definition said first in plain Spanish, then in its own words, marked English.
    assert "como los define la ley (§ 216-4): cualquier material, sustancia o desecho," in page
    # Seed 33: "a substantial present or potential hazard", "or otherwise managed".
    assert (
        "puede causar un peligro considerable, actual o posible, para la salud humana, la"
        " seguridad, la propiedad o el medio ambiente (o contribuir de manera importante a ese"
        " peligro) si no se trata, no se guarda, no se transporta, no se desecha o no se maneja"
        " de alguna otra forma como se debe."
        ' Las palabras de la ley, en inglés: <q lang="en">Any material, including any substance,'
    ) in page
    assert "peligro grave" not in page and "más adelante" not in page


def test_the_deadlines_are_spanish_dates(client):
    pages = walk(client, notification_data(**IN_SPANISH))
    for name in ("review", "receipt"):
        text = pages[name].text
        assert (
            "<strong>Aviso a la Villa</strong>, en persona, por teléfono o por fax (no hay un"
            " número de fax publicado, así que llame o vaya en persona): a más tardar al final"
            ' del <time datetime="2026-11-04">miércoles, 4 de noviembre de 2026</time>, el'
            " siguiente día hábil después de descubrir el derrame."
        ) in text, name
        assert (
            'a más tardar al final del <time datetime="2026-11-06">viernes, 6 de noviembre de'
            " 2026</time>, el tercer día hábil después del aviso."
        ) in text, name
        # Election Day, passed over by both counts, named once: our reading, and what to do.
        assert (
            text.count(
                "Lo contamos como feriado, no como día hábil (nuestra interpretación): martes, 3 de"
                " noviembre de 2026. Si la oficina de la Villa está abierta ese día, el plazo vence"
                " antes: por seguridad, cuéntelo como día hábil."
            )
            == 1
        ), name


def test_a_thousands_dot_is_asked_about_and_a_decimal_comma_shown_back(app, client):
    """ "1.500" is fifteen hundred to some readers, one and a half to others: asked, not
    guessed. "2,5" is stored as 2.5 and shown back the Spanish way."""
    for typed in ("1.500", "1.500,5", "12.000,00"):
        asked = walk(client, notification_data(**{**IN_SPANISH, "quantity": typed}))["review"]
        assert asked.status_code == 422, typed
        assert "Escríbalo sin punto: 1500, o 1,5 para uno y medio." in asked.text, typed
    pages = walk(client, notification_data(**{**IN_SPANISH, "quantity": "2,5"}))
    assert rows(app, "SELECT quantity FROM notifications") == [{"quantity": 2.5}]
    for name in ("review", "receipt"):
        assert "<dd>2,5 galones</dd>" in pages[name].text, name


def test_a_changed_filing_sent_again_is_answered_in_spanish(client):
    review = walk(client, notification_data(**IN_SPANISH))["review"]
    again = client.post(
        "/notify/", data={**hidden_fields(review.text), "cause": "Otra", "step": "confirm"}
    )
    assert again.status_code == 409 and page_language(again.text) == "es"
    assert ">Ver su recibo REL-2026-0001</a>" in again.text
    assert "si la instalación guarda el registro escrito, anote allí también la corrección." in (
        again.text
    )
    assert not english_left(again.text), english_left(again.text)


def test_two_holidays_passed_over_are_named_in_spanish(client):
    data = notification_data(
        **{
            **IN_SPANISH,
            "discovered_at": "2026-02-11T09:00",
            "began_at": "2026-02-11T08:30",
            "ended_at": "2026-02-11T09:45",
            "emergency_called_at": "2026-02-11T09:10",
            "dec_called_at": "2026-02-11T09:20",
            "prior_notice_at": "2026-02-11T10:00",
        }
    )
    receipt = walk(client, data)["receipt"].text
    assert (
        "Los contamos como feriados, no como días hábiles (nuestra interpretación): jueves, 12 de"
        " febrero de 2026 y lunes, 16 de febrero de 2026. Si la oficina de la Villa está abierta"
        " uno de esos días, un plazo vence antes: por seguridad, cuéntelos como días hábiles."
    ) in receipt


def test_the_errors_are_in_spanish_next_to_their_fields(client):
    first = client.get("/notify/?lang=es")
    refused = client.post("/notify/", data={**hidden_fields(first.text), "step": "triage"})
    assert refused.status_code == 422
    assert "Conteste esta pregunta para seguir." in refused.text
    assert not english_left(refused.text), english_left(refused.text)
    data = notification_data(
        **{
            **IN_SPANISH,
            "facility_name": "",
            "ended_at": "2026-11-02T07:00",
            "unit": "",
            "quantity": "unos 10",
        }
    )
    triage = {name: data[name] for name in ("danger", "hazardous", "petroleum")}
    details = client.post(
        "/notify/", data={**hidden_fields(first.text), "step": "triage", **triage}
    )
    payload = {**hidden_fields(details.text), **data, "step": "details"}
    invalid = client.post("/notify/", data=payload, content_type="multipart/form-data")
    assert invalid.status_code == 422
    for message in (
        "Escriba el nombre de la instalación.",
        "Esto es antes de que el derrame empezara o se descubriera.",
        "Elija una unidad para la cantidad.",
        "Escriba la cantidad con números, como 5 o 2,5.",
    ):
        assert message in invalid.text, message
    assert 'value="Muelle de carga detrás del 12 de Depot Street"' in invalid.text
    assert 'value="unos 10"' in invalid.text
    assert not english_left(invalid.text), english_left(invalid.text)


def test_the_receipt_mail_is_spanish_and_the_officer_s_copy_english(client, mail_server):
    walk(client, notification_data(**IN_SPANISH))
    [receipt] = mail_server.to("ana@taller.test")
    # (A subject this long is folded whole onto its next line: the parser keeps that space.)
    assert receipt["Subject"].strip() == (
        "Recibo de su registro de un derrame REL-2026-0001 (no es su aviso a la Villa)"
    )
    text = body(receipt)
    assert "Recibo de su registro de un derrame, hecho ante la Villa de Horseheads" in text
    assert "Esto no es su aviso a la Villa: es un registro que ayuda al personal" in text
    assert "a más tardar al final del miércoles, 4 de noviembre de 2026" in text
    assert "Se descubrió: 2 de noviembre de 2026, 9:00 a. m." in text
    # The copy the owner keeps says how long to keep the facility's record, as the page does.
    assert re.search(
        r"Guarde el registro escrito de la instalación hasta por lo menos el \w+, \d+ de \w+ de"
        r" \d{4}\. Nuestra interpretación\. La ley no dice cuándo empiezan los tres años",
        text,
    )
    pending = (
        "Esta traducción está esperando la revisión de la Villa. Si algo no dice lo mismo que el"
        " texto en inglés de la ley, vale el texto en inglés."
    )
    for part in (text, body(receipt, "html")):
        assert not english_in_mail(part), english_in_mail(part)
        assert pending in part
    assert '<html lang="es">' in body(receipt, "html")
    [smo] = mail_server.to("smo@village.test")
    assert "translation" not in body(smo)
    assert smo["Subject"].startswith("Release notification REL-2026-")
    assert "Discovered: November 2, 2026 at 9:00 a.m." in body(smo)
    said = "Filed in Spanish: their status page and mail are in Spanish; write the public note in Spanish."
    assert said in body(smo) and said in body(smo, "html")
    assert '<html lang="en">' in body(smo, "html")


def test_the_status_page_follows_the_filing_s_language(client):
    receipt_url = walk(client, notification_data(**IN_SPANISH))["receipt"].request.path
    client.set_cookie("lang", "en")
    later = client.get(receipt_url, headers={"Accept-Language": "en-US"})
    assert page_language(later.text) == "es"
    assert '<h1 class="receipt-title">Recibo REL-2026-' in later.text
    assert "<h1>Receipt" in client.get(receipt_url + "?lang=en").text.replace(
        ' class="receipt-title"', ""
    )


def test_a_notification_filed_in_english_stays_english(app, client):
    first = client.get("/notify/")
    assert page_language(first.text) == "en"
    assert "Por ahora" not in first.text


# ---------------------------------------------------------------- photos, on both forms

PHOTO_ERRORS_ES = (
    "a.jpg: Este archivo no es una foto que podamos leer. Adjunte una imagen JPEG, PNG, WebP o GIF.",
    "b.jpg: El archivo está vacío. Elija una foto para adjuntar.",
    "f.jpg no se agregó: puede adjuntar hasta 3 fotos.",
)


def uploads() -> list[tuple[io.BytesIO, str]]:
    """One unreadable, one empty, then one photo more than the form takes."""
    good = [(io.BytesIO(jpeg((200, 150))), f"{name}.jpg") for name in "cdef"]
    return [(io.BytesIO(b"not a photo"), "a.jpg"), (io.BytesIO(b""), "b.jpg"), *good]


def test_photo_refusals_are_in_spanish_on_the_report_form(client):
    client.get("/report/?lang=es")
    hidden = open_form(client)
    refused = client.post(
        "/report/send/",
        data={**hidden, **report_data(**IN_SPANISH_REPORT), "photos": uploads()},
        content_type="multipart/form-data",
    )
    assert refused.status_code == 422
    for message in PHOTO_ERRORS_ES:
        assert message in refused.text, message
    assert not english_left(refused.text), english_left(refused.text)


def test_photo_refusals_are_in_spanish_on_the_notification(client):
    data = notification_data(**IN_SPANISH)
    first = client.get("/notify/?lang=es")
    triage = {name: data[name] for name in ("danger", "hazardous", "petroleum")}
    details = client.post(
        "/notify/", data={**hidden_fields(first.text), "step": "triage", **triage}
    )
    payload = {**hidden_fields(details.text), **data, "step": "details", "photos": uploads()}
    refused = client.post("/notify/", data=payload, content_type="multipart/form-data")
    assert refused.status_code == 422
    for message in PHOTO_ERRORS_ES:
        assert message in refused.text, message
    assert not english_left(refused.text), english_left(refused.text)


def test_photo_refusals_stay_english_on_an_english_form(client):
    data = notification_data()
    details = client.post(
        "/notify/",
        data={
            **hidden_fields(client.get("/notify/").text),
            "step": "triage",
            "danger": "no",
            "hazardous": "no",
            "petroleum": "no",
        },
    )
    payload = {**hidden_fields(details.text), **data, "step": "details", "photos": uploads()}
    refused = client.post("/notify/", data=payload, content_type="multipart/form-data").text
    assert "b.jpg: The file is empty. Choose a photo to attach." in refused
    assert "f.jpg was not added: you can attach up to 3 photos." in refused


# ---------------------------------------------------------------- the page's scripts


def test_the_share_buttons_speak_the_page_s_language(client):
    thanks_words = (
        "{&#34;copied&#34;: &#34;Enlace copiado.&#34;, &#34;failed&#34;: &#34;No se pudo copiar"
        " el enlace. Selecci\\u00f3nelo arriba y c\\u00f3pielo.&#34;, &#34;kept&#34;: &#34;Guardado en"
        " este tel\\u00e9fono. Lo encuentra en &#34;, &#34;mine&#34;: &#34;Mis reportes&#34;}"
    )
    client.get("/report/?lang=es")
    sent = post(client, report_data(**IN_SPANISH_REPORT))
    thanks = client.get(sent.headers["Location"]).text
    assert f'data-words="{thanks_words}"' in thanks
    english = client.get(sent.headers["Location"] + "?lang=en").text
    assert 'class="share"' in english and "data-words" not in english
