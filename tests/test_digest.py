"""The morning digest: made once per business day at the office's opening hour (8:00 in New
York), never on a weekend, a holiday or a closure, with the follow-ups due and overdue, the
cases new since the last digest (the most dangerous first) and hazardous ones nobody looked at."""

from __future__ import annotations

import dataclasses
import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from helpers import add_enrolled_account, open_form, report_data, rows, save_case, sign_in

from portal.core.db import get_db
from portal.core.deadlines import BusinessCalendar
from portal.digest import morning as digest
from portal.digest.morning import queue_digests
from portal.enforcement.timeline import Deadline
from portal.mail.courier import sweep_and_send

NEW_YORK = ZoneInfo("America/New_York")


def local(*parts: int) -> dt.datetime:
    return dt.datetime(*parts, tzinfo=NEW_YORK)


def set_clock(app, moment: dt.datetime) -> None:
    app.config["CLOCK"] = lambda: moment


def make_digests(app, moment: dt.datetime) -> int:
    with app.test_request_context():
        return queue_digests(get_db(), moment)


def digests(app) -> list[dict]:
    return rows(app, "SELECT * FROM outbox WHERE purpose LIKE 'digest-%' ORDER BY id")


def send_report(app, client, moment: dt.datetime, **fields) -> None:
    set_clock(app, moment)
    data = report_data(observed_at="2026-11-29T08:15", **fields)
    assert client.post("/report/", data={**open_form(client), **data}).status_code == 303


@pytest.fixture
def officer(app, client):
    """smo signed in, with jo as a second officer; both get the digest by e-mail."""
    set_clock(app, local(2026, 11, 30, 9, 0))  # Monday 30 November 2026
    send_report(
        app,
        client,
        local(2026, 11, 30, 9, 0),
        description="Foam",
        odor="",
        indicators=["suds"],
        address="1 Elm Street",
    )
    send_report(
        app,
        client,
        local(2026, 11, 30, 9, 5),
        description="More foam",
        odor="",
        indicators=["suds"],
        address="2 Elm Street",
    )
    sign_in(client, app)
    add_enrolled_account(app, "jo")
    with app.app_context():
        get_db().execute("UPDATE staff SET email = username || '@village.test'")
    # Monday's digest, the first (made late: the server was down at opening), starts the
    # count: the next lists what came in after it.
    assert make_digests(app, local(2026, 11, 30, 9, 10)) == 0
    return client


def test_one_digest_per_business_day_at_opening_and_not_again_that_day(app, officer):
    save_case(officer, 1, assignee="jo", follow_up_on="2026-12-01")
    assert make_digests(app, local(2026, 12, 1, 7, 59)) == 0, "Tuesday, before opening"
    assert make_digests(app, local(2026, 12, 1, 8, 0)) == 1, "jo only: smo has nothing"
    # A follow-up set at 1:20 p.m. for today: today's digest is made, it waits for the next.
    set_clock(app, local(2026, 12, 1, 13, 20))
    save_case(officer, 2, assignee="jo", follow_up_on="2026-12-01")
    assert make_digests(app, local(2026, 12, 1, 13, 21)) == 0
    assert make_digests(app, local(2026, 12, 2, 8, 0)) == 1, "Wednesday"
    tuesday, wednesday = digests(app)
    assert tuesday["recipient"] == "jo@village.test"
    assert tuesday["subject"] == "Morning digest, Tuesday, December 1: 1 follow-up due"
    assert tuesday["body_text"].count("/staff/cases/") == 1
    assert "Tuesday, December 1, 2026 (overdue)" not in tuesday["body_text"]
    assert wednesday["subject"] == "Morning digest, Wednesday, December 2: 2 follow-ups due"
    assert wednesday["body_text"].count("follow up on Tuesday, December 1, 2026 (overdue)") == 2
    made = rows(app, "SELECT day, made_at, queued FROM digests ORDER BY day")
    assert made == [
        {"day": "2026-11-30", "made_at": "2026-11-30T09:10:00-05:00", "queued": 0},
        {"day": "2026-12-01", "made_at": "2026-12-01T08:00:00-05:00", "queued": 1},
        {"day": "2026-12-02", "made_at": "2026-12-02T08:00:00-05:00", "queued": 1},
    ]


