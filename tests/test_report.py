"""The resident report: validation, storing, one report per submission, mail after commit."""

from __future__ import annotations

import datetime as dt
import io
import json
import re

import pytest
from helpers import (
    database,
    form_keys,
    hidden_fields,
    jpeg,
    open_form,
    png_header_only,
    post,
    report_data,
    rows,
)
from mailserver import body

from bench.weights import FORM_PAGE_BUDGET, OFFLINE_BUDGET, offline_weight, page_weight
from portal.core.db import get_db
from portal.intake.storage import PhotoExpired, store_case


def test_form_page_has_what_a_resident_needs(client):
    page = client.get("/report/").text
    assert 'call <strong><a class="tel" href="tel:911">911</a></strong> now' in page
    assert "1-800-457-7362" in page
    for label in (
        "What did you see?",
        "Where is it?",
        "When did you first notice it?",
        "Photos",
        "About you",
    ):
        assert label in page
    assert 'enctype="multipart/form-data"' in page
    assert "We do not publish your name or contact details:" in page
    assert "They are never published" not in page


def test_form_page_stays_within_its_weight_budget(client):
    """Before the map is opened: the HTML, its CSS and JS, gzipped (Leaflet loads on demand)."""
    html = client.get("/report/").data
    _, total = page_weight(html, lambda url: client.get(url).data)
    assert total <= FORM_PAGE_BUDGET
    assert b'leaflet.js"' not in html.split(b"data-leaflet-js")[0]


def test_the_offline_code_stays_within_its_own_budget(client):
    """The service worker, drafts.js, offline.js and send.js: loaded once the form is interactive."""
    files, total = offline_weight(client.get("/report/").data, lambda url: client.get(url).data)
    assert files == 4
    assert 0 < total <= OFFLINE_BUDGET


def test_a_valid_report_is_stored_with_a_reference_and_a_status_link(app, client, mail_server):
    response = post(client, report_data(), photos=[("creek.jpg", jpeg())])
    assert response.status_code == 303
    confirmation = client.get(response.headers["Location"])
    reference = re.search(r"IDR-\d{4}-\d{4}", confirmation.text).group(0)
    assert reference.endswith("-0001")
    [case] = rows(app, "SELECT * FROM cases")
    assert case["reference"] == reference and case["kind"] == "report"
    assert case["in_service_area"] == 1 and case["latitude"] == 42.16701
    assert case["received_at"].endswith(("-05:00", "-04:00"))
    [report] = rows(app, "SELECT * FROM reports")
    assert json.loads(report["indicators"]) == ["suds", "odor"]
    assert report["observed_at"] == "2026-11-29T08:15-05:00"
    [photo] = rows(app, "SELECT width, height, content_type FROM photos")
    assert (photo["width"], photo["height"]) == (1600, 1200)
    token = re.search(r"/status/([\w-]+)/", confirmation.text).group(1)
    assert case["token_hash"] != token and token not in json.dumps(case)


def test_references_follow_a_yearly_sequence(app, client):
    for _ in range(3):
        post(client, report_data())
    assert [r["reference"][-4:] for r in rows(app, "SELECT reference FROM cases ORDER BY id")] == [
        "0001",
        "0002",
        "0003",
    ]


def test_mail_reaches_the_smo_and_the_reporter(client, mail_server):
    post(client, report_data(description="Suds <b>here</b>"), photos=[("a.jpg", jpeg())])
    [smo] = mail_server.to("smo@village.test")
    assert smo["Subject"].startswith("New illicit discharge report IDR-")
    text = body(smo)
    assert "Suds <b>here</b>" in text and "Pat Doe" in text and "pat@example.test" in text
    assert "https://www.openstreetmap.org/?mlat=42.16701&mlon=-76.82099" in text
    assert "Suds &lt;b&gt;here&lt;/b&gt;" in body(smo, "html")
    assert [part.get_filename() for part in smo.iter_attachments()] == ["photo-1.jpg"]
    [ack] = mail_server.to("pat@example.test")
    assert re.search(r"https://portal\.village\.test/status/[\w-]+/", body(ack))
    assert "Suds" not in body(ack), "the acknowledgement carries the reference, not the details"
    # The State's two cases each on a line of their own; no translation note in English.
    assert "1-800-457-7362 within two hours of discovery:\r\n- a petroleum" in body(ack)
    assert "translation" not in body(ack)


