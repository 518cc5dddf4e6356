"""The parts of the Center for Watershed Protection's Outfall Reconnaissance Inventory field
sheet (IDDE Guidance Manual, 2004, Appendix D) that sheet.py's first version left out: the air
temperature and the land use (section 1), whether the outfall is submerged (2), the flow
measured two ways with the flow computed (3), poor pool quality and pipe benthic growth (5),
an intermittent flow trap (7); and the check of the overall call (6) against what was seen."""

from __future__ import annotations

import json
from typing import Any

from portal.intake.fields import CheckboxesField, choice, options, text

# Each indicator: its kinds (the first, "none", means not seen) and whether it has a severity.
INDICATORS: dict[str, tuple[str, list[tuple[str, str]], bool]] = {
    "odor": (
        "Odor",
        [
            ("none", "None"),
            ("sewage", "Sewage"),
            ("sulfide", "Sulfide (rotten eggs)"),
            ("rancid", "Rancid or sour"),
            ("petroleum", "Petroleum or gas"),
            ("other", "Other"),
        ],
        True,
    ),
    "color": (
        "Colour",
        [
            ("none", "Clear or none"),
            ("brown", "Brown"),
            ("gray", "Gray"),
            ("yellow", "Yellow"),
            ("green", "Green"),
            ("orange", "Orange"),
            ("red", "Red"),
            ("other", "Other"),
        ],
        True,
    ),
    "turbidity": (
        "Turbidity",
        [
            ("none", "None"),
            ("slight", "Slight cloudiness"),
            ("cloudy", "Cloudy"),
            ("opaque", "Opaque"),
        ],
        False,
    ),
    "floatables": (
        "Floatables",
        [
            ("none", "None"),
            ("sewage", "Sewage (toilet paper and the like)"),
            ("suds", "Suds"),
            ("petroleum", "Petroleum (oil sheen)"),
            ("other", "Other"),
        ],
        True,
    ),
    "deposits": (
        "Deposits",
        [
            ("none", "None"),
            ("sediment", "Sediment"),
            ("oily", "Oily"),
            ("solids", "Solids or trash"),
            ("other", "Other"),
        ],
        False,
    ),
    "staining": (
        "Staining",
        [
            ("none", "None"),
            ("flow-line", "Flow line"),
            ("oily", "Oily"),
            ("paint", "Paint"),
            ("rust", "Rust"),
            ("other", "Other"),
        ],
        False,
    ),
    "vegetation": (
        "Vegetation",
        [
            ("none", "Normal"),
            ("excessive", "Excessive growth"),
            ("inhibited", "Inhibited growth"),
        ],
        False,
    ),
    "damage": (
        "Damage to the outfall",
        [
            ("none", "None"),
            ("cracking", "Spalling, cracking or chipping"),
            ("paint", "Peeling paint"),
            ("corrosion", "Corrosion"),
            ("other", "Other"),
        ],
        False,
    ),
}

# Turbidity's grades are its severity: slight 1, cloudy 2, opaque 3.
TURBIDITY_SEVERITY = {"slight": 1, "cloudy": 2, "opaque": 3}

LAND_USES = [
    ("industrial", "Industrial"),
    ("ultra-urban", "Ultra-urban residential"),
    ("suburban", "Suburban residential"),
    ("commercial", "Commercial"),
    ("open-space", "Open space"),
    ("institutional", "Institutional"),
    ("other", "Other"),
]
SUBMERGED = [("no", "No"), ("partly", "Partly"), ("fully", "Fully")]
POOL_QUALITY = [
    ("odors", "Odors"),
    ("colors", "Colors"),
    ("floatables", "Floatables"),
    ("sheen", "Oil sheen"),
    ("suds", "Suds"),
    ("algae", "Excessive algae"),
    ("other", "Other"),
]
BENTHIC_GROWTH = [("brown", "Brown"), ("orange", "Orange"), ("green", "Green"), ("other", "Other")]
FLOW_TRAPS = [
    ("none", "None set"),
    ("obm", "Optical brightener monitoring (OBM) trap"),
    ("caulk-dam", "Caulk dam"),
]
# The lists kept as JSON in a column of their own: NULL is a sheet made before the field was
# on it ("Not recorded"), [] a sheet on which nothing was ticked.
LISTS = {"land_use": LAND_USES, "pool_quality": POOL_QUALITY, "benthic_growth": BENTHIC_GROWTH}

