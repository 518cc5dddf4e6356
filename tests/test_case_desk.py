"""The officer's desk: one save per case, conflicts, search, hazards, staff mail, site visits,
follow-ups, the printable case (the morning digest: test_digest.py)."""

from __future__ import annotations

import datetime as dt
import io
import json
import re
import sqlite3

import pytest
from helpers import hidden_inputs, jpeg, open_form, report_data, rows, save_case, sign_in
from mailserver import body

from portal.core import search_index
from portal.core.clock import local_now
from portal.core.db import connect
from portal.report.hazards import report_hazards

TZ = dt.timezone(dt.timedelta(hours=-5))


def send_report(client, **fields) -> None:
    response = client.post("/report/", data={**open_form(client), **report_data(**fields)})
    assert response.status_code in (200, 303), response.status_code


def two_reports(client) -> None:
    send_report(
        client,
        description="Grey water from a pipe",
        odor="",
        indicators=["suds"],
        source_vehicle="White van, plate HRT 4455",
        contact_name="Maria Lopez",
        contact_email="maria@example.test",
        contact_phone="(555) 555-0199",
    )
    send_report(
        client,
        description="Foam in the ditch",
        odor="",
        indicators=["suds"],
        contact_name="Pat Doe",
        latitude="42.20",
        longitude="-76.80",
    )


@pytest.fixture
def desk(app, client, prepared):
    """Two reports from the public (made once for the module), and the officer signed in."""
    prepared(app, two_reports)
    sign_in(client, app)
    return client


def updates_to(mail_server, address: str) -> list:
    return [m for m in mail_server.to(address) if m["Subject"].startswith("Update on")]


# ---------------------------------------------------------------- one form, one save


def test_status_and_public_note_are_saved_together_with_one_entry_and_one_mail(
    app, desk, mail_server
):
    response = save_case(
        desk,
        1,
        status="investigating",
        public_note="We visit on Monday.",
        note="Called the owner.",
        assignee="smo",
        follow_up_on="2026-12-07",
        confirmed="yes",
    )
    assert response.status_code == 303
    case = rows(app, "SELECT * FROM cases WHERE id = 1")[0]
    assert (
        case["status"],
        case["public_note"],
        case["assignee"],
        case["follow_up_on"],
        case["confirmed_illicit"],
        case["revision"],
    ) == ("investigating", "We visit on Monday.", "smo", "2026-12-07", 1, 1)
    assert [e["action"] for e in rows(app, "SELECT action FROM events WHERE case_id = 1")] == [
        "update"
    ]
    assert [n["body"] for n in rows(app, "SELECT body FROM notes")] == ["Called the owner."]
    mails = updates_to(mail_server, "maria@example.test")
    assert len(mails) == 1
    assert "Being investigated" in body(mails[0]) and "We visit on Monday." in body(mails[0])
    page = desk.get("/staff/cases/1/").text
    assert "Saved. The person who sent it was e-mailed." in page
    assert (
        "Status Received → Being investigated; Assigned to smo; Marked as a confirmed"
        " illicit discharge; Follow-up on Monday, December 7, 2026; Note to the sender set:"
        " “We visit on Monday.”; Internal note added"
    ) in page


def test_an_internal_change_sends_the_person_nothing(app, desk, mail_server):
    assert save_case(desk, 1, note="Staff only.", follow_up_on="2026-12-01").status_code == 303
    assert save_case(desk, 1, assignee="smo").status_code == 303
    assert updates_to(mail_server, "maria@example.test") == []
    assert save_case(desk, 1).status_code == 303, "nothing changed"
    assert "Nothing changed" in desk.get("/staff/cases/1/").text
    assert len(rows(app, "SELECT id FROM events")) == 2


def test_a_refused_save_keeps_everything_typed_and_changes_nothing(app, desk, mail_server):
    response = save_case(desk, 1, status="referred", public_note="Kept text", note="Kept note")
    assert response.status_code == 422
    assert "Say which agency it was referred to." in response.text
    assert "Kept text" in response.text and "Kept note" in response.text
    assert rows(app, "SELECT status, public_note FROM cases WHERE id = 1")[0] == {
        "status": "received",
        "public_note": None,
    }
    assert (
        rows(app, "SELECT id FROM events") == []
        and updates_to(mail_server, "maria@example.test") == []
    )


