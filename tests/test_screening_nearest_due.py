"""The outfalls nearest the phone say which the rotation wants (officer's week 2026-12-03 F4):
at a headwall with three pipes in view, each is overdue, due this month or not yet due, with
its day. Today is Thursday 3 December 2026; the rotation is every 5 years."""

from __future__ import annotations

import datetime as dt
import html
import re

from helpers import sign_in
from test_screening import NY, add_outfalls, clocked

# Three pipes at one headwall, a few metres apart.
HEADWALL = (
    ("HH-OF-011", 42.16549, -76.82010, "2009-05-01T09:00:00-04:00"),  # never screened
    ("HH-OF-012", 42.16552, -76.82012, "2009-05-01T09:00:00-04:00", "2021-12-10T10:00"),
    ("HH-OF-013", 42.16554, -76.82014, "2009-05-01T09:00:00-04:00", "2024-06-04T10:00"),
)


def nearest(page: str) -> list[str]:
    part = page.split('<h2 id="nearest">Nearest outfalls</h2>')[1].split("</ol>")[0]
    return [
        " ".join(html.unescape(re.sub(r"<[^>]+>", " ", item)).split())
        for item in re.findall(r"<li>(.*?)</li>", part, re.S)
    ]


def test_f4_each_nearest_outfall_says_whether_it_is_due(app, client):
    add_outfalls(app, *HEADWALL)
    sign_in(client, app)
    clocked(app, dt.datetime(2026, 12, 3, 3, 50, tzinfo=NY))
    page = client.get("/staff/screenings/?lat=42.16552&lon=-76.82012").text
    assert nearest(page) == [
        "HH-OF-012 , 0 m: At HH-OF-012. Due this month , by Thursday, December 10, 2026",
        "HH-OF-013 , 3 m: At HH-OF-013. Not yet due: next Monday, June 4, 2029",
        "HH-OF-011 , 4 m: At HH-OF-011. Overdue , due Thursday, May 1, 2014 (never screened)",
    ]
