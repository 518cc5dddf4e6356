"""The resident's path on a 360 px phone: a short form whose optional groups are closed,
photos that travel light, a report sent later from the phone's outbox, honest failures."""

from __future__ import annotations

import io
import re
import threading
import time

import pytest
from browsing import OVERFLOW, check, on_disk
from helpers import rows
from PIL import Image
from playwright.sync_api import expect

from bench.send import noise_image, typical_photo

pytestmark = pytest.mark.browser

SCREEN = 740  # the phone's height: the form must fit in 4 of them
GROUPS = {
    "group-color-smell": "Color and smell: which color, what smell (optional)",
    "group-place-kind": "Kind of place: storm drain, ditch, creek… (optional)",
    "group-when": "When: the date and time, if not just now (optional)",
    "group-still": "Still happening: is it, and had you seen it before (optional)",
    "group-source": "Who may be causing it: a business or property, what they did (optional)",
    "group-vehicle": "A vehicle: its kind and license plate (optional)",
    "group-contact": "About you: name, e-mail, phone, for updates (optional)",
}
MOMENT = r"[A-Z][a-z]+ \d{1,2}, \d{4} at \d{1,2}:\d\d [ap]\.m\."


def summary(page, group: str) -> str:
    return " ".join(page.locator(f"#{group}-summary").inner_text().split())


def sent_photo(body: bytes, name: str) -> bytes:
    """The bytes of the file part `name` of a multipart body."""
    part = body.split(f'filename="{name}"'.encode(), 1)[1].split(b"\r\n\r\n", 1)[1]
    return part[: part.index(b"\r\n--")]


@pytest.mark.parametrize("javascript", [True, False], ids=["with-js", "without-js"])
def test_the_form_fits_in_four_screens_with_its_groups_closed(open_tab, live_server, javascript):
    page = open_tab("phone", java_script_enabled=javascript).page
    page.goto(f"{live_server}/report/")
    height = page.evaluate(
        """() => document.querySelector('form button[type=submit]').getBoundingClientRect().bottom
                 - document.querySelector('h1').getBoundingClientRect().top"""
    )
    assert height <= 4 * SCREEN, f"{height / SCREEN:.1f} screens"
    # Each optional group is a closed <details> whose summary says what is inside.
    for group, said in GROUPS.items():
        assert page.eval_on_selector(f"#{group}", "d => d.tagName === 'DETAILS' && !d.open"), group
        assert summary(page, group) == said
    # What a person at a creek needs is open: what they saw, where, a photo, Send.
    for needed in ("#indicators-0", "#description", "#address", "#latitude", "button[type=submit]"):
        expect(page.locator(needed)).to_be_visible()
    if javascript:  # axe-core runs in the page: only where scripts do
        check(page, "the short form")
    else:
        fit = page.evaluate(OVERFLOW)
        assert fit["scrollWidth"] <= fit["clientWidth"], fit


def test_a_group_says_when_something_in_it_is_filled_in(open_tab, live_server):
    page = open_tab("phone").page
    page.goto(f"{live_server}/report/")
    page.locator("#group-vehicle-summary").click()
    page.get_by_label("Vehicle and license plate").fill("White pickup, plate ABC 1234")
    expect(page.locator("#group-vehicle-summary")).to_contain_text("filled in")
    page.locator("#group-vehicle-summary").click()  # closed again, it still says so
    expect(page.locator("#group-vehicle-summary")).to_contain_text("filled in")
    # "When" comes filled in with now: only a change counts.
    assert "filled in" not in summary(page, "group-when")
    page.locator("#group-when-summary").click()
    page.get_by_label("When did you first notice it?").fill("2026-11-29T07:45")
    expect(page.locator("#group-when-summary")).to_contain_text("filled in")
    page.locator("#group-vehicle-summary").click()
    page.get_by_label("Vehicle and license plate").fill("")
    expect(page.locator("#group-vehicle-summary")).not_to_contain_text("filled in")


def test_without_javascript_a_group_comes_back_open_with_its_error_or_its_answer(
    open_tab, live_server
):
    page = open_tab("phone", java_script_enabled=False).page
    page.goto(f"{live_server}/report/")
    page.get_by_label("Describe what you saw").fill("Oily water by the car wash.")
    page.get_by_label("Street address or landmark").fill("Elm Street")
    page.locator("#group-vehicle-summary").click()
    page.get_by_label("Vehicle and license plate").fill("Red van")
    page.locator("#group-contact-summary").click()
    page.get_by_label("E-mail address").fill("not an address")
    page.get_by_role("button", name="Send report").click()
    page.wait_for_selector("#error-summary")
    assert page.eval_on_selector("#group-contact", "d => d.open")
    assert summary(page, "group-contact").endswith("(optional) has an error")
    assert page.eval_on_selector("#group-vehicle", "d => d.open")
    assert summary(page, "group-vehicle").endswith("(optional) filled in")
    assert page.eval_on_selector("#group-source", "d => !d.open")
    # The error summary's link reaches the field inside its group.
    page.click("#error-summary a[href='#contact_email']")
    expect(page.get_by_label("E-mail address")).to_be_visible()
    expect(page.get_by_label("E-mail address")).to_have_value("not an address")
    fit = page.evaluate(OVERFLOW)
    assert fit["scrollWidth"] <= fit["clientWidth"], fit


