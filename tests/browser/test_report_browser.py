"""A resident reports from a phone: with location and a photo, and with no JavaScript at all."""

from __future__ import annotations

import io
import re

import pytest
from browsing import OVERFLOW, describe, run_axe
from PIL import Image
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

HERE = {"latitude": 42.16701, "longitude": -76.82099, "accuracy": 12}


def photo() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (1200, 900), "olive").save(buffer, "JPEG")
    return buffer.getvalue()


def assert_accessible(page, what: str) -> None:
    violations = run_axe(page)
    assert not violations, f"{what}:\n{describe(violations)}"
    fit = page.evaluate(OVERFLOW)
    assert fit["scrollWidth"] <= fit["clientWidth"], f"{what}: wider than the screen: {fit}"


def test_phone_report_with_my_location_and_a_photo(open_tab, live_server):
    tab = open_tab("phone", geolocation=HERE, permissions=["geolocation"])
    page = tab.page
    page.goto(f"{live_server}/report/")
    assert_accessible(page, "the empty form")

    page.get_by_label("Describe what you saw").fill(
        "Water from a sprinkler running down the gutter"
    )
    expect(page.locator("#exempt-hint")).to_contain_text("landscape irrigation or lawn watering")
    page.get_by_label("Oily sheen or rainbow film").check()
    page.get_by_label("Describe what you saw").fill(
        "Rainbow sheen running into the drain by the gas station."
    )
    page.get_by_role("button", name="Use my location").click()
    expect(page.locator("#latitude")).to_have_value("42.167010")
    expect(page.locator("#longitude")).to_have_value("-76.820990")
    expect(page.locator("#location-status")).to_contain_text("Location found")
    page.set_input_files(
        "#photos", files=[{"name": "drain.jpg", "mimeType": "image/jpeg", "buffer": photo()}]
    )
    page.get_by_role("button", name="Send report").click()

    page.wait_for_url(re.compile(r"/report/sent/[\w-]+/$"))
    assert re.search(r"IDR-\d{4}-\d{4}", page.text_content(".reference"))
    assert_accessible(page, "the confirmation page")
    page.click(".status-link a")
    assert "Received" in page.text_content("main")
    assert not tab.errors and not tab.external_requests


NOT_A_PHOTO = "This file is not a photo we can read. Attach a JPEG, PNG, WebP or GIF image."


def test_a_file_that_is_no_photo_is_refused_as_it_is_chosen(open_tab, live_server):
    """A PDF and a text file named .jpg: refused at once, each by its name, in the field's
    error area (role=alert), never listed; the photos chosen with them are. A HEIC photo
    this browser cannot read goes on to the server, which says what to do with it. Past
    the limit, the photos left out are counted in one message."""
    tab = open_tab("phone")
    page = tab.page
    page.goto(f"{live_server}/report/")
    heic = b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + bytes(64)
    page.set_input_files(
        "#photos",
        files=[
            {"name": "notice.pdf", "mimeType": "application/pdf", "buffer": b"%PDF-1.4\n%\xe2\xe3"},
            {"name": "drain.jpg", "mimeType": "image/jpeg", "buffer": photo()},
            {"name": "notes.jpg", "mimeType": "image/jpeg", "buffer": b"just some text"},
            {"name": "IMG_0001.HEIC", "mimeType": "image/heic", "buffer": heic},
        ],
    )
    problems = page.locator("#photos-problems")
    expect(problems).to_have_text(f"notice.pdf: {NOT_A_PHOTO} notes.jpg: {NOT_A_PHOTO}")
    expect(problems).to_have_attribute("role", "alert")
    expect(page.locator(".photos-section #photos-problems")).to_be_visible()
    expect(page.locator(".photo-list .photo-name")).to_have_text(["drain.jpg", "IMG_0001.HEIC"])
    assert_accessible(page, "a PDF and a text file refused")
    page.set_input_files(
        "#photos",
        files=[
            {"name": f"more-{n}.jpg", "mimeType": "image/jpeg", "buffer": photo()} for n in range(3)
        ],
    )
    expect(problems).to_have_text("Photos over the limit, not added: 2.")
    expect(page.locator(".photo-list li")).to_have_count(3)
    assert not tab.errors and not tab.external_requests


