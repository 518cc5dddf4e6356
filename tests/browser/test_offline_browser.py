"""A resident's phone at a creek: photos made smaller before sending, a report kept on the
phone while offline and sent once when back, "My reports", and the no-JavaScript path."""

from __future__ import annotations

import io
import re

import pytest
from browsing import VIEWPORTS, check, on_disk
from PIL import Image
from playwright.sync_api import expect

from portal.core.db import get_db

pytestmark = pytest.mark.browser


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
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")  # evaluate awaits it
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
    # This Chromium has Background Sync: it may send the report with the page closed.
    expect(page.locator("#offline-notice")).to_contain_text(
        "Saved on this phone. It will be sent by itself when you are back online, even if you"
        " close this page."
    )
    assert rows(app, "SELECT count(*) FROM cases") == [(0,)]
    expect(page.get_by_label("Describe what you saw")).to_have_value("")

    # Back online: the page sends it (Background Sync never fires in headless Chromium).
    context.set_offline(False)
    notice = page.locator("#offline-notice")
    expect(notice).to_contain_text(
        re.compile(
            r"has been sent as (IDR-\d{4}-\d{4}) \(something going into the storm drains,"
            r" at The creek behind the school\)\."
        ),
        timeout=20_000,
    )
    reference = re.search(r"IDR-\d{4}-\d{4}", notice.inner_text()).group(0)
    status_link = notice.get_by_role("link", name="See it and keep its status link").get_attribute(
        "href"
    )
    assert re.fullmatch(rf"{url}/status/[\w-]+/", status_link)
    page.reload()  # opening the form again sends nothing more, and says nothing again
    page.wait_for_timeout(1500)
    expect(notice).not_to_contain_text("has been sent")
    cases = rows(app, "SELECT id, address, reference FROM cases")
    assert len(cases) == 1 and cases[0][1:] == ("The creek behind the school", reference)
    assert rows(app, "SELECT count(*) FROM photos WHERE case_id = ?", cases[0][0]) == [(1,)]
    assert page.evaluate("Drafts.all('outbox').then(items => items.length)") == 0
    # Listed under My reports without anyone pressing "Keep on this phone".
    page.goto(f"{url}/report/mine/")
    item = page.locator("#my-reports-list li")
    expect(item).to_contain_text(
        f"{reference}: something going into the storm drains, at The creek behind the school."
    )
    assert item.get_by_role("link", name=reference).get_attribute("href") == status_link
    assert not tab.external_requests


def test_a_big_photo_arrives_resized_with_progress_shown(open_tab, portal, tmp_path):
    url, app = portal
    tab = open_tab("phone")
    page = tab.page
    page.goto(f"{url}/report/")
    big = jpeg(3000, 2250, noisy=True)
    assert len(big) > 1_000_000
    fill_report(page, "Foam on the water under the bridge.")
    page.set_input_files("#photos", files=on_disk(tmp_path, {"big.jpg": big}))
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
    cdp.send(
        "Network.emulateNetworkConditions",
        {
            "offline": False,
            "latency": 40,
            "downloadThroughput": 1_000_000,
            "uploadThroughput": 150_000,
        },
    )
    with page.expect_request(lambda r: r.method == "POST") as posted:
        page.get_by_role("button", name="Send report").click()
    # What travelled: a JPEG the size the server keeps (1,600 px), at most 1 MB, without
    # the camera's metadata.
    body = posted.value.post_data_buffer
    part = body.split(b'filename="big.jpg"', 1)[1].split(b"\r\n\r\n", 1)[1]
    sent = part[: part.index(b"\r\n--")]
    assert len(sent) <= 1024 * 1024
    with Image.open(io.BytesIO(sent)) as image:
        assert (image.format, image.size) == ("JPEG", (1600, 1200))
        assert not image.getexif()
    page.wait_for_url(re.compile(r"/report/sent/"))
    assert rows(app, "SELECT width, height FROM photos") == [(1600, 1200)]
    assert "Sending your report" in said and "100% sent" in said, said