def test_photos_travel_at_the_size_the_server_keeps_and_at_most_1_mb(
    open_tab, serve_portal, tmp_path
):
    served = serve_portal()
    thanks, bodies = [], []
    wsgi = served.app.wsgi_app

    def recording(environ, start_response):
        """What the server received: the POST bodies, and each request for a thanks page."""
        if environ["PATH_INFO"].startswith("/report/sent/"):
            thanks.append(environ["PATH_INFO"])
        if environ["REQUEST_METHOD"] == "POST":
            bodies.append(environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0)))
            environ["wsgi.input"] = io.BytesIO(bodies[-1])
        return wsgi(environ, start_response)

    served.app.wsgi_app = recording
    tab = open_tab("phone")
    page = tab.page
    page.goto(f"{served.url}/report/")
    # A button, not an empty file box saying "No file chosen" above the photos chosen.
    expect(page.get_by_role("button", name="Add a photo")).to_be_visible()
    box = page.locator("#photos").bounding_box()
    assert box["width"] <= 1 and box["height"] <= 1, box  # for screen readers only
    expect(page.locator("#photos-hint")).to_contain_text(
        "Big photos are made smaller on this phone"
    )
    page.get_by_label("Describe what you saw").fill("Foam on the creek.")
    page.get_by_label("Street address or landmark").fill("Main Street bridge")
    files = {"phone.jpg": typical_photo(), "gravel.jpg": noise_image()}
    page.set_input_files("#photos", files=on_disk(tmp_path, files))
    expect(page.locator(".photo-list li")).to_have_count(2)
    expect(page.get_by_role("button", name="Add another photo")).to_be_visible()
    page.get_by_role("button", name="Send report").click()
    page.wait_for_url(re.compile(r"/report/sent/[\w-]+/$"))
    page.wait_for_load_state("load")
    phone, gravel = sent_photo(bodies[0], "phone.jpg"), sent_photo(bodies[0], "gravel.jpg")
    assert len(phone) <= 400 * 1024, len(phone)
    assert len(gravel) <= 1024 * 1024, len(gravel)
    for sent in (phone, gravel):
        with Image.open(io.BytesIO(sent)) as image:
            assert image.format == "JPEG" and max(image.size) <= 1600
    with Image.open(io.BytesIO(phone)) as image:
        assert image.size == (1600, 1200)
    # The thanks page is fetched once: the answer to the send said where it is.
    assert len(thanks) == 1, thanks
    assert not tab.errors


def test_a_long_file_name_ends_in_an_ellipsis_not_broken_mid_word(open_tab, live_server):
    page = open_tab("phone").page
    page.goto(f"{live_server}/report/")
    buffer = io.BytesIO()
    Image.new("RGB", (800, 600), "olive").save(buffer, "JPEG")
    name = "PXL_20261130_131645123_creek_behind_the_middle_school.jpg"
    page.set_input_files(
        "#photos", files=[{"name": name, "mimeType": "image/jpeg", "buffer": buffer.getvalue()}]
    )
    shown = page.locator(".photo-list .photo-name")
    expect(shown).to_have_text(name)  # all of it, for screen readers and copying
    one_line = page.evaluate(
        """() => { const n = document.querySelector('.photo-list .photo-name');
                   return [n.getClientRects().length, n.scrollWidth > n.clientWidth,
                           getComputedStyle(n).textOverflow]; }"""
    )
    assert one_line == [1, True, "ellipsis"]
    check(page, "a photo with a long name")


