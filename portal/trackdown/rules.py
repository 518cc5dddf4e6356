"""Track-down's checks, each testable alone: a sample's chain of custody in time order, a lab
value as the lab writes it, and the dates a source was found and its discharge eliminated.
Each answers with the message shown beside the field (None or {}: nothing wrong)."""

from __future__ import annotations

import datetime as dt
import re

from portal.core.display import day, when
from portal.trackdown.choices import ACCESS_NOTES_NEEDED

PAST_DAY = "Enter a date that has passed (today at the latest)."
# The lab's way of writing a value: a number, below or above what it can measure ("<0.1").
LAB_VALUE = re.compile(r"^(<=|>=|<|>|≤|≥)?\s*(-?\d+(?:\.\d+)?|-?\.\d+)$")
LAB_VALUE_HELP = (
    "Enter the lab's value as a number, like 0.25, or as it wrote it, like <0.1, ND (not"
    " detected), Present or Absent."
)
# The lab's words for a value that is not a number, as stored: "not detected" for a test with
# a reporting limit the lab did not give, and presence/absence tests (E. coli by Colilert,
# coliforms), which report no count at all.
LAB_WORDS: dict[str, str] = {
    "nd": "ND",
    "notdetected": "ND",
    "nondetect": "ND",
    "present": "Present",
    "positive": "Present",
    "detected": "Present",
    "absent": "Absent",
    "negative": "Absent",
    "tntc": "TNTC",  # too numerous to count: a plate with more colonies than can be counted
}


def custody_problems(
    collected_at: dt.datetime | None,
    relinquished_to: str | None,
    relinquished_at: dt.datetime | None,
    received_by: str | None,
    received_at: dt.datetime | None,
) -> dict[str, str]:
    """A sample's hand-overs, field by field: each hand-over names whom and when, and the
    sample is collected, handed over and received by the lab in that order."""
    problems: dict[str, str] = {}
    if relinquished_to and not relinquished_at:
        problems["relinquished_at"] = "Enter when it was handed over."
    if relinquished_at and not relinquished_to:
        problems["relinquished_to"] = "Say whom it was handed to (the courier or the lab)."
    if received_by and not received_at:
        problems["received_at"] = "Enter when the lab received it."
    if received_at and not received_by:
        problems["received_by"] = "Say who at the lab received it."
    if collected_at and relinquished_at and relinquished_at < collected_at:
        problems["relinquished_at"] = (
            f"It cannot be handed over before it was collected ({when(collected_at)})."
        )
    earlier = relinquished_at or collected_at
    if earlier and received_at and received_at < earlier:
        what = "handed over" if relinquished_at else "collected"
        problems["received_at"] = (
            f"The lab cannot receive it before it was {what} ({when(earlier)})."
        )
    return problems


# Our reading, as a check on typing: a step is done to trace a case's discharge, so one dated
# more than this before the case was opened is a mistyped year (a 2019 step on a 2026 case),
# not a step of this case.
EARLIEST_BEFORE_CASE = dt.timedelta(days=365)


def before_case(done_at: str, received_at: str) -> bool:
    """A step dated before its case was opened: kept (the field work may come before the case
    is typed), but said beside the step, so a mistyped time shows (officer's week F6). Both
    are compared as the local wall clock reads them."""

    def wall(value: str) -> dt.datetime:
        return dt.datetime.fromisoformat(value).replace(tzinfo=None)

    return wall(done_at) < wall(received_at)


def before_case_problem(done_on: dt.date, opened_on: dt.date) -> str | None:
    """A step's (or a sample's) day: at most a year before its case was opened."""
    if done_on < opened_on - EARLIEST_BEFORE_CASE:
        return (
            f"That is more than a year before this case was opened ({day(opened_on)}):"
            " check the year."
        )
    return None


def access_problems(access: str | None, notes: str | None) -> dict[str, str]:
    """How a step got onto private property: consent, a warrant or a refusal names who, or
    which court (the access section: the officer enters with consent; refused, a warrant)."""
    if access in ACCESS_NOTES_NEEDED and not (notes or "").strip():
        return {"access_notes": ACCESS_NOTES_NEEDED[access]}
    if notes and not access:
        return {"access": "Choose how the officer got onto the property, or clear the details."}
    return {}


def dye_notice_problems(
    kind: str | None,
    done_at: dt.datetime | None,
    notice_at: dt.datetime | None,
    notice_by: str | None,
) -> dict[str, str]:
    """The verbal notice before a dye test (the exemptions section allows dye testing "but
    requires a verbal notification to the SMO prior to the time of the test"): only on a dye
    test, with who gave it, and before the test."""
    if not (notice_at or notice_by):
        return {}
    if kind != "dye":
        return {"dye_notice_at": "Only a dye test has a notice before it: clear this."}
    problems = {}
    if notice_at and not notice_by:
        problems["dye_notice_by"] = "Say who gave the notice (the person running the test)."
    if notice_by and not notice_at:
        problems["dye_notice_at"] = "Enter when the notice was given."
    if notice_at and done_at and notice_at > done_at:
        problems["dye_notice_at"] = (
            f"The notice must come before the test ({when(done_at)}), not after it."
        )
    return problems


def lab_value(parameter: str, typed: str) -> str:
    """The lab's value as stored ("< 0.1" -> "<0.1", "1,200" -> "1200"); ValueError, with the
    message to show, for anything else."""
    text = (typed or "").strip().replace(",", "").replace(" ", "")
    word = LAB_WORDS.get(text.casefold().replace("-", "").replace(".", ""))
    if word:
        return word
    match = LAB_VALUE.match(text)
    if not match:
        raise ValueError(LAB_VALUE_HELP)
    sign = {"≤": "<=", "≥": ">="}.get(match.group(1) or "", match.group(1) or "")
    number = float(match.group(2))
    if number < 0 and parameter != "temperature":
        raise ValueError("Only a temperature can be below zero.")
    if parameter == "ph" and not 0 <= number <= 14:
        raise ValueError("A pH is between 0 and 14.")
    return f"{sign}{match.group(2)}"


def found_problem(
    found_on: dt.date, today: dt.date, eliminated_on: dt.date | None = None
) -> str | None:
    """The day a source was found: not in the future, nor after its discharge was eliminated."""
    if found_on > today:
        return PAST_DAY
    if eliminated_on and found_on > eliminated_on:
        return (
            f"The discharge is recorded as eliminated on {day(eliminated_on)}: the source"
            " cannot have been found after that."
        )
    return None


def elimination_problem(eliminated_on: dt.date, found_on: dt.date, today: dt.date) -> str | None:
    """The day a discharge was eliminated: not in the future, nor before its source was found."""
    if eliminated_on > today:
        return PAST_DAY
    if eliminated_on < found_on:
        return f"It cannot be eliminated before the source was found ({day(found_on)})."
    return None
