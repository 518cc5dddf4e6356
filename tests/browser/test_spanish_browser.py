"""The portal in Spanish in a real browser: no sideways scroll at 320 px or on a phone, axe
finds nothing, the dates My reports writes are Spanish, and so are the scripts' messages."""

from __future__ import annotations

import io
import re

import pytest
from browsing import check
from helpers import notification_data, rows
from PIL import Image
from playwright.sync_api import expect
from test_notify_browser import choose, fill_details
from test_spanish import english_left

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("width", [320, 360])
def test_the_spanish_report_path_fits_and_is_accessible(open_tab, live_app, live_server, width):
    live_app.extensions["rate_limiter"].reset()
    tab = open_tab("phone")
    page = tab.page
    page.set_viewport_size({"width": width, "height": 740})
    page.goto(live_server + "/es/")
    check(page, f"/es/ at {width} px")
    page.goto(live_server + "/report/?lang=es")
    assert page.locator("html").get_attribute("lang") == "es"
    check(page, f"/report/ at {width} px")
    # Sent without JavaScript's help would be the same form: here the errors, in Spanish.
    page.locator("button.button", has_text="Enviar el reporte").click()
    page.wait_for_selector("#error-summary")
    assert page.locator("#error-summary-title").inner_text().startswith("Corrija")
    check(page, f"the form's errors at {width} px")
    page.goto(live_server + "/report/mine/")
    check(page, f"/report/mine/ at {width} px")
    # The form sent empty is answered 422 on purpose; nothing else may go wrong.
    errors = [e for e in tab.errors if "422" not in e]
    assert not tab.external_requests and not errors, (tab.external_requests, errors)


def test_my_reports_writes_dates_in_spanish(open_tab, live_server):
    page = open_tab("phone").page
    written = "() => Drafts.when('2026-11-30T13:05:00-05:00', 'America/New_York')"
    page.goto(live_server + "/report/mine/?lang=es")
    page.wait_for_function("() => window.Drafts !== undefined && window.localWhen !== undefined")
    assert page.evaluate(written) == "30 de noviembre de 2026, 1:05 p. m."
    clock = "() => Drafts.when('2026-11-30T09:30:00-05:00', 'America/New_York', true)"
    assert page.evaluate(clock) == "9:30 a. m."
    page.goto(live_server + "/report/mine/?lang=en")
    page.wait_for_function("() => window.Drafts !== undefined")
    assert page.evaluate(written) == "November 30, 2026 at 1:05 p.m."


@pytest.mark.parametrize(
    ("query", "target"),
    [
        ("multa", "/es/ordinance/#sec-216-13"),
        ("aceite de motor", "/es/learn/motor-oil/"),
        ("piscina", "/es/learn/pools-and-hot-tubs/"),
        ("reportar", "/report/?lang=es"),
    ],
)
def test_the_spanish_search_finds_spanish_pages(open_tab, live_server, query, target):
    tab = open_tab("phone")
    page = tab.page
    page.goto(live_server + "/es/search/")
    page.get_by_label("Busque en la ley").fill(query)
    page.keyboard.press("Enter")
    page.wait_for_selector("#search-results > li:first-child a")
    assert page.locator("#search-results > li:first-child a").get_attribute("href") == target
    said = page.locator("#search-status").inner_text()
    assert said.endswith(f" para “{query}”") and "resultado" in said, said
    check(page, f"/es/search/ for {query}")
    assert not tab.errors and not tab.external_requests, (tab.errors, tab.external_requests)


@pytest.mark.parametrize("width", [320, 360])
def test_the_spanish_notification_fits_and_is_accessible(open_tab, live_app, live_server, width):
    live_app.extensions["rate_limiter"].reset()
    tab = open_tab("phone")
    page = tab.page
    page.set_viewport_size({"width": width, "height": 740})
    data = notification_data(responsible_email="ana@taller.test")
    page.goto(live_server + "/notify/?lang=es")
    assert page.locator("html").get_attribute("lang") == "es"
    check(page, f"/notify/ step 1 at {width} px")
    page.get_by_role("button", name="Continuar").click()
    page.wait_for_selector("#error-summary")
    check(page, f"step 1's errors at {width} px")
    for name in ("danger", "hazardous", "petroleum"):
        choose(page, name, data[name])
    page.get_by_role("button", name="Continuar").click()
    page.wait_for_selector("h1:text('Cuéntenos sobre el derrame')")
    check(page, f"step 2 at {width} px")
    fill_details(page, data)
    page.get_by_role("button", name="Revisar su registro").click()
    page.wait_for_selector("h1:text('Revise su registro')")
    check(page, f"the review at {width} px")
    page.get_by_role("button", name="Enviar este registro").click()
    page.wait_for_url(re.compile(r"/status/[\w-]+/\?filed=1$"))
    assert page.locator("h1").first.inner_text() == "Registro recibido"
    check(page, f"the receipt at {width} px")
    errors = [e for e in tab.errors if "422" not in e]
    assert not tab.external_requests and not errors, (tab.external_requests, errors)