def test_a_save_over_someone_elses_is_refused_with_both_versions(app, client, desk, mail_server):
    other = app.test_client()
    sign_in(other, app, "second-officer")
    page = desk.get("/staff/cases/1/").text  # the first officer opens the case ...
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    assert save_case(other, 1, status="investigating", public_note="Theirs").status_code == 303
    # ... and saves what they typed on the page as it was when they opened it.
    mine = {"csrf_token": csrf, "revision": "0", "status": "resolved", "public_note": "Mine"}
    response = desk.post("/staff/cases/1/", data=mine)
    assert response.status_code == 409
    assert "changed by second-officer after you opened it" in response.text
    table = response.text[response.text.index('class="conflict"') :]
    for words in ("Mine", "Theirs", "Resolved", "Being investigated"):
        assert words in table, words
    assert rows(app, "SELECT status, public_note FROM cases")[0] == {
        "status": "investigating",
        "public_note": "Theirs",
    }
    assert len(updates_to(mail_server, "maria@example.test")) == 1
    # Saving again is deliberate: the page now carries the revision it showed.
    revision = re.search(r'name="revision" type="hidden" value="(\d+)"', response.text).group(1)
    again = desk.post("/staff/cases/1/", data={**mine, "revision": revision})
    assert again.status_code == 303
    assert rows(app, "SELECT status FROM cases WHERE id = 1")[0]["status"] == "resolved"


def test_a_malformed_revision_is_a_client_error(desk):
    page = desk.get("/staff/cases/1/").text
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    response = desk.post("/staff/cases/1/", data={"csrf_token": csrf, "revision": "x"})
    assert response.status_code == 400


# ---------------------------------------------------------------- search


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("HRT4455", 1),
        ("hrt 4455", 1),
        ("h r t 4455", 1),
        ("Mari", 1),
        ("maria lopez", 1),
        ("5550199", 1),
        ("555-0199", 1),
        ("maria@example", 1),
        ("foam ditch", 1),
        ("grey water", 1),
        ("xyz 99", 0),
        ("zz", 0),
        ("IDR", 2),
    ],
)
def test_search_finds_plates_people_phones_and_words(desk, query, found):
    page = desk.get("/staff/", query_string={"q": query}).text
    assert len(re.findall(r">IDR-\d{4}-\d{4}</a>", page)) == found


def test_notes_and_site_visits_are_searchable_once_saved(desk):
    assert save_case(desk, 2, note="Owner is Quentin Fairweather").status_code == 303
    page = desk.get("/staff/", query_string={"q": "fairweather"}).text
    assert len(re.findall(r">IDR-\d{4}-\d{4}</a>", page)) == 1


def test_a_case_is_found_by_the_agency_it_was_referred_to(desk):
    """Referring a case is an edit of the case row: the index must take it in."""
    assert "Chemung" not in desk.get("/staff/", query_string={"q": "chemung"}).text
    response = save_case(desk, 1, status="referred", referred_agency="Chemung County")
    assert response.status_code == 303
    page = desk.get("/staff/", query_string={"q": "chemung county"}).text
    assert re.findall(r">IDR-\d{4}-(\d{4})</a>", page) == ["0001"]


def test_a_file_from_before_the_index_is_indexed_when_migrated(tmp_path):
    path = tmp_path / "old.sqlite3"
    connect(path).conn.close()
    conn = sqlite3.connect(path)
    with conn:  # as an older version left it: no index, no triggers, one case
        for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'case_search%'"
        ).fetchall():
            conn.execute(f"DROP TRIGGER {name}")
        conn.execute("DROP TABLE case_search")
        conn.execute(
            "INSERT INTO cases (kind, reference, token_hash, submission_key, submission_digest,"
            " received_at, updated_at, service_code, address, contact_name) VALUES ('report',"
            " 'IDR-2026-0001', 't', 'k', 'd', '2026', '2026', 'x', 'Elm', 'Maria')"
        )
    conn.close()
    db = connect(path)
    where, params = search_index.condition("mar")
    assert db.execute(f"SELECT count(*) FROM cases c WHERE {where}", params).fetchone()[0] == 1
    db.conn.close()


# ---------------------------------------------------------------- hazards


