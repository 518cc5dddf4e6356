"""The report's answers, as (stored value, label) pairs: for the form, the record, the mail
and the staff pages alike."""

from portal.intake.choices import YES_NO_UNSURE

INDICATORS = [
    ("sheen", "Oily sheen or rainbow film"),
    ("suds", "Suds or foam"),
    ("color", "Unusual color"),
    ("odor", "A smell"),
    ("cloudy", "Cloudy or murky water"),
    ("trash", "Trash or debris"),
    ("dead-animals", "Dead fish or animals"),
    ("dumping", "Someone dumping or washing something into a drain"),
    ("dry-weather-flow", "A pipe flowing when it has not rained"),
]
ODORS = [
    ("", "Choose a smell"),
    ("sewage", "Sewage"),
    ("petroleum", "Gasoline or oil"),
    ("chemical", "Chemical"),
    ("rotten-egg", "Rotten egg"),
    ("other", "Something else"),
]
LOCATION_TYPES = [
    ("storm-drain", "Storm drain or catch basin"),
    ("ditch", "Roadside ditch"),
    ("stream", "Creek or stream"),
    ("outfall", "Pipe outfall"),
    ("street", "Street or parking lot"),
    ("other", "Somewhere else"),
]

# Labels for stored values, for pages and mail that show a report.
CHOICE_LABELS = {
    "indicators": dict(INDICATORS),
    "odor": dict(ODORS),
    "location_type": dict(LOCATION_TYPES),
    "yes_no": dict(YES_NO_UNSURE),
}
