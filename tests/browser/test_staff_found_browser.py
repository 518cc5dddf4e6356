"""A discharge staff found, recorded in Chromium on a 360 px phone: from the queue, a save
refused with its errors beside the fields, then the place from the phone's GPS, a photo, and
the officer lands on the new case's page; axe and no sideways scroll on each page."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from browsing import check
from helpers import jpeg, rows, serving
from playwright.sync_api import expect
from test_case_desk_browser import signed_in

from portal import create_app

pytestmark = pytest.mark.browser
# Where the phone is: in the Village's service area.
HERE = {"latitude": 42.16552, "longitude": -76.82012}


@pytest.fixture
def desk(tmp_path, build):
    """The portal at 00:30 local on 1 March (05:30 on a UTC clock), and its URL."""
    app = create_app(
        {
            "DATABASE": str(tmp_path / "db.sqlite3"),
            "SITE_DIR": str(build),
            "MAIL_FOLDER": str(tmp_path / "mail"),
            "MAP_TILE_URL": "",
            "RATELIMIT_ENABLED": False,
            "SESSION_COOKIE_SECURE": False,
            "CLOCK": lambda: dt.datetime(2026, 3, 1, 5, 30, tzinfo=dt.UTC),
        }
    )
    with serving(app) as url:
        yield app, url


def test_an_officer_records_a_discharge_on_a_phone_and_lands_on_its_case(open_tab, desk):
    app, url = desk
    tab = signed_in(
        open_tab,
        app,
        url,
        "officer",
        viewport="phone",
        geolocation=HERE,
        permissions=["geolocation"],
    )
    page = tab.page
    page.get_by_role("link", name="Record a discharge staff found").click()
    expect(page.get_by_role("heading", name="Record a discharge staff found")).to_be_visible()
    expect(page.get_by_label("When it was found")).to_have_value("2026-03-01T00:30")
    expect(page.get_by_label("Who found it")).to_have_value("officer")
    check(page, "record a finding, phone")
    # Saved with nothing said of what or where: each error beside its field, the rest kept.
    page.get_by_label("Dead fish or animals").check()
    page.get_by_label("Who found it").fill("Jo Smith")
    page.get_by_role("button", name="Save and open the case").click()
    expect(page.get_by_role("heading", name="Please fix these 3 things")).to_be_visible()
    expect(page.locator("#description-error")).to_contain_text("Describe what was found.")
    expect(page.locator("#how_found-error")).to_contain_text("Choose how it was found.")
    expect(page.locator("#address-error")).to_contain_text("Say where")
    expect(page.get_by_label("Who found it")).to_have_value("Jo Smith")
    expect(page.get_by_label("Dead fish or animals")).to_be_checked()
    check(page, "a finding with errors, phone")
    page.get_by_label("Describe what was found").fill("Dead fish in the creek below the pipe.")
    page.get_by_role("button", name="Use my location").click()
    expect(page.get_by_label("Latitude")).to_have_value("42.165520")
    expect(page.get_by_label("Longitude")).to_have_value("-76.820120")
    page.get_by_label("Routine inspection").check()
    page.locator("#photos").set_input_files(
        [{"name": "creek.jpg", "mimeType": "image/jpeg", "buffer": jpeg((1600, 1200))}]
    )
    page.get_by_role("button", name="Save and open the case").click()
    expect(
        page.get_by_role("heading", name="SF-2026-0001 Discharge found by staff")
    ).to_be_visible()
    assert re.search(r"/staff/cases/1/$", page.url)
    expect(page.locator("main")).to_contain_text("Hazardous: dead fish or animals")
    expect(page.locator(".photos img")).to_have_count(1)
    check(page, "its case, phone")
    stored = rows(
        app,
        "SELECT c.latitude, c.longitude, f.found_by, f.how_found FROM cases c"
        " JOIN staff_findings f ON f.case_id = c.id",
    )
    assert stored == [
        {
            "latitude": 42.16552,
            "longitude": -76.82012,
            "found_by": "Jo Smith",
            "how_found": "routine-inspection",
        }
    ]
    # The sign-in's 401 and the refused save's 422; nothing else went wrong.
    assert [e for e in tab.errors if not re.search(r"(HTTP|status of) (401|422)\b", e)] == []
    assert not tab.external_requests
