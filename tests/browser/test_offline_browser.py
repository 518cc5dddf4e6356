"""A resident's phone at a creek: photos made smaller before sending, a report kept on the
phone while offline and sent once when back, "My reports", and the no-JavaScript path."""

from __future__ import annotations

import io
import re
import threading

import pytest
from browsing import check
from PIL import Image
from playwright.sync_api import expect

from portal.core.db import get_db

pytestmark = pytest.mark.browser


@pytest.fixture
def portal(tmp_path, build):
    """The portal on its own database, so a test can count what arrived."""
    from werkzeug.serving import make_server

    from portal import create_app

    app = create_app({"DATABASE": str(tmp_path / "db.sqlite3"), "SITE_DIR": str(build),
                      "MAIL_FOLDER": str(tmp_path / "mail"), "MAP_TILE_URL": ""})  # fmt: skip
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", app
    server.shutdown()
    thread.join()


def jpeg(width: int, height: int, noisy: bool = False) -> bytes:
    """A camera-sized JPEG; `noisy` makes it heavy, as a phone photo is."""
    if noisy:
        small = Image.effect_noise((width // 8, height // 8), 90).convert("RGB")
        image = small.resize((width, height), Image.BICUBIC)
    else:
        image = Image.new("RGB", (width, height), "olive")
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=95)
    return buffer.getvalue()


def rows(app, sql: str, *args) -> list:
    with app.app_context():
        return get_db().execute(sql, args).fetchall()


def fill_report(page, description: str) -> None:
    page.get_by_label("Describe what you saw").fill(description)
    page.get_by_label("Street address or landmark").fill("The creek behind the school")


def test_a_report_made_offline_is_kept_and_sent_once_when_back_online(open_tab, portal):
    url, app = portal
    tab = open_tab("phone")
    page, context = tab.page, tab.page.context
    page.goto(f"{url}/report/")
    # The service worker takes the form and its assets, so the form opens offline too.
    page.wait_for_function("() => navigator.serviceWorker.ready.then(() => true)")
    assert [w.url for w in context.service_workers] == [f"{url}/report/sw.js"]

    context.set_offline(True)
    page.reload()
    expect(page.get_by_role("heading", name="Report a problem")).to_be_visible()
    fill_report(page, "Grey water from a pipe into the creek.")
    page.set_input_files(
        "#photos",
        files=[{"name": "creek.jpg", "mimeType": "image/jpeg", "buffer": jpeg(1600, 1200)}],
    )
    expect(page.locator(".photo-list li")).to_have_count(1)
    page.get_by_role("button", name="Send report").click()
    expect(page.locator("#offline-notice")).to_contain_text(
        "Saved on this phone; it will be sent when you are back online"
    )
    assert rows(app, "SELECT count(*) FROM cases") == [(0,)]
    expect(page.get_by_label("Describe what you saw")).to_have_value("")

    # Back online: the page sends it (Background Sync never fires in headless Chromium).
    context.set_offline(False)
    expect(page.locator("#offline-notice")).to_contain_text("has been sent (IDR-", timeout=20_000)
    page.reload()  # opening the form again sends nothing more
    page.wait_for_timeout(1500)
    cases = rows(app, "SELECT id, address FROM cases")
    assert len(cases) == 1 and cases[0][1] == "The creek behind the school"
    assert rows(app, "SELECT count(*) FROM photos WHERE case_id = ?", cases[0][0]) == [(1,)]
    assert page.evaluate("Drafts.all('outbox').then(items => items.length)") == 0
    assert not tab.external_requests


def test_a_big_photo_arrives_resized_with_progress_shown(open_tab, portal):
    url, app = portal
    tab = open_tab("phone")
    page = tab.page
    page.goto(f"{url}/report/")
    big = jpeg(3000, 2250, noisy=True)
    assert len(big) > 1_000_000
    fill_report(page, "Foam on the water under the bridge.")
    page.set_input_files(
        "#photos", files=[{"name": "big.jpg", "mimeType": "image/jpeg", "buffer": big}]
    )
    item = page.locator(".photo-list li")
    expect(item).to_contain_text(re.compile(r"big\.jpg \(\d+ KB\)"))  # was over 1 MB
    expect(item.get_by_role("button", name="Remove big.jpg")).to_be_visible()
    check(page, "the form with a photo chosen")
    # Progress is shown and announced while it goes.
    said = []
    page.expose_function("heard", lambda text: said.append(text))
    page.evaluate("""() => {
      new MutationObserver(() => heard(document.getElementById('send-status').textContent))
        .observe(document.getElementById('send-status'), {childList: true, characterData: true, subtree: true}); }""")
    # A slow uplink, so the upload takes a while.
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": 40,
             "downloadThroughput": 1_000_000, "uploadThroughput": 150_000})  # fmt: skip
    with page.expect_request(lambda r: r.method == "POST") as posted:
        page.get_by_role("button", name="Send report").click()
    # What travelled: a JPEG 2,048 px wide, under 1 MB, without the camera's metadata.
    body = posted.value.post_data_buffer
    part = body.split(b'filename="big.jpg"', 1)[1].split(b"\r\n\r\n", 1)[1]
    sent = part[: part.index(b"\r\n--")]
    assert len(sent) < 1_000_000
    with Image.open(io.BytesIO(sent)) as image:
        assert (image.format, image.size) == ("JPEG", (2048, 1536))
        assert not image.getexif()
    page.wait_for_url(re.compile(r"/report/sent/"))
    (width, height), *_ = rows(app, "SELECT width, height FROM photos")
    assert max(width, height) <= 2048
    assert "Sending your report" in said and "100% sent" in said, said


