"""The queue on a phone (officer's week M1, F8): the cases come first, the enforcement dates
and the notices waiting for a letter after them, so the first case card is not 1,808 px down
under a table."""

from __future__ import annotations

import re

from enforcement_helpers import issue_notice

pytest_plugins = ["enforcement_fixtures"]  # the clock and the signed-in officer


def test_the_cases_come_before_the_enforcement_dates(officer, clock):
    issue_notice(officer, clock)
    page = officer.get("/staff/").text
    headings = re.findall(r"<h[12][^>]*>([^<]+)</h[12]>|<caption[^>]*>([^<]+)</caption>", page)
    order = [a or b for a, b in headings]
    assert order[:3] == [
        "Queue",
        "Cases, the most dangerous first, the longest waiting first, then the rest newest first",
        "Enforcement dates",
    ]
    assert "IDR-2027-0001</a>" in page.split("Enforcement dates")[0]