def test_no_digest_on_a_weekend_a_holiday_a_closure_or_after_closing(app, officer):
    save_case(officer, 1, assignee="jo", follow_up_on="2026-12-01")
    rules = app.extensions["content"].settings.holidays
    closed = dataclasses.replace(rules, closures=(dt.date(2026, 12, 24),))
    app.extensions["calendar"] = BusinessCalendar(closed)
    for moment in (
        local(2026, 12, 1, 16, 0),  # Tuesday, the office has closed
        local(2026, 12, 5, 9, 0),  # Saturday
        local(2026, 12, 6, 9, 0),  # Sunday
        local(2026, 12, 24, 9, 0),  # Thursday, a closure of the office
        local(2026, 12, 25, 9, 0),  # Friday, Christmas Day
    ):
        assert make_digests(app, moment) == 0, moment
    assert rows(app, "SELECT day FROM digests") == [{"day": "2026-11-30"}]
    assert make_digests(app, local(2026, 12, 28, 8, 0)) == 1, "Monday after Christmas"
    [monday] = digests(app)
    assert "follow up on Tuesday, December 1, 2026 (overdue)" in monday["body_text"]


def test_the_courier_makes_it_by_local_time_on_a_utc_server(app, officer):
    save_case(officer, 1, assignee="jo", follow_up_on="2026-12-01")
    # 05:30 UTC on Tuesday is 00:30 in New York; 03:00 UTC on Wednesday is 10 p.m. Tuesday.
    for utc in (
        dt.datetime(2026, 12, 1, 5, 30, tzinfo=dt.UTC),
        dt.datetime(2026, 12, 2, 3, 0, tzinfo=dt.UTC),
    ):
        app.config["CLOCK"] = lambda utc=utc: utc
        with app.app_context():
            sweep_and_send(app, get_db())
        assert digests(app) == [], utc
    app.config["CLOCK"] = lambda: dt.datetime(2026, 12, 2, 13, 0, tzinfo=dt.UTC)  # 8:00 a.m.
    with app.app_context():
        sweep_and_send(app, get_db())
    [wednesday] = digests(app)
    assert wednesday["subject"].startswith("Morning digest, Wednesday, December 2:")
    assert wednesday["status"] == "sent"


def test_new_and_hazardous_cases_since_the_last_digest(app, officer):
    send_report(
        app,
        officer,
        local(2026, 11, 30, 10, 0),
        description="Foam at the park",
        odor="",
        indicators=["suds"],
        address="3 Park Lane",
    )
    send_report(
        app,
        officer,
        local(2026, 11, 30, 10, 5),
        description="A rainbow sheen",
        odor="petroleum",
        indicators=["sheen"],
        address="4 Mill Street",
    )
    assert make_digests(app, local(2026, 12, 1, 8, 0)) == 2, "smo and jo"
    jo, smo = digests(app)
    assert smo["subject"] == "Morning digest, Tuesday, December 1: 2 new cases (1 hazardous)"
    text = smo["body_text"]
    assert (
        "NEW SINCE THE LAST DIGEST (November 30, 2026 at 9:10 a.m.), the most dangerous first"
        in text
    )
    oil, foam = text.index("IDR-2026-0004 (HAZARDOUS: fuel or oil)"), text.index("IDR-2026-0003")
    assert oil < foam, "hazardous first"
    assert "IDR-2026-0001" not in text, "received before the last digest"
    assert jo["body_text"] == text.replace("morning, smo", "morning, jo")
    # Wednesday: nothing is new, but nobody has looked at the oil yet.
    assert make_digests(app, local(2026, 12, 2, 8, 0)) == 2
    wednesday = digests(app)[2]
    assert wednesday["subject"] == "Morning digest, Wednesday, December 2: 1 hazardous case waiting"
    assert (
        "HAZARDOUS, NOBODY HAS LOOKED AT IT YET\n- IDR-2026-0004 (fuel or oil)"
        in (wednesday["body_text"])
    )
    assert "IDR-2026-0003" not in wednesday["body_text"]
    # Once an officer acts on it, Thursday's digest has nothing to say: none is sent.
    save_case(officer, 4, status="investigating", assignee="jo")
    assert make_digests(app, local(2026, 12, 3, 8, 0)) == 0
    assert rows(app, "SELECT day FROM digests WHERE day = '2026-12-03'") == [{"day": "2026-12-03"}]


