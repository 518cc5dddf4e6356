"""The letters say which of their rules are readings (issue 32 items 4 and 5; legal review
2026-12-03 C22-C27 and its readings E4, E6, E7, E14-E19), and the cost notice and the
statement give the owner a way to pay everything at once: the amount that pays the cost and
the interest on a day, by the account's one rule.

The review's cases: a notice issued Friday 15 January 2027 (appeal by Monday 1 February,
correction by Friday 26 February); an abatement completed Tuesday 30 November 2027 costing
$12,000.00 + $345.67, its cost notice mailed Friday 10 December 2027 for 12 payments (protest
and first payment Friday 14 January 2028, interest from Friday 31 December 2027)."""

from __future__ import annotations

import html
import re

from enforcement_helpers import issue, ok, post, violation

pytest_plugins = ["enforcement_fixtures"]  # the clock and the signed-in officer

N = "/staff/notices/1/"


def text(page: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)).replace("\xa0", " "))


def step(client, name: str, **data):
    return post(client, f"{N}steps/{name}", N, **data)


def served_15_january(client, clock, **orders) -> None:
    clock.set("2027-01-15")
    violation(client, committed_on="2027-01-11", found_on="2027-01-12")
    chosen = orders or {"order_0": "y", "specifics_0": "Remove the pipe.", "order_4": "y"}
    ok(post(client, "/staff/violations/1/notice", deadline="2027-02-26", **chosen))
    issue(client, served_on="2027-01-15")


def the_reviews_cost_notice(client, clock) -> None:
    served_15_january(client, clock)
    clock.set("2027-11-30")
    ok(step(client, "completion", completed_on="2027-11-30", work="12,000", admin="345.67"))
    clock.set("2027-12-10")
    ok(step(client, "costs", cost_notice_mailed_on="2027-12-10", payment_count="12"))


def test_c22_an_order_prints_as_a_sentence_without_the_lists_and(officer, clock):
    served_15_january(officer, clock)
    letter = text(officer.get(f"{N}letter").text)
    assert "(a) The elimination of illicit connections or discharges. Remove the pipe." in letter
    assert (
        "(e) Payment of a fine. The fine is set by a court, on conviction (§ 216-13 B): the"
        " ranges are under “Penalties” below." in letter
    )
    assert "; and" not in letter
    page = text(officer.get(N).text)
    assert "(e) Payment of a fine." in page and "Payment of a fine; and" not in page


def test_c23_c24_c25_the_notice_names_its_readings(officer, clock):
    served_15_january(officer, clock)
    letter = text(officer.get(f"{N}letter").text)
    # C23 (reading E5): the deadline and an appeal.
    assert (
        "Complete this by Friday, February 26, 2027 . Should you fail to abate the violation or"
        " restore the property by then," in letter
    )
    assert (
        "An appeal filed in time holds this deadline until the Board of Trustees decides (our"
        " reading of § 216-15 A)." in letter
    )
    # C24 (readings E3, E4): where and how an appeal is filed, and when it counts as filed.
    assert (
        "You may appeal this determination to the Board of Trustees within 15 days of its"
        " issuance on Friday, January 15, 2027 (§ 216-14). Write to the Board of Trustees,"
        " saying which notice you appeal and why, and file it with the Village Clerk at Village"
        " Hall, in person or by mail: the law says only that you appeal to the Board, so where"
        " and how you file it is our reading. Your appeal must reach the Village Clerk by"
        " Monday, February 1, 2027 : one sent by mail must arrive by then (our reading: § 216-14"
        " does not say when an appeal is filed)." in letter
    )
    # C25 (reading E6, and the law's "not more than 12 equal payments"; E15).
    assert (
        "(or, after an appeal the Board upholds, by the later of the deadline above and 5"
        " business days after its decision: § 216-15 A gives the 5 business days, and the later"
        " of the two dates is our reading, so that an appeal never shortens the time this"
        " notice gives)" in letter
    )
    assert (
        "The cost is to be paid in not more than 12 equal payments; interest at 9% a year runs"
        " on the unpaid cost (never on unpaid interest: our reading) from the 31st day after the"
        " work is completed." in letter
    )
    assert "up to 12 equal payments" not in letter and "unpaid balance" not in letter


def test_e14_e7_the_officer_reads_the_service_methods_and_order_a_as_readings(officer, clock):
    clock.set("2027-01-15")
    violation(officer, committed_on="2027-01-11", found_on="2027-01-12")
    draft = text(officer.get("/staff/violations/1/notice").text)
    assert (
        "Required when (a) or (c) is ordered: these are the orders that ask for abatement or"
        " restoration (our reading of § 216-13 A (2))," in draft
    )
    ok(post(officer, "/staff/violations/1/notice", order_1="y"))
    page = text(officer.get(N).text)
    assert (
        "The ways of serving it offered below are our reading: the law says only “written"
        " notice” (§ 216-13 A)." in page
    )
    letter = text(officer.get("/staff/violations/1/inspection-letter").text)
    assert "The ways of sending it are our reading: the law does not say how." in letter


