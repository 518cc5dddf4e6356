"""The queue on a 360 px phone: danger first, each case a card with its flags in sight, and
a release's notice logged from its case page."""

from __future__ import annotations

import datetime as dt
import json
from zoneinfo import ZoneInfo

import pytest
from browsing import check
from helpers import (
    PASSWORD,
    add_enrolled_account,
    file_notification,
    notification_data,
    serving,
)
from playwright.sync_api import expect

from bench.seed import case_row, insert_reports, report_row
from portal import create_app
from portal.core.db import get_db

pytestmark = pytest.mark.browser
NEW_YORK = ZoneInfo("America/New_York")


@pytest.fixture
def busy(tmp_path, build):
    """Tuesday 9 March 2027: 30 foam reports from the morning, an older oil report, and a
    release filed on Monday 1 March that nobody has phoned about."""
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
    filed = dt.datetime(2027, 3, 1, 10, 0, tzinfo=NEW_YORK)
    app.config["CLOCK"] = lambda: filed
    day = "2027-03-01T"
    file_notification(
        app.test_client(),
        notification_data(
            began_at=day + "08:30",
            discovered_at=day + "09:00",
            emergency_called_at=day + "09:10",
            dec_called_at=day + "09:20",
            ended_at=day + "09:45",
            prior_notice="none",
            prior_notice_at="",
            prior_notice_to="",
            hazardous="no",
            danger="no",
            petroleum="no",
            materials="Floor-cleaner wash water",
        ),
    )
    oil = dt.datetime(2027, 2, 20, 9, 0, tzinfo=NEW_YORK)
    cases = [
        (
            case_row(1, oil, first_action_at=oil.isoformat(), address="Mill Street bridge"),
            report_row(
                0,
                oil,
                indicators=json.dumps(["sheen", "odor"]),
                odor="petroleum",
                description="Gasoline smell and a rainbow sheen under the bridge",
            ),
        )
    ]
    for n in range(2, 32):
        at = dt.datetime(2027, 3, 9, 8, n, tzinfo=NEW_YORK)
        cases.append(
            (
                case_row(n, at, first_action_at=at.isoformat()),
                report_row(0, at, description=f"Foam number {n} at the outfall"),
            )
        )
    with app.app_context():
        insert_reports(get_db(), cases)
    now = dt.datetime(2027, 3, 9, 10, 0, tzinfo=NEW_YORK)
    app.config["CLOCK"] = lambda: now
    add_enrolled_account(app, "smo")
    with serving(app) as url:
        yield app, url


FIRST_ROW = """() => {
  const row = document.querySelector('table.queue-cases tbody tr');
  const flag = row.querySelector('.flag');
  const box = e => e.getBoundingClientRect();
  return {display: getComputedStyle(row).display, right: box(row).right,
          flagRight: box(flag).right, flag: flag.textContent,
          tableWidth: box(document.querySelector('table.queue-cases')).width};
}"""


def test_on_a_phone_the_queue_is_cards_with_danger_first(open_tab, busy):
    _, url = busy
    tab = open_tab("phone")
    page = tab.page
    page.goto(f"{url}/staff/")
    page.get_by_label("Username").fill("smo")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Queue")).to_be_visible()
    check(page, "queue at 360 px")
    first = page.evaluate(FIRST_ROW)
    assert first["display"] == "block", "a card, not a table row"
    assert first["tableWidth"] <= 360 and first["right"] <= 360 and first["flagRight"] <= 360
    assert first["flag"].startswith("Hazardous: fuel or oil")
    cards = page.locator("table.queue-cases tbody tr")
    expect(cards.nth(0)).to_contain_text("IDR-2027-00001")
    expect(cards.nth(1)).to_contain_text("REL-2027-0001")
    expect(cards.nth(1)).to_contain_text("No notice logged by the deadline")
    expect(cards.nth(0)).to_contain_text("A smell: gasoline or oil")

    page.get_by_label("Show").select_option("overdue")
    page.get_by_role("button", name="Filter").click()
    expect(page.locator("#queue-count")).to_contain_text("1 case")
    page.get_by_label("Search").fill("outfall 17")
    page.get_by_label("Show").select_option("")
    page.get_by_role("button", name="Filter").click()
    expect(page.locator(".matched")).to_contain_text("Matched description: “Foam number 17")

    # The filing's notice: a fax at 5 p.m. on Tuesday the 2nd, the due day, is in time.
    page.goto(f"{url}/staff/cases/1/")
    check(page, "notification case at 360 px")
    page.get_by_role("link", name="Log a call, visit or fax about this release").click()
    page.get_by_label("When was the notice given?").fill("2027-03-02T17:00")
    page.get_by_label("By fax").check()
    page.get_by_label("Who called").fill("Linda Park")
    page.get_by_role("button", name="Log the notice").click()
    expect(page.locator(".flash")).to_contain_text("Notice logged and linked to REL-2027-0001.")
    expect(page.locator(".release-notices")).to_contain_text("in time")
    expect(page.locator(".audit")).to_contain_text("Linked to the notice by fax")
    page.get_by_role("link", name="Notice by fax").click()
    check(page, "notice page at 360 px")
    expect(page.get_by_text("A fax is written notice: nothing to confirm.")).to_be_visible()
    # The one error response: the sign-in page answering the anonymous visit (401).
    assert [e for e in tab.errors if "401" not in e] == [] and not tab.external_requests