# The measured flow, section 3, in the units the sheet asks them in.
# Flow #1, volumetric: a known volume (liters) and the seconds it takes to fill.
# Flow #2, velocity: the flow's depth (inches), width (feet), and the seconds a float takes
# to travel a measured length (feet).
MEASURES: dict[str, tuple[str, float, float]] = {
    "flow_volume_l": ("Volume collected (liters)", 0, 1000),
    "flow_fill_s": ("Time to fill (seconds)", 0.1, 3600),
    "flow_depth_in": ("Depth of the flow (inches)", 0, 240),
    "flow_width_ft": ("Width of the flow (feet)", 0, 500),
    "flow_length_ft": ("Length measured (feet)", 0.1, 1000),
    "flow_travel_s": ("Time of travel over that length (seconds)", 0.1, 3600),
}
METHODS = {
    "volumetric": ("flow_volume_l", "flow_fill_s"),
    "velocity": ("flow_depth_in", "flow_width_ft", "flow_length_ft", "flow_travel_s"),
}
LITERS_PER_GALLON = 3.785411784
GALLONS_PER_CUBIC_FOOT = 7.480519480519481


def volumetric_flow(volume_l: float, fill_s: float) -> tuple[float, float]:
    """Flow #1: volume / time, in liters a second, and in gallons a minute."""
    liters_a_second = volume_l / fill_s
    return liters_a_second, liters_a_second * 60 / LITERS_PER_GALLON


def velocity_flow(
    depth_in: float, width_ft: float, length_ft: float, travel_s: float
) -> tuple[float, float, float]:
    """Flow #2: width × depth × velocity, the velocity being length / time of travel: the
    velocity in feet a second, the flow in cubic feet a second, and in gallons a minute."""
    feet_a_second = length_ft / travel_s
    cubic_feet_a_second = width_ft * (depth_in / 12) * feet_a_second
    return feet_a_second, cubic_feet_a_second, cubic_feet_a_second * GALLONS_PER_CUBIC_FOOT * 60


def _n(number: float) -> str:
    return f"{number:.3g}"


def flow_lines(observations: dict[str, Any]) -> list[str]:
    """The flow measured, each method with its numbers and the flow computed from them."""
    seen, lines = observations, []
    if all(name in seen for name in METHODS["volumetric"]):
        per_second, per_minute = volumetric_flow(seen["flow_volume_l"], seen["flow_fill_s"])
        lines.append(
            f"By volume: {_n(seen['flow_volume_l'])} L in {_n(seen['flow_fill_s'])} s"
            f" = {_n(per_second)} liters a second ({_n(per_minute)} gallons a minute)"
        )
    if all(name in seen for name in METHODS["velocity"]):
        depth, width, length, travel = (seen[name] for name in METHODS["velocity"])
        speed, cfs, per_minute = velocity_flow(depth, width, length, travel)
        lines.append(
            f"By velocity: {_n(width)} ft wide × {_n(depth)} in deep × {_n(speed)} ft a second"
            f" ({_n(length)} ft in {_n(travel)} s) = {_n(cfs)} cubic feet a second"
            f" ({_n(per_minute)} gallons a minute)"
        )
    return lines


def list_words(name: str, stored: str | None) -> str:
    """A stored list in words: "Oil sheen, suds"; "None" ticked; "Not recorded" before it
    was on the sheet (land use: none ticked is not recorded either)."""
    codes = None if stored is None else json.loads(stored)
    if not codes:
        return "None" if codes == [] and name != "land_use" else "Not recorded"
    words = dict(LISTS[name])
    return ", ".join(words.get(code, code) for code in codes).capitalize()


# ------------------------------------------------------------------ the sheet's new fields


def land_use() -> CheckboxesField:
    return CheckboxesField("Land use in the drainage area", choices=options(LAND_USES))


