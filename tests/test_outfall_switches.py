"""outfalls.yaml's never_screened_due_within_days, turned from its default (null: one never
screened is due every_years after its inventory day) to a number of days by a throwaway
pack, through the due list, the inventory and the outfall's own page the officer reads."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from helpers import sign_in
from throwaway_pack import text, throwaway_pack

from portal.core.db import get_db, insert, transaction

NY = ZoneInfo("America/New_York")


@pytest.fixture
def content_dir(request, tmp_path):
    """The default pack, or a copy with `request.param`'s (line, replacement) in outfalls.yaml."""
    if not getattr(request, "param", None):
        return None
    return throwaway_pack(tmp_path / "content", "outfalls.yaml", *request.param)


def at(app, moment: str) -> None:
    when = dt.datetime.fromisoformat(moment).replace(tzinfo=NY)
    app.config["CLOCK"] = lambda: when


def add_never_screened(app) -> None:
    """OF-C, entered Monday 1 March 2027 with no inventory day of its own, never screened."""
    entered = "2027-03-01T09:00:00-05:00"
    with app.app_context():
        db = get_db()
        with transaction(db):
            insert(
                db,
                "outfalls",
                {
                    "code": "OF-C",
                    "latitude": 42.1601,
                    "longitude": -76.8302,
                    "location": "At OF-C",
                    "created_at": entered,
                    "updated_at": entered,
                    "updated_by": "test",
                },
            )


IN_30_DAYS = ("never_screened_due_within_days: null", "never_screened_due_within_days: 30")


@pytest.mark.parametrize(
    ("content_dir", "due", "reading"),
    [
        (
            None,
            "Monday, March 1, 2032",
            "one never screened is due 5 years after the day it entered the inventory",
        ),
        (
            IN_30_DAYS,
            "Wednesday, March 31, 2027",
            "one never screened is due 30 days after it entered the inventory",
        ),
    ],
    ids=["five-years", "30-days"],
    indirect=["content_dir"],
)
def test_an_outfall_never_screened_is_due_by_the_packs_reading(app, client, due, reading):
    add_never_screened(app)
    sign_in(client, app)
    at(app, "2027-03-31T23:59")
    listed = text(client.get("/staff/screenings/due").text)
    assert reading in listed
    this_month = f"OF-C , At OF-C: due by {due} , never screened."
    assert (this_month in listed) is (due == "Wednesday, March 31, 2027")
    assert f"OF-C Outfall At OF-C {due}" in text(client.get("/staff/outfalls/").text)
    own = text(client.get("/staff/outfalls/1/").text)
    assert f"Screening: never screened; next due by {due}" in own
    # The next day, the 30 days are over; the five years are not.
    at(app, "2027-04-01T00:00")
    overdue = text(client.get("/staff/screenings/due").text).split("Due by")[0]
    assert ("Overdue: 1 OF-C" in overdue) is (due == "Wednesday, March 31, 2027")
    assert ("Overdue: 0 None." in overdue) is (due == "Monday, March 1, 2032")