@pytest.mark.parametrize(
    ("fields", "hazards"),
    [
        ({"odor": "petroleum"}, ["Fuel or oil"]),
        ({"indicators": ["sheen"]}, ["Fuel or oil"]),
        ({"description": "Smells like raw sewage here"}, ["Sewage"]),
        ({"description": "Someone poured paint and OIL"}, ["Fuel or oil"]),
        ({"description": "Soil washed off a building site"}, []),
        # § 216-4's hazardous materials, not every pollutant (officer's week M1): latex paint
        # rinse, pool water, suds with a chlorine smell and a "chemical" smell are not.
        ({"odor": "chemical"}, []),
        ({"description": "Rinsing latex paint brushes at the drain"}, []),
        ({"description": "Draining the chlorinated pool into the street"}, []),
        ({"description": "Laundromat suds with a bleach and chlorine smell"}, []),
        ({"description": "He poured antifreeze down the drain"}, ["Toxic or corrosive chemicals"]),
        (
            {
                "odor": "petroleum",
                "description": "Strong gasoline smell at the storm drain and a rainbow sheen,"
                " making me dizzy",
            },
            ["Vapor or someone feeling ill", "Fuel or oil"],
        ),
        ({"description": "Smoke and flames by the catch basin"}, ["Fire or explosion risk"]),
        ({"indicators": ["dead-animals"]}, ["Dead fish or animals"]),
        ({"description": "Two dead fish at the edge of the creek"}, ["Dead fish or animals"]),
        # In Spanish, with the accents a phone keyboard may leave out or put in.
        ({"description": "Hay gasolina y aceite en el arroyo"}, ["Fuel or oil"]),
        ({"description": "Huele a QUIMICOS y a aguas negras"}, ["Sewage"]),
        (
            {"description": "Huele a gasolina y estoy mareada"},
            ["Vapor or someone feeling ill", "Fuel or oil"],
        ),
        ({"description": "Vi peces muertos en la orilla"}, ["Dead fish or animals"]),
        ({"description": "Tierra que baja de una obra", "color": "café"}, []),
    ],
)
def test_hazard_rules_come_from_the_content(content, fields, hazards):
    report = {"indicators": '["suds"]', "odor": "", "description": "Foam"}
    if "indicators" in fields:
        fields = {**fields, "indicators": json.dumps(fields["indicators"])}
    assert report_hazards(content.settings.hazard_rules, {**report, **fields}) == hazards


def test_a_residents_oil_report_is_flagged_in_the_queue_and_the_officers_mail(
    app, client, mail_server
):
    send_report(client, odor="petroleum", description="A rainbow sheen on the creek")
    send_report(client, odor="", indicators=["suds"], description="Foam", latitude="42.2")
    smo = mail_server.to("smo@village.test")
    assert smo[0]["Subject"].endswith(" (HAZARD: fuel or oil)")
    assert "HAZARD: what was reported points to fuel or oil" in body(smo[0])
    assert "HAZARD" not in smo[1]["Subject"]
    sign_in(client, app)
    page = client.get("/staff/").text
    assert page.count("Hazardous: fuel or oil") == 1


# ---------------------------------------------------------------- staff e-mail, assignment


def test_staff_e_mail_from_the_command_line_and_the_assignment_mail(app, desk, mail_server):
    runner = app.test_cli_runner()
    result = runner.invoke(
        args=[
            "staff",
            "add",
            "jo",
            "--password",
            "a long staff password",
            "--email",
            "jo@village.test",
        ]
    )
    assert result.exit_code == 0, result.output
    assert runner.invoke(args=["staff", "edit", "jo", "--email", "not-an-address"]).exit_code == 1
    assert runner.invoke(args=["staff", "edit", "nobody", "--email", "a@b.test"]).exit_code == 1
    assert "jo\tenabled\tjo@village.test" in runner.invoke(args=["staff", "list"]).output
    assert runner.invoke(args=["staff", "edit", "jo", "--email", "j.o@village.test"]).exit_code == 0
    assert save_case(desk, 1, assignee="jo").status_code == 303
    (mail,) = mail_server.to("j.o@village.test")
    assert mail["Subject"].startswith("Assigned to you: IDR-")
    text = body(mail)
    assert "https://portal.village.test/staff/cases/1/" in text
    assert "Maria" not in text, "the reporter's details stay in the workspace"
    assert "Saved. The assignee was e-mailed." in desk.get("/staff/cases/1/").text


