"""The release notification section's duties as the law words them (seed 153), read where a
filer reads them: the review before sending, the receipt (as filed and after staff record the
call and the letter), the receipt mail through the test SMTP server, and the case page.

A material that is or may be hazardous, with 911 not called, is told first that the law
required an immediate call, and never that nothing more is due; a release that did not and
could not reach a storm drain, ditch or stream is advised, not told the law requires it."""

from __future__ import annotations

import html
import re

from helpers import file_notification, hidden_fields, notification_data
from mailserver import body
from test_release_notices import at, log_notice, record_letter, sign_in

EMERGENCY_LINE = (
    "§ 216-12 requires emergency responders to be told immediately, through 911, of a release"
    " of hazardous materials that reaches or may reach the storm sewer system. You answered"
    " that 911 was not called: if the release is still going on or is not contained, call 911"
    " now; in any case, tell the Village that it was not called."
)
EMERGENCY_LINE_ES = (
    "El § 216-12 exige avisar de inmediato a los servicios de emergencia, por el 911, de un"
    " derrame de materiales peligrosos que llega o puede llegar al sistema de drenaje pluvial."
    " Usted contestó que no llamó al 911: si el derrame sigue o no está contenido, llame ahora"
    " al 911; en todo caso, dígale a la Villa que no se llamó."
)
NOTHING_DUE = (
    "Nothing more is due under § 216-12, as far as this filing shows, except keeping the"
    " facility's on-site written record."
)
NOTHING_DUE_ES = (
    "Según este registro, no falta nada más de lo que exige el § 216-12, salvo guardar en la"
    " instalación el registro escrito."
)
ADVISED = (
    "To be safe, we advise: You answered that the release did not and could not enter a storm"
    " drain, ditch or stream. § 216-12 may then not require this notice or the facility's"
    " written record; we advise you to give them to be safe. If you are not sure, call the"
    " Village."
)
ADVISED_ES = (
    "Por seguridad, le aconsejamos: Usted contestó que el derrame no entró ni podía entrar a un"
    " desagüe pluvial, una zanja o un arroyo. Entonces puede que el § 216-12 no exija este aviso"
    " ni el registro escrito de la instalación; le aconsejamos dar el aviso y guardar el"
    " registro, por seguridad. Si no está seguro, llame a la Villa."
)
RECORD_ADVISED = (
    "§ 216-12 requires a commercial or industrial establishment to keep an on-site written"
    " record of a discharge and of the actions taken to prevent it happening again, for at least"
    " three years. You answered that this release did not and could not enter a storm drain,"
    " ditch or stream, so it may not require one of you; we advise you to keep it, to be safe."
)
READING = (
    "Our reading: The law's duties are for a release that reaches, or may reach, the storm"
    " sewer system, and its immediate call to emergency responders is for one of hazardous"
    " materials. Where you answered “Not sure”, we take the safe side and count it as “yes”;"
    " where you answered that it did not and could not reach a storm drain, ditch or stream, we"
    " read the law as perhaps not requiring the notice or the record."
)
READING_ES = (
    "Nuestra interpretación. Las obligaciones de la ley son para un derrame que llega, o puede"
    " llegar, al sistema de drenaje pluvial, y su aviso inmediato a los servicios de emergencia,"
    " para uno de materiales peligrosos. Donde usted contestó “No estoy seguro”, tomamos el lado"
    " seguro y lo contamos como “sí”; donde contestó que no llegó ni podía llegar a un desagüe"
    " pluvial, una zanja o un arroyo, entendemos que la ley quizá no exige el aviso ni el registro."
)
# Not called, told by phone at 9:30 (the filer's word): the letter is then still to mail.
NOT_CALLED = {"emergency_called": "no", "emergency_called_at": "", "reached_drain": "yes"}
# Two gallons of motor oil on a driveway, contained: the resident walk's M1.
CONTAINED = {
    "emergency_called": "no",
    "emergency_called_at": "",
    "reached_drain": "no",
    "amount_reached": "",
    "dec_called": "not-needed",
    "dec_called_at": "",
    "dec_spill_number": "",
    "materials": "Used motor oil",
    "quantity": "2",
}


