"""Whether a screening is hazardous: by the same rules as a resident's report (hazard_rules in
site.yaml, read by portal/report/hazards.py), given what the sheet saw at its top severity
as a report would give it. A faint smell of fuel is not a hazard; a strong one is, as a
resident's "gasoline" is."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from content_model.site import HazardRule
from portal.report.hazards import report_hazards

# The sheet's odors as the report form's (portal/report/choices.py ODORS).
REPORTED_ODOR = {
    "sewage": "sewage",
    "petroleum": "petroleum",
    "sulfide": "rotten-egg",
    "rancid": "other",
    "other": "other",
}
# The sheet's floatables at severity 3 as the report form's indicators.
REPORTED_FLOATABLES = {"petroleum": "sheen", "suds": "suds"}


def as_reported(observations: dict[str, Any]) -> dict[str, Any]:
    """The signs seen at severity 3, as the fields of a report (`reports` row)."""
    indicators = []
    floatables = observations.get("floatables")
    if observations.get("floatables_severity") == 3 and floatables in REPORTED_FLOATABLES:
        indicators.append(REPORTED_FLOATABLES[floatables])
    if observations.get("color_severity") == 3:
        indicators.append("color")
    if observations.get("turbidity") == "opaque":
        indicators.append("cloudy")
    odor = ""
    if observations.get("odor_severity") == 3:
        odor = REPORTED_ODOR.get(observations.get("odor", ""), "other")
    return {"indicators": json.dumps(indicators), "odor": odor}


def screening_hazards(rules: Iterable[HazardRule], observations: dict[str, Any]) -> list[str]:
    """The names of the hazard rules the screening meets, in content order."""
    return report_hazards(rules, as_reported(observations))
