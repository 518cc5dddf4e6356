"""The SMO at work in Chromium: sign in, filter the queue, open a case, change it, see the map."""

from __future__ import annotations

import re

import pytest
from browsing import check
from helpers import PASSWORD, add_enrolled_account, next_code
from playwright.sync_api import expect

from portal.accounts.accounts import add_account
from portal.core.db import get_db

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_a_day_in_the_workspace(open_tab, live_app, live_server, viewport):
    username = f"officer-{viewport}"
    add_enrolled_account(live_app, username)
    tab = open_tab(viewport)
    page = tab.page

    # A resident's report first, so there is something to work on.
    page.goto(f"{live_server}/report/")
    page.get_by_label("Describe what you saw").fill(f"Grey water from a pipe ({viewport})")
    page.get_by_label("Street address or landmark").fill("Behind the library")
    page.fill("#latitude", "42.1672")
    page.fill("#longitude", "-76.8205")
    page.get_by_role("button", name="Send report").click()
    reference = page.text_content(".reference").strip()

    page.goto(f"{live_server}/staff/")
    expect(page.get_by_role("heading", name="Staff sign-in")).to_be_visible()
    check(page, "sign-in")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_label("Code from your authenticator app").fill(next_code(live_app, username))
    page.get_by_role("button", name="Sign in").click()

    expect(page.get_by_role("heading", name="Queue")).to_be_visible()
    check(page, "queue")
    page.get_by_label("Search").fill(viewport)
    page.get_by_role("button", name="Filter").click()
    expect(page.locator("#queue-count")).to_contain_text("1 case")
    page.get_by_role("link", name=reference).click()

    expect(page.get_by_role("heading", name=re.compile(reference))).to_be_visible()
    check(page, "case")
    page.select_option("#status", "investigating")
    page.get_by_role("button", name="Save changes").click()
    expect(page.locator(".flash")).to_contain_text("Saved.")
    expect(page.locator(".audit")).to_contain_text("Status Received → Being investigated")
    frame = page.frame_locator("iframe.case-map")
    expect(frame.locator(".leaflet-interactive").first).to_be_attached()

    page.get_by_role("link", name="Map").click()
    expect(page.get_by_role("heading", name="Map of open cases")).to_be_visible()
    check(page, "map page")
    expect(page.frame_locator("iframe.cases-map").locator(".leaflet-container")).to_be_visible()
    # The one error response: the sign-in page answering the anonymous visit (401).
    assert [e for e in tab.errors if "401" not in e] == [] and not tab.external_requests

    # Each page checked once it has arrived: axe needs the new document, not the old one.
    for link, heading in [
        ("Annual report", "Annual report: the illicit discharge program"),
        ("Exports", "Exports"),
        (re.compile("^Mail"), "Mail not yet delivered"),
        ("Queue", "Queue"),
        (re.compile("Log a release told by phone"), re.compile("release told by phone", re.I)),
    ]:
        page.get_by_role("link", name=link).click()
        expect(page.get_by_role("heading", level=1, name=heading)).to_be_visible()
        check(page, str(heading))
    page.get_by_label("Business or facility").fill(f"Phone test {viewport}")
    page.get_by_label("Who called").fill("Sam Lee")
    page.get_by_label("What was released").fill("Hydraulic oil")
    page.get_by_label("By telephone").check()
    page.get_by_role("button", name="Log the notice").click()
    expect(page.locator(".flash")).to_contain_text("Notice logged.")
    check(page, "queue with waiting notices")
    page.get_by_role("button", name=re.compile("Sign out")).click()
    expect(page.get_by_role("heading", name="Staff sign-in")).to_be_visible()


def test_when_tiles_cannot_load_the_staff_map_says_so(open_tab, tiled_server):
    with tiled_server.app.app_context():
        add_account(get_db(), "officer", PASSWORD)
    tab = open_tab("desktop")
    page = tab.page
    page.route("https://tiles.test/**", lambda route: route.abort("internetdisconnected"))
    page.goto(f"{tiled_server.url}/staff/")
    page.get_by_label("Username").fill("officer")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("link", name="Map").click()
    frame = page.frame_locator("iframe.cases-map")
    expect(frame.locator(".tile-notice")).to_contain_text("The map background could not be loaded")
    expect(frame.locator(".tile-notice")).to_have_attribute("role", "status")
    # No sign of a missing setting: a tile source is configured, it is just unreachable.
    expect(page.locator("main")).not_to_contain_text("No map background is set up")
