"""A new officer in Chromium on a 360 px phone, by keyboard: sets up the authenticator app
from the page (reading the key as an app would), signs out, signs in again with a code,
is refused a reused or wrong one, and uses a recovery code once."""

from __future__ import annotations

import re
import time

import pyotp
import pytest
from browsing import check
from helpers import PASSWORD
from playwright.sync_api import expect

from portal.accounts.accounts import add_account, issue_enrol_code
from portal.core.db import get_db

pytestmark = pytest.mark.browser


def password(page, base: str, username: str) -> None:
    page.goto(f"{base}/staff/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.keyboard.press("Enter")


def sign_out(page) -> None:
    page.get_by_role("button", name=re.compile("Sign out")).click()
    expect(page.get_by_role("heading", name="Staff sign-in")).to_be_visible()


def type_code(page, code: str) -> None:
    field = page.get_by_label("Code from your authenticator app")
    assert field.get_attribute("inputmode") == "numeric"
    assert field.get_attribute("autocomplete") == "one-time-code"
    field.fill(code)
    page.keyboard.press("Enter")


def test_a_new_officer_sets_up_and_uses_the_second_factor(open_tab, live_app, live_server):
    with live_app.app_context():
        db = get_db()
        enrol_code = issue_enrol_code(db, add_account(db, "new-officer", PASSWORD))
    limiter = live_app.extensions["rate_limiter"]
    limiter.reset()  # eleven sign-in steps below, more than a minute's ten: start afresh
    tab = open_tab("phone")
    page = tab.page
    try:
        password(page, live_server, "new-officer")
        # First the administrator's enrolment code: the password alone sets up no phone.
        expect(page.get_by_role("heading", name="Set up your sign-in code")).to_be_visible()
        assert page.locator("#setup-key").count() == 0
        check(page, "enrolment code")
        page.get_by_label("Enrolment code").fill("abcd-efgh-jkmn")
        page.keyboard.press("Enter")
        expect(page.locator(".error-summary")).to_contain_text("not the enrolment code")
        check(page, "enrolment code refused")
        page.get_by_label("Enrolment code").fill(enrol_code)
        page.keyboard.press("Enter")
        expect(page.locator("#setup-key")).to_be_visible()
        check(page, "enrolment")
        qr = page.get_by_role("img", name=re.compile("QR code"))
        assert qr.get_attribute("src").startswith("data:image/svg+xml,")
        assert qr.evaluate("img => img.naturalWidth") > 0, "the QR code is drawn"
        # What an authenticator app does with the key typed in (or scanned).
        app = pyotp.TOTP(page.text_content("#setup-key").replace(" ", ""))
        page.get_by_label("Code from the app").fill("123")
        page.keyboard.press("Enter")
        expect(page.locator(".error-summary")).to_contain_text("That code does not match")
        page.get_by_label("Code from the app").fill(app.now())
        page.keyboard.press("Enter")

        expect(page.get_by_role("heading", name="Keep your recovery codes")).to_be_visible()
        check(page, "recovery codes")
        codes = [c.strip() for c in page.locator(".recovery-codes code").all_text_contents()]
        assert len(set(codes)) == 10
        page.get_by_role("link", name=re.compile("I have kept them")).focus()
        page.keyboard.press("Enter")
        expect(page.get_by_role("heading", name="Queue")).to_be_visible()
        sign_out(page)
        limiter.reset()  # as a minute later: the steps below are ten more

        # The code the app shows next (a step early passes as clock drift).
        code = app.at(time.time() + app.interval)
        password(page, live_server, "new-officer")
        expect(page.get_by_role("heading", name="Enter your code")).to_be_visible()
        check(page, "code")
        type_code(page, code)
        expect(page.get_by_role("heading", name="Queue")).to_be_visible()
        sign_out(page)

        password(page, live_server, "new-officer")
        type_code(page, code)
        expect(page.locator(".error-summary")).to_contain_text("was used already")
        check(page, "code refused")
        wrong = next(c for c in ("000000", "000001") if not app.verify(c, valid_window=1))
        type_code(page, wrong)
        expect(page.locator(".error-summary")).to_contain_text("That code is not right")
        # By keyboard: open the recovery code's disclosure, type one, send.
        page.locator("summary").focus()
        page.keyboard.press("Enter")
        page.get_by_label("Recovery code").fill(codes[0])
        page.keyboard.press("Enter")
        expect(page.locator(".flash")).to_contain_text("9 left")
        sign_out(page)

        limiter.reset()  # as a minute later
        password(page, live_server, "new-officer")
        page.locator("summary").click()
        page.get_by_label("Recovery code").fill(codes[0])
        page.get_by_role("button", name="Sign in").click()
        expect(page.locator(".error-summary")).to_contain_text("not an unused recovery code")
        check(page, "recovery code refused")
    finally:
        limiter.reset()
    # The errors seen: the sign-in page answering /staff/ (401), refused codes (401, 422).
    assert not [e for e in tab.errors if not re.search(r"\b(401|422)\b", e)]
    assert not tab.external_requests


def test_an_officer_changes_the_password_by_keyboard(open_tab, live_app, live_server):
    from helpers import add_enrolled_account, next_code

    add_enrolled_account(live_app, "changer")
    live_app.extensions["rate_limiter"].reset()
    tab = open_tab("phone")
    page = tab.page
    try:
        password(page, live_server, "changer")
        type_code(page, next_code(live_app, "changer"))
        expect(page.get_by_role("heading", name="Queue")).to_be_visible()
        page.get_by_role("link", name="Password").click()
        expect(page.get_by_role("heading", name="Change your password")).to_be_visible()
        check(page, "password")
        page.get_by_label("Current password").fill(PASSWORD)
        page.get_by_label("New password", exact=True).fill("password1234")
        page.get_by_label("New password again").fill("password1234")
        page.keyboard.press("Enter")
        expect(page.locator(".error-summary")).to_contain_text("list of common passwords")
        check(page, "password refused")
        new = "kettle willow under copper"
        page.get_by_label("Current password").fill(PASSWORD)
        page.get_by_label("New password", exact=True).fill(new)
        page.get_by_label("New password again").fill(new)
        page.keyboard.press("Enter")
        expect(page.locator(".flash")).to_contain_text("Your password was changed")
        sign_out(page)
    finally:
        live_app.extensions["rate_limiter"].reset()
    assert not [e for e in tab.errors if not re.search(r"\b(401|422)\b", e)]