def test_errors_are_announced_and_fixable(open_tab, live_server):
    tab = open_tab("phone")
    page = tab.page
    page.goto(f"{live_server}/report/")
    page.get_by_label("Latitude").fill("200")
    page.get_by_role("button", name="Send report").click()
    page.wait_for_selector("#error-summary")
    assert page.evaluate("document.activeElement.id") == "error-summary"
    assert_accessible(page, "the form with errors")
    page.click("#error-summary a[href='#latitude']")
    assert page.evaluate("location.hash") == "#latitude"
    assert page.input_value("#latitude") == "200", "what was typed is kept"
    page.fill("#latitude", "")
    page.fill("#address", "Corner of Elm and Main")
    page.fill("#description", "Grey water coming out of a pipe.")
    page.get_by_role("button", name="Send report").click()
    page.wait_for_url(re.compile(r"/report/sent/"))
    assert tab.external_requests == []
    # The 422 of the first try is the only error response.
    assert [e for e in tab.errors if "422" not in e] == []


def tab_to(page, element_id: str, limit: int = 80) -> None:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == element_id:
            return
    raise AssertionError(f"#{element_id} never got the keyboard focus")


def test_keyboard_only_without_javascript_using_an_address(open_tab, live_server):
    tab = open_tab("phone", java_script_enabled=False)
    page = tab.page
    page.goto(f"{live_server}/report/")
    assert page.is_hidden("#location-tools"), "the JavaScript-only buttons stay out of the way"
    tab_to(page, "indicators-1")  # Suds or foam
    page.keyboard.press("Space")
    tab_to(page, "description")
    page.keyboard.type("Suds in the creek behind the school.")
    tab_to(page, "address")
    page.keyboard.type("Creek behind the middle school")
    # The kind of place is in a group of its own, closed: its summary opens it.
    tab_to(page, "group-place-kind-summary")
    page.keyboard.press("Enter")
    tab_to(page, "location_type-0")  # a radio group: Tab enters it, arrows choose
    page.keyboard.press("Space")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert page.is_checked("#location_type-2")  # Creek or stream
    tab_to(page, "group-contact-summary")
    page.keyboard.press("Enter")
    tab_to(page, "contact_email")
    page.keyboard.type("neighbor@example.test")
    for _ in range(10):  # on to the button, then send
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.textContent") == "Send report":
            break
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/report/sent/"))
    assert re.search(r"IDR-\d{4}-\d{4}", page.text_content(".reference"))
    assert "sent the reference and this link to the e-mail address" in page.text_content("main")
    assert not tab.errors


def test_without_a_tile_source_no_map_is_offered_and_leaflet_is_not_loaded(open_tab, live_server):
    tab = open_tab("phone")
    requested = []
    tab.page.on("request", lambda request: requested.append(request.url))
    tab.page.goto(f"{live_server}/report/")
    expect(tab.page.get_by_role("button", name="Use my location")).to_be_visible()
    expect(tab.page.get_by_role("button", name="Choose the spot on a map")).to_have_count(0)
    assert not [url for url in requested if "leaflet" in url]
    assert not tab.errors


NO_TILES = (
    "The map pictures could not be loaded (the map server cannot be reached), so the map"
    " is not shown. Use your location, or type an address or landmark below."
)


def test_when_tiles_cannot_load_no_blank_map_invites_a_tap(open_tab, tiled_server):
    tab = open_tab("phone", geolocation=HERE, permissions=["geolocation"])
    page = tab.page
    page.route("https://tiles.test/**", lambda route: route.abort("internetdisconnected"))
    page.goto(f"{tiled_server.url}/report/")
    toggle = page.get_by_role("button", name="Choose the spot on a map")
    toggle.click()
    # Said once, shown and announced by the one live region (not also in the panel, or a
    # screen reader reads it twice), with the panel closed.
    notice = page.locator("#location-status")
    expect(notice).to_have_text(NO_TILES)
    expect(notice).to_be_visible()
    assert page.locator("#location-tools").inner_text().count("could not be loaded") == 1
    expect(page.locator("#map-panel")).to_be_hidden()
    expect(toggle).to_have_attribute("aria-expanded", "false")
    # No box to tap on, and no word of tapping or dropping a pin.
    expect(page.locator("#map")).to_have_count(1)
    expect(page.locator("#map")).to_be_hidden()
    expect(page.locator("#map-help")).to_be_hidden()
    assert "tap" not in notice.inner_text().lower()
    # Asked again, it says why again (still once), and opens no empty box.
    toggle.click()
    expect(notice).to_have_text(NO_TILES)
    expect(page.locator("#map-panel")).to_be_hidden()
    assert page.locator("#location-tools").inner_text().count("could not be loaded") == 1
    assert_accessible(page, "picker without tiles")
    # The phone's location still works, and offers no map to adjust it on.
    page.get_by_role("button", name="Use my location").click()
    expect(notice).to_have_text("Location found (accurate to about 12 m).")
    page.get_by_label("Street address or landmark").fill("Behind the library")
    assert all("tiles.test" in error for error in tab.errors), tab.errors