def words(page: str) -> str:
    """A page or an HTML mail as a person reads it: the text, spaces made single."""
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return re.sub(
        r" ([.,;:])", r"\1", " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())
    )


def file_monday(client, app, lang: str = "en", **overrides):
    """Discovered Monday 1 March 2027 at 9:00, told by phone at 9:30, filed at 10:00, from a
    page in `lang`; returns (review page, receipt address)."""
    at(app, "2027-03-01T10:00")
    day = "2027-03-01T"
    data = notification_data(
        **{
            "began_at": day + "08:30",
            "discovered_at": day + "09:00",
            "emergency_called_at": day + "09:10",
            "dec_called_at": day + "09:20",
            "ended_at": day + "09:45",
            "prior_notice_at": day + "09:30",
            **overrides,
        }
    )
    if lang == "en":
        review, final = file_notification(client, data)
    else:
        first = client.get(f"/notify/?lang={lang}")
        triage = {name: data[name] for name in ("danger", "hazardous", "petroleum")}
        details = client.post(
            "/notify/", data={**hidden_fields(first.text), "step": "triage"} | triage
        )
        payload = {**hidden_fields(details.text), **data, "step": "details"}
        review = client.post("/notify/", data=payload, content_type="multipart/form-data")
        final = client.post("/notify/", data={**hidden_fields(review.text), "step": "confirm"})
    assert final.status_code == 303, review.text[:400]
    return review.text, final.headers["Location"]


def call_and_letter_recorded(client, app) -> None:
    """Staff log the filer's call and the letter mailed Thursday 4 March, in time."""
    sign_in(client, app)
    log_notice(client, "phone", "2027-03-01T09:30")
    at(app, "2027-03-05T11:00")
    assert record_letter(client, 1, "2027-03-04").status_code == 303


def test_hazardous_and_911_not_called_is_told_first_and_never_that_nothing_is_due(
    app, client, mail_server
):
    review, receipt = file_monday(client, app, **NOT_CALLED)
    [mail] = mail_server.to("sam@depot.test")
    for text in (review, client.get(receipt).text, body(mail, "html")):
        text = words(text)
        assert "Still to do: " + EMERGENCY_LINE + " Mail the written confirmation" in text
        assert "Nothing more is due" not in text
    assert "STILL TO DO:\r\n- " + EMERGENCY_LINE in body(mail)
    assert body(mail).index("STILL TO DO:") < body(mail).index("DEADLINES")
    # The call and the letter recorded: the 911 call is still outstanding, said first.
    call_and_letter_recorded(client, app)
    later = words(client.get(receipt).text)
    assert "Still to do: " + EMERGENCY_LINE + " Keep the facility's on-site written record" in later
    assert "Nothing more is due" not in later
    case = words(client.get("/staff/cases/1/").text)
    assert (
        "911 not called, as the filer answers. The material is or may be hazardous and the"
        " release reaches or may reach the storm sewer system: § 216-12 requires emergency"
        " responders to be told immediately, through 911. The filer was told so first, on the"
        " review, the receipt and in the mail."
    ) in case


def test_hazardous_and_911_called_is_as_before(app, client, mail_server):
    review, receipt = file_monday(client, app)
    [mail] = mail_server.to("sam@depot.test")
    for text in (review, client.get(receipt).text, body(mail, "html"), body(mail)):
        assert "requires emergency responders" not in words(text)
    assert "Still to do: Mail the written confirmation to Horseheads Village Hall" in words(review)
    assert "STILL TO DO" not in body(mail)
    call_and_letter_recorded(client, app)
    later = words(client.get(receipt).text)
    assert NOTHING_DUE in later and "Still to do:" not in later
    assert "911 not called" not in client.get("/staff/cases/1/").text


def test_not_sure_it_is_hazardous_and_not_called_is_told_first_with_the_reading(
    app, client, mail_server
):
    review, receipt = file_monday(
        client, app, **NOT_CALLED | {"hazardous": "unsure", "reached_drain": "unsure"}
    )
    [mail] = mail_server.to("sam@depot.test")
    for text in (review, client.get(receipt).text, body(mail, "html")):
        text = words(text)
        assert "Still to do: " + EMERGENCY_LINE in text
        assert READING in text
    assert "- " + EMERGENCY_LINE in body(mail)
    assert READING in " ".join(body(mail).split())
    sign_in(client, app)
    assert "Our reading: “Not sure” counts as “yes”." in client.get("/staff/cases/1/").text


