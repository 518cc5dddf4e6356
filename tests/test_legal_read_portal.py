"""The legal read of 3 December 2026 (findings B3, C17-C21, C28, C30), through the portal's
pages, mail and Open311, in both languages: each corrected sentence as a person reads it."""

from __future__ import annotations

import html
import re

import pytest
from enforcement_helpers import notice_served
from helpers import file_notification, notification_data, post, report_data, save_case, sign_in
from mailserver import body

pytest_plugins = ["enforcement_fixtures"]  # the clock and the signed-in officer


def words(page: str) -> str:
    """A page's words as read: tags dropped, spaces collapsed."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.DOTALL)
    words = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())
    # A tag closed before punctuation ("<a>§ 216-7</a>,") leaves no space in what is read.
    return re.sub(r" (?=[,.;:)])", "", words)


def test_b3_the_form_promises_only_what_the_village_does_with_a_reporters_details(client):
    """B3: no guarantee of confidentiality; what may be published is what issue 35 shows."""
    page = words(client.get("/report/").text)
    assert (
        "We do not publish your name or contact details: only the staff who handle your "
        "report see them, unless the law requires the Village to disclose them (to be "
        "confirmed by the Village Attorney). We may publish a report we choose: a summary of "
        "what was seen (not your words), its status and the place to about 100 m; never your "
        "details, an address, a plate or a photo we did not choose. Leave these fields empty "
        "to report anonymously."
    ) in page
    assert "They are never published" not in page


def test_b3_the_spanish_form_says_the_same(client):
    page = words(client.get("/report/?lang=es").text)
    assert (
        "No publicamos su nombre ni sus datos de contacto: solo los ve el personal que "
        "atiende su reporte, salvo que la ley obligue a la Villa a revelarlos (aún debe "
        "confirmarlo el abogado de la Villa). Podemos publicar un reporte que elijamos: un "
        "resumen de lo que se vio (no sus palabras), su estado y el lugar a unos 100 m; nunca"
        " sus datos, una dirección, una placa ni una foto no elegida. Deje estos campos "
        "vacíos para reportar sin dar su nombre."
    ) in page
    assert "Nunca se publican." not in page


def test_c3_step_one_names_who_is_bound(client):
    """C3 (seed 153: "or responsible for emergency response for a facility or operation")."""
    assert (
        "requires the person responsible for a facility or operation, or for its emergency"
        " response, on a known or suspected release"
    ) in words(client.get("/notify/").text)
    assert (
        "exige que la persona responsable de una instalación u operación, o de su respuesta a"
        " emergencias, cuando sabe o sospecha de un derrame"
    ) in words(client.get("/notify/?lang=es").text)


def test_c16_a_sunday_holiday_is_moved_to_the_monday_in_spanish(client):
    page = words(client.get("/notify/?lang=es").text)
    assert "un feriado que cae en domingo se pasa al lunes" in page
    assert "se toma el lunes" not in page


def test_c17_flag_day_and_saturday_holidays_are_declared_where_the_count_is_explained(client):
    """C17 (reading R2, GCL § 24): Flag Day is not moved off its Sunday, and a holiday on a
    Saturday is not moved to the Friday, as the count says wherever it is explained."""
    page = words(client.get("/notify/").text)
    assert (
        "(a holiday on a Sunday is kept on the Monday, except Flag Day; one on a Saturday is not"
        " moved, so the Friday before it counts as a business day unless the Village office"
        " announces it is closed). That is our reading, not part of the law."
    ) in page
    page = words(client.get("/notify/?lang=es").text)
    assert (
        "(un feriado que cae en domingo se pasa al lunes, salvo el Día de la Bandera (Flag Day);"
        " uno que cae en sábado no se mueve, así que el viernes anterior cuenta como día hábil,"
        " salvo que la oficina de la Villa anuncie que está cerrada)"
    ) in page


def test_c19_c20_the_receipt_and_its_mail_say_keep_it_as_a_record(client, mail_server):
    """C19 (reading R1: the mail's deadlines are counted as we count business days) and C20
    (a rental's receipt: "Keep this message as a record.")."""
    _, final = file_notification(client, notification_data(facility_kind="rental"))
    receipt = words(client.get(final.headers["Location"]).text)
    assert "We have e-mailed this receipt to sam@depot.test. Keep it as a record." in receipt
    [mail] = mail_server.to("sam@depot.test")
    assert "Keep this message as a record.\r\n" in body(mail)
    assert "\r\nDEADLINES, AS WE COUNT BUSINESS DAYS\r\n" in body(mail)
    page = words(body(mail, "html"))
    assert "Keep this message as a record. Reference:" in page
    assert "Deadlines, as we count business days" in page
    assert "Keep this message: a record to keep" not in page
    # Reading R8, where the confirmation's deadline is read.
    r8 = (
        "Our reading: a written confirmation is in time when it is mailed by the end of that day"
        " (its postmark counts, not the day it arrives), and the three business days count from"
        " the day the notice was given in person or by telephone."
    )
    assert r8 in receipt and r8 in page and r8 in " ".join(body(mail).split())
    assert "sam@depot.test: a record to keep" not in receipt


def test_c19_c20_in_spanish(client, mail_server):
    client.get("/notify/?lang=es")
    _, final = file_notification(client, notification_data(facility_kind="rental"))
    receipt = words(client.get(final.headers["Location"]).text)
    assert (
        "Le enviamos este recibo por correo electrónico a sam@depot.test. Guárdelo como registro."
    ) in receipt
    assert (
        "Nuestra interpretación: una confirmación por escrito llega a tiempo si se envía por"
        " correo a más tardar al final de ese día (cuenta el matasellos, no el día en que llega)"
    ) in receipt
    assert (  # C29
        "Para un registro del 29 de febrero, los tres años terminan el 1 de marzo, para que el"
        " registro nunca se guarde un día de menos."
    ) in receipt
    [mail] = mail_server.to("sam@depot.test")
    assert "Guarde este mensaje como registro.\r\n" in body(mail)
    assert "\r\nPLAZOS, SEGÚN COMO CONTAMOS LOS DÍAS HÁBILES\r\n" in body(mail)


def test_c21_a_closed_filing_still_owes_a_notice_not_given(app, client, mail_server):
    """C21 (seed 153): closing a filing says the notice not yet given is still due."""
    _, final = file_notification(client, notification_data())
    receipt = final.headers["Location"]
    sign_in(client, app)
    assert save_case(client, 1, status="closed").status_code == 303
    assert (
        "Staff have finished following up this filing. That does not change what the law"
        " requires of the facility: a notice not yet given must still be given; a written"
        " confirmation still due must still be mailed, and a commercial or industrial source"
        " keeps its written record for at least three years."
    ) in words(client.get(receipt).text)


def test_c28_open311_describes_stormwater_and_the_exemptions_as_the_law_does(client):
    """C28 (seed 84: "Rainwater, surface runoff, snowmelt and drainage"; 101-107)."""
    [service] = client.get("/open311/v2/services.json").get_json()
    assert service["description"] == (
        "Something other than stormwater (rain, snowmelt, surface runoff and drainage) going"
        " into a storm drain, roadside ditch or pipe outfall: oil, suds, paint, sewage, dumping"
        " or a pipe flowing in dry weather. Chapter 216, Article I of the Village of Horseheads"
        " Code allows only stormwater in the Village's storm sewers, apart from the discharges"
        " § 216-6 exempts or allows on conditions. A plain-language guide, not legal advice."
        " The ordinance governs."
    )


@pytest.mark.parametrize(
    ("url", "description", "hinted"),
    [
        ("/report/?lang=es", "Están vaciando la piscina con cloro en la calle.", False),
        ("/report/?lang=es", "Vacían la piscina clorada a la calle.", False),
        ("/report/?lang=es", "Vacían la alberca sin cloro a la cuneta.", True),
        ("/report/", "They are draining the pool and it smells of chlorine.", False),
        ("/report/", "Draining a chlorinated pool into the gutter.", False),
        ("/report/", "Draining the pool, no chlorine, they said.", True),
        ("/report/", "Draining the pool into the gutter.", True),
    ],
)
def test_c30_the_pool_hint_is_not_given_for_water_said_to_have_chlorine(
    client, url, description, hinted
):
    """C30 (seed 101: "dechlorinated swimming pool discharges")."""
    response = post(client, report_data(description=description), url=url)
    page = words(client.get(response.headers["Location"]).text)
    hint = "agua de piscinas sin cloro" if "es" in url else "dechlorinated swimming pool"
    assert (hint in page) is hinted, page[:300]


def test_c29_29_february_each_way_is_named_where_it_is_read(client, officer, clock):
    """C29 (seed 153 "at least three years", 173 "within a period of five years"): the
    record's three years end on 1 March, the offense window's five on 28 February."""
    _, final = file_notification(client, notification_data())
    receipt = words(client.get(final.headers["Location"]).text)
    assert (
        "Our reading: The law does not say when the three years start; we count them from the"
        " day of this filing. For a filing on 29 February, the three years end on 1 March, so"
        " that the record is never kept a day short."
    ) in receipt
    notice_served(officer, clock, "2027-03-05")
    assert (
        "An offense of 29 February has its anniversary on 28 February: the 5 years never run"
        " past the calendar's own date, the side that counts fewer earlier offenses (a"
        " release's record, kept at least three years, runs the other way, to 1 March)."
    ) in words(officer.get("/staff/notices/1/").text)
