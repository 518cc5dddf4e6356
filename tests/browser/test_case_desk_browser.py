"""The officer's desk in Chromium: one save and one mail over real SMTP, two officers on one
case, search by plate and name, a site-visit photo from a phone, the case on paper."""

from __future__ import annotations

import re
import time

import pytest
from browsing import check, give_session, on_disk
from helpers import PASSWORD, add_enrolled_account, jpeg, next_code, open_form, report_data, serving
from mailserver import body, wait_for
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


@pytest.fixture
def desk(make_app):
    """The portal with a real SMTP server, two reports in it, and its URL."""
    app = make_app(MAP_TILE_URL="")
    client = app.test_client()
    for fields in (
        {
            "source_vehicle": "Pickup, plate HRT 4455",
            "contact_name": "Maria Lopez",
            "contact_email": "maria@example.test",
        },
        {"description": "Foam in the ditch", "contact_name": "Pat Doe", "latitude": "42.2"},
    ):
        assert client.post("/report/", data={**open_form(client), **report_data(**fields)})
    with serving(app) as url:
        yield app, url


def sign_in_on(page, app, username: str) -> None:
    """Answer the sign-in page the tab shows: password, then the next code."""
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_label("Code from your authenticator app").fill(next_code(app, username))
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Queue")).to_be_visible()


def signed_in(open_tab, app, url: str, username: str, viewport: str = "desktop", **options):
    """A new tab signed in as a new officer `username`, on the queue."""
    add_enrolled_account(app, username)
    tab = open_tab(viewport, **options)
    give_session(tab.page, app, url, username)
    tab.page.goto(f"{url}/staff/")
    expect(tab.page.get_by_role("heading", name="Queue")).to_be_visible()
    return tab


def open_case(page, url: str, case_id: int = 1) -> None:
    page.goto(f"{url}/staff/cases/{case_id}/")
    expect(page.get_by_role("heading", name="Update this case")).to_be_visible()


def updates(mail_server) -> list:
    return [m for m in mail_server.to("maria@example.test") if m["Subject"].startswith("Update")]


def test_status_and_public_note_in_one_save_send_one_mail(open_tab, desk, mail_server):
    app, url = desk
    page = signed_in(open_tab, app, url, "officer").page
    open_case(page, url)
    check(page, "case page")
    page.get_by_label("Status", exact=True).select_option(label="Being investigated")
    page.get_by_label("Note to the person who sent it").fill("A crew visits on Monday.")
    page.get_by_role("button", name="Save changes").click()
    expect(page.locator(".flash")).to_contain_text("Saved. The person who sent it was e-mailed.")
    expect(page.locator(".audit")).to_contain_text(
        "Status Received → Being investigated; Note to the sender set: “A crew visits on Monday.”"
    )
    wait_for(lambda: updates(mail_server))
    time.sleep(0.5)  # anything else on its way would have arrived by now
    (mail,) = updates(mail_server)
    assert "Being investigated" in body(mail) and "A crew visits on Monday." in body(mail)


def test_two_officers_saving_one_case_see_a_conflict(open_tab, desk, mail_server):
    app, url = desk
    first = signed_in(open_tab, app, url, "first")
    second = signed_in(open_tab, app, url, "second")
    open_case(first.page, url)
    open_case(second.page, url)
    first.page.get_by_label("Status", exact=True).select_option(label="Being investigated")
    first.page.get_by_role("button", name="Save changes").click()
    expect(first.page.locator(".flash")).to_contain_text("Saved.")

    page = second.page
    page.get_by_label("Status", exact=True).select_option(label="Resolved")
    page.get_by_label("Add an internal note (staff only)").fill("Owner fixed the pipe.")
    page.get_by_role("button", name="Save changes").click()
    conflict = page.locator(".conflict")
    expect(conflict).to_contain_text("changed by first after you opened it")
    expect(conflict.locator("tbody")).to_contain_text("Resolved")
    expect(conflict.locator("tbody")).to_contain_text("Being investigated")
    expect(page.get_by_label("Add an internal note (staff only)")).to_have_value(
        "Owner fixed the pipe."
    )
    check(page, "conflict")
    assert [e for e in second.errors if not re.search(r"40[19]", e)] == []
    page.get_by_role("button", name="Save changes").click()
    expect(page.locator(".flash")).to_contain_text("Saved.")
    expect(page.locator(".audit")).to_contain_text("Being investigated → Resolved")
    assert len(updates(mail_server)) == 2, "one per save that changed the status"


