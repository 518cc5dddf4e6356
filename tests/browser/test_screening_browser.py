"""The outfall inventory and dry-weather screening in Chromium: a sheet on a 360 px phone at
an outfall picked by GPS, with no signal and then signal again; the same without JavaScript;
a session that ends while the sheet is typed; the route on paper; the staff map's layer;
axe and no sideways scroll on every page."""

from __future__ import annotations

import io
import re

import pytest
from browsing import check, on_disk
from helpers import DATA, PASSWORD, csrf_of, next_code, serving, sign_in
from playwright.sync_api import expect
from test_case_desk_browser import signed_in

from portal import create_app
from portal.core.db import get_db, insert, transaction

pytestmark = pytest.mark.browser
OF_001 = {"latitude": 42.16552, "longitude": -76.82012}  # a few metres from OF-001


@pytest.fixture
def field(tmp_path, build):
    """The portal with the fictional inventory imported (tests/data/outfalls), and its URL."""
    app = create_app(
        {
            "DATABASE": str(tmp_path / "db.sqlite3"),
            "SITE_DIR": str(build),
            "MAIL_FOLDER": str(tmp_path / "mail"),
            "MAP_TILE_URL": "",
            "RATELIMIT_ENABLED": False,
            "SESSION_COOKIE_SECURE": False,
        }
    )
    client = app.test_client()
    sign_in(client, app, "importer")
    page = client.get("/staff/outfalls/import").text
    data = (DATA / "outfalls" / "horseheads-outfalls.geojson").read_bytes()
    client.post(
        "/staff/outfalls/import",
        content_type="multipart/form-data",
        data={"csrf_token": csrf_of(page), "file": (io.BytesIO(data), "hh.geojson")},
    )
    with serving(app) as url:
        yield app, url


def sign_in_again(page, app, username: str) -> None:
    """Answer the sign-in page the tab shows; it goes back to the page asked for."""
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_label("Code from your authenticator app").fill(next_code(app, username))
    page.get_by_role("button", name="Sign in").click()


def fill_sheet(page) -> None:
    page.get_by_label("Hours since the last rain").fill("96")
    page.get_by_label("Trickle").check()
    page.get_by_label("Odor", exact=True).select_option("sewage")
    page.get_by_label("Odor severity").select_option("3")
    page.get_by_label("pH (standard units)").fill("7.6")
    page.get_by_role("textbox", name="Notes").fill("Grey trickle, sewage smell at the headwall.")
    page.get_by_label("Suspect (one or more indicators with a severity of 3)").check()


def test_a_sheet_on_a_phone_with_no_signal_then_signal(open_tab, field):
    app, url = field
    tab = signed_in(
        open_tab,
        app,
        url,
        "officer",
        viewport="phone",
        geolocation=OF_001,
        permissions=["geolocation"],
    )
    page, context = tab.page, tab.page.context
    page.get_by_role("link", name="Outfalls").click()
    check(page, "inventory, phone")
    page.get_by_role("link", name="Screen an outfall").click()
    check(page, "pick an outfall, phone")
    page.get_by_role("button", name="List the outfalls nearest me").click()
    nearest = page.locator("ol.pick-list li")
    expect(nearest.first).to_contain_text("OF-001, 3 m: End of Example Avenue (to Test Creek)")
    check(page, "nearest outfalls, phone")
    page.get_by_role("link", name="OF-001").click()
    expect(page.get_by_role("heading", name="Screening OF-001")).to_be_visible()
    check(page, "screening sheet, phone")
    fill_sheet(page)
    page.locator("#photos").set_input_files(
        [{"name": "headwall.jpg", "mimeType": "image/jpeg", "buffer": _jpeg()}]
    )
    context.set_offline(True)
    page.get_by_role("button", name="Save the screening").click()
    notice = page.locator("#sheet-offline")
    expect(notice).to_contain_text("Not saved yet: there is no signal.")
    expect(page.get_by_role("textbox", name="Notes")).to_have_value(
        "Grey trickle, sewage smell at the headwall."
    )
    check(page, "sheet kept with no signal, phone")
    assert app_count(app, "screenings") == 0
    context.set_offline(False)  # the page sends it when the phone is back online
    expect(page.get_by_role("heading", name="Needs follow-up")).to_be_visible()
    expect(page.locator("main")).to_contain_text("The call was suspect")
    expect(page.locator("main")).to_contain_text("Odor: sewage (severity 3)")
    expect(page.locator(".photos img")).to_have_count(1)
    check(page, "saved sheet, phone")
    assert app_count(app, "screenings") == 1
    page.wait_for_function("() => sessionStorage.getItem('draft:sheet-1') === null")
    # The sign-in's 401 and the send that failed offline; nothing else.
    assert [e for e in tab.errors if not re.search(r"401|INTERNET_DISCONNECTED", e)] == []
    assert not tab.external_requests


