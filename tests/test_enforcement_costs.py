"""The cost of abatement line by line (seed 199): the statement of account's every line, the
installments' states with the interest the last one carries, and the interest owed with the
last payment. $1,000 (or $1,350 in three) completed 1 January 2027: interest from 1 February;
a day's interest is 9% / 365 of the charge left. Pure functions: no app."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from content_model.enforcement import Terms
from portal.enforcement import costs
from portal.enforcement.costs import Installment, InstallmentState, Line

D = dt.date.fromisoformat
TERMS = Terms()
DONE = D("2027-01-01")


def test_two_payments_out_of_order_each_line():
    # 2 March: 30 days on $1,000 = $7.40; 3 March - 1 April: 30 days on $507.40 = $3.75;
    # 2 April: one day on $411.15 = $0.10. A payment on the statement date counts.
    found = costs.account(
        100_000, DONE, [(D("2027-04-02"), 10_000), (D("2027-03-03"), 50_000)], D("2027-04-02"),
        TERMS,
    )  # fmt: skip
    assert found.lines == [
        Line(D("2027-03-03"), "Payment", 50_000, 740, 740, 49_260, 50_740, 0),
        Line(D("2027-04-02"), "Payment", 10_000, 375, 375, 9_625, 41_115, 0),
        Line(D("2027-04-02"), "Interest to date", 0, 10, 0, 0, 41_115, 10),
    ]
    assert (found.charge, found.interest_from, found.as_of) == (
        100_000, D("2027-02-01"), D("2027-04-02"),
    )  # fmt: skip
    assert (found.charge_due, found.interest_due, found.interest_total) == (41_115, 10, 1_125)
    assert (found.paid, found.paid_to_charge, found.overpaid) == (60_000, 58_885, 0)


def test_charge_first_each_line():
    terms = dataclasses.replace(TERMS, payments_apply_to="charge-first")
    found = costs.account(100_000, DONE, [(D("2027-03-03"), 50_000)], D("2027-04-02"), terms)
    assert found.lines == [
        Line(D("2027-03-03"), "Payment", 50_000, 740, 0, 50_000, 50_000, 740),
        Line(D("2027-04-02"), "Interest to date", 0, 382, 0, 0, 50_000, 1_122),
    ]
    assert (found.paid, found.paid_to_charge, found.interest_total) == (50_000, 50_000, 1_122)


def test_an_overpayment_each_line():
    found = costs.account(100_000, DONE, [(D("2027-01-10"), 120_000)], D("2027-06-01"), TERMS)
    assert found.lines == [
        Line(D("2027-01-10"), "Payment", 120_000, 0, 0, 100_000, 0, 0),
        Line(D("2027-06-01"), "Interest to date", 0, 0, 0, 0, 0, 0),
    ]
    assert (found.overpaid, found.paid_to_charge, found.balance) == (20_000, 100_000, 0)


def test_a_payment_after_the_statement_is_left_off_the_lines():
    found = costs.account(100_000, DONE, [(D("2027-03-03"), 100_000)], D("2027-03-02"), TERMS)
    assert found.lines == [Line(D("2027-03-02"), "Interest to date", 0, 740, 0, 0, 100_000, 740)]
    assert found.paid == 0


def test_a_fractional_rate_is_kept():
    # 7.25% of $1,000 for the 365 days of 2027 from 1 February 2027 to 31 January 2028:
    # 334/365 + 31/366 of $72.50 = $72.48.
    terms = dataclasses.replace(TERMS, interest_percent=7.25)
    assert costs.account(100_000, DONE, [], D("2028-01-31"), terms).interest_total == 7_248


PLAN = costs.installments(135_000, 3, D("2027-06-04"), TERMS)  # 4 June, 4 July, 4 August


def state(number, due, paid, past_due, interest=0):
    return InstallmentState(Installment(number, D(due), 45_000), paid, past_due, interest)


# (paid, today, interest, states)
STATES = [
    (95_000, "2027-08-04", 500, [
        state(1, "2027-06-04", 45_000, False), state(2, "2027-07-04", 45_000, False),
        state(3, "2027-08-04", 5_000, False, 500)]),
    (95_000, "2027-08-05", 500, [
        state(1, "2027-06-04", 45_000, False), state(2, "2027-07-04", 45_000, False),
        state(3, "2027-08-04", 5_000, True, 500)]),
    (135_000, "2027-08-05", 500, [
        state(1, "2027-06-04", 45_000, False), state(2, "2027-07-04", 45_000, False),
        state(3, "2027-08-04", 45_000, True, 500)]),
    (200_000, "2027-08-05", 500, [
        state(1, "2027-06-04", 45_000, False), state(2, "2027-07-04", 45_000, False),
        state(3, "2027-08-04", 45_500, False, 500)]),
    (0, "2027-06-05", 0, [
        state(1, "2027-06-04", 0, True), state(2, "2027-07-04", 0, False),
        state(3, "2027-08-04", 0, False)]),
]  # fmt: skip


@pytest.mark.parametrize(("paid", "today", "interest", "states"), STATES)
def test_installment_states_carry_the_interest_on_the_last(paid, today, interest, states):
    assert costs.installment_states(PLAN, paid, D(today), interest) == states


def test_the_interest_keeps_the_last_installment_open():
    assert costs.next_installment(PLAN, 135_000, 500) == Installment(3, D("2027-08-04"), 45_000)
    assert costs.next_installment(PLAN, 135_500, 500) is None
    assert costs.special_assessment(PLAN, 135_000, D("2027-08-05"), 500) is True
    assert costs.special_assessment(PLAN, 135_500, D("2027-08-05"), 500) is False
    assert costs.special_assessment([], 0, D("2027-08-05"), 500) is False


def test_installments_from_one_to_the_most():
    assert costs.installments(100_000, 1, D("2027-06-04"), TERMS) == [
        Installment(1, D("2027-06-04"), 100_000)
    ]
    assert len(costs.installments(100_000, 12, D("2027-06-04"), TERMS)) == 12
    for count in (0, 13):
        with pytest.raises(ValueError, match=f"^from 1 to 12 payments, not {count}$"):
            costs.installments(100_000, count, D("2027-06-04"), TERMS)
    quarterly = dataclasses.replace(TERMS, installment_months=3)
    assert [i.due for i in costs.installments(90_000, 3, D("2027-01-31"), quarterly)] == [
        D("2027-01-31"), D("2027-04-30"), D("2027-07-31"),
    ]  # fmt: skip


# $1,350 in three, on 4 June, 4 July and 4 August 2027. Paid on the dates: 123 days on $1,350
# to 3 June ($40.94); 30 days on $940.94 to 3 July ($6.96); 31 days on $497.90 to 3 August
# ($3.81): $51.71. After the last due date: the interest to today on what is left.
LAST_DUE = [
    ("nothing paid yet, on the first due date", [], "2027-06-04", 5_171),
    ("the first paid on its date", [("2027-06-04", 45_000)], "2027-06-05", 5_171),
    ("the first unpaid a day late: paid today", [], "2027-06-05", 5_182),
    ("the second a day late", [("2027-06-04", 45_000)], "2027-07-05", 5_181),
    ("a payment after today is not yet made", [("2027-06-10", 45_000)], "2027-06-04", 5_171),
    ("on the last due date, nothing paid: 184 days to 3 August", [], "2027-08-04", 6_125),
    ("after the last due date, nothing paid: 186 days on $1,350", [], "2027-08-05", 6_192),
    ("after the last due date, the first paid", [("2027-06-04", 45_000)], "2027-08-05", 5_556),
]


@pytest.mark.parametrize(
    ("why", "payments", "today", "interest"), LAST_DUE, ids=[r[0] for r in LAST_DUE]
)
def test_interest_to_last_due(why, payments, today, interest):
    made = [(D(d), c) for d, c in payments]
    assert costs.interest_to_last_due(135_000, DONE, made, PLAN, D(today), TERMS) == interest


def test_no_schedule_carries_no_interest():
    assert costs.interest_to_last_due(135_000, DONE, [], [], D("2027-08-05"), TERMS) == 0


def test_same_day_payments_keep_their_order():
    found = costs.account(
        100_000, DONE, [(D("2027-01-20"), 30_000), (D("2027-01-20"), 10_000)], D("2027-01-31"),
        TERMS,
    )  # fmt: skip
    assert [(line.what, line.cents, line.charge_after) for line in found.lines] == [
        ("Payment", 30_000, 70_000),
        ("Payment", 10_000, 60_000),
        ("Interest to date", 0, 60_000),
    ]


def test_charge_first_then_the_interest_then_an_overpayment():
    terms = dataclasses.replace(TERMS, payments_apply_to="charge-first")
    found = costs.account(100_000, DONE, [(D("2027-03-03"), 120_000)], D("2027-03-03"), terms)
    assert found.lines[0] == Line(D("2027-03-03"), "Payment", 120_000, 740, 740, 100_000, 0, 0)
    assert (found.overpaid, found.paid_to_charge, found.balance) == (19_260, 100_000, 0)
