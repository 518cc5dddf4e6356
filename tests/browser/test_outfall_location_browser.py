"""Field-verifying an outfall's location (officer's week 2026-12-03 F3): standing at it, the
officer taps "Use my location" on its edit page and the phone's position fills in the
latitude and longitude, with how accurate it is; saved, the inventory has it. Without
JavaScript the button stays hidden and the numbers are typed."""

from __future__ import annotations

import pytest
from browsing import check
from playwright.sync_api import expect
from test_case_desk_browser import signed_in
from test_screening_browser import field  # noqa: F401  (the fixture: the inventory imported)

pytestmark = pytest.mark.browser
AT_THE_PIPE = {"latitude": 42.16601, "longitude": -76.82102, "accuracy": 4}


def test_f3_use_my_location_fills_in_the_outfall_s_place(open_tab, field):  # noqa: F811
    app, url = field
    tab = signed_in(
        open_tab,
        app,
        url,
        "officer",
        viewport="phone",
        geolocation=AT_THE_PIPE,
        permissions=["geolocation"],
    )
    page = tab.page
    page.goto(f"{url}/staff/outfalls/1/edit")
    expect(page.locator("#location-tools .hint")).to_have_text(
        "Standing at it, use your location: the phone's position fills in the latitude and"
        " longitude, with how accurate it is. Or type them."
    )
    check(page, "outfall edit, phone")
    page.get_by_role("button", name="Use my location").click()
    expect(page.get_by_label("Latitude")).to_have_value("42.166010")
    expect(page.get_by_label("Longitude")).to_have_value("-76.821020")
    expect(page.locator("#location-status")).to_contain_text("Location found (accurate to about")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("main")).to_contain_text("42.166010, -76.821020")


def test_f3_without_javascript_the_numbers_are_typed(open_tab, field):  # noqa: F811
    app, url = field
    page = signed_in(open_tab, app, url, "officer", java_script_enabled=False).page
    page.goto(f"{url}/staff/outfalls/1/edit")
    expect(page.get_by_role("button", name="Use my location")).to_be_hidden()
    expect(page.get_by_text("Standing at it, use your location")).to_be_hidden()