def _jpeg() -> bytes:
    from helpers import jpeg

    return jpeg((1600, 1200))


def app_count(app, table: str) -> int:
    with app.app_context():
        return get_db().execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def test_a_sheet_without_javascript(open_tab, field):
    app, url = field
    page = signed_in(open_tab, app, url, "officer", "phone", java_script_enabled=False).page
    page.goto(f"{url}/staff/screenings/")
    expect(page.get_by_role("button", name="List the outfalls nearest me")).to_be_hidden()
    page.get_by_label("The outfall's id").fill("of-003")
    page.get_by_role("button", name="Find").click()
    expect(page.get_by_role("heading", name="Screening OF-003")).to_be_visible()
    page.get_by_label("Trickle").check()
    page.get_by_label("Odor", exact=True).select_option("petroleum")
    page.get_by_role("button", name="Save the screening").click()  # no severity, no call
    summary = page.locator(".error-summary")
    expect(summary).to_contain_text("Grade the odor from 1 to 3.")
    expect(summary).to_contain_text("Choose the overall call.")
    page.get_by_label("Odor severity").select_option("1")
    page.get_by_label("Unlikely").check()
    page.get_by_role("button", name="Save the screening").click()
    expect(page.locator(".flash")).to_contain_text("Screening of OF-003 saved.")
    expect(page.get_by_role("heading", name="Needs follow-up")).to_have_count(0)
    # axe needs scripts: the same pages, checked in a tab that runs them.
    checker = signed_in(open_tab, app, url, "checker", viewport="phone").page
    checker.goto(f"{url}/staff/screenings/outfall/3/new")
    checker.get_by_role("button", name="Save the screening").click()
    expect(checker.locator(".error-summary")).to_be_visible()
    check(checker, "sheet with errors, phone")
    checker.goto(page.url)
    check(checker, "saved unlikely sheet, phone")


def test_a_sheet_typed_while_the_session_ends_is_back_after_signing_in(open_tab, field):
    app, url = field
    tab = signed_in(open_tab, app, url, "officer", viewport="phone")
    page = tab.page
    page.goto(f"{url}/staff/screenings/outfall/2/new")
    fill_sheet(page)
    app.config["STAFF_IDLE_MINUTES"] = 0  # the session ends while the officer types
    page.get_by_role("button", name="Save the screening").click()
    expect(page.get_by_role("heading", name="Staff sign-in")).to_be_visible()
    app.config["STAFF_IDLE_MINUTES"] = 30
    sign_in_again(page, app, "officer")
    expect(page.get_by_role("heading", name="Screening OF-002")).to_be_visible()
    expect(page.get_by_role("textbox", name="Notes")).to_have_value(
        "Grey trickle, sewage smell at the headwall."
    )
    expect(page.get_by_label("Odor severity")).to_have_value("3")
    expect(
        page.get_by_label("Suspect (one or more indicators with a severity of 3)")
    ).to_be_checked()
    expect(page.locator(".draft-note")).to_contain_text("choose them again")
    page.get_by_role("button", name="Save the screening").click()
    expect(page.get_by_role("heading", name="Needs follow-up")).to_be_visible()
    assert app_count(app, "screenings") == 1


def _heavy_jpeg(seed: int) -> bytes:
    """A phone photo of about 9.3 MB (noise does not compress), under the 10 MB per photo."""
    import random

    from PIL import Image

    noise = random.Random(seed).randbytes(3200 * 2400 * 3)
    out = io.BytesIO()
    Image.frombytes("RGB", (3200, 2400), noise).save(out, "JPEG", quality=96)
    assert 9 * 2**20 < len(out.getvalue()) < 10 * 2**20
    return out.getvalue()