def test_assigned_to_me(app, desk):
    save_case(desk, 2, assignee="smo")
    page = desk.get("/staff/").text
    link = re.search(r'href="(/staff/\?[^"]*assignee=smo[^"]*)">Open cases assigned to me', page)
    mine = desk.get(link.group(1).replace("&amp;", "&")).text
    assert len(re.findall(r">IDR-\d{4}-\d{4}</a>", mine)) == 1


def test_assigning_a_case_to_yourself_sends_you_no_mail(app, desk, mail_server):
    runner = app.test_cli_runner()
    runner.invoke(args=["staff", "edit", "smo", "--email", "smo@staff.test"])
    runner.invoke(
        args=[
            "staff",
            "add",
            "jo",
            "--password",
            "a long staff password",
            "--email",
            "jo@village.test",
        ]
    )
    page = desk.get("/staff/cases/1/").text
    assert "Assign to me" in page
    assert save_case(desk, 1, assignee="smo").status_code == 303, "the one-button form"
    assert mail_server.to("smo@staff.test") == []
    assert "Saved." in (page := desk.get("/staff/cases/1/").text) and "e-mailed" not in page
    assert "Assign to me" not in page, "it is mine already"
    assert save_case(desk, 1, assignee="jo").status_code == 303
    (mail,) = mail_server.to("jo@village.test")
    text = body(mail).replace("\r\n", "\n")
    assert "Place: Main Street bridge over the creek (42.16701, -76.82099)\n" in text


def test_the_assignment_mail_puts_the_follow_up_on_its_own_line(app, desk, mail_server):
    app.test_cli_runner().invoke(
        args=[
            "staff",
            "add",
            "jo",
            "--password",
            "a long staff password",
            "--email",
            "jo@village.test",
        ]
    )
    assert save_case(desk, 2, assignee="jo", follow_up_on="2099-06-01").status_code == 303
    (mail,) = mail_server.to("jo@village.test")
    assert "(42.2, -76.8)\nFollow up on: Monday, June 1, 2099\n" in body(mail).replace("\r\n", "\n")


def test_a_follow_up_date_already_passed_is_kept_but_said(app, desk):
    assert save_case(desk, 1, follow_up_on="2020-03-02").status_code == 303
    page = desk.get("/staff/cases/1/").text
    assert "The follow-up date, Monday, March 2, 2020, has already passed" in page
    assert rows(app, "SELECT follow_up_on FROM cases WHERE id = 1") == [
        {"follow_up_on": "2020-03-02"}
    ]
    assert save_case(desk, 1, note="Called again.").status_code == 303
    assert "has already passed" not in desk.get("/staff/cases/1/").text, "only when it is set"


def test_the_suspected_source_prints_one_field_a_line(app, client):
    send_report(
        client,
        source_description="Sparkle Carpet Cleaning",
        source_vehicle="White Ford Transit van, plate ABC 1234",
        source_notes="Driver ran a hose into the drain",
    )
    sign_in(client, app)
    for url in ("/staff/cases/1/", "/staff/cases/1/print"):
        page = client.get(url).text
        for line in (
            "<dt>Business or property named</dt><dd>Sparkle Carpet Cleaning</dd>",
            "<dt>Vehicle and license plate</dt><dd>White Ford Transit van, plate ABC 1234</dd>",
            '<dt>What they were seen doing</dt><dd class="prewrap">Driver ran a hose into the drain</dd>',
        ):
            assert line in page, (url, line)


# ---------------------------------------------------------------- duplicates


def form_fields(page: str, action: str) -> dict[str, str]:
    """The hidden fields of the form posting to `action` on a page."""
    start = page.index(f'action="{action}"')
    return dict(hidden_inputs(page[start : page.index("</form>", start)]))


