"""Guessing fails: wrong passwords and codes count per username, whatever address they
come from; after ten the name waits, longer after each further one, and its officer is told
by mail."""

from __future__ import annotations

import time

import pytest
from helpers import (
    PASSWORD,
    enter_code,
    from_address,
    next_code,
    rows,
    try_password,
)
from mailserver import body, wait_for

from portal.core.db import get_db


def test_ten_wrong_passwords_from_ten_addresses_make_the_account_wait(guarded, mail_server):
    answers = [
        try_password(from_address(guarded, f"203.0.113.{n}"), "smo", f"guess number {n}")
        for n in range(10)
    ]
    assert [a.status_code for a in answers] == [401] * 10, "one try each: no address limit hit"
    # The right password, from yet another address, is not even checked now.
    right = try_password(from_address(guarded, "198.51.100.7"), "smo", PASSWORD)
    assert right.status_code == 429
    assert "signing in to it waits: try again in 1 minute" in right.text
    assert right.headers.get("Location") is None
    # The officer is told, once, with the addresses.
    wait_for(lambda: mail_server.to("officer@village.test"), timeout=10)
    (mail,) = mail_server.to("officer@village.test")
    assert mail["Subject"] == "Sign-in of smo paused after 10 wrong tries"
    text = body(mail)
    assert "203.0.113.0" in text and "203.0.113.9" in text and "1 minute" in text
    assert "staff sign-out smo" in text


def test_the_wait_grows_with_each_further_failure_and_ends_with_a_right_sign_in(
    guarded, monkeypatch
):
    for n in range(10):
        try_password(from_address(guarded, f"203.0.113.{n}"), "smo", f"guess number {n}")
    client = from_address(guarded, "198.51.100.7")

    def waits_until() -> float:
        return rows(guarded, "SELECT wait_until FROM sign_in_failures")[0]["wait_until"]

    for waited, next_wait in ((60, "2 minutes"), (120, "4 minutes"), (240, "8 minutes")):
        ends = waits_until()
        monkeypatch.setattr(time, "time", lambda ends=ends: ends - 5)
        assert try_password(client, "smo", PASSWORD).status_code == 429, "5 s too early"
        monkeypatch.setattr(time, "time", lambda ends=ends: ends + 1)
        assert try_password(client, "smo", "still guessing").status_code == 401
        waiting = try_password(client, "smo", PASSWORD)
        assert waiting.status_code == 429 and f"try again in {next_wait}" in waiting.text
        assert waits_until() - ends == pytest.approx(2 * waited + 1, abs=1)
    # The wait is never more than an hour.
    from portal.accounts.guessing import wait_for as wait_after

    assert [wait_after(n) for n in (9, 10, 11, 16, 17, 30)] == [0, 60, 120, 3600, 3600, 3600]
    ends = waits_until()
    monkeypatch.setattr(time, "time", lambda: ends + 1)
    assert try_password(client, "smo", PASSWORD).status_code == 303
    assert enter_code(client, guarded, "smo").status_code == 303
    assert rows(guarded, "SELECT * FROM sign_in_failures") == [], "the count starts again"


def test_a_pause_of_fifteen_minutes_starts_the_count_again(guarded, monkeypatch):
    for n in range(9):
        try_password(from_address(guarded, f"203.0.113.{n}"), "smo", f"guess number {n}")
    # From the last failure (nine password checks take seconds on a busy machine).
    last = time.time()
    monkeypatch.setattr(time, "time", lambda: last + 15 * 60 + 5)
    assert try_password(from_address(guarded, "203.0.113.99"), "smo", "one more").status_code == 401
    assert try_password(from_address(guarded, "203.0.113.98"), "smo", PASSWORD).status_code == 303


def test_a_name_no_account_has_waits_the_same_and_nobody_is_mailed(guarded, mail_server):
    for n in range(10):
        try_password(from_address(guarded, f"203.0.113.{n}"), "nobody", f"guess number {n}")
    answer = try_password(from_address(guarded, "198.51.100.7"), "nobody", PASSWORD)
    assert answer.status_code == 429 and "try again in 1 minute" in answer.text
    assert not mail_server.messages


def test_wrong_codes_from_many_addresses_end_the_half_sign_in(guarded, mail_server):
    """The review's 54 codes from 6 addresses: now the tenth wrong one ends it."""
    clients = [from_address(guarded, f"203.0.113.{n}") for n in range(6)]
    for client in clients:
        assert try_password(client, "smo", PASSWORD).headers["Location"] == "/staff/second-factor"
    answers = [
        enter_code(clients[n % 6], guarded, "smo", f"{n:06d}").status_code for n in range(10)
    ]
    assert answers == [401] * 9 + [429]
    # The right code now opens nothing, in any of the half-signed-in browsers.
    for client in clients[:3]:
        right = enter_code(client, guarded, "smo", next_code(guarded, "smo"))
        assert right.status_code in (303, 429) and client.get("/staff/").status_code == 401
    wait_for(lambda: mail_server.to("officer@village.test"), timeout=10)


def test_the_smo_is_told_when_the_account_has_no_address(guarded, mail_server):
    with guarded.app_context():
        get_db().execute("UPDATE staff SET email = NULL")
    for n in range(10):
        try_password(from_address(guarded, f"203.0.113.{n}"), "smo", f"guess number {n}")
    wait_for(lambda: mail_server.to("smo-office@village.test"), timeout=10)
    assert "The staff account smo had 10 wrong" in body(
        mail_server.to("smo-office@village.test")[0]
    )
