"""Track-down's forms: an investigation step (with a sample's chain of custody), a sample's
lab results, the source found (with its respondent) and its elimination. Each says what is
wrong beside the field and keeps what was typed; the checks themselves are in rules.py."""

from __future__ import annotations

import datetime as dt
from typing import Any

from flask_wtf import FlaskForm
from wtforms import FieldList, Form, FormField, SelectField
from wtforms.validators import DataRequired, Optional

from portal.core.clock import local_now
from portal.enforcement.forms import ContactFields, Day
from portal.intake.fields import choice, coordinate_field, long_text, moment, options, text
from portal.trackdown import rules
from portal.trackdown.choices import (
    ACCESS,
    ELIMINATION_METHODS,
    NOTES_NEEDED,
    OTHER_PARAMETER,
    PARAMETERS,
    RESULTS,
    STEP_KINDS,
    parameter_choices,
)
from portal.trackdown.schema import CUSTODY_COLUMNS, STEP_COLUMNS

FUTURE = "It cannot be in the future."
# Every field of a step (a sample's chain of custody, CUSTODY_COLUMNS, only on a sample).
STEP_FIELDS = tuple("structure" if name == "structure_code" else name for name in STEP_COLUMNS)
# Blank result rows on the results form (more are added by saving and coming back).
RESULT_ROWS = 5


def _add_error(field: Any, message: str) -> None:
    field.errors = [*field.errors, message]


class StepForm(FlaskForm):
    """One investigation step; a sample's chain of custody below it."""

    clock = staticmethod(local_now)  # "now" for the not-in-the-future checks
    # The day the case was opened (set by the view): a step long before it is a typing slip.
    opened_on: dt.date | None = None

    kind = choice("What was done", list(STEP_KINDS.items()), required="Choose what was done.")
    done_at = moment("Date and time it was done", "Enter when it was done.", FUTURE)
    done_by = text("Who did it", 200, required="Say who did it.")
    structure = text("Structure id", 40)
    location = text("Street or manhole", 300)
    findings = long_text("What was found", 4000, required="Describe what was found.")
    result = choice("Result", list(RESULTS.items()), required="Choose the result.")
    sample_id = text("Sample id", 60)
    collected_by = text("Collected by", 200)
    collected_at = moment("Collected at", future=FUTURE)
    relinquished_to = text("Handed over to (the courier or the lab)", 200)
    relinquished_at = moment("Handed over at", future=FUTURE)
    received_by = text("Received at the lab by", 200)
    received_at = moment("Received by the lab at", future=FUTURE)
    lab_name = text("Lab", 200)
    lab_reference = text("Lab reference", 100)
    access = choice("How the officer got onto the property", list(ACCESS.items()))
    access_notes = text("Access details", 300)
    dye_notice_at = moment("Notice given at", future=FUTURE)
    dye_notice_by = text("Notice given by", 200)

    def validate(self, extra_validators: Any = None) -> bool:
        fine = super().validate(extra_validators)
        if not (self.structure.data or self.location.data):
            _add_error(self.structure, "Enter the structure's id, or the street or manhole.")
            fine = False
        for name in ("done_at", "collected_at"):
            moment_typed = self[name].data
            if self.opened_on and isinstance(moment_typed, dt.datetime) and not self[name].errors:
                problem = rules.before_case_problem(moment_typed.date(), self.opened_on)
                if problem:
                    _add_error(self[name], problem)
                    fine = False
        for name, message in rules.access_problems(
            self.access.data, self.access_notes.data
        ).items():
            _add_error(self[name], message)
            fine = False
        for name, message in rules.dye_notice_problems(
            self.kind.data, self.done_at.data, self.dye_notice_at.data, self.dye_notice_by.data
        ).items():
            _add_error(self[name], message)
            fine = False
        filled = [name for name in CUSTODY_COLUMNS if self[name].data]
        if self.kind.data == "sample":
            if not self.sample_id.data:
                _add_error(
                    self.sample_id,
                    "Give the sample's id, as on its bottle and its chain-of-custody form.",
                )
                fine = False
            problems = rules.custody_problems(
                self.collected_at.data or self.done_at.data,
                self.relinquished_to.data,
                self.relinquished_at.data,
                self.received_by.data,
                self.received_at.data,
            )
            for name, message in problems.items():
                _add_error(self[name], message)
            fine = fine and not problems
        elif filled and self.kind.data:
            _add_error(
                self[filled[0]],
                "Only a sample has a chain of custody: choose “Sample taken” above, or clear this.",
            )
            fine = False
        return fine

    def values(self) -> dict[str, Any]:
        """What the step holds, as stored: times to the minute, a sample's collection
        defaulting to who did the step and when."""
        found = {name: self[name].data or None for name in STEP_FIELDS}
        if found["kind"] == "sample":
            found["collected_by"] = found["collected_by"] or found["done_by"]
            found["collected_at"] = found["collected_at"] or found["done_at"]
        for name, value in found.items():
            if isinstance(value, dt.datetime):
                found[name] = value.isoformat(timespec="minutes")
        return found