def known_industries():
    return text("Known industries in the drainage area", 500)


def submerged(label: str):
    return choice(label, SUBMERGED)


def pool_quality() -> CheckboxesField:
    return CheckboxesField("Poor pool quality", choices=options(POOL_QUALITY))


def benthic_growth() -> CheckboxesField:
    return CheckboxesField("Pipe benthic growth", choices=options(BENTHIC_GROWTH))


def flow_trap():
    return choice("Intermittent flow trap", FLOW_TRAPS)


def check_measures(form: Any) -> bool:
    """A measured flow has every number of its method, and none when no flow was seen."""
    valid = True
    for names in METHODS.values():
        given = [n for n in names if getattr(form, n).data is not None]
        if form.flow.data == "none" and given:
            for name in given:
                getattr(form, name).errors.append("No flow was chosen: leave this empty.")
            valid = False
        elif given and len(given) < len(names):
            for name in names:
                field = getattr(form, name)
                if field.data is None and not field.errors:
                    field.errors.append(
                        "Enter this as well to compute the flow, or clear the others."
                    )
            valid = False
    return valid


# Section 4, "physical indicators for flowing outfalls only": a standing pool's odor, colour,
# floatables or sheen are section 5's poor pool quality (officer's week 2026-12-03 M2).
FLOWING_ONLY = ("odor", "color", "turbidity", "floatables")


def check_flowing_only(form: Any) -> bool:
    """No flow was seen: the indicators of flowing water are not taken."""
    if form.flow.data != "none":
        return True
    valid = True
    for name in FLOWING_ONLY:
        field = getattr(form, name)
        if field.data not in (None, "", "none"):
            field.errors.append(
                "No flow was chosen: the inventory grades this of flowing water only. Tick"
                " what a pool shows under Poor pool quality, or say it in the notes."
            )
            valid = False
    return valid


# ------------------------------------------------------------ section 6, the overall call

# The calls from least to most, as the inventory ranks them.
CALLS = ("unlikely", "potential", "suspect", "obvious")
# Damage to the outfall tells the structure's state, not a discharge (the inventory's section
# 8 has repairs among the non-illicit concerns): it is not counted towards a call (our reading).
NOT_A_SIGN = ("damage",)


def severity_of(observations: dict[str, Any], name: str) -> int | None:
    """An indicator's severity as recorded; turbidity's grade is its severity."""
    kind = observations.get(name)
    return observations.get(f"{name}_severity") or TURBIDITY_SEVERITY.get(
        kind if name == "turbidity" else ""
    )


def implied_call(
    observations: dict[str, Any], pool: list[str], benthic: list[str]
) -> tuple[str, list[str]]:
    """The least call the inventory's own definitions give what was seen, and the signs
    that make it: sewage floatables at severity 3 ("origin clear") are obvious; any
    indicator at severity 3 is suspect; two or more indicators are potential."""
    signs, top, obvious = [], [], []
    for name, (label, kinds, _) in INDICATORS.items():
        kind = observations.get(name)
        if not kind or name in NOT_A_SIGN:
            continue
        severity = severity_of(observations, name)
        words = f"{label.lower()}: {dict(kinds).get(kind, kind).lower()}"
        signs.append(words)
        if severity == 3:
            top.append(f"{words} at severity 3")
            if name == "floatables" and kind == "sewage":
                obvious.append(top[-1])
    if pool:
        signs.append("poor pool quality")
    if benthic:
        signs.append("pipe benthic growth")
    if obvious:
        return "obvious", obvious
    if top:
        return "suspect", top
    if len(signs) >= 2:
        return "potential", signs
    return "unlikely", signs


def call_problem(call: str | None, observations: dict[str, Any], pool, benthic) -> str | None:
    """What the sheet says when the call is lower than what was seen (None: it is not)."""
    implied, signs = implied_call(observations, pool, benthic)
    if call not in CALLS or CALLS.index(call) >= CALLS.index(implied):
        return None
    return (
        f"What you saw ({'; '.join(signs)}) reads as {implied} on the inventory's scale:"
        f" choose that call, or say below why it is {call}."
    )