def test_anonymous_report_gets_no_mail_but_a_status_link(app, client, mail_server):
    data = report_data(contact_name="", contact_email="", contact_phone="")
    confirmation = client.get(post(client, data).headers["Location"])
    assert "cannot send you updates" in confirmation.text
    assert [m["To"] for m in mail_server.messages] == ["smo@village.test"]
    assert "Anonymous." in body(mail_server.messages[0])


def test_posting_the_same_form_twice_creates_one_report(app, client, mail_server):
    hidden = open_form(client)
    first = client.post("/report/", data={**hidden, **report_data()})
    second = client.post("/report/", data={**hidden, **report_data()})
    assert first.status_code == second.status_code == 303
    # The same thanks page, saying (once) that this one was already sent.
    assert second.headers["Location"] == first.headers["Location"]
    assert "we have not made a second one" in client.get(second.headers["Location"]).text
    assert "we have not made a second one" not in client.get(first.headers["Location"]).text
    assert len(rows(app, "SELECT id FROM cases")) == 1
    assert len(mail_server.messages) == 2


def test_reusing_a_form_key_for_other_content_is_refused(app, client):
    hidden = open_form(client)
    client.post("/report/", data={**hidden, **report_data()})
    response = client.post("/report/", data={**hidden, **report_data(description="Other")})
    assert response.status_code == 409
    text = " ".join(re.sub(r"<[^>]+>", " ", response.text).split())
    assert re.search(
        r"This report was already sent as IDR-2026-0001 , on [A-Z][a-z]+ \d+, 2026 at"
        r" \d{1,2}:\d\d [ap]\.m\. We have not made a second report from it\.",
        text,
    )
    # Its status link (the key is this form's own, as secret as the link), and nothing that
    # asks to go back and send it again.
    assert re.search(
        r'<a href="/status/[\w-]+/">http://localhost/status/[\w-]+/</a>', response.text
    )
    assert "go back, reload" not in response.text.lower()
    assert len(rows(app, "SELECT id FROM cases")) == 1


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"description": ""}, "description", "Describe what you saw, in a few words or more."),
        ({"description": "x" * 4001}, "description", "Keep this to 4,000 characters or fewer."),
        (
            {"address": "", "latitude": "", "longitude": ""},
            "address",
            "Tell us where: type an address or landmark, or use your location.",
        ),
        ({"latitude": "200"}, "latitude", "The latitude must be between -90 and 90."),
        (
            {"longitude": "east"},
            "longitude",
            "Enter the longitude as a decimal number, or leave it empty.",
        ),
        ({"longitude": ""}, "longitude", "Give the longitude too, or clear both coordinates."),
        (
            {"observed_at": "2099-01-01T09:00"},
            "observed_at",
            "This date and time is in the future. Enter when you first saw it.",
        ),
        (
            {"observed_at": "yesterday"},
            "observed_at",
            "Enter the date and time, like 2026-05-14 09:30.",
        ),
        (
            {"contact_email": "pat@"},
            "contact_email",
            "Enter an e-mail address like name@example.com, or leave it empty.",
        ),
        (
            {"contact_phone": "12"},
            "contact_phone",
            "Enter a phone number like (555) 555-0123, or leave it empty.",
        ),
        ({"indicators": ["suds", "lava"]}, "indicators", "Choose from the options shown."),
        ({"odor": "roses"}, "odor", "Choose a smell from the list."),
        ({"location_type": "moon"}, "location_type", "Choose one of the options shown."),
    ],
)
def test_errors_are_shown_next_to_each_field_with_the_typed_value_kept(
    app, client, overrides, field, message
):
    data = report_data(**overrides)
    response = post(client, data)
    assert response.status_code == 422
    page = response.text
    error = re.search(rf'<p class="error-message" id="{field}-error">(.*?)</p>', page, re.DOTALL)
    assert error, f"no error next to {field}"
    assert message in error.group(1)
    assert f'href="#{field}' in page.split('id="error-summary"')[1].split("</div>")[0]
    described = re.search(rf'aria-describedby="[^"]*{field}-error"([^>]*)>', page)
    assert described, "the field (or its group's fieldset) points at its error"
    if field not in ("indicators", "location_type"):
        assert 'aria-invalid="true"' in described.group(1)
    typed = data["description"]
    if len(typed) < 200:
        assert typed.replace("'", "&#39;") in page
    assert rows(app, "SELECT id FROM cases") == []


