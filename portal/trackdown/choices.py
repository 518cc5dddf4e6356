"""Track-down's words: the kinds of investigation step, which way a step points, the lab
parameters offered for a sample, and how a discharge was eliminated.

The steps are the track-down methods of the Center for Watershed Protection's IDDE Guidance
Manual (2004): storm drain network investigation (structures inspected, samples), and the
on-site tests (dye, smoke, video). Keys are stored; the words are what staff read.
"""

from __future__ import annotations

STEP_KINDS: dict[str, str] = {
    "structure": "Structure or manhole inspected",
    "dye": "Dye test",
    "smoke": "Smoke test",
    "camera": "Camera (CCTV) inspection",
    "sample": "Sample taken",
    "other": "Another step",
}
# What the case's audit log and the summary call a step: "Dye test recorded".
STEP_NAMES: dict[str, str] = {
    "structure": "Structure inspection",
    "dye": "Dye test",
    "smoke": "Smoke test",
    "camera": "Camera inspection",
    "sample": "Sample",
    "other": "Investigation step",
}
# Which way a step points: on upstream, not here, found here, or not yet known.
RESULTS: dict[str, str] = {
    "seen": "Discharge (or dye, smoke) seen here: trace it on upstream",
    "not_seen": "Not seen here",
    "confirmed": "Source confirmed here",
    "inconclusive": "Inconclusive",
    "pending": "Waiting for results (the lab, the camera report)",
}
# Lab parameters offered (others are named by hand): key -> (name, its usual unit).
PARAMETERS: dict[str, tuple[str, str]] = {
    "ammonia": ("Ammonia", "mg/L"),
    "e_coli": ("E. coli", "CFU/100 mL"),
    "fecal_coliform": ("Fecal coliform", "CFU/100 mL"),
    "detergents": ("Detergents (surfactants)", "mg/L"),
    "chlorine": ("Chlorine", "mg/L"),
    "ph": ("pH", ""),
    "temperature": ("Temperature", "°C"),
    "fluoride": ("Fluoride", "mg/L"),
    "potassium": ("Potassium", "mg/L"),
    "conductivity": ("Conductivity", "µS/cm"),
}
OTHER_PARAMETER = "other"
# How the discharge was eliminated (discharge_sources.elimination_method).
ELIMINATION_METHODS: dict[str, str] = {
    "connection_removed": "Connection removed, or rerouted to the sanitary sewer",
    "repaired": "Repaired (a broken pipe, a failing septic system)",
    "practice_stopped": "Practice stopped, or the spill cleaned up",
    "referred": "Referred to another agency, which eliminated it",
    "other": "Another way",
}
# The methods whose notes must say more: which agency, or what was done.
NOTES_NEEDED: dict[str, str] = {
    "referred": "Name the agency and say what it did.",
    "other": "Say how it was eliminated.",
}


def parameter_choices() -> list[tuple[str, str]]:
    """The parameter list of a result row: each with its usual unit, then "Other"."""
    found = [("", "Choose a parameter")]
    for key, (name, unit) in PARAMETERS.items():
        found.append((key, f"{name} ({unit})" if unit else name))
    return [*found, (OTHER_PARAMETER, "Other (name it beside)")]


# How a step got onto the place it was done (trackdown_steps.access).
ACCESS: dict[str, str] = {
    "public": "A public place or right of way: no permission needed",
    "consent": "With the owner's or operator's consent",
    "warrant": "Under a search warrant",
    "refused": "Access refused (not done on the property)",
}
# What access_notes must say for each.
ACCESS_NOTES_NEEDED: dict[str, str] = {
    "consent": "Say who consented, and how (in person, by phone, in writing).",
    "warrant": "Give the court and the date of the warrant.",
    "refused": "Say who refused, and when.",
}
# What the audit log calls each field a change touched: "Dye test changed: what was found".
FIELD_WORDS: dict[str, str] = {
    "kind": "what was done",
    "done_at": "when",
    "done_by": "who",
    "structure_code": "structure",
    "location": "street or manhole",
    "findings": "what was found",
    "result": "result",
    "sample_id": "sample id",
    "collected_by": "collected by",
    "collected_at": "collected at",
    "relinquished_to": "handed over to",
    "relinquished_at": "handed over at",
    "received_by": "received by",
    "received_at": "received at",
    "lab_name": "lab",
    "lab_reference": "lab reference",
    "access": "access",
    "access_notes": "access details",
    "dye_notice_at": "notice before the dye test",
    "dye_notice_by": "who gave notice before the dye test",
    "found_on": "date found",
    "description": "what the source is",
    "address": "property or place",
    "latitude": "latitude",
    "longitude": "longitude",
    "parcel_id": "tax parcel",
    "respondent_id": "respondent",
    "eliminated_on": "date eliminated",
    "elimination_method": "how",
    "elimination_notes": "notes",
}


def words() -> dict[str, dict]:
    """Every vocabulary, for the templates (`trackdown_words`)."""
    return {
        "kinds": STEP_KINDS,
        "names": STEP_NAMES,
        "results": RESULTS,
        "methods": ELIMINATION_METHODS,
        "fields": FIELD_WORDS,
        "access": ACCESS,
    }
