"""The report's answers, as (stored value, label) pairs: for the form, the record, the mail
and the staff pages alike. Each label is English here, as staff and exports read it; a public
page shows it in its own language (options(), what_was_seen)."""

from content_model.site import N_
from portal.intake.choices import YES_NO_UNSURE

INDICATORS = [
    ("sheen", N_("Oily sheen or rainbow film")),
    ("suds", N_("Suds or foam")),
    ("color", N_("Unusual color")),
    ("odor", N_("A smell")),
    ("cloudy", N_("Cloudy or murky water")),
    ("trash", N_("Trash or debris")),
    ("dead-animals", N_("Dead fish or animals")),
    ("dumping", N_("Someone dumping or washing something into a drain")),
    ("dry-weather-flow", N_("A pipe flowing when it has not rained")),
]
ODORS = [
    ("", N_("Choose a smell")),
    ("sewage", N_("Sewage")),
    ("petroleum", N_("Gasoline or oil")),
    ("chemical", N_("Chemical")),
    ("rotten-egg", N_("Rotten egg")),
    ("other", N_("Something else")),
]
LOCATION_TYPES = [
    ("storm-drain", N_("Storm drain or catch basin")),
    ("ditch", N_("Roadside ditch")),
    ("stream", N_("Creek or stream")),
    ("outfall", N_("Pipe outfall")),
    ("street", N_("Street or parking lot")),
    ("other", N_("Somewhere else")),
]

# Labels for stored values, for pages and mail that show a report.
CHOICE_LABELS = {
    "indicators": dict(INDICATORS),
    "odor": dict(ODORS),
    "location_type": dict(LOCATION_TYPES),
    "yes_no": dict(YES_NO_UNSURE),
}