def test_photos_already_uploaded_are_kept_when_the_form_has_errors(app, client):
    hidden = open_form(client)
    first = client.post(
        "/report/",
        data={
            **hidden,
            **report_data(description=""),
            "photos": [(io.BytesIO(jpeg()), "creek.jpg")],
        },
        content_type="multipart/form-data",
    )
    assert first.status_code == 422
    assert "creek.jpg (1600 × 1200)" in first.text
    kept = hidden_fields(first.text)["kept_photos"]
    second = client.post("/report/", data={**hidden, **report_data(), "kept_photos": kept})
    assert second.status_code == 303
    assert len(rows(app, "SELECT id FROM photos")) == 1
    assert rows(app, "SELECT id FROM pending_photos") == []


def test_a_kept_photo_can_be_removed(app, client):
    hidden = open_form(client)
    first = client.post(
        "/report/",
        data={**hidden, **report_data(description=""), "photos": [(io.BytesIO(jpeg()), "a.jpg")]},
        content_type="multipart/form-data",
    )
    kept = hidden_fields(first.text)["kept_photos"]
    client.post(
        "/report/", data={**hidden, **report_data(), "kept_photos": kept, "remove_photo": kept}
    )
    assert rows(app, "SELECT id FROM photos") == []


def test_at_most_three_photos(app, client):
    photos = [(f"p{i}.jpg", jpeg((40, 30))) for i in range(4)]
    response = post(client, report_data(), photos=photos)
    assert response.status_code == 422
    assert "p3.jpg was not added: you can attach up to 3 photos" in response.text
    assert response.text.count("(40 × 30)") == 3


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("notes.jpg", b"just some text, not a picture", "This file is not a photo we can read."),
        ("cut.jpg", jpeg()[:5000], "This file is not a photo we can read."),
        (
            "drawing.svg",
            b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
            "This file is not a photo we can read.",
        ),
        ("empty.jpg", b"", "The file is empty. Choose a photo to attach."),
        ("huge.png", png_header_only(50_000, 50_000), "This image is too big for us to process."),
    ],
)
def test_files_that_are_not_photos_are_refused_clearly(app, client, name, content, message):
    response = post(client, report_data(), photos=[(name, content)])
    assert response.status_code == 422
    assert f"{name}: {message}" in response.text
    assert rows(app, "SELECT id FROM cases") == []