def test_marking_a_duplicate_asks_to_confirm_first(app, desk, mail_server):
    send_report(
        desk,
        description="Grey water again",
        odor="",
        indicators=["suds"],
        contact_email="sam@example.test",
    )
    original = rows(app, "SELECT reference FROM cases WHERE id = 1")[0]["reference"]
    page = desk.get("/staff/cases/3/").text
    link = f"/staff/cases/3/duplicate?of={original}"
    assert f'href="{link}">Mark this case a duplicate of {original}…</a>' in page
    assert 'name="status" value="duplicate"' not in page, "no one-click marking"
    confirm = desk.get(link)
    assert confirm.status_code == 200
    assert f"Mark IDR-2026-0003 a duplicate of {original}?".replace("2026", original[4:8]) in (
        confirm.text
    )
    assert "Grey water from a pipe" in confirm.text and "Grey water again" in confirm.text
    assert "Its reporter is e-mailed now" in confirm.text
    assert rows(app, "SELECT status FROM cases WHERE id = 3") == [{"status": "received"}]
    fields = form_fields(confirm.text, "/staff/cases/3/")
    assert fields["status"] == "duplicate" and fields["duplicate_of"] == original
    assert desk.post("/staff/cases/3/", data=fields).status_code == 303
    assert rows(app, "SELECT status, duplicate_of FROM cases WHERE id = 3") == [
        {"status": "duplicate", "duplicate_of": 1}
    ]
    assert desk.get("/staff/cases/3/duplicate?of=IDR-1999-0001").status_code == 404
    refused = desk.get(f"/staff/cases/2/duplicate?of={original.replace('0001', '0003')}")
    assert refused.status_code == 409 and "is itself a duplicate" in refused.text
    assert "Yes, mark" not in refused.text


def test_the_reporters_of_duplicates_follow_the_original(app, desk, mail_server):
    send_report(desk, description="Grey water again", contact_email="sam@example.test")
    send_report(desk, description="And again", contact_email="")  # no address: no mail
    original = rows(app, "SELECT reference FROM cases WHERE id = 1")[0]["reference"]
    for case_id in (3, 4):
        assert (
            save_case(desk, case_id, status="duplicate", duplicate_of=original).status_code == 303
        )
    sam = rows(app, "SELECT body_text FROM outbox WHERE recipient = 'sam@example.test'")
    status_path = re.search(
        r"https://portal\.village\.test(/status/[\w-]+/)", sam[0]["body_text"]
    ).group(1)
    saved = save_case(desk, 1, status="resolved", public_note="The owner fixed the pipe.")
    assert saved.status_code == 303
    assert (
        "Saved. The person who sent it was e-mailed and the reporter of 1 duplicate was e-mailed."
    ) in desk.get("/staff/cases/1/").text
    (news,) = [m for m in mail_server.to("sam@example.test") if "handle it under" in body(m)]
    assert news["Subject"].startswith("Update on IDR-") and news["Subject"].endswith("-0003")
    assert (
        f"Someone reported the same problem before you, so staff handle it under {original}."
        " Its status is now: Resolved. The problem was found and dealt with."
    ) in body(news)
    assert "The owner fixed the pipe." not in body(news), "the original's note is its own"
    # The mail says what a status means in law, so it carries the notice.
    for kind in ("plain", "html"):
        assert "A plain-language guide, not legal advice. The ordinance governs." in " ".join(
            body(news, kind).split()
        ), kind
    (queued,) = rows(app, "SELECT case_id, status FROM outbox WHERE purpose LIKE 'original-%'")
    assert queued == {"case_id": 3, "status": "sent"}, "through the outbox"
    status = app.test_client().get(status_path).text
    assert "Handled under" in status and "Resolved" in status
    for case_id, told in ((3, "; the reporter was e-mailed"), (4, "")):
        log = desk.get(f"/staff/cases/{case_id}/").text
        assert f"The case this duplicates, {original}, is now Resolved{told}</li>" in log


def test_a_case_that_becomes_a_duplicate_hands_its_duplicates_on(app, desk, mail_server):
    send_report(desk, description="Grey water again", contact_email="sam@example.test")
    first, second = (r["reference"] for r in rows(app, "SELECT reference FROM cases WHERE id < 3"))
    save_case(desk, 3, status="duplicate", duplicate_of=first)
    before = len(mail_server.to("sam@example.test"))
    save_case(desk, 1, status="duplicate", duplicate_of=second)
    assert rows(app, "SELECT duplicate_of FROM cases WHERE id = 3") == [{"duplicate_of": 2}]
    assert len(mail_server.to("sam@example.test")) == before, "still Already reported"
    log = desk.get("/staff/cases/3/").text
    assert f"Now handled under {second} ({first} became a duplicate of it)" in log


