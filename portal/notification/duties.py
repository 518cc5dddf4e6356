"""What the release notification section still asks of a filer, from their answers and from
what is recorded: the one place the review page, the receipt, the case page and the mail read
it from. Templates only word what these functions decide.

Seed 153: "as soon as any person ... has information of any known or suspected release of
materials which are resulting or may result in illegal discharges or pollutants discharging
into the MS4, ... In the event of such a release of hazardous materials, said person shall
immediately notify emergency response agencies of the occurrence via emergency dispatch
services. In addition, such person shall notify the [municipality] ... no later than the next
business day." Every duty attaches to "such a release": one that reaches or may reach the
storm sewer system.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from content_model.site import OnlineFiling
from portal.notification import compliance
from portal.notification.records import record_duty, state_call_missing

# Our reading where the filer is not sure (content: release_duties_reading, said on the page):
# "Not sure" is the safe side, a material that may be hazardous and a release that may reach
# the system. Only "No" to the drain question takes a release out of the section, and only to
# "may not require": the filer's word, not a finding.
MAY_BE_HAZARDOUS = ("yes", "unsure")
NOT_REACHING = "no"
NOT_SURE = "unsure"


def may_reach_system(answers: Any) -> bool:
    """Whether the release is one the section speaks of, from the form's "Did it enter, or
    could it enter, a storm drain, ditch or stream?": every answer but "No" (went in, may
    still go in, not sure). `answers`: the form's data or the stored row."""
    return answers["reached_drain"] != NOT_REACHING


def emergency_call_outstanding(answers: Any) -> bool:
    """Whether the section's immediate call to emergency responders (911) is owed and the
    filer did not say it was made: a material that is or may be hazardous, a release that
    reaches or may reach the system, and 911 not called."""
    return (
        answers["hazardous"] in MAY_BE_HAZARDOUS
        and may_reach_system(answers)
        and answers["emergency_called"] != "yes"
    )


def record_words(facility_kind: str, answers: Any) -> str:
    """How the facility's on-site written record is put to this filer: "required" (a
    commercial or industrial source whose release may reach the system), "maybe" (the kind
    does not tell), "advised" (a release that could not reach the system: the section may not
    require it, we advise it) or "no" (a home the filer lives in)."""
    duty = record_duty(facility_kind)
    if duty == "no":
        return "no"
    if not may_reach_system(answers):
        return "advised"
    return "required" if duty == "yes" else "maybe"


@dataclass(frozen=True)
class StillToDo:
    """The "Still to do" list, item by item, in the order a filer reads it."""

    emergency_call: bool  # first: the immediate 911 call, not made
    state_call: dict[str, bool] | None  # the State's Spill Hotline, which parts
    notice: Any  # the notice's Deadline while no notice is given, else None
    confirm_after_telling: bool  # "then confirm a notice given in person ... in writing"
    confirmation: Any  # an open written confirmation's Deadline, else None
    record: str  # record_words
    advised_only: bool  # the release could not reach the system: advice, not the law
    late: bool  # a deadline of the section has passed
    reading: bool  # what the list says rests on our reading (content: release_duties_reading)

    @property
    def anything(self) -> bool:
        """Whether there is a list at all (the record alone makes none)."""
        return bool(self.emergency_call or self.state_call or self.notice or self.confirmation)

    @property
    def nothing_due(self) -> str | None:
        """What may be said when there is no list: "record" (nothing more is due but keeping
        the record), "all", or None (never while anything is outstanding)."""
        if self.anything:
            return None
        return "record" if self.record == "required" else "all"


def still_to_do(deadlines: list[Any], answers: Any, online: OnlineFiling) -> StillToDo:
    """What is left, from the deadlines (notification.deadlines' Deadline objects) and the
    filer's answers (the form's data or the stored row)."""
    notice = next(d for d in deadlines if d.key == "notice")
    open_confirmations = [d for d in deadlines if d.key == "confirmation" and not d.done_at]
    confirmation = open_confirmations[0] if open_confirmations else None
    to_tell = notice if not notice.done_at else None
    advised_only = not may_reach_system(answers)
    emergency_call = emergency_call_outstanding(answers)
    unsure = NOT_SURE in (answers["hazardous"], answers["reached_drain"])
    return StillToDo(
        emergency_call=emergency_call,
        state_call=state_call_missing(answers),
        notice=to_tell,
        confirm_after_telling=bool(to_tell) and not compliance.filing_can_confirm(online),
        confirmation=confirmation,
        record=record_words(answers["facility_kind"], answers),
        advised_only=advised_only,
        late=not advised_only
        and bool((to_tell and to_tell.late) or (confirmation and confirmation.late)),
        reading=advised_only or (emergency_call and unsure),
    )