class RemoveStepForm(FlaskForm):
    """Taking a step recorded in error off the case: why, for the case's log."""

    reason = text("Why remove it", 300, required="Say why it is removed (for the case's log).")


class ResultRow(Form):
    """One parameter the lab reported (a row of the results form)."""

    parameter = SelectField(
        "Parameter", choices=options(parameter_choices()), validate_choice=False
    )
    other = text("Other parameter", 100)
    value = text("Value", 40)
    unit = text("Unit", 40)

    def empty(self) -> bool:
        return not any(field.data for field in self)

    def validate(self, extra_validators: Any = None) -> bool:
        fine = super().validate(extra_validators)
        if self.empty():
            return fine
        known = {key for key, _ in parameter_choices() if key}
        if self.parameter.data not in known:
            message = (
                "Choose the parameter." if not self.parameter.data else "Choose from the list."
            )
            _add_error(self.parameter, message)
        elif self.parameter.data == OTHER_PARAMETER and not self.other.data:
            _add_error(self.other, "Name the parameter.")
        elif self.parameter.data != OTHER_PARAMETER and self.other.data:
            _add_error(self.other, "Choose “Other” to name a parameter, or clear this.")
        if not self.value.data:
            _add_error(self.value, "Enter the value the lab reported.")
        elif not self.value.errors:
            try:
                self.value.data = rules.lab_value(self.parameter.data, self.value.data)
            except ValueError as error:
                _add_error(self.value, str(error))
        return not any(field.errors for field in self)

    def result(self) -> dict[str, Any]:
        """The row as stored: the parameter's words, and its usual unit unless another is given
        (none for a value in words, ND or Present, unless one is typed)."""
        key = self.parameter.data
        name, unit = PARAMETERS.get(key, (self.other.data, None))
        in_words = self.value.data in rules.LAB_WORDS.values()
        return {
            "parameter": key,
            "name": name,
            "value": self.value.data,
            "unit": self.unit.data or (None if in_words else unit) or None,
        }


class ResultsForm(FlaskForm):
    """A sample's results as the lab reported them, a few rows at a time."""

    reported_on = Day("Date the lab reported", [Optional()])
    results = FieldList(FormField(ResultRow), min_entries=RESULT_ROWS, max_entries=RESULT_ROWS)
    # The sample step's result, said with its results (without it a sample stayed
    # "Waiting for results" after they came in): optional, as the results may come in parts.
    shows = choice(
        "What the results show (the step's result)",
        [("", "Leave the step's result as it is")]
        + [(key, words) for key, words in RESULTS.items() if key != "pending"],
    )
    # The day the sample was collected (set by the view): the lab cannot report before it.
    collected_on: dt.date | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for number, row in enumerate(self.results, start=1):
            for field in row.form:
                field.label.text = f"{field.label.text} {number}"

    def validate(self, extra_validators: Any = None) -> bool:
        fine = super().validate(extra_validators)
        if all(row.form.empty() for row in self.results):
            _add_error(self.results[0].form.parameter, "Enter at least one result.")
            fine = False
        reported = self.reported_on.data
        if isinstance(reported, dt.date):
            if reported > local_now().date():
                _add_error(self.reported_on, rules.PAST_DAY)
                fine = False
            elif self.collected_on and reported < self.collected_on:
                _add_error(
                    self.reported_on, "The lab cannot report before the sample was collected."
                )
                fine = False
        return fine

    def fields(self) -> list[Any]:
        """Every input, row by row (for the error summary)."""
        return [
            self.reported_on,
            *(field for row in self.results for field in row.form),
            self.shows,
        ]

    def rows(self) -> list[dict[str, Any]]:
        return [row.form.result() for row in self.results if not row.form.empty()]


