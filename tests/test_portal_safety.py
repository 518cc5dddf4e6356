"""Malformed and hostile requests get a friendly 4xx page; status pages reveal no one."""

from __future__ import annotations

import re

import pytest
from helpers import database, open_form, report_data
from mailserver import body

from portal import create_app
from portal.web.errors import in_a_while

SCRIPT = '<script>alert("x")</script>'
TEXT_FIELDS = [
    "color",
    "description",
    "address",
    "source_description",
    "source_vehicle",
    "source_notes",
    "contact_name",
]


def submit(client, **overrides):
    response = client.post("/report/", data={**open_form(client), **report_data(**overrides)})
    assert response.status_code == 303, response.text[:500]
    return response.headers["Location"]


def test_status_page_shows_progress_but_no_contact_details(app, client):
    page = client.get(submit(client)).text
    status_url = re.search(r'href="(/status/[\w-]+/)"', page).group(1)
    with database(app.config["DATABASE"]) as conn:
        conn.execute("UPDATE cases SET status = 'investigating', public_note = 'Crew sent Monday.'")
    status = client.get(status_url)
    assert status.status_code == 200
    assert re.search(r"IDR-\d{4}-0001", status.text)
    assert "Being investigated" in status.text and "Crew sent Monday." in status.text
    for private in ("Pat Doe", "pat@example.test", "555-0123", "White foam"):
        assert private not in status.text


@pytest.mark.parametrize("token", ["IDR-2026-0001", "x" * 32, "a" * 200, "%00", "..%2f..%2f"])
def test_a_reference_or_a_guess_does_not_open_a_status_page(client, token):
    submit(client)
    response = client.get(f"/status/{token}/")
    assert response.status_code == 404
    assert "Page not found" in response.text


def test_script_in_every_text_field_is_shown_escaped(app, client, mail_server):
    overrides = {field: f"{field} {SCRIPT}" for field in TEXT_FIELDS}
    confirmation = client.get(submit(client, **overrides)).text
    status_url = re.search(r'href="(/status/[\w-]+/)"', confirmation).group(1)
    with database(app.config["DATABASE"]) as conn:
        conn.execute("UPDATE cases SET public_note = ?", [SCRIPT])
    pages = [confirmation, client.get(status_url).text]
    for message in mail_server.messages:
        pages.append(body(message, "html"))
    for page in pages:
        assert SCRIPT not in page
    assert "&lt;script&gt;" in pages[1]
    smo_html = body(mail_server.to("smo@village.test")[0], "html")
    assert smo_html.count("&lt;script&gt;") == len(TEXT_FIELDS)


def test_a_missing_csrf_token_shows_the_form_again_with_everything_kept(client):
    hidden = open_form(client)
    data = {
        **report_data(description="Oil in the drain on Elm"),
        "submission_key": hidden["submission_key"],
    }
    response = client.post("/report/", data=data)
    assert response.status_code == 400
    assert "Please send this form again" in response.text
    assert "Oil in the drain on Elm" in response.text
    fresh = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', response.text).group(1)
    again = client.post("/report/", data={**data, "csrf_token": fresh})
    assert again.status_code == 303


def test_a_wrong_csrf_token_is_refused(client):
    data = {**open_form(client), **report_data(), "csrf_token": "forged"}
    response = client.post("/report/", data=data)
    assert response.status_code == 400
    assert "Please send this form again" in response.text


def test_an_oversized_body_gets_a_friendly_413(client):
    hidden = open_form(client)
    payload = b"x" * (30 * 1024 * 1024)
    response = client.post(
        "/report/",
        data={
            **hidden,
            "description": "big",
            "photos": [(__import__("io").BytesIO(payload), "big.jpg")],
        },
        content_type="multipart/form-data",
    )
    assert response.status_code == 413
    assert "The form was too large to send" in response.text
    assert "Traceback" not in response.text


@pytest.mark.parametrize(
    ("method", "url", "code"),
    [
        ("PUT", "/report/", 405),
        ("DELETE", "/status/abc/", 405),
        ("POST", "/status/abc/", 405),
        ("GET", "/report/nothing", 404),
        ("POST", "/", 405),
    ],
)
def test_wrong_methods_and_unknown_urls(client, method, url, code):
    response = client.open(url, method=method)
    assert response.status_code == code
    assert "Traceback" not in response.text and "<h1>" in response.text


