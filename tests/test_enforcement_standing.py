"""Whether an issued notice stands, whether an appeal holds, and the offense number's whole
list of earlier offenses with the words each page shows (seed 194 on appeals; seed 170-174 on
penalties "committed within a period of five years"). Pure functions: no app."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from content_model.enforcement import Terms
from portal.core.deadlines import BusinessCalendar
from portal.enforcement import rules
from portal.enforcement.rules import Earlier, Prior

D = dt.date.fromisoformat
TERMS = Terms()
# The reading that counts a final notice as an offense (the default counts only convictions:
# tests/test_enforcement_convictions.py); the window and the list read the same under both.
FINAL = dataclasses.replace(TERMS, offense_counts="final")
ISSUED = D("2027-03-01")  # its appeal period runs to Tuesday 16 March 2027


@pytest.fixture(scope="module")
def calendar(content):
    return BusinessCalendar(content.settings.holidays)


# (why, filed, late_accepted, holds)
HOLDS = [
    ("no appeal holds nothing", None, False, False),
    ("no appeal, even 'accepted'", None, True, False),
    ("filed on the last day", "2027-03-16", False, True),
    ("filed the day after", "2027-03-17", False, False),
    ("late, accepted by the Board", "2027-03-17", True, True),
]


@pytest.mark.parametrize(("why", "filed", "late", "holds"), HOLDS, ids=[r[0] for r in HOLDS])
def test_appeal_holds(calendar, why, filed, late, holds):
    assert rules.appeal_holds(ISSUED, filed and D(filed), late, TERMS, calendar) is holds


# (why, appealed, late_accepted, decided, upheld, today, reading, standing)
STANDING = [
    ("not upheld", "2027-03-10", False, "2027-04-01", False, "2027-04-02", "final",
     ("not", "not upheld by the Board")),
    ("upheld", "2027-03-10", False, "2027-04-01", True, "2027-04-02", "final",
     ("established", "upheld by the Board")),
    ("not upheld, under the 'issued' reading", None, False, "2027-04-01", False, "2027-04-02",
     "issued", ("not", "not upheld by the Board")),
    ("'issued': established as soon as issued", None, False, None, None, "2027-03-01", "issued",
     ("established", "issued, not overturned")),
    ("an undecided appeal with no verdict yet", None, False, None, False, "2027-03-17",
     "final", ("established", "not appealed in time")),
    ("appealed in time: awaits the Board", "2027-03-16", False, None, None, "2027-05-01",
     "final", ("pending", "its appeal awaits the Board")),
    ("appealed late, accepted", "2027-03-20", True, None, None, "2027-05-01", "final",
     ("pending", "its appeal awaits the Board")),
    ("appealed late, not accepted", "2027-03-20", False, None, None, "2027-05-01", "final",
     ("established", "not appealed in time")),
    ("no appeal, the period's last day", None, False, None, None, "2027-03-16", "final",
     ("pending", "the appeal period runs until March 16, 2027")),
    ("no appeal, issued today", None, False, None, None, "2027-03-01", "final",
     ("pending", "the appeal period runs until March 16, 2027")),
    ("no appeal, the day after the period", None, False, None, None, "2027-03-17", "final",
     ("established", "not appealed in time")),
]  # fmt: skip


@pytest.mark.parametrize(
    ("why", "appealed", "late", "decided", "upheld", "today", "reading", "standing"),
    STANDING,
    ids=[r[0] for r in STANDING],
)
def test_notice_standing(calendar, why, appealed, late, decided, upheld, today, reading, standing):
    terms = dataclasses.replace(TERMS, offense_counts=reading)
    found = rules.notice_standing(
        ISSUED, appealed and D(appealed), late, decided and D(decided), upheld, D(today), terms,
        calendar,
    )  # fmt: skip
    assert found == standing


COMMITTED = D("2026-11-29")

# (why, earlier offenses, the whole list of Earlier, number, pending)
OFFENSES = [
    (
        "same day and later records never count",
        [Prior(D("2026-11-29"), "A"), Prior(D("2027-01-01"), "B")],
        [
            Earlier(D("2027-01-01"), False, "not before this violation", "B"),
            Earlier(D("2026-11-29"), False, "not before this violation", "A"),
        ],
        1,
        0,
    ),
    (
        "the fifth anniversary is outside, the day after it inside",
        [Prior(D("2021-11-29"), "old"), Prior(D("2021-11-30"), "recent")],
        [
            Earlier(D("2021-11-30"), True, "within 5 years", "recent"),
            Earlier(D("2021-11-29"), False, "5 years or more before", "old"),
        ],
        2,
        0,
    ),
    (
        "a pending notice is listed apart, with its why",
        [Prior(D("2026-10-01"), "NOV-1", False, "its appeal awaits the Board", True)],
        [
            Earlier(
                D("2026-10-01"),
                False,
                "not yet established: its appeal awaits the Board",
                "NOV-1",
                True,
            )
        ],
        1,
        1,
    ),
    (
        "not established, with and without a why",
        [
            Prior(D("2025-01-01"), "IDR-1", False, "no notice of violation issued"),
            Prior(D("2024-01-01"), "IDR-2", False),
        ],
        [
            Earlier(D("2025-01-01"), False, "no notice of violation issued", "IDR-1"),
            Earlier(D("2024-01-01"), False, "not established", "IDR-2"),
        ],
        1,
        0,
    ),
    (
        "counted with and without a note; same day sorted by label, last first",
        [
            Prior(D("2024-05-01"), "a", True, "conviction in the paper files"),
            Prior(D("2024-05-01"), "b"),
            (D("2023-05-01"), "tuple"),
        ],
        [
            Earlier(D("2024-05-01"), True, "within 5 years", "b"),
            Earlier(D("2024-05-01"), True, "within 5 years; conviction in the paper files", "a"),
            Earlier(D("2023-05-01"), True, "within 5 years", "tuple"),
        ],
        4,
        0,
    ),
]


@pytest.mark.parametrize(
    ("why", "earlier", "listed", "number", "pending"), OFFENSES, ids=[r[0] for r in OFFENSES]
)
def test_offense_number_lists_every_earlier_offense(why, earlier, listed, number, pending):
    count = rules.offense_number(COMMITTED, earlier, FINAL)
    assert list(count.earlier) == listed
    assert (count.number, count.pending) == (number, pending)


def test_a_pending_notice_gives_the_range_if_it_stands():
    earlier = [
        Prior(D("2026-01-01"), "counted"),
        Prior(D("2026-10-01"), "NOV-2", False, "the appeal period runs", True),
    ]
    count = rules.offense_number(COMMITTED, earlier, FINAL)
    assert (count.number, count.pending) == (2, 1)
    assert (count.tier.minimum_cents, count.tier.maximum_cents, count.tier.jail_days) == (
        35_000, 70_000, 15,
    )  # fmt: skip
    assert (count.if_pending.minimum_cents, count.if_pending.maximum_cents) == (70_000, 100_000)
    assert rules.offense_number(COMMITTED, [], FINAL).if_pending is None


@pytest.mark.parametrize(
    ("committed", "counted"),
    [("2029-02-27", True), ("2029-02-28", False), ("2029-03-01", False)],
)
def test_a_leap_day_offense_has_its_anniversary_on_28_february(committed, counted):
    count = rules.offense_number(D(committed), [Prior(D("2024-02-29"), "leap")], FINAL)
    assert [e.counted for e in count.earlier] == [counted]


def test_the_years_come_from_the_terms():
    three = dataclasses.replace(FINAL, offense_years=3)
    count = rules.offense_number(COMMITTED, [Prior(D("2023-11-29"), "x")], three)
    assert count.earlier == (Earlier(D("2023-11-29"), False, "3 years or more before", "x"),)
    count = rules.offense_number(COMMITTED, [Prior(D("2023-11-30"), "y")], three)
    assert count.earlier == (Earlier(D("2023-11-30"), True, "within 3 years", "y"),)


# (why, the earlier violation, reading, what rules.counts says): seed 173 raises the ranges
# "for conviction"; a notice counts only by the readings "final" and "issued".
COUNTS = [
    ("a conviction counts", Prior(D("2025-05-01"), "a", True, "NOV-1 convicted", convicted=True),
     "conviction", ("counted", "NOV-1 convicted")),
    ("a conviction counts by the other reading too", Prior(D("2025-05-01"), "a",
     convicted=True), "final", ("counted", "")),
    ("a final notice is not a conviction", Prior(D("2025-05-01"), "a", True,
     "NOV-1 not appealed in time"), "conviction",
     ("not", "NOV-1 not appealed in time; no conviction recorded")),
    ("a final notice with no why", Prior(D("2025-05-01"), "a"), "conviction",
     ("not", "no conviction recorded")),
    ("a pending notice is not counted, nor shown as pending", Prior(D("2025-05-01"), "a", False,
     "its appeal awaits the Board", True), "conviction",
     ("not", "its appeal awaits the Board; no conviction recorded")),
    ("no notice", Prior(D("2025-05-01"), "a", False, "no notice of violation issued"),
     "conviction", ("not", "no notice of violation issued")),
    ("not established, no why", Prior(D("2025-05-01"), "a", False), "conviction",
     ("not", "not established")),
    ("final: a final notice counts", Prior(D("2025-05-01"), "a", True,
     "NOV-1 not appealed in time"), "final", ("counted", "NOV-1 not appealed in time")),
    ("issued: an issued notice counts", Prior(D("2025-05-01"), "a"), "issued", ("counted", "")),
    ("final: pending", Prior(D("2025-05-01"), "a", False, "its appeal awaits the Board", True),
     "final", ("pending", "its appeal awaits the Board")),
    ("final: not upheld", Prior(D("2025-05-01"), "a", False, "not upheld by the Board"),
     "final", ("not", "not upheld by the Board")),
    ("final: not established, no why", Prior(D("2025-05-01"), "a", False), "issued",
     ("not", "not established")),
]  # fmt: skip


@pytest.mark.parametrize(("why", "prior", "reading", "found"), COUNTS, ids=[r[0] for r in COUNTS])
def test_what_counts_toward_the_offense_number(why, prior, reading, found):
    assert rules.counts(prior, dataclasses.replace(TERMS, offense_counts=reading)) == found


def test_by_default_a_pending_notice_gives_no_range_if_it_stands():
    earlier = [
        Prior(D("2026-01-01"), "NOV-1", True, "NOV-1 not appealed in time"),
        Prior(D("2026-10-01"), "NOV-2", False, "the appeal period runs", True),
        Prior(D("2025-01-01"), "court", True, "convicted", convicted=True),
    ]
    count = rules.offense_number(COMMITTED, earlier, TERMS)
    assert count.earlier == (
        Earlier(D("2026-10-01"), False, "the appeal period runs; no conviction recorded", "NOV-2"),
        Earlier(D("2026-01-01"), False, "NOV-1 not appealed in time; no conviction recorded",
                "NOV-1"),
        Earlier(D("2025-01-01"), True, "within 5 years; convicted", "court"),
    )  # fmt: skip
    assert (count.number, count.pending, count.if_pending) == (2, 0, None)


def test_correction_passed_the_day_after():
    assert rules.correction_passed(D("2027-03-01"), D("2027-03-01")) is False
    assert rules.correction_passed(D("2027-03-01"), D("2027-03-02")) is True
    assert rules.correction_passed(None, D("2027-03-02")) is False


# (history, history_index, conditions, refusals): the condition of no history may sit anywhere.
HISTORY = [
    (1, 0, [True] * 5, ["the offense history shows 1 earlier established violation, so the"
                        " condition of no history cannot hold",
                        "the conditions do not hold as recorded"]),
    (2, 4, [True] * 5, ["the offense history shows 2 earlier established violations, so the"
                        " condition of no history cannot hold",
                        "the conditions do not hold as recorded"]),
    (1, 5, [True] * 5, []),
    (1, -1, [True] * 5, []),
    (0, 0, [True] * 5, []),
]  # fmt: skip


@pytest.mark.parametrize(("history", "index", "conditions", "refusals"), HISTORY)
def test_the_no_history_condition_at_any_index(history, index, conditions, refusals):
    assert rules.remedy_refusals(True, True, conditions, history, index, TERMS) == refusals