def test_sending_looks_like_sending(open_tab, serve_portal):
    served = serve_portal()
    wsgi = served.app.wsgi_app
    arrive = threading.Event()

    def held(environ, start_response):
        """The report arrives when the test has looked at the page while it is sending."""
        if environ["REQUEST_METHOD"] == "POST":
            arrive.wait(timeout=60)
        return wsgi(environ, start_response)

    served.app.wsgi_app = held
    page = open_tab("phone").page
    page.goto(f"{served.url}/report/")
    page.wait_for_function("() => !!window.reportOffline")  # send.js comes after offline.js
    page.wait_for_load_state("networkidle")
    idle = page.eval_on_selector("button[type=submit]", "b => getComputedStyle(b).backgroundColor")
    page.get_by_label("Describe what you saw").fill("Suds in the gutter.")
    page.get_by_label("Street address or landmark").fill("Elm Street")
    page.get_by_role("button", name="Send report").click()
    button = page.locator("button[type=submit]")
    expect(button).to_be_disabled()
    expect(button).to_have_text("Sending…")
    looks = page.eval_on_selector(
        "button[type=submit]",
        "b => [getComputedStyle(b).backgroundColor, getComputedStyle(b).cursor]",
    )
    assert looks[0] != idle and looks[1] == "progress"
    # Said once on the screen (and read out by the status line), not twice: the bar's own
    # name is for screen readers only.
    # (Waited for: on a busy machine the status line may be written a moment after the button.)
    page.wait_for_function(
        """() => [...document.querySelectorAll('main *')].filter((e) =>
              e.childElementCount === 0 && e.textContent.trim() === 'Sending your report'
              && e.getBoundingClientRect().width > 1).length === 1"""
    )
    arrive.set()
    page.wait_for_url(re.compile(r"/report/sent/"))


def test_a_long_description_is_counted_never_cut(open_tab, live_server):
    page = open_tab("phone").page
    page.goto(f"{live_server}/report/")
    text = "Grey water. " * 342  # 4,104 characters
    page.get_by_label("Describe what you saw").fill(text)
    expect(page.locator("#description-count")).to_have_text("104 characters too many")
    assert len(page.input_value("#description")) == len(text)
    page.get_by_label("Describe what you saw").fill(text[:3950])
    expect(page.locator("#description-count")).to_have_text("50 characters left")
    page.get_by_label("Describe what you saw").fill(text)
    page.get_by_label("Street address or landmark").fill("Elm Street")
    page.get_by_role("button", name="Send report").click()
    page.wait_for_selector("#error-summary")
    expect(page.locator("#description-error")).to_contain_text(
        "Keep this to 4,000 characters or fewer."
    )
    assert page.input_value("#description") == text.strip()  # kept, all of it


def send_report(page, url: str, description: str, place: str) -> str:
    """Send a report from the form, online; return its status link (a path)."""
    page.goto(f"{url}/report/")
    page.get_by_label("Describe what you saw").fill(description)
    page.get_by_label("Street address or landmark").fill(place)
    page.get_by_role("button", name="Send report").click()
    page.wait_for_url(re.compile(r"/report/sent/"))
    return page.locator(".status-link a").get_attribute("href")


def _offline_report(page, url: str, description: str) -> None:
    """Open the form, let the service worker take it, go offline and send a report."""
    page.goto(f"{url}/report/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")  # evaluate awaits it
    page.wait_for_function("() => !!window.reportOffline")
    page.context.set_offline(True)
    page.get_by_label("Describe what you saw").fill(description)
    page.get_by_label("Oily sheen or rainbow film").check()
    page.get_by_label("Street address or landmark").fill("The culvert on Elm Street")
    page.get_by_role("button", name="Send report").click()
    expect(page.locator("#offline-notice")).to_contain_text("Saved on this phone.")