# ---------------------------------------------------------------- site visits


def record_visit(client, case_id: int, photos=(), **fields):
    page = client.get(f"/staff/cases/{case_id}/").text
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    data = {
        "csrf_token": csrf,
        "visited_at": "2026-11-20T10:30",
        "inspector": "Jo Smith",
        "findings": "Grey water from the car wash drain",
        "sampled": "yes",
        "lab_reference": "LAB-77",
        **fields,
    }
    if photos:
        data["photos"] = [(io.BytesIO(content), name) for name, content in photos]
    return client.post(
        f"/staff/cases/{case_id}/inspections", data=data, content_type="multipart/form-data"
    )


def test_a_site_visit_with_photos_is_staff_only(app, desk):
    response = record_visit(desk, 1, photos=[("site.jpg", jpeg())])
    assert response.status_code == 303
    (photo,) = rows(app, "SELECT id, width, height FROM inspection_photos")
    assert max(photo["width"], photo["height"]) == 1600, "cleaned like the public form's"
    page = desk.get("/staff/cases/1/").text
    assert "Grey water from the car wash drain" in page and "LAB-77" in page
    assert f"/staff/inspection-photos/{photo['id']}" in page
    assert desk.get(f"/staff/inspection-photos/{photo['id']}").status_code == 200
    anonymous = app.test_client()
    assert anonymous.get(f"/staff/inspection-photos/{photo['id']}").status_code == 401
    # The status page of that case shows nothing of the visit.
    (token_page,) = rows(app, "SELECT body_text FROM outbox WHERE purpose = 'ack' AND case_id = 1")
    status_path = re.search(
        r"https://portal\.village\.test(/status/[\w-]+/)", token_page["body_text"]
    ).group(1)
    status = anonymous.get(status_path).text
    assert "inspection-photos" not in status and "LAB-77" not in status


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"findings": ""}, "Describe what was found."),
        ({"lab_reference": ""}, "Give the lab&#39;s reference for the sample."),
        ({"visited_at": "2099-01-01T10:00"}, "The visit cannot be in the future."),
    ],
)
def test_a_site_visit_with_a_mistake_is_explained_and_kept(app, desk, fields, message):
    response = record_visit(desk, 1, **fields)
    assert response.status_code == 422
    assert message in response.text and "Jo Smith" in response.text
    assert rows(app, "SELECT id FROM inspections") == []


def test_a_site_visit_photo_that_is_not_a_photo_is_refused(app, desk):
    response = record_visit(desk, 1, photos=[("notes.jpg", b"not an image")])
    assert response.status_code == 422
    assert "is not a photo we can read" in response.text
    assert rows(app, "SELECT id FROM inspections") == []


def test_the_site_visit_form_comes_filled_with_now_and_the_officer(app, desk):
    # 00:30 on Tuesday 1 December 2026 in New York, on a server keeping UTC.
    app.config["CLOCK"] = lambda: dt.datetime(2026, 12, 1, 5, 30, 41, tzinfo=dt.UTC)
    page = desk.get("/staff/cases/1/").text
    assert 'href="#record-visit">Record a site visit</a>' in page
    assert re.search(r'id="visited_at" name="visited_at" [^>]*value="2026-12-01T00:30"', page)
    assert re.search(r'id="inspector" [^>]*value="smo"', page)


def test_a_refused_site_visit_keeps_its_photo_and_says_what_to_fix(app, desk):
    refused = record_visit(
        desk, 1, photos=[("IMG_0001.jpg", jpeg())], visited_at="2099-01-01T10:00"
    )
    assert refused.status_code == 422
    page = refused.text
    assert "Please fix this" in page and 'href="#visited_at"' in page
    assert 'action="/staff/cases/1/inspections#record-visit"' in page, "back at the form"
    assert "IMG_0001.jpg (1600 × 1200)" in page and "Grey water from the car wash drain" in page
    visit_form = page[page.index('id="visit-form"') :]
    fields = dict(hidden_inputs(visit_form[: visit_form.index("</form>")]))
    assert fields["kept_photos"] and fields["visit_key"]
    assert len(rows(app, "SELECT id FROM pending_photos")) == 1
    response = record_visit(
        desk,
        1,
        visited_at="2026-11-20T10:30",
        **{k: fields[k] for k in ("kept_photos", "visit_key")},
    )
    assert response.status_code == 303
    assert response.headers["Location"].endswith("/staff/cases/1/?recorded=1#inspections")
    (photo,) = rows(app, "SELECT inspection_id, position, width FROM inspection_photos")
    assert photo == {"inspection_id": 1, "position": 1, "width": 1600}
    assert rows(app, "SELECT id FROM pending_photos") == [], "moved, not copied"
    assert "data-recorded" in desk.get("/staff/cases/1/?recorded=1").text