def test_three_9_mb_photos_are_made_smaller_and_saved(open_tab, field, tmp_path):
    app, url = field
    tab = signed_in(open_tab, app, url, "officer", viewport="phone")
    page = tab.page
    page.goto(f"{url}/staff/screenings/outfall/4/new")
    fill_sheet(page)
    photos = on_disk(tmp_path, {f"outfall-{n}.jpg": _heavy_jpeg(n) for n in range(3)})
    page.locator("#photos").set_input_files(photos, timeout=60_000)
    listed = page.locator(".photo-list li")
    expect(listed).to_have_count(3, timeout=60_000)
    sizes = page.locator(".photo-size").all_inner_texts()
    assert all(re.fullmatch(r" \(\d+ KB\)", size) for size in sizes), sizes  # not MB
    check(page, "sheet with three photos, phone")
    page.get_by_role("button", name="Save the screening").click()
    # 28 MB to send and three photos to decode: on a busy machine that takes a while.
    expect(page.locator(".flash")).to_contain_text("Screening of OF-004 saved.", timeout=60_000)
    expect(page.locator(".photos img")).to_have_count(3)
    with app.app_context():
        stored = get_db().execute("SELECT max(length(data)), max(width) FROM screening_photos")
        biggest, widest = stored.fetchone()
    assert app_count(app, "screening_photos") == 3
    assert biggest < 1024 * 1024 and widest <= 1600


