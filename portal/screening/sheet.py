"""The dry-weather screening field sheet, after the Center for Watershed Protection's Outfall
Reconnaissance Inventory (IDDE Guidance Manual, 2004): the weather, the flow, the physical
indicators (each with its severity, 1 to 3, as the inventory form grades them), optional
field tests with their units, photos, and the overall call."""

from __future__ import annotations

from typing import Any

from flask import current_app
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    DateTimeLocalField,
    DecimalField,
    HiddenField,
    MultipleFileField,
    SelectField,
    StringField,
)
from wtforms.validators import (
    DataRequired,
    InputRequired,
    Length,
    NumberRange,
    Optional,
    StopValidation,
)

from portal.core.clock import local_now
from portal.core.display import date_words
from portal.intake.fields import choice, long_text, options
from portal.screening import ori
from portal.screening.ori import INDICATORS

FLOWS = [
    ("none", "No flow"),
    ("trickle", "Trickle"),
    ("moderate", "Moderate"),
    ("substantial", "Substantial"),
]
# The overall characterization, with the inventory's own definitions.
OVERALL = [
    ("unlikely", "Unlikely"),
    ("potential", "Potential (two or more indicators)"),
    ("suspect", "Suspect (one or more indicators with a severity of 3)"),
    ("obvious", "Obvious (a non-stormwater flow seen: illicit unless the case finds it exempt)"),
]
FOLLOW_UP = ("suspect", "obvious")
# The first input of each group of radio buttons or checkboxes: where the error summary's
# link for the group goes.
TARGETS = {
    name: f"{name}-0"
    for name in (
        "flow",
        "overall",
        "land_use",
        "submerged_water",
        "submerged_sediment",
        "pool_quality",
        "benthic_growth",
        "flow_trap",
    )
}
SEVERITY = [("", "—"), ("1", "1 (faint)"), ("2", "2 (easily seen or smelt)"), ("3", "3 (strong)")]


# Field tests: (label with its unit, low, high). Units are fixed, and said with each value.
TESTS: dict[str, tuple[str, float, float]] = {
    "temperature_f": ("Water temperature (°F)", 20, 120),
    "ph": ("pH (standard units)", 0, 14),
    "ammonia_mg_l": ("Ammonia (mg/L as N)", 0, 1000),
    "chlorine_mg_l": ("Total chlorine (mg/L)", 0, 1000),
    "detergents_mg_l": ("Detergents, as surfactants (mg/L as MBAS)", 0, 1000),
}
UNITS = {
    "temperature_f": "°F",
    "ph": "",
    "ammonia_mg_l": "mg/L",
    "chlorine_mg_l": "mg/L",
    "detergents_mg_l": "mg/L",
}