def test_a_report_sent_by_background_sync_is_listed_and_said_on_the_next_page(
    open_tab, serve_portal
):
    served = serve_portal()
    url, app = served.url, served.app
    page = open_tab("phone").page
    # An earlier report, whose status link the person kept.
    earlier = url + send_report(page, url, "Foam at the outfall.", "The outfall by the park")
    _offline_report(page, url, "Rainbow sheen in the culvert.")
    # The person closes the page; the network comes back; the worker's Background Sync
    # sends the report (fired here by hand: headless Chromium never fires it).
    other = page.context.new_page()
    page.close()
    other.context.set_offline(False)
    cdp = other.context.new_cdp_session(other)
    found = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda e: found.extend(r["registrationId"] for r in e["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    deadline = time.monotonic() + 10
    while not found and time.monotonic() < deadline:
        other.wait_for_timeout(100)
    cdp.send(
        "ServiceWorker.dispatchSyncEvent",
        {"origin": url, "registrationId": found[0], "tag": "send-reports", "lastChance": False},
    )
    deadline = time.monotonic() + 20
    while len(rows(app, "SELECT id FROM cases")) < 2 and time.monotonic() < deadline:
        other.wait_for_timeout(200)
    [case] = rows(app, "SELECT reference FROM cases WHERE address = 'The culvert on Elm Street'")
    # The next page of the portal they open says it was sent, with its status link...
    other.goto(earlier)
    notice = other.locator(".offline-notice")
    expect(notice).to_contain_text(
        f"Your report saved on this phone has been sent as {case['reference']} (oily sheen or"
        " rainbow film, at The culvert on Elm Street)."
    )
    expect(notice.get_by_role("link", name="See it and keep its status link")).to_have_attribute(
        "href", re.compile(rf"^{url}/status/[\w-]+/$")
    )
    check(other, "a status page saying a report was sent")
    other.reload()  # ...once.
    other.wait_for_timeout(1000)
    expect(other.locator(".offline-notice")).to_have_count(0)
    # And it is under My reports, with what, where and when.
    other.goto(f"{url}/report/mine/")
    expect(other.locator("#my-reports-list li").first).to_contain_text(
        re.compile(
            rf"{case['reference']}: oily sheen or rainbow film, at The culvert on Elm Street\."
            rf"\s*Sent {MOMENT} Status: Received"
        )
    )


def test_a_report_sent_from_the_outbox_leaves_no_draft_behind(open_tab, serve_portal):
    served = serve_portal()
    url, app = served.url, served.app
    page = open_tab("phone").page
    _offline_report(page, url, "Suds in the ditch by the school.")
    expect(page.get_by_label("Describe what you saw")).to_have_value("")
    page.wait_for_timeout(1500)  # longer than the form waits before it keeps a draft
    # The person closes the page; back online, "My reports" sends the report.
    other = page.context.new_page()
    page.close()
    other.context.set_offline(False)
    other.goto(f"{url}/report/mine/")
    expect(other.locator("#offline-notice")).to_contain_text(
        re.compile(r"has been sent as IDR-\d{4}-\d{4} \(oily sheen"), timeout=20_000
    )
    assert len(rows(app, "SELECT id FROM cases")) == 1
    # The form opened next is a fresh one: no "filled in from this phone" over empty fields.
    other.goto(f"{url}/report/")
    other.wait_for_function("() => !!window.reportOffline")
    other.wait_for_timeout(1000)
    expect(other.get_by_label("Describe what you saw")).to_have_value("")
    assert "filled in from this phone" not in other.locator("#offline-notice").inner_text()
    expect(other.get_by_role("button", name="Discard it")).to_have_count(0)
    assert other.evaluate("Drafts.get('draft', 'current')") is None


def test_close_this_page_is_said_only_where_background_sync_can_keep_it(open_tab, portal):
    url, _ = portal
    page = open_tab("phone").page
    page.add_init_script("delete window.SyncManager")  # a browser without Background Sync
    _offline_report(page, url, "Paint in the gutter.")
    notice = page.locator("#offline-notice")
    expect(notice).to_contain_text(
        "It will be sent when you are back online while this form is open, or the next time"
        " you open it: keep this page open if you can."
    )
    assert "close this page" not in notice.inner_text()


def test_too_many_reports_is_never_called_offline_and_is_not_retried_before_its_time(
    open_tab, serve_portal
):
    served = serve_portal(REPORT_RATE_LIMIT="1 per minute")
    url, app = served.url, served.app
    page = open_tab("phone").page
    send_report(page, url, "Foam in the creek.", "Elm Street bridge")
    page.goto(f"{url}/report/")
    page.wait_for_function("() => !!window.reportOffline")
    posts = []
    page.on("request", lambda r: r.method == "POST" and posts.append(time.monotonic()))
    page.get_by_label("Describe what you saw").fill("Oil on the road, running to the drain.")
    page.get_by_label("Street address or landmark").fill("Corner of Elm and Main")
    page.get_by_role("button", name="Send report").click()
    notice = page.locator("#offline-notice")
    expect(notice).to_contain_text(
        re.compile(
            r"^Too many reports have come from this connection in a short time, so yours is saved on"
            r" this phone\. We will try again (in a few seconds|in about a minute), at"
            r" \d{1,2}:\d\d [ap]\.m\., while this page is open"
        )
    )
    assert "online" not in notice.inner_text() and "offline" not in notice.inner_text()
    page.wait_for_timeout(4000)
    assert len(posts) == 1, "tried again before the time the server gave"
    waiting = page.evaluate("Drafts.all('outbox').then(items => items.map(i => i.notBefore))")
    assert len(waiting) == 1 and waiting[0] > page.evaluate("Date.now()")
    assert len(rows(app, "SELECT id FROM cases")) == 1


def test_the_home_page_shows_report_a_problem_on_the_first_screen(open_tab, live_server):
    page = open_tab("phone").page
    page.goto(f"{live_server}/")
    card = page.locator(".action", has_text="Report a problem")
    box = card.bounding_box()
    assert box and box["y"] + box["height"] <= SCREEN, box
    # The emergency box follows at once, its heading on the same first screen.
    heading = page.locator("#emergency-heading").bounding_box()
    assert heading and heading["y"] + heading["height"] <= SCREEN, heading
