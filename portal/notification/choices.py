"""The notification's answers, as (stored value, label) pairs: for the forms, the record,
the mail and the staff pages alike."""

from portal.intake.choices import YES_NO, YES_NO_UNSURE

FACILITY_KINDS = [
    ("commercial", "Commercial (a shop, garage, restaurant, office)"),
    ("industrial", "Industrial (a plant, warehouse, yard)"),
    ("institutional", "Institutional (a school, hospital, public building)"),
    ("residential", "Residential (apartments, homes)"),
    ("other", "Something else"),
]
PERMITS = [
    ("none", "No stormwater permit"),
    ("industrial", "SPDES industrial stormwater permit"),
    ("construction", "SPDES construction stormwater permit"),
    ("unsure", "Not sure"),
]
UNITS = [
    ("gallons", "gallons"),
    ("liters", "liters"),
    ("pounds", "pounds"),
    ("kilograms", "kilograms"),
    ("cubic-yards", "cubic yards"),
    ("unknown", "I don't know"),
]
REACHED = [
    ("yes", "Yes, some went in"),
    ("may", "It may still go in"),
    ("no", "No"),
    ("unsure", "Not sure"),
]
PRIOR_NOTICE = [
    ("none", "No, not yet"),
    ("phone", "Yes, by telephone"),
    ("in-person", "Yes, in person"),
    ("fax", "Yes, by fax"),
]
DEC_CALLED = [
    ("yes", "Yes"),
    ("no", "No"),
    # Offered for petroleum only: the four conditions of the State's exception, all of them.
    (
        "not-needed",
        "Not needed: petroleum known to be under 5 gallons, contained and under control, that"
        " has not reached and will not reach water or land, cleaned up within two hours",
    ),
]
# Notices the law requires to be confirmed in writing within three business days.
SPOKEN_NOTICES = {"phone", "in-person"}
PRIOR_NOTICE_BY = [("phone", "by telephone"), ("in-person", "in person"), ("fax", "by fax")]

LABELS = {
    "yes_no": dict(YES_NO_UNSURE) | dict(YES_NO),
    "facility_kind": dict(FACILITY_KINDS),
    "permit": dict(PERMITS),
    "unit": dict(UNITS),
    "reached_drain": dict(REACHED),
    "prior_notice": dict(PRIOR_NOTICE),
    "dec_called": dict(DEC_CALLED),
}