class _Number(DecimalField):
    """A decimal whose refusal is said in the sheet's words, not WTForms' own."""

    def __init__(self, *args: Any, message: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.message = message

    def process_formdata(self, valuelist: list) -> None:
        try:
            super().process_formdata(valuelist)
        except ValueError:
            raise ValueError(self.message) from None


def _number(label: str, low: float, high: float) -> DecimalField:
    message = f"Enter a number from {low:g} to {high:g}, or leave it empty."

    def finite(form: object, field: DecimalField) -> None:
        # "NaN" and "sNaN" parse as decimals, and comparing sNaN raises: refused first.
        if field.data is not None and not field.data.is_finite():
            raise StopValidation(message)

    return _Number(label, [Optional(), finite, NumberRange(low, high, message)], message=message)


def _indicator(name: str) -> SelectField:
    label, kinds, _ = INDICATORS[name]
    return SelectField(label, choices=options(kinds), default="none")


class SheetForm(FlaskForm):
    """One screening, as the officer types it at the outfall."""

    screened_at = DateTimeLocalField(
        "Date and time",
        [InputRequired("Enter when the outfall was screened.")],
        format=["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S"],
    )
    inspector = StringField("Screened by", [DataRequired("Say who screened."), Length(max=200)])
    hours_since_rain = _number("Hours since the last rain", 0, 100_000)
    rain_inches = _number("How much it rained (inches)", 0, 50)
    air_temperature_f = _number("Air temperature (°F)", -40, 120)
    land_use = ori.land_use()
    known_industries = ori.known_industries()
    submerged_water = ori.submerged("Submerged in water")
    submerged_sediment = ori.submerged("Submerged in sediment")
    flow = choice("Is water flowing?", FLOWS, required="Say whether water was flowing.")
    flow_gpm = _number("Flow, estimated (gallons a minute)", 0, 100_000)
    flow_volume_l = _number(*ori.MEASURES["flow_volume_l"])
    flow_fill_s = _number(*ori.MEASURES["flow_fill_s"])
    flow_depth_in = _number(*ori.MEASURES["flow_depth_in"])
    flow_width_ft = _number(*ori.MEASURES["flow_width_ft"])
    flow_length_ft = _number(*ori.MEASURES["flow_length_ft"])
    flow_travel_s = _number(*ori.MEASURES["flow_travel_s"])
    odor = _indicator("odor")
    odor_severity = SelectField("Odor severity", choices=options(SEVERITY), default="")
    color = _indicator("color")
    color_severity = SelectField("Colour severity", choices=options(SEVERITY), default="")
    turbidity = _indicator("turbidity")
    floatables = _indicator("floatables")
    floatables_severity = SelectField("Floatables severity", choices=options(SEVERITY), default="")
    deposits = _indicator("deposits")
    staining = _indicator("staining")
    vegetation = _indicator("vegetation")
    damage = _indicator("damage")
    pool_quality = ori.pool_quality()
    benthic_growth = ori.benthic_growth()
    temperature_f = _number(*TESTS["temperature_f"])
    ph = _number(*TESTS["ph"])
    ammonia_mg_l = _number(*TESTS["ammonia_mg_l"])
    chlorine_mg_l = _number(*TESTS["chlorine_mg_l"])
    detergents_mg_l = _number(*TESTS["detergents_mg_l"])
    notes = long_text("Notes", 4000)
    flow_trap = ori.flow_trap()
    overall = choice("Overall call", OVERALL, required="Choose the overall call.")
    # Asked when the call is lower than what was seen (ori.call_problem), and kept.
    call_reason = long_text("Why the call is lower than what was seen", 1000)
    # Asked only of a sheet made in wet weather (content/outfalls.yaml, dry_weather_hours):
    # saved as a wet-weather visit once the officer says so.
    wet_ok = BooleanField("Save it as a wet-weather visit")
    photos = MultipleFileField("Photos")
    # The sheet's key (a sheet sent twice is one screening) and photos kept from a refused try.
    sheet_key = HiddenField()
    kept_photos = HiddenField()

    def validate(self, extra_validators=None) -> bool:
        valid = super().validate(extra_validators)
        now = local_now().replace(tzinfo=None)
        earliest = settings().earliest_screening
        if self.screened_at.data and self.screened_at.data > now:
            self.screened_at.errors = ["The screening cannot be in the future."]
            valid = False
        elif self.screened_at.data and self.screened_at.data.date() < earliest:
            self.screened_at.errors = [
                f"The screening cannot be before {date_words(earliest)}"
                " (the earliest day the sheet takes): check the year."
            ]
            valid = False
        if self.wet() and not self.wet_ok.data:
            self.wet_ok.errors = [self.wet_words()]
            valid = False
        for name in ("odor", "color", "floatables"):
            kind, severity = getattr(self, name), getattr(self, f"{name}_severity")
            if kind.data not in (None, "", "none") and not severity.data:
                severity.errors = [f"Grade the {kind.label.text.lower()} from 1 to 3."]
                valid = False
            elif kind.data in (None, "", "none") and severity.data:
                severity.errors = [f"No {kind.label.text.lower()} was chosen: leave this at —."]
                valid = False
        if self.flow.data == "none" and self.flow_gpm.data:
            self.flow_gpm.errors = ["No flow was chosen: leave the estimate empty."]
            valid = False
        valid = ori.check_measures(self) and valid
        valid = ori.check_flowing_only(self) and valid
        problem = ori.call_problem(
            self.overall.data,
            self.observations(),
            self.pool_quality.data or [],
            self.benthic_growth.data or [],
        )
        if problem and not self.call_reason.data and not self.overall.errors:
            self.overall.errors = [problem]
            valid = False
        return valid

    def wet(self) -> bool:
        """Made in wet weather (as typed; False while the hours are not a number)."""
        hours, inches = self.hours_since_rain.data, self.rain_inches.data
        if self.hours_since_rain.errors or self.rain_inches.errors:
            return False
        return settings().wet_weather(
            None if hours is None else float(hours), None if inches is None else float(inches)
        )

    def wet_words(self) -> str:
        """What the sheet says of a wet-weather visit, before it is saved."""
        rule = settings()
        return (
            f"Fewer than {rule.dry_weather_hours} hours after a rain of more than"
            f" {rule.dry_weather_rain_inches:g} inch is wet weather (our reading): the visit is"
            " kept, but not counted as a dry-weather screening. Tick the box to save it as a"
            " wet-weather visit, or correct the hours."
        )

    def observations(self) -> dict[str, Any]:
        """What the sheet saw, as stored (JSON): indicators not seen are left out."""
        found: dict[str, Any] = {}
        for name in INDICATORS:
            kind = getattr(self, name).data
            if kind and kind != "none":
                found[name] = kind
                severity = getattr(self, f"{name}_severity", None)
                # A value off the list is refused by the field; it is never read as a grade.
                if severity is not None and severity.data in ("1", "2", "3"):
                    found[f"{name}_severity"] = int(severity.data)
        for name in ("flow_gpm", *ori.MEASURES, *TESTS):
            value = getattr(self, name).data
            # Not finite: refused by its field (the call is checked on a refused sheet too).
            if value is not None and value.is_finite():
                found[name] = float(value)
        return found


def settings() -> Any:
    """content/outfalls.yaml's settings (dry weather, the earliest day)."""
    return current_app.extensions["outfalls"]


def indicator_lines(observations: dict[str, Any]) -> list[str]:
    """The indicators seen, in words: "Odor: sewage (severity 3)"."""
    lines = []
    for name, (label, kinds, _) in INDICATORS.items():
        kind = observations.get(name)
        if not kind:
            continue
        words = dict(kinds).get(kind, kind)
        severity = ori.severity_of(observations, name)
        lines.append(f"{label}: {words.lower()}" + (f" (severity {severity})" if severity else ""))
    return lines


def test_lines(observations: dict[str, Any]) -> list[str]:
    """The field tests taken, with their units: "pH (standard units): 7.2"."""
    return [
        f"{label}: {observations[name]:g}"
        for name, (label, _, _) in TESTS.items()
        if name in observations
    ]


class CorrectionForm(SheetForm):
    """A saved screening's fields corrected, with the reason (its audit log keeps both)."""

    photos = None
    sheet_key = None
    kept_photos = None
    reason = long_text("Why it is corrected", 2000, required="Say why it is corrected.")


class VoidForm(FlaskForm):
    """A screening voided: kept and shown, marked void, out of the rotation and the counts."""

    reason = long_text("Why it is voided", 2000, required="Say why it is voided.")