def test_a_release_that_could_not_reach_a_drain_is_advised_not_told_the_law_requires(
    app, client, mail_server
):
    review, receipt = file_monday(client, app, **CONTAINED)
    [mail] = mail_server.to("sam@depot.test")
    plain = " ".join(body(mail).split())
    for text in (words(review), words(client.get(receipt).text), words(body(mail, "html"))):
        assert ADVISED + " Mail the written confirmation" in text
        assert "To be safe, keep an on-site written record of the release" in text
        assert RECORD_ADVISED in text and READING in text
        assert "requires emergency responders" not in text and "call 911 now" not in text
        assert "so § 216-12 requires the owner or operator" not in text
        assert "Keep the facility's on-site written record of the release." not in text
    assert "TO BE SAFE, WE ADVISE: " + ADVISED.removeprefix("To be safe, we advise: ") in plain
    assert RECORD_ADVISED in plain and "requires emergency responders" not in plain
    sign_in(client, app)
    assert (
        "Could not reach a drain, as the filer answers. The filer says the release did not and"
        " could not enter a storm drain, ditch or stream: § 216-12 may then not require the"
        " notice or the on-site record (our reading: its duties are for a release that reaches"
        " or may reach the storm sewer system). The filer was advised to give them to be safe,"
        " and not asked to call 911."
    ) in words(client.get("/staff/cases/1/").text)


def test_in_spanish_the_911_line_comes_first_and_nothing_due_is_never_said(
    app, client, mail_server
):
    review, receipt = file_monday(
        client, app, "es", **NOT_CALLED | {"responsible_email": "ana@taller.test"}
    )
    [mail] = mail_server.to("ana@taller.test")
    for text in (review, client.get(receipt).text, body(mail, "html")):
        text = words(text)
        assert "Todavía falta: " + EMERGENCY_LINE_ES in text
        assert "no falta nada más" not in text
    assert "TODAVÍA FALTA:\r\n- " + EMERGENCY_LINE_ES in body(mail)
    call_and_letter_recorded(client, app)
    later = words(client.get(receipt).text)
    assert "Todavía falta: " + EMERGENCY_LINE_ES in later
    assert "no falta nada más" not in later


def test_in_spanish_911_called_ends_with_nothing_more_due(app, client):
    _, receipt = file_monday(client, app, "es", responsible_email="ana@taller.test")
    call_and_letter_recorded(client, app)
    later = words(client.get(receipt).text)
    assert NOTHING_DUE_ES in later and "exige avisar de inmediato" not in later


def test_in_spanish_a_release_that_could_not_reach_a_drain_is_advised(app, client, mail_server):
    review, receipt = file_monday(
        client, app, "es", **CONTAINED | {"responsible_email": "ana@taller.test"}
    )
    [mail] = mail_server.to("ana@taller.test")
    plain = " ".join(body(mail).split())
    for text in (words(review), words(client.get(receipt).text), words(body(mail, "html")), plain):
        assert ADVISED_ES.removeprefix("Por seguridad, le aconsejamos: ") in text
        assert READING_ES in text
        assert "exige avisar de inmediato" not in text
    assert ADVISED_ES in words(review)


def test_a_rental_s_spanish_receipt_reaches_the_filer(app, client, mail_server):
    """A Spanish receipt for a kind that may keep the record (its paragraph and the reading of
    who keeps it) has every line under SMTP's 998 characters: the test server refused it."""
    file_monday(client, app, "es", facility_kind="rental", responsible_email="ana@taller.test")
    [mail] = mail_server.to("ana@taller.test")
    for part in (" ".join(body(mail).split()), words(body(mail, "html"))):
        assert (
            "Nuestra interpretación de quién lo guarda. La ley no dice qué lugares son"
            " establecimientos comerciales o industriales."
        ) in part