@pytest.mark.parametrize(("query", "expected"), [("hrt4455", 1), ("H R T 4455", 1), ("ari", 1)])
def test_search_by_plate_and_part_of_a_name(open_tab, desk, query, expected):
    app, url = desk
    page = signed_in(open_tab, app, url, "officer").page
    page.get_by_label("Search").fill(query)
    page.get_by_role("button", name="Filter").click()
    expect(page.locator("#queue-count")).to_contain_text(f"{expected} case")
    expect(page.locator("table.queue tbody tr")).to_have_count(expected)
    expect(page.locator("table.queue tbody")).to_contain_text("Still happening")


def test_a_site_visit_from_a_phone_at_360_px(open_tab, desk, tmp_path):
    app, url = desk
    tab = signed_in(open_tab, app, url, "officer", viewport="phone")
    page = tab.page
    open_case(page, url)
    page.evaluate("window.scrollTo(0, 0)")
    jump = page.get_by_role("link", name="Record a site visit")
    expect(jump).to_be_in_viewport()  # the way to the form is on the first screen
    jump.click()
    heading = page.get_by_role("heading", name="Record a site visit")
    expect(heading).to_be_in_viewport()
    visited = page.get_by_label("Date and time of the visit")
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}", visited.input_value()), "now, filled in"
    expect(page.get_by_label("Who visited")).to_have_value("officer")
    visited.fill("2099-11-20T10:30")  # a slip of the thumb: refused
    page.get_by_label("What was found").fill("Grey water from the wash bay drain.")
    page.get_by_label("Sample taken").select_option("yes")
    page.get_by_label("Lab reference").fill("LAB-2026-77")
    page.get_by_label("Photos taken on site").set_input_files(
        on_disk(tmp_path, {"IMG_0001.jpg": jpeg((3000, 4000))})
    )
    page.get_by_role("button", name="Record the visit").click()
    summary = page.locator(".error-summary")
    expect(summary).to_contain_text("The visit cannot be in the future.")
    expect(heading).to_be_in_viewport()  # the page opens at the form, not at its top
    expect(page.get_by_label("What was found")).to_have_value("Grey water from the wash bay drain.")
    expect(page.locator(".kept-photos")).to_contain_text("IMG_0001.jpg (1200 × 1600)")
    check(page, "site visit refused, phone")
    visited.fill("2026-11-20T10:30")
    page.get_by_role("button", name="Record the visit").click()
    expect(page.locator(".flash")).to_contain_text("Site visit recorded.")
    image = page.locator(".inspection img")
    expect(image).to_have_count(1)
    # Loaded before it is measured: on a busy machine the page is there before its photo.
    page.wait_for_function(
        "() => { const i = document.querySelector('.inspection img');"
        " return i && i.complete && i.naturalHeight > 0; }"
    )
    assert image.evaluate("i => i.naturalHeight") == 1600
    check(page, "case with a site visit, phone")
    assert [e for e in tab.errors if not re.search(r"40[19]|422", e)] == []
    assert not tab.external_requests


def test_a_visit_typed_while_the_session_ends_is_there_after_signing_in(open_tab, desk):
    app, url = desk
    tab = signed_in(open_tab, app, url, "officer", viewport="phone")
    page = tab.page
    open_case(page, url)
    page.get_by_role("link", name="Record a site visit").click()
    page.get_by_label("Who visited").fill("Jo Smith")
    page.get_by_label("What was found").fill("Oily sheen at the outfall, about a metre wide.")
    app.config["STAFF_IDLE_MINUTES"] = 0  # the session ends while the officer types
    page.get_by_role("button", name="Record the visit").click()
    expect(page.get_by_role("heading", name="Staff sign-in")).to_be_visible()
    app.config["STAFF_IDLE_MINUTES"] = 30
    sign_in_on(page, app, "officer")
    open_case(page, url)
    expect(page.get_by_label("What was found")).to_have_value(
        "Oily sheen at the outfall, about a metre wide."
    )
    expect(page.get_by_label("Who visited")).to_have_value("Jo Smith")
    expect(page.locator(".draft-note")).to_contain_text("choose them again")
    page.get_by_role("button", name="Record the visit").click()
    expect(page.locator(".flash")).to_contain_text("Site visit recorded.")
    expect(page.locator(".inspection")).to_contain_text("Oily sheen at the outfall")
    # The page after a recorded visit forgets the draft (its script runs after the page shows).
    page.wait_for_function("() => sessionStorage.getItem('draft:visit-1') === null")
    open_case(page, url)
    expect(page.get_by_label("What was found")).to_have_value("")
    expect(page.locator(".draft-note")).to_be_hidden()