def test_an_oversize_photo_is_refused_before_any_upload(open_tab, portal, tmp_path):
    url, _ = portal
    tab = open_tab("phone")
    page = tab.page
    page.goto(f"{url}/report/")
    posts = []
    page.on("request", lambda r: r.method == "POST" and posts.append(r.url))
    # Not a picture the browser can read (so it cannot be made smaller), and over 10 MB.
    junk = b"\xff\xd8\xff" + bytes(11 * 1024 * 1024)
    page.set_input_files("#photos", files=on_disk(tmp_path, {"huge.jpg": junk}))
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
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")  # evaluate awaits it
    page.goto(f"{url}/report/")
    fill_report(page, "A pipe flowing on a dry day.")
    page.get_by_role("button", name="Send report").click()
    page.wait_for_url(re.compile(r"/report/sent/"))
    reference = page.text_content(".reference").strip()
    expect(page.get_by_role("button", name="Copy link")).to_be_visible()
    check(page, "the thanks page with its buttons")
    page.get_by_role("button", name="Keep on this phone").click()
    expect(page.locator("#share-status")).to_have_text(
        "Kept on this phone. Find it under My reports."
    )
    mine = page.locator("#share-status").get_by_role("link", name="My reports")
    assert mine.get_attribute("href") == "/report/mine/"

    page.goto(f"{url}/report/mine/")
    item = page.locator("#my-reports-list li")
    expect(item).to_have_count(1)
    # What and where, and when, as every page of the site writes a moment.
    expect(item).to_contain_text(
        f"{reference}: something going into the storm drains, at The creek behind the school."
    )
    expect(item).to_contain_text(
        re.compile(r"Sent [A-Z][a-z]+ \d{1,2}, \d{4} at \d{1,2}:\d\d [ap]\.m\. Status: Received \(")
    )
    assert ".." not in item.inner_text()
    expect(item).to_contain_text(
        re.compile(r"\(checked [A-Z][a-z]+ \d{1,2}, \d{4} at \d{1,2}:\d\d [ap]\.m\.\)")
    )
    check(page, "My reports")
    # "Report a problem" stands clear of the button, not tight under it.
    button = page.get_by_role("button", name="Forget all my reports on this device").bounding_box()
    link = page.locator(".after-list a").bounding_box()
    assert link["y"] - (button["y"] + button["height"]) >= 16, (button, link)
    # Forgetting asks first; "No" keeps them.
    page.get_by_role("button", name="Forget all my reports on this device").click()
    ask = page.get_by_role("group", name=re.compile("Forget the report kept on this device"))
    expect(ask).to_contain_text("Only this list goes: your reports stay with us")
    check(page, "My reports, asking before forgetting")
    ask.get_by_role("button", name="No, keep it").click()
    expect(item).to_have_count(1)
    page.get_by_role("button", name="Forget all my reports on this device").click()
    page.get_by_role("button", name="Yes, forget it").click()
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
    # The emptied form was not kept as a draft: nothing is said to be filled in.
    assert "filled in" not in page.locator("#offline-notice").inner_text()
    assert page.evaluate("Drafts.get('draft', 'current')") is None


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
def test_back_after_send_then_send_again_makes_no_second_report(browser, portal, javascript):
    url, app = portal
    # A context of its own: Playwright turns the browser's cache off wherever a request is
    # routed (as open_tab does), and going back to the copy the browser kept is the point.
    context = browser.new_context(**VIEWPORTS["phone"], java_script_enabled=javascript)
    page = context.new_page()
    page.goto(f"{url}/report/")
    page.get_by_label("Describe what you saw").fill("Milky water in the ditch.")
    page.get_by_label("Latitude").fill("42.16701")
    page.get_by_label("Longitude").fill("-76.82099")
    page.get_by_role("button", name="Send report").click()
    page.wait_for_url(re.compile(r"/report/sent/"))
    reference = page.text_content(".reference").strip()
    status = page.locator(".status-link a").get_attribute("href")
    page.go_back()
    # What was typed is still there...
    expect(page.get_by_label("Latitude")).to_have_value("42.16701")
    expect(page.get_by_label("Describe what you saw")).to_have_value("Milky water in the ditch.")
    # ...and sending it again says it was sent, with its status link, and stores nothing.
    page.get_by_role("button", name="Send report").click()
    expect(page.get_by_text(f"This report was already sent as {reference}")).to_be_visible()
    links = page.locator("main a[href*='/status/']")
    assert status in [
        links.nth(i).get_attribute("href").replace(url, "") for i in range(links.count())
    ]
    assert rows(app, "SELECT count(*) FROM cases") == [(1,)]
    if javascript:  # axe-core runs in the page: only where scripts do
        check(page, "already sent")
    context.close()