@pytest.mark.parametrize(
    ("data", "content_type"),
    [
        (b"description=\xff\xfe\xfa&address=\xc3\x28", "application/x-www-form-urlencoded"),
        (
            b'--b\r\nContent-Disposition: form-data; name="description"\r\n\r\nbroken',
            "multipart/form-data; boundary=b",
        ),
        (b"\x00\x01\x02", "multipart/form-data"),
        (b'{"description": "json"}', "application/json"),
    ],
)
def test_malformed_bodies_get_a_4xx_page(client, data, content_type):
    response = client.post("/report/", data=data, content_type=content_type)
    assert 400 <= response.status_code < 500
    assert "Traceback" not in response.text


def test_a_form_without_its_key_is_refused_plainly(app, client):
    hidden = open_form(client)
    response = client.post("/report/", data={"csrf_token": hidden["csrf_token"], **report_data()})
    assert response.status_code == 400
    assert "missing a part it needs" in response.text


def test_rate_limit_answers_429_with_a_friendly_page(tmp_path, mail_server):
    app = create_app(
        {
            "DATABASE": str(tmp_path / "db.sqlite3"),
            "REPORT_RATE_LIMIT": "2 per minute",
            "MAIL_SERVER": "127.0.0.1",
            "MAIL_PORT": mail_server.port,
        }
    )
    client = app.test_client()
    codes = [
        client.post("/report/", data={**open_form(client), **report_data()}).status_code
        for _ in range(3)
    ]
    assert codes == [303, 303, 429]
    page = client.post("/report/", data={**open_form(client), **report_data()})
    text = " ".join(re.sub(r"<[^>]+>", " ", page.text).split())
    # In words, with when to try again; never the limiter's own "2 per 1 minute".
    assert "Too many reports have come from this connection in a short time." in text
    assert re.search(
        r"You can send it again in (a few seconds|about a minute), at \d+:\d\d [ap]\.m\.", text
    )
    assert "per 1 minute" not in text and "call 911" in text
    assert 1 <= int(page.headers["Retry-After"]) <= 60


def test_session_cookie_flags(app, client):
    client.get("/report/")
    cookie = client.get_cookie("session")
    assert cookie is not None and cookie.http_only and cookie.same_site == "Lax"


def test_status_links_carry_a_long_random_token(app, client):
    """24 bytes of HMAC (192 bits), 32 URL-safe characters: not a thing to guess."""
    tokens = set()
    for _ in range(3):
        location = submit(client)
        token = re.fullmatch(r"/report/sent/([^/]+)/", location).group(1)
        assert re.fullmatch(r"[A-Za-z0-9_-]{32}", token), token
        page = client.get(location).text
        assert f'href="/status/{token}/"' in page
        tokens.add(token)
    assert len(tokens) == 3
    # A prefix of a real token opens nothing.
    assert client.get(f"/status/{token[:4]}/").status_code == 404
    assert client.get(f"/status/{token[:-1]}/").status_code == 404


def test_status_pages_are_rate_limited_by_default(tmp_path):
    """120 tries a minute per client (PORTAL_STATUS_RATE_LIMIT's default): guessing
    tokens is slow as well as hopeless."""
    app = create_app(
        {"DATABASE": str(tmp_path / "db.sqlite3"), "MAIL_FOLDER": str(tmp_path / "mail")}
    )
    client = app.test_client()
    codes = [client.get(f"/status/guess{n:04d}/").status_code for n in range(121)]
    assert codes[:120] == [404] * 120
    assert codes[120] == 429
    text = " ".join(re.sub(r"<[^>]+>", " ", client.get("/status/guess/").text).split())
    # When to try again, as a clock time whose "p.m." ends the sentence (no "p.m..").
    assert re.search(r"You can try again in about a minute, at \d{1,2}:\d\d [ap]\.m\. ", text)
    assert "m.." not in text