def test_the_route_prints_on_at_most_two_letter_pages(open_tab, field):
    app, url = field
    with app.app_context():
        db = get_db()
        with transaction(db):
            for n in range(40):  # never screened, added long ago: all overdue
                insert(
                    db,
                    "outfalls",
                    {
                        "code": f"RT-{n:02d}",
                        "latitude": 42.152 + (n % 8) * 0.004,
                        "longitude": -76.848 + (n // 8) * 0.009,
                        # Place text as an officer writes it (a route of 3 pages).
                        "location": f"Behind {1400 + n} Fictional Westinghouse Road, past the public"
                        " works salt barn, at the concrete headwall by the footbridge",
                        "receiving_water": "Newtown Creek tributary",
                        "created_at": "2015-01-01T09:00:00-05:00",
                        "updated_at": "2015-01-01T09:00:00-05:00",
                        "updated_by": "test",
                    },
                )
    page = signed_in(open_tab, app, url, "officer").page
    page.goto(f"{url}/staff/screenings/due")
    check(page, "due list")
    page.get_by_role("link", name="Print a route for a day").click()
    page.get_by_label("Stops").fill("30")
    page.get_by_role("button", name="Show the route").click()
    rows = page.locator("table.route tbody tr")
    expect(rows).to_have_count(30)
    check(page, "route")
    page.set_viewport_size({"width": 360, "height": 740})
    check(page, "route, phone")  # nothing wider than the phone (521 px before)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.emulate_media(media="print")
    assert page.locator("form:visible, nav:visible").count() == 0
    pdf = page.pdf(format="Letter", print_background=False)
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
    print(f"route of 30 stops: {pages} Letter page(s)")
    assert pages <= 2, pages  # 30 stops on at most two Letter pages (3 before)


def test_the_staff_map_shows_the_outfalls_as_their_own_layer(open_tab, field):
    from helpers import open_form, report_data

    app, url = field
    client = app.test_client()
    client.post(
        "/report/",
        data={**open_form(client), **report_data(latitude="42.1656", longitude="-76.8200")},
    )
    tab = signed_in(open_tab, app, url, "officer")
    page = tab.page
    page.goto(f"{url}/staff/map/")
    check(page, "map with outfalls")
    frame = page.frame_locator("iframe.cases-map")
    control = frame.locator(".leaflet-control-layers")
    expect(control).to_contain_text("Open cases")
    expect(control).to_contain_text("Outfalls and structures")
    expect(frame.locator(".structure-cluster, path.leaflet-interactive").first).to_be_visible()
    page.goto(f"{url}/staff/cases/1/")
    expect(page.locator("main")).to_contain_text("OF-001, outfall, 14 m away, to Test Creek")
    check(page, "case with the nearest outfalls")
    case_frame = page.frame_locator("iframe.case-map")
    expect(case_frame.locator(".leaflet-control-layers")).to_contain_text("Outfalls and structures")
    # Nothing the maps' strict CSP blocked (their inline code is allowed by hash only).
    assert [e for e in tab.errors if "401" not in e] == []


def test_the_inventory_pages_on_a_phone(open_tab, field):
    app, url = field
    page = signed_in(open_tab, app, url, "officer", viewport="phone").page
    page.goto(f"{url}/staff/outfalls/?q=brook")
    check(page, "inventory search, phone")
    page.get_by_role("link", name="OF-004").click()
    expect(page.locator("main")).to_contain_text("24 in × 36 in")
    check(page, "outfall, phone")
    page.get_by_role("link", name="Edit the record").click()
    page.get_by_label("Latitude").fill("")
    page.get_by_role("button", name="Save").click()
    expect(page.locator(".error-summary")).to_contain_text("Enter the latitude")
    check(page, "edit refused, phone")
    page.goto(f"{url}/staff/outfalls/import")
    page.get_by_label("Inventory file").set_input_files(
        str(DATA / "outfalls" / "horseheads-outfalls.csv")
    )
    page.get_by_label("Only check the file: change nothing").check()
    page.get_by_role("button", name="Import").click()
    expect(page.locator(".import-report")).to_contain_text("Would add: 2")
    check(page, "import report, phone")
    # A paper screening day by hand, then the structure retired (refused first: no reason).
    page.goto(f"{url}/staff/outfalls/?q=brook")
    page.get_by_role("link", name="OF-004").click()
    page.get_by_label("Screened on (on paper)").fill("2024-05-17")
    page.get_by_role("button", name="Add the paper day").click()
    expect(page.locator("#paper-days + p + ul")).to_contain_text("May 17, 2024")
    page.get_by_label("Retired on").fill("2024-06-01")
    page.get_by_role("button", name="Retire OF-004").click()
    expect(page.locator(".error-summary")).to_contain_text("Say why")
    check(page, "retire refused, phone")
    page.get_by_label("Why", exact=True).fill("pipe removed in the road work")
    page.get_by_role("button", name="Retire OF-004").click()
    expect(page.locator("main")).to_contain_text("retired from 2024-06-01: pipe removed")
    check(page, "retired outfall with its history, phone")


def test_a_suspect_screening_opens_its_case_in_one_tap_on_a_phone(open_tab, field):
    app, url = field
    page = signed_in(open_tab, app, url, "officer", viewport="phone").page
    page.goto(f"{url}/staff/screenings/outfall/1/new")
    fill_sheet(page)
    page.get_by_role("button", name="Save the screening").click()
    expect(page.get_by_role("heading", name="Needs follow-up")).to_be_visible()
    check(page, "saved suspect sheet with its case button, phone")
    page.get_by_role("button", name="Open a case from this screening").click()
    expect(page.get_by_role("heading", name=re.compile(r"^SCR-\d{4}-0001"))).to_be_visible()
    expect(page.locator("main")).to_contain_text("What the screening found")
    expect(page.get_by_role("link", name="OF-001").first).to_be_visible()
    check(page, "case opened from a screening, phone")
    page.go_back()
    page.reload()
    expect(page.locator("main")).to_contain_text(re.compile(r"Followed up under SCR-\d{4}-0001"))
    expect(page.get_by_role("button", name="Open a case from this screening")).to_have_count(0)
    assert app_count(app, "cases") == 1


def test_the_sheet_says_wet_weather_as_the_hours_are_typed(open_tab, field):
    app, url = field
    page = signed_in(open_tab, app, url, "officer", viewport="phone").page
    page.goto(f"{url}/staff/screenings/outfall/3/new")
    wet = page.locator("#wet-confirm")
    expect(wet).to_be_hidden()
    page.get_by_label("Hours since the last rain").fill("6")
    expect(wet).to_be_visible()
    expect(wet).to_contain_text("Fewer than 72 hours after a rain of more than 0.1 inch")
    page.get_by_label("How much it rained (inches)").fill("0.05")
    expect(wet).to_be_hidden()  # a light rain leaves the weather dry (our reading)
    page.get_by_label("How much it rained (inches)").fill("0.6")
    check(page, "sheet in wet weather, phone")
    page.get_by_label("Substantial").check()
    page.get_by_label("Unlikely").check()
    page.get_by_label("Save it as a wet-weather visit").check()
    page.get_by_role("button", name="Save the screening").click()
    expect(page.locator(".flash")).to_contain_text(
        "Screening of OF-003 saved as a wet-weather visit."
    )
    expect(page.locator(".wet-notice")).to_contain_text("not counted as a dry-weather screening")
    check(page, "saved wet-weather visit, phone")
