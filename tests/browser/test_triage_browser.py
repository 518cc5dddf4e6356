"""The queue on a 360 px phone with an enforcement date open (officer's week M1: the first
case card sat 1,808 px down, under the enforcement-dates table): the first card is on the
first screen, and it is the dangerous report."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from enforcement_helpers import issue_notice
from helpers import PASSWORD, add_enrolled_account, open_form, report_data, serving, sign_in
from playwright.sync_api import expect

from portal import create_app

pytestmark = pytest.mark.browser
NY = ZoneInfo("America/New_York")
FIRST_CARD = (
    "() => document.querySelector('table.queue-cases tbody tr').getBoundingClientRect().top"
)


def test_on_a_phone_the_first_case_is_on_the_first_screen(open_tab, tmp_path, build):
    app = create_app(
        {
            "DATABASE": str(tmp_path / "db.sqlite3"),
            "SITE_DIR": str(build),
            "MAIL_FOLDER": str(tmp_path / "mail"),
            "STAFF_TOTP": False,
            "MAP_TILE_URL": "",
            "RATELIMIT_ENABLED": False,
            "SESSION_COOKIE_SECURE": False,
        }
    )
    now = dt.datetime(2027, 3, 1, 10, 0, tzinfo=NY)
    app.config["CLOCK"] = lambda: now
    client = app.test_client()
    described = "Strong gasoline smell at the storm drain and a rainbow sheen, making me dizzy"
    client.post("/report/", data={**open_form(client), **report_data(description=described)})
    sign_in(client, app, username="clerk")
    issue_notice(client, lambda: now)
    add_enrolled_account(app, "smo")
    with serving(app) as url:
        page = open_tab("phone").page
        page.goto(f"{url}/staff/")
        page.get_by_label("Username").fill("smo")
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Sign in").click()
        expect(page.get_by_role("heading", name="Enforcement dates")).to_be_attached()
        first = page.locator("table.queue-cases tbody tr").first
        expect(first).to_contain_text("IDR-2027-0001")
        expect(first).to_contain_text("Hazardous: vapor or someone feeling ill, fuel or oil")
        top = page.evaluate(FIRST_CARD)
        # Under the links and the filters (two a row), above every table but its own: about
        # 1,100 px down at 360 px wide, where the review measured 1,808.
        assert top < 1200, f"the first case card starts {top} px down"
        dates = page.evaluate(
            "() => document.querySelector('main h2').getBoundingClientRect().top + window.scrollY"
        )
        assert dates > top, "the enforcement dates come after the cases"