def test_a_failure_while_storing_photos_leaves_no_half_report(app):
    """The case, its details, the reference counter and the photos commit together or not at all."""
    with app.app_context():
        db = get_db()
        db["pending_photos"].insert(
            {
                "id": "p" * 20,
                "submission_key": "k" * 20,
                "filename": "a.jpg",
                "content_type": "image/jpeg",
                "width": 1,
                "height": 1,
                "sha256": "x",
                "data": b"x",
                "created_at": "2026-11-29T10:00:00-05:00",
            }
        )
        with pytest.raises(PhotoExpired):
            store_case(
                db,
                kind="report",
                secret="s",
                submission_key="k" * 20,
                case={"service_code": "illicit-discharge", "address": "here"},
                details={"indicators": "[]", "description": "d", "observed_at": "2026-11-29T10:00"},
                photo_ids=["p" * 20, "missing-photo-id-000"],
                now=dt.datetime(2026, 11, 29, 10, tzinfo=dt.UTC),
            )
    for table in ("cases", "reports", "photos", "reference_counters"):
        assert rows(app, f"SELECT * FROM {table}") == [], table
    assert len(rows(app, "SELECT id FROM pending_photos")) == 1


def test_a_photo_that_vanishes_before_the_commit_is_asked_for_again(app, client):
    hidden = open_form(client)
    first = client.post(
        "/report/",
        data={**hidden, **report_data(description=""), "photos": [(io.BytesIO(jpeg()), "a.jpg")]},
        content_type="multipart/form-data",
    )
    kept = hidden_fields(first.text)["kept_photos"]
    with database(app.config["DATABASE"]) as conn:
        # Gone after keep_photos() read it: simulate with a trigger that deletes on first read.
        conn.execute(
            "CREATE TRIGGER vanish AFTER INSERT ON reference_counters BEGIN"
            " DELETE FROM pending_photos; END"
        )
    response = client.post("/report/", data={**hidden, **report_data(), "kept_photos": kept})
    assert response.status_code == 422
    assert "A photo could not be kept. Please attach it again." in response.text
    assert rows(app, "SELECT id FROM cases") == []


def test_the_honeypot_stores_nothing(app, client, mail_server):
    response = post(client, report_data(nickname="Buy now"))
    assert response.status_code == 400
    assert rows(app, "SELECT id FROM cases") == [] and mail_server.messages == []


def test_coordinates_outside_the_service_area_are_accepted_with_a_note(app, client):
    response = post(client, report_data(latitude="40.7128", longitude="-74.0060"))
    page = client.get(response.headers["Location"]).text
    assert "outside the Village of Horseheads" in page
    assert rows(app, "SELECT in_service_area FROM cases") == [{"in_service_area": 0}]


def test_a_report_that_sounds_exempt_gets_a_gentle_hint(client):
    response = post(client, report_data(description="Water running from the neighbor's sprinkler"))
    page = client.get(response.headers["Location"]).text
    assert "landscape irrigation or lawn watering" in page
    assert 'href="/exempt-discharges/"' in page


def test_the_same_form_with_a_photo_sent_twice_creates_one_report(app, client, mail_server):
    """A lost answer and a resend: the photo arrives again under a new pending id."""
    hidden = open_form(client)
    photo = jpeg()

    def send():
        data = {**hidden, **report_data(), "photos": [(io.BytesIO(photo), "a.jpg")]}
        return client.post("/report/", data=data, content_type="multipart/form-data")

    answers = [send(), send()]
    assert [a.status_code for a in answers] == [303, 303]
    assert answers[0].headers["Location"] == answers[1].headers["Location"]
    assert len(rows(app, "SELECT id FROM cases")) == 1
    assert (
        len(rows(app, "SELECT id FROM photos")) == 1
        and rows(app, "SELECT id FROM pending_photos") == []
    )
    assert len(mail_server.messages) == 2


def test_mail_of_a_case_stored_without_it_is_queued_by_the_sweep(app, client, mail_server):
    """A worker killed between storing a case and queueing its mail leaves it unmarked."""
    from portal.mail.compose import queue_forgotten_mail

    client.post("/report/", data={**open_form(client), **report_data()})
    with database(app.config["DATABASE"]) as conn:
        conn.execute("DELETE FROM outbox")
        conn.execute("UPDATE cases SET mail_queued_at = NULL")
    with app.test_request_context(base_url="https://portal.village.test"):
        db = get_db()
        assert queue_forgotten_mail(db) == 1
        assert queue_forgotten_mail(db) == 0, "marked: queued once"
    assert {r["purpose"] for r in rows(app, "SELECT purpose FROM outbox")} == {"smo", "ack"}
    assert rows(app, "SELECT mail_queued_at FROM cases")[0]["mail_queued_at"]