def test_a_site_visit_sent_twice_is_recorded_once_and_the_second_send_says_why(
    app, desk, monkeypatch
):
    refused = record_visit(
        desk, 1, photos=[("IMG_0001.jpg", jpeg())], visited_at="2099-01-01T10:00"
    )
    visit_form = refused.text[refused.text.index('id="visit-form"') :]
    fields = dict(hidden_inputs(visit_form[: visit_form.index("</form>")]))
    sent = {k: fields[k] for k in ("kept_photos", "visit_key")}
    # A double click: both sends find the kept photo waiting before either moves it.
    from portal.staff import cases

    real, seen = cases.keep_photos, []

    def as_both_sends_saw_them(form, key):
        if not seen:
            seen.append(real(form, key))
        return seen[0]

    monkeypatch.setattr(cases, "keep_photos", as_both_sends_saw_them)
    assert record_visit(desk, 1, **sent).status_code == 303
    second = record_visit(desk, 1, **sent)
    assert second.status_code == 409
    assert "Nothing was saved from this send: its photos were no longer waiting" in second.text
    assert "Grey water from the car wash drain" in second.text, "the visit recorded once"
    assert rows(app, "SELECT id FROM inspections") == [{"id": 1}]
    assert rows(app, "SELECT inspection_id FROM inspection_photos") == [{"inspection_id": 1}]


# ---------------------------------------------------------------- follow-ups


def test_the_queue_flags_due_and_overdue_follow_ups(app, desk):
    with app.app_context():
        today = local_now().date()
    save_case(desk, 1, follow_up_on=(today - dt.timedelta(days=2)).isoformat())
    save_case(desk, 2, follow_up_on=today.isoformat())
    page = desk.get("/staff/").text
    assert page.count("Follow-up overdue") == 1 and page.count("Follow-up due today") == 1
    save_case(desk, 1, status="resolved")
    assert "Follow-up overdue" not in desk.get("/staff/").text, "a closed case needs none"


# ---------------------------------------------------------------- the printable case


def test_the_printable_case_has_the_facts_and_no_form(app, desk):
    save_case(desk, 1, note="Called the owner.", status="investigating")
    page = desk.get("/staff/cases/1/print").text
    main = page[page.index("<main") : page.index("</main>")]
    assert "<form" not in main and "<input" not in main
    for words in (
        "Grey water from a pipe",
        "Maria Lopez",
        "Called the owner.",
        "Status Received → Being investigated",
        "https://www.openstreetmap.org",
    ):
        assert words in main, words


def test_the_printable_case_says_whose_it_is_and_when_printed(app, desk):
    # 00:30 on Tuesday 1 December 2026 in New York, on a server keeping UTC.
    app.config["CLOCK"] = lambda: dt.datetime(2026, 12, 1, 5, 30, tzinfo=dt.UTC)
    save_case(desk, 1, public_note="A crew visits on Monday.")
    page = desk.get("/staff/cases/1/print").text
    assert (
        "Village of Horseheads, Stormwater Management Officer · case record printed"
        ' <time datetime="2026-12-01">December 1, 2026 at 12:30 a.m.</time>'
    ) in page
    for line in (
        "<dt>Public note</dt><dd>A crew visits on Monday.</dd>",
        "<dt>Kind of place</dt><dd>Pipe outfall</dd>",
        "<dt>Happened before</dt><dd>Not sure</dd>",
    ):
        assert line in page, line


def test_the_printable_notification_has_its_deadlines(app, client):
    from helpers import file_notification, notification_data

    file_notification(client, notification_data())
    sign_in(client, app)
    page = client.get("/staff/cases/1/print").text
    assert "<h2>Deadlines</h2>" in page
    assert '<time datetime="2026-11-06">Friday, November 6, 2026</time>' in page