def test_an_oversize_photo_is_refused_before_any_upload(open_tab, portal):
    url, _ = portal
    tab = open_tab("phone")
    page = tab.page
    page.goto(f"{url}/report/")
    posts = []
    page.on("request", lambda r: r.method == "POST" and posts.append(r.url))
    # Not a picture the browser can read (so it cannot be made smaller), and over 10 MB.
    junk = b"\xff\xd8\xff" + bytes(11 * 1024 * 1024)
    page.set_input_files(
        "#photos", files=[{"name": "huge.jpg", "mimeType": "image/jpeg", "buffer": junk}]
    )
    expect(page.locator("#photos-problems")).to_contain_text(
        "huge.jpg is 11.0 MB, over the 10.0 MB limit"
    )
    expect(page.locator(".photo-list li")).to_have_count(0)
    fill_report(page, "Oil running into the drain.")
    page.get_by_role("button", name="Send report").click()
    page.wait_for_url(re.compile(r"/report/sent/"))
    assert len(posts) == 1, "only the report itself, without the photo"
    assert not any("huge" in (r or "") for r in posts)


def test_my_reports_keeps_a_report_and_forgets_it(open_tab, portal):
    url, _ = portal
    tab = open_tab("phone")
    page = tab.page
    page.goto(f"{url}/report/mine/")
    expect(page.locator("#my-reports-empty")).to_be_visible()
    # The worker's copy of the form starts the session (and its CSRF token): let it finish.
    page.wait_for_function("() => navigator.serviceWorker.ready.then(() => true)")
    page.goto(f"{url}/report/")
    fill_report(page, "A pipe flowing on a dry day.")
    page.get_by_role("button", name="Send report").click()
    page.wait_for_url(re.compile(r"/report/sent/"))
    reference = page.text_content(".reference").strip()
    expect(page.get_by_role("button", name="Copy link")).to_be_visible()
    check(page, "the thanks page with its buttons")
    page.get_by_role("button", name="Keep on this phone").click()
    expect(page.locator("#share-status")).to_contain_text("Kept on this phone")

    page.goto(f"{url}/report/mine/")
    item = page.locator("#my-reports-list li")
    expect(item).to_have_count(1)
    expect(item).to_contain_text(reference)
    expect(item).to_contain_text("(checked")  # fetched fresh, online
    check(page, "My reports")
    page.get_by_role("button", name="Forget all my reports on this device").click()
    expect(item).to_have_count(0)
    expect(page.locator("#my-reports-empty")).to_be_visible()
    page.reload()
    expect(page.locator("#my-reports-empty")).to_be_visible()
    assert not tab.errors