def test_the_report_views_read_the_app_clock(app, client):
    """05:30 UTC on 29 February is 00:30 in the Village: the form, its checks and the stored
    case all go by the app's clock (CLOCK), never the server's wall clock."""
    app.config["CLOCK"] = lambda: dt.datetime(2028, 2, 29, 5, 30, tzinfo=dt.UTC)
    page = client.get("/report/").text
    assert hidden_fields(page) and 'value="2028-02-29T00:30"' in page
    # The form's "not in the future" check uses the same clock (10 minutes' slack).
    response = post(client, report_data(observed_at="2028-02-29T00:45"))
    assert response.status_code == 422 and "in the future" in response.text
    assert post(client, report_data(observed_at="2028-02-29T00:35")).status_code == 303
    received = rows(app, "SELECT received_at FROM cases")[-1]["received_at"]
    assert received == "2028-02-29T00:30:00-05:00"


def test_the_form_posts_to_its_own_address_and_is_kept_for_back(client):
    page = client.get("/report/")
    assert 'action="/report/send/"' in page.text
    # Back shows the copy the browser kept, with its key (a POST to the page's own address
    # would make the browser drop it); every other visit fetches it anew.
    assert page.headers["Cache-Control"] == "private, no-cache"
    assert "Cookie" not in page.headers.get("Vary", "")
    hidden = form_keys(page.text)
    sent = client.post("/report/send/", data={**hidden, **report_data()})
    assert sent.status_code == 303 and sent.headers["Location"].startswith("/report/sent/")
    assert sent.headers["Cache-Control"] == "no-store"


def test_a_sent_form_brought_back_without_a_field_is_already_sent_not_an_error(app, client):
    """Back after Send: the browser keeps what was typed but not the address (autocomplete
    is off there); the form is in already, so nothing is asked to be corrected."""
    hidden = open_form(client)
    client.post("/report/", data={**hidden, **report_data()})
    again = client.post(
        "/report/", data={**hidden, **report_data(address="", latitude="", longitude="")}
    )
    assert again.status_code == 409
    assert "This report was already sent as" in again.text and "Please fix" not in again.text
    assert len(rows(app, "SELECT id FROM cases")) == 1


def test_the_forms_script_gets_the_answer_as_json(app, client):
    hidden = open_form(client)
    data = {**hidden, **report_data(indicators=["suds"], address="Main Street bridge")}
    wanted = {"Accept": "application/json"}
    first = client.post("/report/send/", data=data, headers=wanted)
    assert first.status_code == 201 and first.mimetype == "application/json"
    answer = first.json
    assert re.fullmatch(r"IDR-2026-\d{4}", answer["reference"])
    assert first.headers["Location"] == answer["thanks"]
    assert re.fullmatch(r"/report/sent/[\w-]+/", answer["thanks"])
    assert re.fullmatch(r"http://localhost/status/[\w-]+/", answer["status_url"])
    assert (answer["what"], answer["where"], answer["status"]) == (
        "suds or foam",
        "Main Street bridge",
        "Received",
    )
    assert (
        answer["already"] is False and "Pat" not in first.text and "example.test" not in first.text
    )
    # The same again: the same report, said to be sent already; changed: 409, with its link.
    again = client.post("/report/send/", data=data, headers=wanted)
    assert again.status_code == 200 and again.json["already"] is True
    assert again.json["reference"] == answer["reference"]
    changed = client.post("/report/send/", data={**data, "description": "Other"}, headers=wanted)
    assert changed.status_code == 409 and changed.json["status_url"] == answer["status_url"]
    assert len(rows(app, "SELECT id FROM cases")) == 1
