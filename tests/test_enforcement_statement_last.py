"""The statement of account's last payment (officer's week 2026-12-03 M5): before its due
date it gives one figure, the amount if it is paid on that date, in its row, its "Still to
pay" and its footnote alike, and the interest charged to date is the balance's, apart.

The review's case: abated Friday 26 February 2027, $2,687.45 + $313.60 = $3,001.05 in 12
payments, the cost notice mailed Friday 5 March, received 8 March, protested 22 March, upheld
on 20 April with payments from 20 May; paid $250.17 on 20 May, $250.08 on 25 June and
$300.00 on 20 July; the statement read on Sunday 1 August 2027."""

from __future__ import annotations

import html
import re

from enforcement_helpers import issue, ok, post, violation

pytest_plugins = ["enforcement_fixtures"]  # the clock and the signed-in officer

N = "/staff/notices/1/"


def text(page: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)).replace("\xa0", " "))


def step(client, name: str, **data) -> None:
    ok(post(client, f"{N}steps/{name}", N, **data))


def paid_three(client, clock) -> None:
    clock.set("2027-01-04")
    violation(client, committed_on="2027-01-02", found_on="2027-01-04")
    ok(post(client, "/staff/violations/1/notice", order_1="y", order_2="y", deadline="2027-02-19"))
    issue(client, served_on="2027-01-04")
    clock.set("2027-02-26")
    step(client, "completion", completed_on="2027-02-26", work="2,687.45", admin="313.60")
    clock.set("2027-03-22")
    step(
        client,
        "costs",
        cost_notice_mailed_on="2027-03-05",
        cost_notice_received_on="2027-03-08",
        protest_filed_on="2027-03-22",
        payment_count="12",
    )
    clock.set("2027-04-20")
    step(
        client,
        "protest",
        protest_outcome="upheld",
        protest_decided_on="2027-04-20",
        protest_payment_due_on="2027-05-20",
    )
    for day, amount in (
        ("2027-05-20", "250.17"),
        ("2027-06-25", "250.08"),
        ("2027-07-20", "300.00"),
    ):
        clock.set(day)
        ok(post(client, f"{N}payments", N, paid_on=day, amount=amount))
    clock.set("2027-08-01")


def test_m5_the_last_payment_has_one_figure_before_its_date(officer, clock):
    paid_three(officer, clock)
    statement = text(officer.get(f"{N}statement").text)
    assert "Balance due $2,287.16 ($2,279.85 charge, $7.31 interest)" in statement
    assert "Interest added $86.36" in statement
    assert "$250.08 + $172.89 interest* $0.00 $422.97*" in statement
    assert "$336.44" not in statement
    assert "$422.97 in all." in statement
    # Payment 4, covered for $49.92 by July's $300.00, is the one the officer asks for next.
    assert "4 Friday, August 20, 2027 $250.08 $49.92 $200.16 " in statement
    page = text(officer.get(N).text)
    assert "$200.16 still to pay of $250.08, payment 4 of 12, due Friday, August 20, 2027" in page
