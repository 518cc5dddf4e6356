"""Fixtures of the enforcement page tests (loaded with pytest_plugins): the portal's clock,
moved by the test, and a signed-in officer with one resident report."""

from __future__ import annotations

import datetime as dt
import re
from zoneinfo import ZoneInfo

import pytest
from helpers import open_form, report_data, sign_in

TZ = ZoneInfo("America/New_York")


class Clock:
    """The app's CLOCK: a local moment the test moves on."""

    def __init__(self, moment: dt.datetime) -> None:
        self.moment = moment

    def __call__(self) -> dt.datetime:
        return self.moment

    def set(self, day: str) -> None:
        self.moment = dt.datetime.fromisoformat(f"{day}T10:00").replace(tzinfo=TZ)


@pytest.fixture
def clock(app):
    clock = Clock(dt.datetime(2027, 3, 1, 10, 0, tzinfo=TZ))
    app.config["CLOCK"] = clock
    return clock


@pytest.fixture
def officer(app, client, clock):
    """A signed-in officer and one resident report, whose status link is kept."""
    sent = client.post(
        "/report/",
        data={
            **open_form(client),
            **report_data(description="Grey water from a pipe behind 12 Elm Street"),
        },
    )
    page = client.get(sent.headers["Location"]).text
    client.status_url = re.search(r'href="(/status/[\w-]+/)"', page).group(1)
    sign_in(client, app)
    return client
