"""The notification's answers, as (stored value, label) pairs: for the forms, the record,
the mail and the staff pages alike. Each label is English here, as staff and exports read it;
a public page or the filer's mail shows it in its own language (options(), record())."""

from content_model.site import N_
from portal.intake.choices import YES_NO, YES_NO_UNSURE

FACILITY_KINDS = [
    ("commercial", N_("Commercial (a shop, garage, restaurant, office)")),
    ("industrial", N_("Industrial (a plant, warehouse, yard)")),
    ("institutional", N_("Institutional (a school, hospital, public building)")),
    ("rental", N_("Apartments or homes let for rent")),
    ("residential", N_("A home you live in")),
    ("other", N_("Something else")),
]
PERMITS = [
    ("none", N_("No stormwater permit")),
    ("industrial", N_("SPDES industrial stormwater permit")),
    ("construction", N_("SPDES construction stormwater permit")),
    ("unsure", N_("Not sure")),
]
UNITS = [
    ("gallons", N_("gallons")),
    ("liters", N_("liters")),
    ("pounds", N_("pounds")),
    ("kilograms", N_("kilograms")),
    ("cubic-yards", N_("cubic yards")),
    ("unknown", N_("I don't know")),
]
REACHED = [
    ("yes", N_("Yes, some went in")),
    ("may", N_("It may still go in")),
    ("no", N_("No")),
    ("unsure", N_("Not sure")),
]
PRIOR_NOTICE = [
    ("none", N_("No, not yet")),
    ("phone", N_("Yes, by telephone")),
    ("in-person", N_("Yes, in person")),
    ("fax", N_("Yes, by fax")),
]
DEC_CALLED = [
    ("yes", N_("Yes")),
    ("no", N_("No")),
    # Offered for petroleum only: the four conditions of the State's exception, all of them.
    (
        "not-needed",
        N_(
            "Not needed: petroleum known to be under 5 gallons, contained and under control,"
            " that has not reached and will not reach water or land, cleaned up within two hours"
        ),
    ),
]
# Notices the law requires to be confirmed in writing within three business days.
SPOKEN_NOTICES = {"phone", "in-person"}
PRIOR_NOTICE_BY = [
    ("phone", N_("by telephone")),
    ("in-person", N_("in person")),
    ("fax", N_("by fax")),
]

LABELS = {
    "yes_no": dict(YES_NO_UNSURE) | dict(YES_NO),
    "facility_kind": dict(FACILITY_KINDS),
    "permit": dict(PERMITS),
    "unit": dict(UNITS),
    "reached_drain": dict(REACHED),
    "prior_notice": dict(PRIOR_NOTICE),
    "dec_called": dict(DEC_CALLED),
}