def test_a_draft_is_kept_until_discarded(open_tab, portal):
    url, _ = portal
    page = open_tab("phone").page
    page.goto(f"{url}/report/")
    page.wait_for_function("() => !!window.reportOffline")
    page.get_by_label("Describe what you saw").fill("Brown water after the car wash.")
    page.wait_for_timeout(800)
    page.reload()
    expect(page.get_by_label("Describe what you saw")).to_have_value(
        "Brown water after the car wash."
    )
    expect(page.locator("#offline-notice")).to_contain_text("filled in from this phone")
    page.get_by_role("button", name="Discard it").click()
    expect(page.get_by_label("Describe what you saw")).to_have_value("")
    page.reload()
    page.wait_for_function("() => !!window.reportOffline")
    page.wait_for_timeout(500)
    expect(page.get_by_label("Describe what you saw")).to_have_value("")


def test_the_report_pages_work_without_javascript(open_tab, portal):
    url, app = portal
    tab = open_tab("phone", java_script_enabled=False)
    page = tab.page
    page.goto(f"{url}/report/")
    assert "use your location" not in page.text_content("#location-hint")
    assert page.locator(".hint-box").bounding_box()["height"] == 0
    fill_report(page, "Paint washed into the gutter.")
    page.set_input_files(
        "#photos",
        files=[{"name": "gutter.jpg", "mimeType": "image/jpeg", "buffer": jpeg(800, 600)}],
    )
    page.get_by_role("button", name="Send report").click()
    page.wait_for_url(re.compile(r"/report/sent/"))
    assert not page.get_by_role("button", name="Copy link").is_visible()
    page.click(".status-link a")
    assert "You reported something going into the storm drains, at The creek behind the school" in (
        " ".join(page.text_content("main").split())
    )
    assert "a.m.." not in page.text_content("main") and "p.m.." not in page.text_content("main")
    assert rows(app, "SELECT count(*) FROM photos") == [(1,)]
    assert not tab.external_requests


def test_an_expired_form_is_sent_again_with_a_fresh_token_and_nothing_lost(open_tab, portal):
    url, app = portal
    tab = open_tab("phone")
    page = tab.page
    page.goto(f"{url}/report/")
    fill_report(page, "Soapy water from a car wash.")
    page.set_input_files(
        "#photos", files=[{"name": "wash.jpg", "mimeType": "image/jpeg", "buffer": jpeg(900, 700)}]
    )
    expect(page.locator(".photo-list li")).to_have_count(1)
    # The session (and with it the form's CSRF token) is gone, as after hours left open.
    page.context.clear_cookies()
    page.get_by_role("button", name="Send report").click()
    page.wait_for_url(re.compile(r"/report/sent/"))
    assert [e for e in tab.errors if "400" not in e] == []
    assert rows(app, "SELECT count(*) FROM cases") == [(1,)]
    assert rows(app, "SELECT count(*) FROM photos") == [(1,)]


@pytest.mark.parametrize("javascript", [True, False], ids=["with-js", "without-js"])
def test_back_from_the_thanks_page_keeps_the_coordinates_typed(open_tab, portal, javascript):
    url, app = portal
    page = open_tab("phone", java_script_enabled=javascript).page
    page.goto(f"{url}/report/")
    page.get_by_label("Describe what you saw").fill("Milky water in the ditch.")
    page.get_by_label("Latitude").fill("42.16701")
    page.get_by_label("Longitude").fill("-76.82099")
    page.get_by_role("button", name="Send report").click()
    page.wait_for_url(re.compile(r"/report/sent/"))
    page.go_back()
    expect(page.get_by_label("Latitude")).to_have_value("42.16701")
    expect(page.get_by_label("Longitude")).to_have_value("-76.82099")
    # Sent again, it goes through (a report of its own) instead of asking where it is.
    page.get_by_role("button", name="Send report").click()
    page.wait_for_url(re.compile(r"/report/sent/"))
    assert rows(app, "SELECT count(*) FROM cases WHERE latitude IS NOT NULL") == [(2,)]