def test_release_notifications_are_rate_limited(tmp_path):
    app = create_app(
        {
            "DATABASE": str(tmp_path / "db.sqlite3"),
            "REPORT_TRY_RATE_LIMIT": "2 per minute",
            "MAIL_FOLDER": str(tmp_path / "mail"),
        }
    )
    client = app.test_client()
    answers = [
        client.post("/notify/", data={**open_form(client, "/notify/"), "step": "triage"})
        for _ in range(3)
    ]
    assert [a.status_code for a in answers[:2]] == [422, 422], "unanswered triage: asked again"
    assert answers[2].status_code == 429
    assert "Too many forms have come from this connection" in answers[2].text


def test_forms_sent_back_to_be_corrected_do_not_count_against_the_report_limit(tmp_path):
    app = create_app(
        {
            "DATABASE": str(tmp_path / "db.sqlite3"),
            "REPORT_RATE_LIMIT": "2 per minute",
            "MAIL_FOLDER": str(tmp_path / "mail"),
        }
    )
    client = app.test_client()
    hidden = open_form(client)
    mistakes = [
        client.post("/report/", data={**hidden, **report_data(description="")}) for _ in range(4)
    ]
    assert [m.status_code for m in mistakes] == [422] * 4
    codes = [
        client.post("/report/", data={**open_form(client), **report_data(description=f"Foam {n}")})
        for n in range(3)
    ]
    assert [c.status_code for c in codes] == [303, 303, 429]


def test_every_try_counts_towards_a_wider_limit_of_its_own(tmp_path):
    app = create_app(
        {
            "DATABASE": str(tmp_path / "db.sqlite3"),
            "REPORT_TRY_RATE_LIMIT": "3 per minute",
            "MAIL_FOLDER": str(tmp_path / "mail"),
        }
    )
    client = app.test_client()
    hidden = open_form(client)
    codes = [
        client.post("/report/", data={**hidden, **report_data(description="")}).status_code
        for _ in range(4)
    ]
    assert codes == [422, 422, 422, 429]


@pytest.mark.parametrize(
    ("seconds", "said"),
    [
        (8, "in a few seconds"),
        (30, "in a few seconds"),
        (31, "in about a minute"),
        (89, "in about a minute"),
        (150, "in about 2 minutes"),
        (3000, "in about 50 minutes"),
        (3600, "in about 1 hour"),
        (7200, "in about 2 hours"),
    ],
)
def test_the_wait_is_said_in_words(seconds, said):
    assert in_a_while(seconds) == said


def test_a_form_sent_again_spends_nothing_of_the_report_limit(tmp_path):
    """Back then Send (or a double tap) makes no case, so it is no report."""
    app = create_app(
        {
            "DATABASE": str(tmp_path / "db.sqlite3"),
            "REPORT_RATE_LIMIT": "1 per minute",
            "MAIL_FOLDER": str(tmp_path / "mail"),
        }
    )
    client = app.test_client()
    form = {**open_form(client), **report_data(description="Foam at the outfall")}
    sent = [client.post("/report/", data=form).status_code for _ in range(3)]
    edited = client.post("/report/", data={**form, "description": "Foam and oil at the outfall"})
    assert sent == [303, 303, 303] and edited.status_code == 409
    another = {**open_form(client), **report_data(description="Oil in the gutter")}
    assert client.post("/report/", data=another).status_code == 429


@pytest.mark.parametrize("path", ["/report/", "/notify/"])
def test_a_part_whose_name_cannot_be_read_is_a_400_not_a_500(client, path):
    """A multipart part named "\\" reaches Flask as the key None (found by the fuzzer)."""
    body = b'--XX\r\nContent-Disposition: form-data; name="\\"\r\n\r\n<script>\r\n--XX--\r\n'
    answer = client.post(path, data=body, content_type="multipart/form-data; boundary=XX")
    assert answer.status_code == 400


def test_the_already_sent_page_speaks_the_language_the_report_was_sent_in(app, client):
    hidden = open_form(client, "/report/?lang=es")
    client.post("/report/", data={**hidden, **report_data()})
    response = client.post("/report/", data={**hidden, **report_data(description="Otra")})
    assert response.status_code == 409
    text = " ".join(re.sub(r"<[^>]+>", " ", response.text).split())
    assert "Este reporte ya se envió como IDR-2026-0001 , el" in text
    assert "No hicimos un segundo reporte con él." in text
    assert "Start a new report" not in text and "report was already" not in text