def _tiles(page) -> None:
    tile = io.BytesIO()
    Image.new("RGB", (256, 256), "lightgray").save(tile, "PNG")
    page.route(
        "https://tiles.test/**",
        lambda route: route.fulfill(body=tile.getvalue(), content_type="image/png"),
    )


def test_a_tap_on_the_map_asks_before_it_replaces_a_gps_fix(open_tab, tiled_server):
    tab = open_tab("phone", geolocation=HERE, permissions=["geolocation"])
    page = tab.page
    _tiles(page)
    page.goto(f"{tiled_server.url}/report/")
    page.get_by_role("button", name="Use my location").click()
    expect(page.locator("#latitude")).to_have_value("42.167010")
    page.get_by_role("button", name="Choose the spot on a map").click()
    page.wait_for_selector("#map .leaflet-tile-loaded")
    page.click("#map", position={"x": 170, "y": 220})
    ask = page.get_by_role("group", name=re.compile("Move the pin here"))
    expect(ask).to_contain_text(
        "It replaces your location (found by your phone, accurate to about 12 m)"
    )
    # Nothing replaced yet; keeping it keeps it.
    expect(page.locator("#latitude")).to_have_value("42.167010")
    ask.get_by_role("button", name="Keep my location").click()
    expect(ask).to_be_hidden()
    expect(page.locator("#latitude")).to_have_value("42.167010")
    expect(page.locator("#longitude")).to_have_value("-76.820990")
    # Asked again, and told to move: then the tap counts.
    page.click("#map", position={"x": 170, "y": 220})
    page.get_by_role("button", name="Move the pin here").click()
    expect(page.locator("#location-status")).to_contain_text("Pin placed at")
    assert page.input_value("#latitude") != "42.167010"
    assert_accessible(page, "the map after a tap")
    assert all("tiles.test" in url for url in tab.external_requests)


def test_the_place_fields_say_one_of_them_is_needed(open_tab, live_server):
    for javascript in (True, False):
        page = open_tab("phone", java_script_enabled=javascript).page
        page.goto(f"{live_server}/report/")
        expect(page.locator("#location-hint")).to_contain_text("One of them is needed.")
        for field in ("address", "latitude", "longitude"):
            label = page.locator(f"label[for={field}]")
            assert "optional" not in label.inner_text(), (javascript, field)
        # The fieldset carries the hint, so it is read with each of its fields' group.
        assert page.get_attribute("fieldset:has(#address)", "aria-describedby") == "location-hint"


def test_a_pin_dropped_on_the_map_fills_the_coordinates(open_tab, tiled_server):
    tab = open_tab("phone")
    page = tab.page
    _tiles(page)
    page.goto(f"{tiled_server.url}/report/")
    page.get_by_role("button", name="Choose the spot on a map").click()
    page.wait_for_selector("#map .leaflet-tile-loaded")
    page.click("#map", position={"x": 120, "y": 150})
    expect(page.locator("#location-status")).to_contain_text("Pin placed at")
    latitude = float(page.input_value("#latitude"))
    assert 42.0 < latitude < 42.4 and page.input_value("#longitude").startswith("-76.")
    assert "Test tiles" in page.text_content(".leaflet-control-attribution")
    assert all(url.startswith("https://tiles.test/") for url in tab.external_requests)
    assert not tab.errors


def test_the_pool_hint_is_held_back_for_water_said_to_have_chlorine(open_tab, live_server):
    """Legal C30, as the form shows it while typing: the same reading as the server's."""
    page = open_tab("phone").page
    page.goto(f"{live_server}/report/")
    page.get_by_label("Oily sheen or rainbow film").check()
    described = page.get_by_label("Describe what you saw")
    hint = page.locator("#exempt-hint")
    described.fill("Draining the pool into the gutter")
    expect(hint).to_contain_text("dechlorinated swimming pool discharges")
    described.fill("Draining the pool into the gutter, it smells of chlorine")
    expect(hint).to_have_text("")
