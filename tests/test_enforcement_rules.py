"""The enforcement rules, table by table, each quoting the ordinance (seed
../shared/seed/000_0b78526a750a8462.txt, line numbers as in facts.md). Dates are worked out
by hand from a calendar, with New York's holidays as content/site.yaml keeps them."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from content_model.enforcement import Terms
from portal.core.deadlines import BusinessCalendar
from portal.enforcement import costs, readings, rules

D = dt.date.fromisoformat
TERMS = Terms()


@pytest.fixture(scope="module")
def calendar(content):
    return BusinessCalendar(content.settings.holidays)


def test_the_default_terms_are_the_ones_in_content():
    from content_model.enforcement import load_enforcement
    from content_model.loader import load_content

    assert load_enforcement(load_content().ordinance).terms == TERMS


# Seed 194: "may appeal ... to the Village Board of Trustees within 15 days of its issuance"
APPEAL = [
    ("2027-03-01", "2027-03-16", "Monday + 15 calendar days: a Tuesday"),
    ("2027-02-14", "2027-03-01", "across the end of a common February"),
    ("2028-02-14", "2028-02-29", "leap year: ends on 29 February"),
    ("2027-03-05", "2027-03-22", "ends on Saturday 20 March: runs to Monday (GCL § 25-a)"),
    ("2026-12-10", "2026-12-28", "ends on Christmas Day (a Friday): runs to Monday"),
    ("2027-06-19", "2027-07-06", "ends Sunday 4 July, kept Monday 5 July: runs to Tuesday"),
    ("2027-01-31", "2027-02-16", "from a month's end; ends on Washington's Birthday (15 Feb)"),
    (
        "2027-01-28",
        "2027-02-16",
        "ends on Lincoln's Birthday (Friday), then a weekend and a holiday",
    ),
]


@pytest.mark.parametrize(("issued", "due", "why"), APPEAL, ids=[row[2] for row in APPEAL])
def test_appeal_window(calendar, issued, due, why):
    assert rules.appeal_window(D(issued), TERMS, calendar) == D(due)


def test_appeal_window_readings(calendar):
    no_roll = dataclasses.replace(TERMS, roll_to_business_day=False)
    assert rules.appeal_window(D("2027-03-05"), no_roll, calendar) == D("2027-03-20")
    business = dataclasses.replace(TERMS, day_kind="business")
    # 15 business days after Monday 1 March 2027: 2-5, 8-12, 15-19, 22 March.
    assert rules.appeal_window(D("2027-03-01"), business, calendar) == D("2027-03-22")


# Seed 194: "which shall hear the appeal within 30 days after the filing of the appeal"
HEARING = [
    ("2027-03-10", "2027-04-09", "a Friday"),
    ("2028-01-31", "2028-03-01", "through a leap February"),
    ("2027-01-31", "2027-03-02", "through a common February"),
    ("2027-10-07", "2027-11-08", "ends Saturday 6 November: runs to Monday"),
]


@pytest.mark.parametrize(("filed", "due", "why"), HEARING, ids=[row[2] for row in HEARING])
def test_hearing_due(calendar, filed, due, why):
    assert rules.hearing_due(D(filed), TERMS, calendar) == D(due)


# Seed 194: "within five days of making its decision, file its decision in the office of the
# Village Clerk and mail a copy of its decision by certified mail to the discharger"
FILING = [
    ("2027-04-01", "2027-04-06", "a Tuesday"),
    ("2027-04-05", "2027-04-12", "ends Saturday 10 April: runs to Monday"),
    ("2027-11-06", "2027-11-12", "ends on Veterans' Day (Thursday): runs to Friday"),
]


@pytest.mark.parametrize(("decided", "due", "why"), FILING, ids=[row[2] for row in FILING])
def test_decision_filing_due(calendar, decided, due, why):
    assert rules.decision_filing_due(D(decided), TERMS, calendar) == D(due)


# Seed 196: "If the violation has not been corrected pursuant to the requirements set forth in
# the notice of violation, or, in the event of an appeal, within five business days of the
# decision of the Village Board of Trustees upholding the decision of the SMO"
CORRECTION = [
    ("no appeal: the notice's deadline", "2027-03-31", None, None, None, "2027-03-31"),
    ("no appeal and no deadline", None, None, None, None, None),
    ("appeal waiting for its decision: held", "2027-03-31", "2027-03-10", None, None, None),
    (
        "upheld on a Monday: the next Monday",
        "2027-03-31",
        "2027-03-10",
        "2027-04-05",
        True,
        "2027-04-12",
    ),
    (
        "upheld on a Friday, Veterans' Day in the week",
        "2027-10-29",
        "2027-10-20",
        "2027-11-05",
        True,
        "2027-11-15",
    ),
    (
        "upheld the Monday of Thanksgiving week",
        "2027-11-19",
        "2027-11-01",
        "2027-11-22",
        True,
        "2027-11-30",
    ),
    (
        "upheld before Christmas on a Saturday (not moved)",
        "2027-12-20",
        "2027-12-01",
        "2027-12-23",
        True,
        "2027-12-30",
    ),
    (
        "upheld on 28 February of a leap year",
        "2028-02-25",
        "2028-02-01",
        "2028-02-28",
        True,
        "2028-03-06",
    ),
    (
        "upheld, no deadline in the notice: the five days",
        None,
        "2027-03-10",
        "2027-04-05",
        True,
        "2027-04-12",
    ),
    ("not upheld: nothing to correct", "2027-03-31", "2027-03-10", "2027-04-05", False, None),
    # The notice gave until 31 March 2027; the Board upheld it on
    # Monday 1 March, five business days before 8 March. The appeal does not shorten it.
    (
        "upheld early: the notice's own later deadline stands",
        "2027-03-31",
        "2027-02-10",
        "2027-03-01",
        True,
        "2027-03-31",
    ),
    (
        "upheld on the deadline's eve: the five days run past it",
        "2027-03-31",
        "2027-02-10",
        "2027-03-30",
        True,
        "2027-04-06",
    ),
]


@pytest.mark.parametrize(
    ("why", "deadline", "filed", "decided", "upheld", "due"),
    CORRECTION,
    ids=[r[0] for r in CORRECTION],
)
def test_correction_due(calendar, why, deadline, filed, decided, upheld, due):
    appeal = rules.Appeal(filed and D(filed), decided and D(decided), upheld)
    found = rules.correction_due(deadline and D(deadline), appeal, TERMS, calendar)
    assert found == (due and D(due))


def test_the_literal_reading_takes_the_five_days_alone(calendar):
    # Reading correction_after_appeal "decision": the review's March 8, 2027.
    literal = dataclasses.replace(TERMS, correction_after_appeal="decision")
    appeal = rules.Appeal(D("2027-02-10"), D("2027-03-01"), True)
    assert rules.correction_due(D("2027-03-31"), appeal, literal, calendar) == D("2027-03-08")
    # And the weeks of continued violation to an abatement on 15 March: one, against none.
    assert rules.weeks_continued(D("2027-03-08"), D("2027-03-15"), TERMS) == 1
    assert rules.weeks_continued(D("2027-03-31"), D("2027-03-15"), TERMS) == 0


def test_an_appeal_need_not_hold_the_deadline(calendar):
    terms = dataclasses.replace(TERMS, appeal_suspends_deadline=False)
    appeal = rules.Appeal(D("2027-03-10"))
    assert rules.correction_due(D("2027-03-31"), appeal, terms, calendar) == D("2027-03-31")


# Seed 194: "within 15 days of its issuance". Issued Thursday 28 January
# 2027, the window closed Tuesday 16 February (Lincoln's Birthday and Washington's Birthday);
# an appeal logged 26 February holds nothing.
@pytest.mark.parametrize(
    ("filed", "in_time"), [("2027-02-16", True), ("2027-02-17", False), ("2027-02-26", False)]
)
def test_only_an_appeal_in_time_holds_the_deadline(calendar, filed, in_time):
    assert rules.appeal_in_time(D("2027-01-28"), D(filed), TERMS, calendar) is in_time
    appeal = rules.Appeal(D(filed), timely=in_time)
    held = rules.correction_due(D("2027-03-31"), appeal, TERMS, calendar)
    assert held == (None if in_time else D("2027-03-31"))
    # A late appeal the Board decides all the same (without accepting it): the deadline stands.
    decided = rules.Appeal(D(filed), D("2027-03-29"), True, timely=in_time)
    expected = "2027-04-05" if in_time else "2027-03-31"
    assert rules.correction_due(D("2027-03-31"), decided, TERMS, calendar) == D(expected)


# A deadline on a day the office is
# closed, or on or before the last day to appeal, is pointed out (a warning, not a refusal).
WARNINGS = [
    (
        "issued 10 Dec 2026; Sunday 27 Dec, before the window (Christmas: 28 Dec) closes",
        "2026-12-10",
        "2026-12-27",
        [("closed", "2026-12-27", "Sunday"), ("before-appeal", "2026-12-28", "")],
    ),
    (
        "on Christmas Day 2026",
        "2026-11-02",
        "2026-12-25",
        [("closed", "2026-12-25", "Christmas Day")],
    ),
    (
        "the walk: issued 30 Nov 2026, deadline 14 Dec, window 15 Dec",
        "2026-11-30",
        "2026-12-14",
        [("before-appeal", "2026-12-15", "")],
    ),
    ("on the window's last day", "2026-11-30", "2026-12-15", [("before-appeal", "2026-12-15", "")]),
    ("the day after the window, a Wednesday", "2026-11-30", "2026-12-16", []),
]


@pytest.mark.parametrize(
    ("why", "issued", "deadline", "expected"), WARNINGS, ids=[w[0] for w in WARNINGS]
)
def test_deadline_warnings(calendar, why, issued, deadline, expected):
    found = rules.deadline_warnings(D(deadline), D(issued), TERMS, calendar)
    assert [(w.kind, w.day.isoformat(), w.name) for w in found] == expected
    assert rules.deadline_warnings(None, D(issued), TERMS, calendar) == []


# Seed 173: "Each week's continued violation shall constitute a separate additional violation."
WEEKS = [
    ("2027-03-05", 0, 0),
    ("2027-03-06", 0, 1),
    ("2027-03-11", 0, 1),
    ("2027-03-12", 1, 1),
    ("2027-03-13", 1, 2),
    ("2027-03-19", 2, 2),
    ("2027-01-01", 0, 0),
]


@pytest.mark.parametrize(("today", "completed", "begun"), WEEKS)
def test_weeks_of_continued_violation(today, completed, begun):
    correction = D("2027-03-05")
    assert rules.weeks_continued(correction, D(today), TERMS) == completed
    begun_terms = dataclasses.replace(TERMS, week_counting="begun")
    assert rules.weeks_continued(correction, D(today), begun_terms) == begun
    assert rules.weeks_continued(None, D(today), TERMS) == 0


# Seed 173: "a fine of not less than $50 but not exceeding $350 for conviction of a first
# offense; for conviction of a second offense, both of which were committed within a period of
# five years, ... not less than $350 nor more than $700 or imprisonment for a period not to
# exceed 15 days, or both; and upon conviction for a third or subsequent offense, all of which
# were committed within a period of five years, ... not less than $700 nor more than $1,000"
OFFENSES = [
    ("first offense", "2027-02-26", [], 1, 5_000, 35_000, 0),
    ("second, just inside five years", "2027-02-26", ["2022-02-27"], 2, 35_000, 70_000, 15),
    (
        "second, just outside (the fifth anniversary)",
        "2027-02-26",
        ["2022-02-26"],
        1,
        5_000,
        35_000,
        0,
    ),
    ("leap day: inside the day before 28 Feb", "2029-02-27", ["2024-02-29"], 2, 35_000, 70_000, 15),
    ("leap day: its anniversary is 28 Feb", "2029-02-28", ["2024-02-29"], 1, 5_000, 35_000, 0),
    ("third", "2027-12-31", ["2023-01-01", "2025-06-01"], 3, 70_000, 100_000, 15),
    (
        "fourth: still the third range",
        "2027-12-31",
        ["2023-01-01", "2025-06-01", "2026-01-01"],
        4,
        70_000,
        100_000,
        15,
    ),
    (
        "an old one does not count",
        "2027-02-26",
        ["2020-01-01", "2024-01-01"],
        2,
        35_000,
        70_000,
        15,
    ),
    (
        "a later record does not count",
        "2027-02-26",
        ["2028-01-01", "2027-02-26"],
        1,
        5_000,
        35_000,
        0,
    ),
]


def test_only_established_violations_count():
    # The earlier violations of 2023 and 2025 are within five years, but the
    # Board did not uphold one notice and the other violation never had one: a first offense.
    earlier = [
        rules.Prior(
            D("2023-04-15"),
            "IDR-2026-0006 (NOV-2026-0002)",
            False,
            "NOV-2026-0002 not upheld by the Board",
        ),
        rules.Prior(D("2025-08-20"), "IDR-2026-0010", False, "no notice of violation issued"),
        rules.Prior(D("2021-06-01"), "paper file: 21-0147", True),
    ]
    count = rules.offense_number(D("2026-11-29"), earlier, TERMS)
    assert count.number == 1 and count.tier.maximum_cents == 35_000
    assert [(e.committed.isoformat(), e.counted, e.why) for e in count.earlier] == [
        ("2025-08-20", False, "no notice of violation issued"),
        ("2023-04-15", False, "NOV-2026-0002 not upheld by the Board"),
        ("2021-06-01", False, "5 years or more before"),
    ]
    # Established notices count only by the reading that counts them; convictions always.
    upheld = [rules.Prior(D("2023-04-15"), "NOV-2026-0002"), rules.Prior(D("2025-08-20"), "x")]
    final = dataclasses.replace(TERMS, offense_counts="final")
    assert rules.offense_number(D("2026-11-29"), upheld, final).number == 3
    assert rules.offense_number(D("2026-11-29"), upheld, TERMS).number == 1


@pytest.mark.parametrize(
    ("why", "committed", "earlier", "number", "low", "high", "jail"),
    OFFENSES,
    ids=[r[0] for r in OFFENSES],
)
def test_offense_number_and_range(why, committed, earlier, number, low, high, jail):
    convictions = [rules.Prior(D(e), f"case {e}", convicted=True) for e in earlier]
    count = rules.offense_number(D(committed), convictions, TERMS)
    assert count.number == number
    assert (count.tier.minimum_cents, count.tier.maximum_cents, count.tier.jail_days) == (
        low,
        high,
        jail,
    )
    assert sum(e.counted for e in count.earlier) == number - 1
    assert all(e.why for e in count.earlier), "every earlier offense says why it counts or not"


# Seed 175-185: alternative remedies "where: (1) The violation was unintentional; (2) ... no
# history ...; (3) Environmental damage was minimal; (4) ... acted quickly ...; (5) ... cooperated"
@pytest.mark.parametrize(
    ("conditions", "all_", "any_"),
    [
        ([True] * 5, True, True),
        ([True, True, False, True, True], False, True),
        ([False] * 5, False, False),
    ],
)
def test_alternative_remedy_conditions(conditions, all_, any_):
    assert rules.remedies_eligible(conditions, TERMS) is all_
    assert (
        rules.remedies_eligible(conditions, dataclasses.replace(TERMS, conditions_required="any"))
        is any_
    )


# Seed 175: "upon recommendation of the Village Attorney and concurrence of the ... SMO, where"
# the conditions hold.
REFUSALS = [
    ("all recorded", True, True, [True] * 5, 0, []),
    ("no recommendation", False, True, [True] * 5, 0, ["no recommendation is recorded"]),
    ("no concurrence", True, False, [True] * 5, 0, ["the officer's concurrence is not recorded"]),
    ("not answered", True, None, [True] * 5, 0, ["the officer's concurrence is not recorded"]),
    (
        "a condition not ticked",
        True,
        True,
        [True, True, False, True, True],
        0,
        ["the conditions do not hold as recorded"],
    ),
    (
        "no history ticked against two established violations",
        True,
        True,
        [True] * 5,
        2,
        [
            "the offense history shows 2 earlier established violations, so the condition of no"
            " history cannot hold",
            "the conditions do not hold as recorded",
        ],
    ),
    (
        "history, and the no-history box left unticked",
        True,
        True,
        [True, False, True, True, True],
        1,
        ["the conditions do not hold as recorded"],
    ),
]


@pytest.mark.parametrize(
    ("why", "recommended", "concurs", "conditions", "history", "expected"),
    REFUSALS,
    ids=[r[0] for r in REFUSALS],
)
def test_what_stops_an_alternative_remedy(why, recommended, concurs, conditions, history, expected):
    assert rules.remedy_refusals(recommended, concurs, conditions, history, 1, TERMS) == expected


# Seed 199: "Within 30 days after abatement of the violation, the owner of the property will be
# notified of the cost of abatement, including administrative costs."
COST_NOTICE = [
    ("2027-05-03", "2027-06-02"),
    ("2028-01-30", "2028-02-29"),
    ("2027-01-30", "2027-03-01"),
    ("2027-06-04", "2027-07-06"),  # 4 July: a Sunday, kept on Monday 5 July
]


@pytest.mark.parametrize(("completed", "due"), COST_NOTICE)
def test_cost_notice_due(calendar, completed, due):
    assert costs.cost_notice_due(D(completed), TERMS, calendar) == D(due)


# Seed 199: "The property owner may file a written protest ... within 30 days of receiving
# notification of the cost of the abatement."
def test_protest_window_runs_from_receipt(calendar):
    assert costs.protest_window(D("2027-05-03"), D("2027-05-05"), TERMS, calendar) == (
        D("2027-06-04"),
        False,
    )
    # Receipt not recorded: presumed 5 days after mailing (8 May), so 7 June (a Monday).
    assert costs.protest_window(D("2027-05-03"), None, TERMS, calendar) == (D("2027-06-07"), True)
    mailing = dataclasses.replace(TERMS, protest_runs_from="mailing")
    assert costs.protest_window(D("2027-05-03"), D("2027-05-20"), mailing, calendar) == (
        D("2027-06-02"),
        False,
    )


# Seed 199: "Interest ... beginning on the 31st day following completion of the abatement."
@pytest.mark.parametrize(
    ("completed", "starts"),
    [
        ("2027-05-03", "2027-06-03"),
        ("2028-01-31", "2028-03-02"),
        ("2027-01-31", "2027-03-03"),
        ("2027-12-15", "2028-01-15"),
    ],
)
def test_interest_starts_on_the_31st_day(completed, starts):
    assert costs.interest_starts(D(completed), TERMS) == D(starts)


@pytest.mark.parametrize(
    ("day", "n", "expected"),
    [
        ("2027-01-31", 1, "2027-02-28"),
        ("2028-01-31", 1, "2028-02-29"),
        ("2027-01-31", 2, "2027-03-31"),
        ("2027-12-31", 1, "2028-01-31"),
        ("2027-05-15", 12, "2028-05-15"),
    ],
)
def test_add_months_keeps_month_ends(day, n, expected):
    assert costs.add_months(D(day), n) == D(expected)


# Seed 199: "The liability shall be paid in not more than 12 equal payments."
def test_installments_are_equal_to_the_cent():
    plan = costs.installments(135_000, 3, D("2027-01-31"), TERMS)
    assert [(i.number, i.due, i.cents) for i in plan] == [
        (1, D("2027-01-31"), 45_000),
        (2, D("2027-02-28"), 45_000),
        (3, D("2027-03-31"), 45_000),
    ]
    twelve = costs.installments(100_000, 12, D("2027-01-31"), TERMS)
    assert sum(i.cents for i in twelve) == 100_000 and twelve[0].cents == 8_337
    assert {i.cents for i in twelve[1:]} == {8_333}
    with pytest.raises(ValueError):
        costs.installments(100_000, 13, D("2027-01-31"), TERMS)


# Seed 199: "Interest at the rate of 9% per annum shall be assessed on the balance beginning on
# the 31st day following completion of the abatement." $1,000 completed 1 January 2027:
# interest from 1 February; a day's interest on $1,000 is 9% / 365 = 24.66 cents.
ACCOUNT = [
    ("nothing paid, before interest", [], "2027-01-31", 0, 100_000),
    ("nothing paid, one day of interest", [], "2027-02-01", 25, 100_025),
    ("nothing paid, 30 days (1 Feb - 2 Mar)", [], "2027-03-02", 740, 100_740),
    (
        "nothing paid, a year into a leap January: 334/365 + 31/366 of 9%",
        [],
        "2028-01-31",
        8_998,
        108_998,
    ),
    ("paid in full early", [("2027-01-20", 100_000)], "2027-12-31", 0, 0),
    (
        "paid on the 31st day: that day's interest stopped",
        [("2027-02-01", 100_000)],
        "2027-03-01",
        0,
        0,
    ),
    ("half paid early, a year on the rest", [("2027-01-20", 50_000)], "2028-01-31", 4_499, 54_499),
    ("paid late: the interest first", [("2027-03-03", 100_000)], "2027-03-03", 740, 740),
    (
        "partial and late, then a month",
        [("2027-03-03", 50_000)],
        "2027-04-02",
        740 + 388,
        50_740 + 388,
    ),
    (
        "a payment after the statement date is left out",
        [("2027-05-01", 100_000)],
        "2027-03-02",
        740,
        100_740,
    ),
]


@pytest.mark.parametrize(
    ("why", "payments", "as_of", "interest", "balance"), ACCOUNT, ids=[r[0] for r in ACCOUNT]
)
def test_account_interest_and_balance(why, payments, as_of, interest, balance):
    found = costs.account(
        100_000, D("2027-01-01"), [(D(d), c) for d, c in payments], D(as_of), TERMS
    )
    assert (found.interest_total, found.balance) == (interest, balance)


# "9% per annum" on a leap year. $1,100 completed 1 December 2026,
# interest from 1 January 2027 (the 31st day), nothing paid.
@pytest.mark.parametrize(
    ("as_of", "actual", "fixed_365"),
    [("2027-12-31", 9_900, 9_900), ("2028-12-31", 19_800, 19_827), ("2028-02-29", 11_523, 11_527)],
)
def test_interest_counts_the_days_of_each_year(as_of, actual, fixed_365):
    # To 29 Feb 2028: 9% of $1,100 for 2027 ($99.00) and 60/366 of it for 2028 ($16.23); on a
    # 365-day year, 425/365 of it ($115.27). A fixed year stays a reading the Board may adopt.
    found = costs.account(110_000, D("2026-12-01"), [], D(as_of), TERMS)
    assert found.interest_total == actual
    fixed = dataclasses.replace(TERMS, interest_days_in_year=365)
    assert costs.account(110_000, D("2026-12-01"), [], D(as_of), fixed).interest_total == fixed_365


def test_year_fraction_splits_at_the_new_year():
    from fractions import Fraction

    assert costs.year_fraction(D("2027-12-31"), D("2028-01-01"), None) == Fraction(
        1, 365
    ) + Fraction(1, 366)
    assert costs.year_fraction(D("2028-01-01"), D("2028-12-31"), None) == 1
    assert costs.year_fraction(D("2028-01-01"), D("2028-12-31"), 365) == Fraction(366, 365)


def test_payments_applied_to_the_charge_first():
    terms = dataclasses.replace(TERMS, payments_apply_to="charge-first")
    found = costs.account(
        100_000, D("2027-01-01"), [(D("2027-03-03"), 50_000)], D("2027-04-02"), terms
    )
    # $740 interest to 2 March stays owed; 31 days on the $500 left: $3.82.
    assert (found.charge_due, found.interest_due) == (50_000, 740 + 382)


def test_an_overpayment_is_kept_apart():
    found = costs.account(
        100_000, D("2027-01-01"), [(D("2027-01-10"), 120_000)], D("2027-06-01"), TERMS
    )
    assert (found.balance, found.overpaid, found.paid) == (0, 20_000, 120_000)


# Seed 199: "If the amount due is not paid within a timely manner ... the charges shall become a
# special assessment against the property ... Any unpaid abatement charges shall be added to
# the tax bill for the subject property."
@pytest.mark.parametrize(
    ("paid", "today", "next_number", "assessed"),
    [
        (0, "2027-06-04", 1, False),
        (0, "2027-06-05", 1, True),
        (45_000, "2027-06-05", 2, False),
        (44_999, "2027-06-05", 1, True),
        (135_000, "2028-01-01", None, False),
    ],
)
def test_next_installment_and_special_assessment(paid, today, next_number, assessed):
    plan = costs.installments(135_000, 3, D("2027-06-04"), TERMS)
    found = costs.next_installment(plan, paid)
    assert (found.number if found else None) == next_number
    assert costs.special_assessment(plan, paid, D(today)) is assessed


# Seed 199: the charges become a special assessment "if the amount due is not paid within a
# timely manner as determined by the decision of the Village Board of Trustees or by the
# expiration of the time in which to file a protest".
@pytest.mark.parametrize(
    ("why", "filed", "board", "first"),
    [
        ("no protest: when the protest period closes", None, None, "2027-04-21"),
        ("a protest in time, not yet decided: nothing is due", "2027-04-05", None, None),
        ("a protest on the last day", "2027-04-21", None, None),
        ("decided: the day the Board sets", "2027-04-05", "2027-06-01", "2027-06-01"),
        ("a protest after the period: when the period closed", "2027-04-22", None, "2027-04-21"),
    ],
)
def test_the_first_payment_waits_for_a_protest(why, filed, board, first):
    found = costs.first_payment_due(D("2027-04-21"), filed and D(filed), board and D(board))
    assert found == (first and D(first))


def test_installment_states():
    plan = costs.installments(135_000, 3, D("2027-06-04"), TERMS)
    states = costs.installment_states(plan, 50_000, D("2027-07-05"))
    assert [(s.paid, s.left, s.past_due) for s in states] == [
        (45_000, 0, False),
        (5_000, 40_000, True),
        (0, 45_000, False),
    ]


@pytest.mark.parametrize(
    ("amount", "cents"), [("1/2", 1), ("149/100", 1), ("3/2", 2), ("-1/2", -1), ("0", 0)]
)
def test_round_cents_half_up(amount, cents):
    from fractions import Fraction

    assert costs.round_cents(Fraction(amount)) == cents


def test_every_reading_is_said_in_words():
    words = readings.readings(TERMS)
    assert {"days", "protest", "weeks", "conditions", "interest"} <= set(words)
    assert "calendar days" in words["days"] and "receipt" in words["protest"]
    other = readings.readings(
        dataclasses.replace(TERMS, day_kind="business", protest_runs_from="mailing")
    )
    assert "business days" in other["days"] and "mailing" in other["protest"]
    # When an appeal counts as filed, the correction after an upheld
    # appeal, the interest year and issuance, each said in words, in both readings.
    assert "reaches the clerk" in words["issuance"] and "served or mailed" in words["issuance"]
    assert "later of the notice's own deadline" in words["suspend"]
    assert "366 in a leap year" in words["interest"]
    assert "only when a conviction of it is recorded" in words["offenses"]
    assert "until the Board decides it" in words["installments"]
    changed = readings.readings(
        dataclasses.replace(
            TERMS,
            appeal_filed_when="postmarked",
            correction_after_appeal="decision",
            interest_days_in_year=365,
        )
    )
    assert "postmark" in changed["issuance"]
    assert "5 business days after the decision." in changed["suspend"]
    assert "a year of 365 days" in changed["interest"]
    assert not any("216" in text for text in words.values()), "sections come from content"


def test_an_installment_due_on_a_holiday_runs_to_the_next_business_day(calendar):
    # Monthly from Friday 4 June 2027: 4 July is a Sunday, kept Monday 5 July: Tuesday 6 July.
    plan = costs.installments(135_000, 3, D("2027-06-04"), TERMS, calendar)
    assert [i.due for i in plan] == [D("2027-06-04"), D("2027-07-06"), D("2027-08-04")]