def test_the_printed_case_fits_on_two_letter_pages(open_tab, desk):
    app, url = desk
    tab = signed_in(open_tab, app, url, "officer")
    page = tab.page
    open_case(page, url)
    page.get_by_label("Add an internal note (staff only)").fill("Called the owner. " * 20)
    page.get_by_role("button", name="Save changes").click()
    page.get_by_role("link", name="Printable case").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("resident report")
    check(page, "printable case")
    page.emulate_media(media="print")
    assert page.locator("form:visible, nav:visible, button:visible, input:visible").count() == 0
    pdf = page.pdf(format="Letter", print_background=False)
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
    assert 1 <= pages <= 2, pages


def pdf_pages(page) -> int:
    page.emulate_media(media="print")
    pdf = page.pdf(format="Letter", print_background=False)
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


def test_the_printed_annual_report_is_dated_and_fits_on_two_letter_pages(open_tab, desk):
    """Fresh review: it printed on 4 half-empty pages, with no day it was printed."""
    app, url = desk
    page = signed_in(open_tab, app, url, "officer").page
    page.goto(f"{url}/staff/annual-report/")
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Annual report: the illicit discharge program"
    )
    check(page, "annual report")
    page.emulate_media(media="print")
    expect(page.locator(".print-head")).to_contain_text("printed")
    assert page.locator("form:visible").count() == 0
    assert 1 <= pdf_pages(page) <= 2


def test_a_printed_notification_has_its_deadlines_and_fits_on_one_page(open_tab, desk):
    from helpers import file_notification, notification_data, save_case, sign_in

    app, url = desk
    client = app.test_client()
    file_notification(client, notification_data(amount_reached="about 2 gallons"))
    sign_in(client, app, "clerk")
    for change in (
        {"status": "follow-up", "note": "Asked for the hose receipts."},
        {"assignee": "clerk", "follow_up_on": "2099-12-07"},
        {"public_note": "Booms checked on site; no more is going in."},
    ):
        assert save_case(client, 3, **change).status_code == 303
    tab = signed_in(open_tab, app, url, "officer")
    page = tab.page
    page.goto(f"{url}/staff/cases/3/print")
    main = page.locator("main")
    for words in (
        "Village of Horseheads, Stormwater Management Officer · case record printed",
        "Notice to the Village",
        "Booms checked on site; no more is going in.",
        "Yes, by telephone",
        "Asked for the hose receipts.",
    ):
        expect(main).to_contain_text(words)
    check(page, "printable notification")
    pages = pdf_pages(page)
    print(f"printed notification: {pages} Letter page(s)")
    assert pages == 1, pages


def test_marking_a_duplicate_is_confirmed_first_without_javascript(open_tab, desk):
    app, url = desk
    client = app.test_client()
    client.post("/report/", data={**open_form(client), **report_data(description="Foam again")})
    page = signed_in(open_tab, app, url, "officer", "phone", java_script_enabled=False).page
    open_case(page, url, 3)
    page.get_by_role("link", name="Mark this case a duplicate of IDR-2026-0001").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Mark IDR-2026-0003 a duplicate of IDR-2026-0001?"
    )
    # axe needs a page that runs scripts: the same confirm step, in a second tab.
    checked = signed_in(open_tab, app, url, "checker", viewport="phone").page
    checked.goto(page.url)
    check(checked, "confirm a duplicate, phone")
    page.get_by_role("button", name="Yes, mark IDR-2026-0003 a duplicate").click()
    expect(page.locator(".flash")).to_contain_text("Saved.")
    expect(page.locator(".summary-list").first).to_contain_text(
        "Already reported: of IDR-2026-0001"
    )
