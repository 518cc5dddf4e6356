"""A suspect call's re-screen "within 30 days" (officer's week 2026-12-03 P1): screened
Thursday 3 December 2026, 30 days on is Saturday 2 January 2027, and Friday 1 January is New
Year's Day, so it is due Thursday 31 December, the last business day within the 30."""

from __future__ import annotations

from test_screening_field_sheet import SEWAGE, send, setup, text


def next_due(page: str) -> str:
    return text(page).split("Next due ", 1)[1].split(" (our reading)", 1)[0]


def test_p1_the_re_screen_falls_on_the_last_business_day_within_30(app, client):
    setup(app, client)
    saved = send(client, {**SEWAGE, "overall": "obvious"})
    assert saved.status_code == 303
    page = client.get(saved.headers["Location"]).text
    assert next_due(page) == (
        "Thursday, December 31, 2026 : after a suspect or obvious call the outfall is screened"
        " again within 30 days, by the last business day of them"
    )
    due = text(client.get("/staff/screenings/due").text)
    assert (
        "one whose last call was suspect or obvious is due again within 30 days of that"
        " screening, by the last business day of them (not a weekend or a holiday)." in due
    )
