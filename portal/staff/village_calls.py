"""A hazardous case's calls: what the case page prompts the officer to call (911, the State's
spill hotline, from the content's numbers), the calls the municipality itself made (who, when, the
State's spill number), and the hazard flag the officer sets or clears by hand."""

from __future__ import annotations

import json
from typing import Any

import sqlite_utils
from flask import current_app
from flask_wtf import FlaskForm
from wtforms import DateTimeLocalField, SelectField, StringField, TextAreaField
from wtforms.validators import DataRequired, InputRequired, Length, Optional

from portal.accounts.auth import staff_name
from portal.core import kinds
from portal.core.clock import local_now
from portal.core.db import rows
from portal.intake.fields import options
from portal.staff.danger import danger_rank

# cases.hazard_call: what the officer decided, in the words of the form and the log.
FLAG_CHOICES = [
    ("", "As read from what was sent (the content's rules)"),
    ("set", "Hazardous"),
    ("cleared", "Not hazardous"),
]


def called_choices() -> list[tuple[str, str]]:
    """Whom the municipality called, named with the content's numbers (never one of ours)."""
    phones = current_app.extensions["content"].settings.phones
    return [
        ("emergency", f"{phones['emergency'].label}: {phones['emergency'].number}"),
        ("spill_hotline", f"{phones['spill_hotline'].label}: {phones['spill_hotline'].number}"),
        ("other", "Another agency (name it)"),
    ]


class HazardFlagForm(FlaskForm):
    # Prefixed: the case page holds other forms, whose fields must keep their own ids.
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, prefix="hazard", **kwargs)

    hazard_call = SelectField("Hazard flag", choices=options(FLAG_CHOICES))
    reason = TextAreaField("Why (kept in the audit log)", [Optional(), Length(max=1000)])


class VillageCallForm(FlaskForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, prefix="call", **kwargs)

    called = SelectField("Who was called", validate_choice=False)
    other = StringField("Which agency (for another agency)", [Optional(), Length(max=200)])
    called_at = DateTimeLocalField(
        "When the call was made",
        [InputRequired("Enter when the call was made.")],
        format=["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S"],
    )
    called_by = StringField(
        "Who made the call", [DataRequired("Say who made the call."), Length(max=200)]
    )
    spill_number = StringField("The State's spill number", [Optional(), Length(max=40)])
    notes = TextAreaField("What was said", [Optional(), Length(max=2000)])

    def validate(self, extra_validators=None) -> bool:
        valid = super().validate(extra_validators)
        if self.called.data not in {key for key, _ in called_choices()}:
            self.called.errors = ["Choose who was called."]
            valid = False
        elif self.called.data == "other" and not (self.other.data or "").strip():
            self.other.errors = ["Name the agency called."]
            valid = False
        if self.called_at.data and self.called_at.data > local_now().replace(tzinfo=None):
            self.called_at.errors = ["The call cannot be in the future."]
            valid = False
        return valid


def new_call_form() -> VillageCallForm:
    """An empty call form: now, the signed-in officer."""
    form = VillageCallForm(
        data={"called_at": local_now().replace(tzinfo=None, second=0), "called_by": staff_name()}
    )
    form.called.choices = options(called_choices())
    return form


def calls_of(db: sqlite_utils.Database, case_id: int) -> list[dict[str, Any]]:
    return rows(db, "SELECT * FROM village_calls WHERE case_id = ? ORDER BY called_at", [case_id])


def context(
    db: sqlite_utils.Database,
    case: dict[str, Any],
    details: dict[str, Any] | None,
    call_form: VillageCallForm | None = None,
    flag_form: HazardFlagForm | None = None,
) -> dict[str, Any]:
    """What the case page shows of the hazard: why it is hazardous (the officer's flag
    applied), how dangerous, the calls made and the two forms."""
    rules = current_app.extensions["content"].settings.hazard_rules
    hazards = kinds.hazards_of(rules, {**case, "details": details or {}})
    if call_form is None:
        call_form = new_call_form()
    call_form.called.choices = options(called_choices())
    return {
        "hazards": hazards,
        "danger": danger_rank(rules, hazards),
        "hazard_call": case.get("hazard_call"),
        "village_calls": calls_of(db, case["id"]),
        "called_words": dict(called_choices()),
        "call_form": call_form,
        "flag_form": flag_form
        or HazardFlagForm(data={"hazard_call": case.get("hazard_call") or ""}),
    }


def export_values(db: sqlite_utils.Database, case_ids: list[int]) -> dict[int, dict[str, Any]]:
    """For the staff CSV: each case's calls made by staff, and the State's spill number."""
    words = dict(called_choices())
    found: dict[int, dict[str, Any]] = {}
    for call in rows(
        db,
        "SELECT * FROM village_calls WHERE case_id IN (SELECT value FROM json_each(?))"
        " ORDER BY called_at, id",
        [json.dumps(case_ids)],
    ):
        mine = found.setdefault(call["case_id"], {"calls": [], "spill_numbers": []})
        whom = call["other"] or words.get(call["called"], call["called"])
        mine["calls"].append(
            f"{call['called_at'].replace('T', ' ')} {whom}, by {call['called_by']}"
        )
        if call["spill_number"]:
            mine["spill_numbers"].append(call["spill_number"])
    return {
        case_id: {
            "triage_calls": "; ".join(mine["calls"]),
            "triage_spill_numbers": "; ".join(mine["spill_numbers"]) or None,
        }
        for case_id, mine in found.items()
    }


FLAG_WORDS = {"set": "Hazardous", "cleared": "Not hazardous"}
# The staff CSV's columns (after the kinds' own): the officer's flag, the calls, the number.
EXPORT_COLUMNS: tuple[tuple[str, Any], ...] = (
    ("Hazard flag set by staff", lambda c: FLAG_WORDS.get(c.get("hazard_call") or "")),
    ("Calls made by staff", lambda c: c.get("triage_calls")),
    ("Spill number the State gave staff", lambda c: c.get("triage_spill_numbers")),
)