def test_c26_c27_the_cost_notice_names_its_readings_and_how_to_pay_it_all(officer, clock):
    the_reviews_cost_notice(officer, clock)
    cost = text(officer.get(f"{N}cost-letter").text)
    # E18: the dates and the odd cents.
    assert "1 Friday, January 14, 2028 $1,028.87" in cost
    assert (
        "The cost is payable in 12 equal payments of the cost, listed below; the interest is"
        " added to the last one. Payments fall due monthly, the first on the day the time to"
        " protest closes (a date on a weekend or holiday moves to the next business day), and"
        " the odd cents go on the first: our reading, as § 216-16 says only “not more than 12"
        " equal payments”." in cost
    )
    # C26 (E15): interest on the cost only; E16 and E17.
    assert (
        "Interest at 9% a year is charged on the unpaid cost from Friday, December 31, 2027 ,"
        " the 31st day after the work was completed: simple interest, day by day, on the cost"
        " still unpaid, never on unpaid interest (our reading of “on the balance”, § 216-16)."
        in cost
    )
    assert (
        "even though the Village applies it to the interest owed first, then to the cost. (How a"
        " payment applies and when interest is paid are our reading: § 216-16 does not say.)"
        in cost
    )
    assert "unpaid balance" not in cost
    # C27: by hand, 31 December 2027 at 9%/365 and 1-13 January 2028 at 9%/366 on
    # $12,345.67: $3.0441 + $39.4656 = $42.51.
    assert (
        "To pay everything at once, pay the cost still unpaid and the interest on it up to the"
        " day before the day you pay (a payment stops the interest from its own day): paid on"
        " Friday, January 14, 2028 , that is $12,388.18. For another day, ask us for the amount"
        " to the day." in cost
    )
    # E19, and E4 for the protest.
    assert (
        "If a payment is not made by its due date, the charges become a special assessment"
        " against the property and a lien on it, and unpaid charges are added to the property's"
        " tax bill (our reading of “not paid within a timely manner”, § 216-16)." in cost
    )
    assert (
        "and file it with the Village Clerk at Village Hall, in person or by mail: the law says"
        ' only "a written protest", so to whom and how you file it is our reading.' in cost
    )


def test_c27_the_statement_gives_the_amount_to_the_day_and_it_pays_everything(officer, clock):
    the_reviews_cost_notice(officer, clock)
    clock.set("2027-12-20")
    # By hand: 31 December 2027 at 9%/365, 1-2 January 2028 at 9%/366, on $12,345.67:
    # $3.0441 + $6.0716 = $9.12.
    asked = text(officer.get(f"{N}statement?on=2028-01-03").text)
    assert (
        "To pay everything on Monday, January 3, 2028 $12,354.79 : the charge left and the"
        " interest on it up to the day before (a payment stops the interest from its own day);"
        " paid later, it is more." in asked
    )
    refused = text(officer.get(f"{N}statement?on=2027-12-19").text)
    assert "Enter a date on or after December 20, 2027." in refused
    assert "To pay everything on Monday, December 20, 2027 $12,345.67" in refused
    clock.set("2028-01-03")
    today = text(officer.get(f"{N}statement").text)
    assert "To pay everything on Monday, January 3, 2028 $12,354.79" in today
    ok(post(officer, f"{N}payments", N, paid_on="2028-01-03", amount="12,354.79"))
    clock.set("2028-12-31")
    after = text(officer.get(f"{N}statement").text)
    assert "Balance due $0.00 ($0.00 charge, $0.00 interest)" in after
    assert "more than was owed" not in after and "To pay everything" not in after


def test_c27_the_cost_alone_paid_early_leaves_cost_and_interest(officer, clock):
    """The review's case: $12,345.67 paid on 3 January 2028 goes first to the $9.12 of
    interest, and leaves $9.12 of the cost; the statement gives what pays the rest."""
    the_reviews_cost_notice(officer, clock)
    clock.set("2028-01-03")
    ok(post(officer, f"{N}payments", N, paid_on="2028-01-03", amount="12,345.67"))
    statement = text(officer.get(f"{N}statement").text)
    assert "To pay everything on Monday, January 3, 2028 $9.12" in statement


def test_e16_e19_the_statement_and_the_staff_page_name_their_readings(officer, clock):
    the_reviews_cost_notice(officer, clock)
    statement = text(officer.get(f"{N}statement").text)
    assert (
        "day by day, never on unpaid interest; each payment pays the interest owed first, then"
        " the charge." in statement
    )
    assert (
        "(our reading, on the interest and on how payments apply: § 216-16 does not say)."
        in statement
    )
    assert (
        "When a payment is unpaid after its due date, the charges become a special assessment"
        " against the property and a lien on it, and are added to the property's tax bill (our"
        " reading of “not paid within a timely manner”, § 216-16)." in statement
    )
    page = text(officer.get(N).text)
    assert "Simple interest, per day, on the unpaid charge (never on unpaid interest):" in page
    assert (
        "When any installment is unpaid after its due date, the charges become a special"
        " assessment and lien." in page
    )


def test_c27_the_payoff_by_the_rule_the_pages_ask():
    """What pays everything on a day: the review's $12,345.67 on 3 January 2028, whichever
    way payments apply; after $5,000.00 paid on 14 January 2028, to pay on 1 February, by hand:
    interest to 13 January $42.51 (31 December at 9%/365, 13 days at 9%/366). Interest first:
    $7,388.18 of cost left, 14-31 January on it at 9%/366 $32.70, so $7,420.88. Cost first:
    $7,345.67 left and the $42.51 unpaid, 14-31 January $32.51, so $7,420.69."""
    import datetime as dt

    from content_model.enforcement import Terms
    from portal.enforcement.costs import payoff

    done, paid, first = dt.date(2027, 11, 30), [(dt.date(2028, 1, 14), 500_000)], Terms()
    second = Terms(payments_apply_to="charge-first")
    for terms in (first, second):
        assert payoff(1_234_567, done, [], dt.date(2028, 1, 3), terms) == 1_235_479
    assert payoff(1_234_567, done, paid, dt.date(2028, 2, 1), first) == 742_088
    assert payoff(1_234_567, done, paid, dt.date(2028, 2, 1), second) == 742_069
