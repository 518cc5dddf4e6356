"""The record of a release notification, as the filer's receipt and the staff's case page show
it: every group, label and value, written out as a person reads them."""

from __future__ import annotations

import html
import re

import pytest
from helpers import database, file_notification, notification_data, sign_in
from test_spanish_notification import walk
from throwaway_pack import text

SECTION = re.compile(
    r'<section class="record-section">\s*<h\d>([^<]*)</h\d>\s*<dl class="summary-list">(.*?)</dl>',
    re.S,
)
ROW = re.compile(r"<dt>(.*?)</dt><dd>(.*?)</dd>", re.S)


def record_on(page: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """The record's groups on a page, each with its (label, value) rows, as text."""
    return [
        (html.unescape(title), [(html.unescape(a), html.unescape(b)) for a, b in ROW.findall(rows)])
        for title, rows in SECTION.findall(page)
    ]


def receipt_of(client, data: dict) -> str:
    review, final = file_notification(client, data)
    assert final is not None and final.status_code == 303, review.text[:400]
    return client.get(final.headers["Location"]).text


# Everything answered: danger, a hazardous petroleum product, both calls made, a permit, a
# point on the map, an amount in four figures and a fraction, a notice given by phone first.
EVERY_ANSWER = notification_data(
    danger="yes",
    quantity="1500.5",
    latitude="42.16701",
    longitude="-76.82099",
)
EVERY_ANSWER_RECORD = [
    (
        "Safety",
        [
            ("Anyone hurt or in danger, or a fire", "Yes"),
            ("Hazardous material", "Yes"),
            ("Petroleum product", "Yes"),
            ("Called 911", "Yes, November 2, 2026 at 9:10 a.m."),
            ("Called the NYSDEC Spill Hotline", "Yes, November 2, 2026 at 9:20 a.m."),
            ("NYSDEC spill number", "2608123"),
        ],
    ),
    (
        "Facility",
        [
            ("Name", "Depot Street Fuel"),
            ("Street address", "12 Depot Street"),
            ("Kind", "Commercial (a shop, garage, restaurant, office)"),
            ("SPDES stormwater permit", "SPDES industrial stormwater permit, number NYR00A123"),
        ],
    ),
    (
        "Responsible person",
        [
            ("Name", "Sam Lee"),
            ("Job title", "Yard manager"),
            ("Phone", "(555) 555-0100"),
            ("E-mail", "sam@depot.test"),
        ],
    ),
    (
        "The release",
        [
            ("Discovered", "November 2, 2026 at 9:00 a.m."),
            ("Began", "November 2, 2026 at 8:30 a.m."),
            ("Stopped", "November 2, 2026 at 9:45 a.m."),
            ("Material released", "Diesel fuel"),
            ("Estimated amount", "1500.5 gallons"),
            ("Where", "Loading dock behind 12 Depot Street (42.16701, -76.82099)"),
            ("Entered or may enter a storm drain, ditch or stream", "It may still go in"),
            ("Roughly how much went in", "a cup or two"),
            ("Cause", "A split fuel hose"),
            (
                "Containment and cleanup so far",
                "Absorbent booms around the drain, pads on the spill",
            ),
            ("To prevent it happening again", "Hoses replaced; inspections weekly"),
        ],
    ),
    (
        "Earlier notice",
        [
            ("Already told", "Yes, by telephone"),
            ("When", "November 2, 2026 at 10:00 a.m."),
            ("Told to", "Village Clerk"),
        ],
    ),
]


def test_the_receipt_shows_every_answer_labelled_as_on_the_form(client, mail_server):
    assert record_on(receipt_of(client, EVERY_ANSWER)) == EVERY_ANSWER_RECORD


def test_the_case_page_shows_the_same_record(app, client, mail_server):
    receipt_of(client, EVERY_ANSWER)
    sign_in(client, app)
    assert record_on(client.get("/staff/cases/1/").text) == EVERY_ANSWER_RECORD


# A harmless release with every answer the form lets one leave blank left blank: no calls
# asked, no permit, no title, no start, not over, no amount, nothing told yet.
LEFT_BLANK = notification_data(
    danger="no",
    hazardous="no",
    petroleum="no",
    emergency_called="",
    emergency_called_at="",
    dec_called="",
    dec_called_at="",
    dec_spill_number="",
    facility_kind="other",
    permit="none",
    permit_number="",
    responsible_title="",
    began_at="",
    is_over="no",
    ended_at="",
    quantity="",
    unit="",
    reached_drain="unsure",
    amount_reached="",
    prior_notice="none",
    prior_notice_at="",
    prior_notice_to="",
)
LEFT_BLANK_RECORD = [
    (
        "Safety",
        [
            ("Anyone hurt or in danger, or a fire", "No"),
            ("Hazardous material", "No"),
            ("Petroleum product", "No"),
        ],
    ),
    (
        "Facility",
        [
            ("Name", "Depot Street Fuel"),
            ("Street address", "12 Depot Street"),
            ("Kind", "Something else"),
            ("SPDES stormwater permit", "No stormwater permit"),
        ],
    ),
    (
        "Responsible person",
        [
            ("Name", "Sam Lee"),
            ("Job title", "Not given"),
            ("Phone", "(555) 555-0100"),
            ("E-mail", "sam@depot.test"),
        ],
    ),
    (
        "The release",
        [
            ("Discovered", "November 2, 2026 at 9:00 a.m."),
            ("Began", "Not known"),
            ("Stopped", "No, not yet"),
            ("Material released", "Diesel fuel"),
            ("Estimated amount", "Not given"),
            ("Where", "Loading dock behind 12 Depot Street"),
            ("Entered or may enter a storm drain, ditch or stream", "Not sure"),
            ("Cause", "A split fuel hose"),
            (
                "Containment and cleanup so far",
                "Absorbent booms around the drain, pads on the spill",
            ),
            ("To prevent it happening again", "Hoses replaced; inspections weekly"),
        ],
    ),
    ("Earlier notice", [("Already told", "No, not yet")]),
]


def test_a_record_with_answers_left_blank_says_not_given_or_not_known(client, mail_server):
    assert record_on(receipt_of(client, LEFT_BLANK)) == LEFT_BLANK_RECORD


def safety_of(client, **answers) -> list[tuple[str, str]]:
    """The record's safety rows for a filing with these answers."""
    [(title, rows), *_] = record_on(receipt_of(client, notification_data(**answers)))
    assert title == "Safety"
    return rows


NO_CALL_ASKED = {"emergency_called": "", "emergency_called_at": "", "dec_called": ""}
NO_CALL_ASKED |= {"dec_called_at": "", "dec_spill_number": ""}


@pytest.mark.parametrize(
    ("danger", "hazardous", "petroleum", "asked"),
    [
        ("yes", "no", "no", True),
        ("no", "unsure", "no", True),
        ("no", "no", "unsure", True),
        ("no", "yes", "no", True),
        ("no", "no", "yes", True),
        ("no", "no", "no", False),
    ],
)
def test_the_calls_are_in_the_record_when_the_form_asked_about_them(
    client, mail_server, danger, hazardous, petroleum, asked
):
    answers = {"danger": danger, "hazardous": hazardous, "petroleum": petroleum}
    labels = [
        label for label, _ in safety_of(client, **answers, **({} if asked else NO_CALL_ASKED))
    ]
    calls = ["Called 911", "Called the NYSDEC Spill Hotline", "NYSDEC spill number"]
    first = ["Anyone hurt or in danger, or a fire", "Hazardous material", "Petroleum product"]
    assert labels == first + (calls if asked else [])


def test_calls_not_made_are_recorded_as_no_without_a_time(client, mail_server):
    rows = safety_of(
        client,
        danger="no",
        hazardous="unsure",
        petroleum="no",
        emergency_called="no",
        emergency_called_at="",
        dec_called="no",
        dec_called_at="",
        dec_spill_number="",
    )
    assert rows == [
        ("Anyone hurt or in danger, or a fire", "No"),
        ("Hazardous material", "Not sure"),
        ("Petroleum product", "No"),
        ("Called 911", "No"),
        ("Called the NYSDEC Spill Hotline", "No"),
        ("NYSDEC spill number", "Not given"),
    ]


def test_a_spanish_receipt_writes_dates_and_amounts_as_spanish_does(client, mail_server):
    data = notification_data(danger="yes", quantity="1500,5", unit="liters")
    record = dict(record_on(walk(client, data)["receipt"].text))
    assert record["Seguridad"][3:5] == [
        ("Llamó al 911", "Sí, 2 de noviembre de 2026, 9:10 a. m."),
        ("Llamó a la Línea de Derrames del NYSDEC", "Sí, 2 de noviembre de 2026, 9:20 a. m."),
    ]
    assert record["El derrame"][:5] == [
        ("Se descubrió", "2 de noviembre de 2026, 9:00 a. m."),
        ("Empezó", "2 de noviembre de 2026, 8:30 a. m."),
        ("Paró", "2 de noviembre de 2026, 9:45 a. m."),
        ("Material derramado", "Diesel fuel"),
        ("Cantidad aproximada", "1500,5 litros"),
    ]
    assert record["Aviso anterior"][1] == ("Cuándo", "2 de noviembre de 2026, 10:00 a. m.")


@pytest.mark.parametrize(("unit", "amount"), [(None, "3"), ("drums", "3 drums")])
def test_a_stored_row_the_form_would_not_make_still_reads_plainly(
    app, client, mail_server, unit, amount
):
    """Rows the table allows though today's form never stores them (a value dropped from the
    form's choices, an answer it now requires left empty): the record shows what is there."""
    _, final = file_notification(client, notification_data())
    with database(app.config["DATABASE"]) as conn:
        conn.execute(
            "UPDATE notifications SET emergency_called = NULL, dec_called = NULL,"
            " facility_kind = 'warehouse', ended_at = NULL, quantity = 3, unit = ?",
            [unit],
        )
    record = dict(record_on(client.get(final.headers["Location"]).text))
    assert record["Safety"][3:5] == [
        ("Called 911", "Not given, November 2, 2026 at 9:10 a.m."),
        ("Called the NYSDEC Spill Hotline", "Not given, November 2, 2026 at 9:20 a.m."),
    ]
    assert record["Facility"][2] == ("Kind", "warehouse")
    assert record["The release"][2] == ("Stopped", "Yes")
    assert record["The release"][4] == ("Estimated amount", amount)


PETROLEUM_RULE = (
    "a petroleum spill (gasoline, diesel, fuel oil, motor oil), unless all four of these hold:"
    " it is known to be under 5 gallons; it is contained and under control; it has not reached"
    " and will not reach water or any land; and it is cleaned up within two hours"
)
HAZARDOUS_RULE = "a hazardous substance released at or above its reportable quantity"
CALL = (
    "Call the NYSDEC Spill Hotline (24 hours) now, at 1-800-457-7362 , if the State's rule"
    " applies: The State requires {what} to be reported to it within two hours of discovery: "
)


@pytest.mark.parametrize(
    ("danger", "hazardous", "petroleum", "call"),
    [
        ("no", "yes", "no", CALL.format(what="this") + HAZARDOUS_RULE + "."),
        ("no", "no", "unsure", CALL.format(what="this") + PETROLEUM_RULE + "."),
        ("no", "unsure", "yes", CALL.format(what="these") + f"{PETROLEUM_RULE}; {HAZARDOUS_RULE}."),
        # Danger alone: the hotline is asked about, but the State's rule is not for it.
        ("yes", "no", "no", None),
    ],
)
def test_a_hotline_call_not_made_is_asked_for_with_the_parts_of_the_state_s_rule_that_apply(
    client, mail_server, danger, hazardous, petroleum, call
):
    data = notification_data(danger=danger, hazardous=hazardous, petroleum=petroleum)
    page = receipt_of(client, data | {"dec_called": "no", "dec_called_at": ""})
    [advice] = re.findall(r'<div class="notice late-advice">(.*?)</div>', page, re.S)
    # The call's item, up to the next one's first word.
    assert re.findall(r"Call the NYSDEC.*?\.(?= [A-Z])", text(advice)) == ([call] if call else [])