def test_the_form_scripts_speak_spanish_on_a_spanish_page(open_tab, portal):
    """report.js, location.js, offline.js and send.js say their messages in Spanish: the
    location refused, the characters left, a report kept with the network cut, then sent,
    and My reports; at 360 px, axe clean."""
    url, app = portal
    tab = open_tab("phone")  # no geolocation permission: the phone refuses the position
    page, context = tab.page, tab.page.context
    page.goto(f"{url}/report/?lang=es")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.get_by_role("button", name="Usar mi ubicación").click()
    expect(page.locator("#location-status")).to_have_text(
        "La ubicación está desactivada para este sitio. Puede escribir una dirección o un lugar"
        " conocido."
    )
    description = page.get_by_label("Describa lo que vio")
    description.fill("x" * 4104)
    expect(page.locator("#description-count")).to_have_text("104 caracteres de más")
    description.fill("x" * 3999)
    expect(page.locator("#description-count")).to_have_text("Queda 1 carácter")
    description.fill("Agua gris de un tubo al arroyo.")
    expect(page.locator("#description-count")).to_have_text("")
    check(page, "the Spanish form after its scripts spoke, at 360 px")

    context.set_offline(True)
    page.reload()
    expect(page.get_by_role("heading", name="Reportar un problema")).to_be_visible()
    page.get_by_label("Describa lo que vio").fill("Agua gris de un tubo al arroyo.")
    page.get_by_label("Dirección o un lugar conocido").fill("El arroyo detrás de la escuela")
    page.get_by_role("button", name="Enviar el reporte").click()
    notice = page.locator("#offline-notice")
    expect(notice).to_have_text(
        "Guardado en este teléfono. Se enviará solo cuando vuelva a tener conexión, aunque cierre"
        " esta página. Cuando se envíe, aparecerá en Mis reportes con su enlace de estado."
    )
    check(page, "the Spanish form with a report kept offline, at 360 px")
    assert rows(app, "SELECT count(*) AS n FROM cases") == [{"n": 0}]

    context.set_offline(False)
    expect(notice).to_contain_text(
        re.compile(
            r"^Su reporte guardado en este teléfono se envió como IDR-\d{4}-\d{4} \(.+, en"
            r" El arroyo detrás de la escuela\)\. Véalo y guarde su enlace de estado\."
            r" Aparece en Mis reportes\.$"
        ),
        timeout=20_000,
    )
    page.goto(f"{url}/report/mine/")
    item = page.locator("#my-reports-list li")
    expect(item).to_contain_text(re.compile(r"Enviado el \d+ de \w+ de \d{4}, .+ Estado: "))
    page.get_by_role("button", name="Olvidar todos mis reportes en este aparato").click()
    expect(page.locator("#forget-question")).to_have_text(
        "¿Olvidar el reporte guardado en este aparato? Solo se borra esta lista: sus reportes"
        " siguen con nosotros y sus enlaces de estado siguen funcionando."
    )
    expect(page.locator("#forget-yes")).to_have_text("Sí, olvidarlo")
    check(page, "My reports in Spanish, asking before it forgets, at 360 px")
    assert not english_left(page.content()), english_left(page.content())
    assert not tab.external_requests


def test_the_photo_picker_says_each_refusal_once_in_spanish(open_tab, live_server):
    """A text file named .jpg is refused as it is chosen, by its name, in the server's own
    words; four photos past the limit of three get one message, not one each."""
    tab = open_tab("phone")
    page = tab.page
    page.goto(f"{live_server}/report/?lang=es")
    buffer = io.BytesIO()
    Image.new("RGB", (800, 600), "olive").save(buffer, "JPEG")
    small = buffer.getvalue()
    page.set_input_files(
        "#photos",
        files=[
            {"name": "notas.jpg", "mimeType": "image/jpeg", "buffer": b"solo texto, sin foto"},
            {"name": "small.jpg", "mimeType": "image/jpeg", "buffer": small},
        ],
    )
    problems = page.locator("#photos-problems")
    expect(problems).to_have_text(
        "notas.jpg: Este archivo no es una foto que podamos leer. Adjunte una imagen JPEG, PNG,"
        " WebP o GIF."
    )
    expect(page.locator(".photo-list .photo-name")).to_have_text(["small.jpg"])
    check(page, "the Spanish form with a file refused, at 360 px")
    # Six more with one listed: two fit, four are left out, said once.
    page.set_input_files(
        "#photos",
        files=[
            {"name": f"foto-{n}.jpg", "mimeType": "image/jpeg", "buffer": small} for n in range(6)
        ],
    )
    expect(problems).to_have_text("Fotos que pasan del límite y no se agregaron: 4.")
    expect(page.locator(".photo-list .photo-name")).to_have_text(
        ["small.jpg", "foto-0.jpg", "foto-1.jpg"]
    )
    check(page, "the Spanish form with photos past the limit, at 360 px")
    assert not tab.errors and not tab.external_requests


def test_the_map_says_once_in_spanish_that_it_cannot_load(open_tab, tiled_server):
    """The map server out of reach: the message is in the location box once, not twice."""
    tab = open_tab("phone")
    page = tab.page
    page.route("https://tiles.test/**", lambda route: route.abort("internetdisconnected"))
    page.goto(f"{tiled_server.url}/report/?lang=es")
    page.get_by_role("button", name="Elegir el lugar en un mapa").click()
    said = (
        "No se pudieron cargar las imágenes del mapa (no hay conexión con el servidor del mapa),"
        " así que el mapa no se muestra. Use su ubicación, o escriba abajo una dirección o un"
        " lugar conocido."
    )
    expect(page.locator("#location-status")).to_have_text(said)
    box = page.locator("#location-tools").inner_text()
    assert box.count("No se pudieron cargar") == 1, box
    check(page, "the Spanish form without map pictures, at 360 px")
    assert all("tiles.test" in error for error in tab.errors), tab.errors