def test_a_report_sent_before_its_sender_loaded_is_neither_sent_twice_nor_a_draft(browser, portal):
    # On a slow phone Send can come before send.js has loaded: the form goes the usual way.
    # The draft saved while typing must not come back, and Back then Send must say "sent".
    url, app = portal
    context = browser.new_context(**VIEWPORTS["phone"])
    context.route("**/js/send.js", lambda route: route.abort())
    page = context.new_page()
    page.goto(f"{url}/report/")
    page.wait_for_function("() => !!window.reportOffline")
    page.get_by_label("Describe what you saw").fill("Grey water from a pipe.")
    page.get_by_label("Street address or landmark").fill("Elm Street")
    page.wait_for_timeout(800)
    assert page.evaluate("Drafts.get('draft', 'current')") is not None
    page.get_by_role("button", name="Send report").click()
    page.wait_for_url(re.compile(r"/report/sent/"))
    reference = page.text_content(".reference").strip()
    assert reference == "IDR-2026-0001"
    # The draft of what was just sent is gone (evaluate awaits the promise; waiting for a
    # function would take the promise itself for a yes).
    for _ in range(50):
        if page.evaluate("Drafts.get('draft', 'current')") is None:
            break
        page.wait_for_timeout(100)
    assert page.evaluate("Drafts.get('draft', 'current')") is None
    page.go_back()
    expect(page.get_by_label("Describe what you saw")).to_have_value("Grey water from a pipe.")
    page.get_by_role("button", name="Send report").click()
    expect(page.get_by_text("This report was already sent as IDR-2026-0001")).to_be_visible()
    assert rows(app, "SELECT count(*) FROM cases") == [(1,)]
    page.goto(f"{url}/report/")
    page.wait_for_function("() => !!window.reportOffline")
    page.wait_for_timeout(500)
    expect(page.get_by_label("Describe what you saw")).to_have_value("")
    assert "filled in" not in page.locator("#offline-notice").inner_text()
    context.close()


def test_another_report_gone_back_to_is_still_a_report_of_its_own(open_tab, portal):
    url, app = portal
    page = open_tab("phone").page
    page.goto(f"{url}/report/")
    page.get_by_label("Describe what you saw").fill("Milky water in the ditch.")
    page.get_by_label("Street address or landmark").fill("Elm Street")
    page.get_by_role("button", name="Send report").click()
    page.wait_for_url(re.compile(r"/report/sent/"))
    page.get_by_role("link", name="Report another problem").click()
    page.get_by_label("Describe what you saw").fill("Oil running down the gutter.")
    page.get_by_role("link", name="My reports").click()
    page.wait_for_url(re.compile(r"/report/mine/"))
    page.go_back()
    expect(page.get_by_label("Describe what you saw")).to_have_value("Oil running down the gutter.")
    page.get_by_label("Street address or landmark").fill("Main Street")
    page.get_by_role("button", name="Send report").click()
    page.wait_for_url(re.compile(r"/report/sent/"))
    assert "already sent" not in page.locator("main").inner_text()
    assert rows(app, "SELECT count(*) FROM cases") == [(2,)]