def test_the_new_cases_come_most_dangerous_first_as_in_the_queue(app, officer):
    """The queue's danger rank (officer's week M1): the dizzying gasoline before the diesel
    filed earlier, the sewage after both, the foam last."""
    for minute, (description, odor) in enumerate(
        [
            ("Foam at the park", ""),
            ("Raw sewage from the pipe", "sewage"),
            ("Diesel on the road", ""),
            ("Strong gasoline smell, it is making me dizzy", "petroleum"),
        ]
    ):
        send_report(
            app, officer, local(2026, 11, 30, 10, minute), description=description, odor=odor
        )
    make_digests(app, local(2026, 12, 1, 8, 0))
    text = digests(app)[-1]["body_text"]
    listed = [text.index(f"IDR-2026-000{n}") for n in (6, 5, 4, 3)]
    assert listed == sorted(listed), "dizzy, diesel, sewage, foam"


def test_a_case_assigned_to_another_officer_is_not_in_my_digest(app, officer):
    send_report(
        app,
        officer,
        local(2026, 11, 30, 10, 0),
        description="Foam at the park",
        odor="",
        indicators=["suds"],
        address="3 Park Lane",
    )
    save_case(officer, 3, assignee="jo")
    assert make_digests(app, local(2026, 12, 1, 8, 0)) == 1
    [jo] = digests(app)
    assert jo["recipient"] == "jo@village.test" and "IDR-2026-0003" in jo["body_text"]


def test_without_an_officers_address_the_office_mailbox_gets_everything(app, officer):
    with app.app_context():
        get_db().execute("UPDATE staff SET email = NULL")
    save_case(officer, 1, assignee="jo", follow_up_on="2026-11-30")
    assert make_digests(app, local(2026, 12, 1, 8, 0)) == 1
    [office] = digests(app)
    assert office["recipient"] == "smo@village.test"
    assert office["body_text"].startswith(
        "Good morning. Your digest for Tuesday, December 1, 2026."
    )


def test_enforcement_dates_overdue_or_within_a_week_only(app, officer, monkeypatch):
    def dated(due: dt.date, overdue: bool = False):
        return (
            Deadline("appeal", f"Appeal by {due}", due, "appeal", True, overdue),
            {
                "id": 1,
                "case_id": 1,
                "number": "NOV-2026-0001",
                "respondent_name": "Sparkle LLC",
                "case_reference": "IDR-2026-0001",
            },
        )

    dates = [
        dated(dt.date(2026, 11, 27), overdue=True),
        dated(dt.date(2026, 12, 8)),
        dated(dt.date(2026, 12, 9)),
    ]
    monkeypatch.setattr(digest, "open_dates", lambda *args: dates)
    assert make_digests(app, local(2026, 12, 1, 8, 0)) == 2
    _, smo = digests(app)
    assert smo["subject"] == "Morning digest, Tuesday, December 1: 2 enforcement dates (1 overdue)"
    text = smo["body_text"]
    assert "Friday, November 27, 2026 (OVERDUE): Appeal by 2026-11-27" in text
    assert "Tuesday, December 8, 2026: Appeal by 2026-12-08" in text
    assert "2026-12-09" not in text, "more than a week ahead"
