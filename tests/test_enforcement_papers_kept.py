"""Every paper is kept by one mechanism (portal/enforcement/papers.py): the request for
access and a statement of account as they were sent, the database refusing to change a kept
one, and a paper mailed before papers were kept: its reprint says no copy was kept, and the
upgrade of an older file makes none up."""

from __future__ import annotations

import html
import re
import sqlite3

import pytest
from enforcement_helpers import issue, ok, post, violation
from helpers import database, rows
from test_migrations import version_9_file

from portal.core.db import connect

pytest_plugins = ["enforcement_fixtures"]  # the clock and the signed-in officer

N = "/staff/notices/1/"


def text(page: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)).replace("\xa0", " "))


def step(client, name: str, **data):
    return post(client, f"{N}steps/{name}", N, **data)


def notice(client) -> None:
    """Served Monday 1 March 2027, to be corrected by Wednesday 31 March."""
    violation(client)
    ok(post(client, "/staff/violations/1/notice", order_1="y", order_2="y", deadline="2027-03-31"))
    issue(client)


def test_the_request_for_access_is_kept_as_sent(officer, clock):
    notice(officer)
    clock.set("2027-04-05")
    ok(step(officer, "access", access_requested_on="2027-04-01"))
    letter = text(officer.get(f"{N}access-letter").text)
    assert "Copy as mailed on Thursday, April 1, 2027 ." in letter
    assert "has not been corrected by Wednesday, March 31, 2027 , as the notice required" in letter
    # Later facts are their own events: the answer saves, the date sent does not move.
    ok(step(officer, "access", access_requested_on="2027-04-01", access_answer="refused"))
    moved = step(officer, "access", access_requested_on="2027-04-02")
    assert moved.status_code == 422
    assert (
        "The request for access to abate was sent on Thursday, April 1, 2027 and is kept as"
        " sent: the date it printed cannot change." in text(moved.text)
    )
    events = text(officer.get("/staff/cases/1/").text)
    assert "Paper kept as sent (NOV-2027-0001): kind access" in events


def test_a_statement_mailed_is_kept_and_later_payments_leave_it(officer, clock):
    notice(officer)
    clock.set("2027-05-03")
    ok(step(officer, "completion", completed_on="2027-05-03", work="1,000", admin="100"))
    ok(step(officer, "costs", cost_notice_mailed_on="2027-05-03", payment_count="2"))
    clock.set("2027-06-10")
    ok(post(officer, f"{N}statement/mailed", f"{N}statement"))
    clock.set("2027-06-20")
    ok(post(officer, f"{N}payments", N, paid_on="2027-06-20", amount="500"))
    page = officer.get(f"{N}statement").text
    assert "Statements mailed: Thursday, June 10, 2027" in text(page)
    link = re.search(r'href="(/staff/notices/1/papers/\d+)"><time datetime="2027-06-10"', page)
    link = link.group(1)
    kept = text(officer.get(link).text)
    assert "Copy as mailed on Thursday, June 10, 2027 ." in kept
    assert "As of Thursday, June 10, 2027" in kept and "Paid in all $0.00" in kept
    assert "Paid in all $500.00" in text(page), "today's statement has the payment"


def test_the_database_refuses_to_change_a_kept_paper(officer, clock, app):
    notice(officer)
    (kept,) = rows(app, "SELECT id, kind FROM issued_papers")
    assert kept["kind"] == "notice"
    for sql in (
        "UPDATE issued_papers SET html = '<p>other</p>'",
        "DELETE FROM issued_papers",
    ):
        with pytest.raises(sqlite3.IntegrityError), database(app.config["DATABASE"]) as conn:
            conn.execute(sql)


def test_a_cost_notice_mailed_before_papers_were_kept_says_no_copy_was(officer, clock, app):
    notice(officer)
    clock.set("2027-05-03")
    ok(step(officer, "completion", completed_on="2027-05-03", work="1,000", admin="100"))
    # As a portal before kept papers left it: the mailing recorded, no copy.
    with database(app.config["DATABASE"]) as conn:
        conn.execute(
            "UPDATE notice_steps SET cost_notice_mailed_on = '2027-05-03', payment_count = 2"
        )
    letter = text(officer.get(f"{N}cost-letter").text)
    assert (
        "No copy of this cost notice was kept when it was sent on Monday, May 3, 2027 (the"
        " portal did not keep papers then): this is drawn from the records as they are now,"
        " and may differ from the paper that was sent." in letter
    )
    assert "Copy as mailed" not in letter and "Total $1,100.00" in letter
    # Its cost is still the one mailed: it cannot be typed over now either.
    refused = step(officer, "completion", completed_on="2027-05-03", work="900", admin="100")
    assert refused.status_code == 422 and "is kept as mailed" in refused.text
    # A decision on a protest recorded then has no outcome: none is made up for it.
    with database(app.config["DATABASE"]) as conn:
        conn.execute(
            "UPDATE notice_steps SET protest_filed_on = '2027-05-20',"
            " protest_decided_on = '2027-06-01', protest_payment_due_on = '2027-06-15'"
        )
    page = text(officer.get(N).text)
    assert (
        "decided Tuesday, June 1, 2027 : what it decided was not recorded (a decision recorded"
        " before the portal asked; the amount mailed stands here), payments due from Tuesday,"
        " June 15, 2027 ." in page
    )


def test_an_older_file_upgrades_with_no_paper_made_up(tmp_path):
    path = version_9_file(tmp_path / "v9.sqlite3")
    with database(path) as conn:
        conn.execute(
            "INSERT INTO respondents (id, name, mailing_address, created_at, created_by)"
            " VALUES (1, 'Elm Street Auto LLC', 'PO Box 12', '2026-11-02', 'smo')"
        )
        conn.execute(
            "INSERT INTO violations (id, case_id, respondent_id, committed_on, section,"
            " description, recorded_at, recorded_by)"
            " VALUES (1, 1, 1, '2026-10-30', '216-6 A', 'Wash water.', '2026-11-02', 'smo')"
        )
        conn.execute(
            "INSERT INTO notices (id, violation_id, number, drafted_at, drafted_by, issued_on)"
            " VALUES (1, 1, 'NOV-2026-0001', '2026-11-02', 'smo', '2026-11-02')"
        )
        conn.execute(
            "INSERT INTO notice_steps (notice_id, completed_on, work_cents, admin_cents,"
            " cost_notice_mailed_on, payment_count, protest_filed_on)"
            " VALUES (1, '2026-12-01', 268745, 31360, '2026-12-04', 12, '2026-12-20')"
        )
    db = connect(path)
    assert db.execute("SELECT count(*) FROM issued_papers").fetchone() == (0,)
    assert db.execute(
        "SELECT work_cents, admin_cents, cost_notice_mailed_on, protest_outcome,"
        " protest_decided_cents, protest_mail_number FROM notice_steps"
    ).fetchall() == [(268745, 31360, "2026-12-04", None, None, None)]
    names = {name for (name,) in db.execute("SELECT name FROM _sqlite_migrations")}
    assert "009_issued_papers" in names
    db.conn.close()