class SourceForm(ContactFields, FlaskForm):
    """The source found: when, what, where, and whom enforcement would be against."""

    found_on = Day("Date the source was found", [DataRequired("Enter the date it was found.")])
    description = long_text("What the source is", 1000, required="Say what the source is.")
    address = text(
        "Property or place", 300, required="Enter the property's address, or where the source is."
    )
    latitude = coordinate_field("Latitude", -90, 90)
    longitude = coordinate_field("Longitude", -180, 180)
    parcel_id = text("Tax parcel id", 40)
    respondent = SelectField("A respondent on record", validate_choice=False)
    # Set by the view: the day the discharge was eliminated, if it was.
    eliminated_on: dt.date | None = None

    def validate(self, extra_validators: Any = None) -> bool:
        fine = super().validate(extra_validators)
        found = self.found_on.data
        if isinstance(found, dt.date):
            problem = rules.found_problem(found, local_now().date(), self.eliminated_on)
            if problem:
                _add_error(self.found_on, problem)
                fine = False
        for one, other, name in (
            (self.latitude, self.longitude, "longitude"),
            (self.longitude, self.latitude, "latitude"),
        ):
            if one.data is not None and other.data is None and not other.errors:
                _add_error(other, f"Enter the {name} too, or neither.")
                fine = False
        chosen = self.respondent.data or ""
        typed = any(
            self[name].data for name in ("name", "mailing_address", "phone", "email", "role")
        )
        if chosen and chosen not in {value for value, _ in self.respondent.choices}:
            _add_error(self.respondent, "Choose a respondent from the list.")
            fine = False
        elif chosen and typed:
            _add_error(
                self.name,
                "A respondent is chosen above: clear these details, or"
                " choose none above to add a new one.",
            )
            fine = False
        elif not chosen and typed:
            for field, message in (
                (self.name, "Enter the respondent's name."),
                (self.mailing_address, "Enter their mailing address."),
            ):
                if not field.data:
                    _add_error(field, message)
                    fine = False
        return fine

    def values(self) -> dict[str, Any]:
        names = ("found_on", "description", "address", "latitude", "longitude", "parcel_id")
        found = {name: self[name].data for name in names}
        found["found_on"] = found["found_on"].isoformat()
        return {name: value if value != "" else None for name, value in found.items()}

    def respondent_id(self) -> int | None:
        return int(self.respondent.data) if self.respondent.data else None

    def new_respondent(self) -> dict[str, Any] | None:
        """A respondent to add from the details typed (None: none typed)."""
        return self.contact() if self.name.data else None


class EliminationForm(FlaskForm):
    """The day the discharge was eliminated, and how."""

    eliminated_on = Day(
        "Date the discharge was eliminated",
        [DataRequired("Enter the date the discharge was eliminated.")],
    )
    elimination_method = choice(
        "How it was eliminated",
        list(ELIMINATION_METHODS.items()),
        required="Choose how it was eliminated.",
    )
    elimination_notes = long_text("Notes on the elimination", 2000)
    # Set by the view: the day the source was found.
    found_on: dt.date | None = None

    def validate(self, extra_validators: Any = None) -> bool:
        fine = super().validate(extra_validators)
        eliminated = self.eliminated_on.data
        if isinstance(eliminated, dt.date) and self.found_on:
            problem = rules.elimination_problem(eliminated, self.found_on, local_now().date())
            if problem:
                _add_error(self.eliminated_on, problem)
                fine = False
        needed = NOTES_NEEDED.get(self.elimination_method.data or "")
        if needed and not self.elimination_notes.data:
            _add_error(self.elimination_notes, needed)
            fine = False
        return fine

    def values(self) -> dict[str, Any]:
        return {
            "eliminated_on": self.eliminated_on.data.isoformat(),
            "elimination_method": self.elimination_method.data,
            "elimination_notes": self.elimination_notes.data or None,
        }
