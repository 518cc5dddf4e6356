"""The answers of the staff finding's form, as (stored value, label) pairs: for the form, the
case page, the export and the queue alike."""

from __future__ import annotations

# How a discharge came to staff's notice without a resident's report or a filing: the ways
# an officer finds one in the course of work (a call not filed online is logged here too).
HOW_FOUND = [
    ("routine-inspection", "Routine inspection"),
    ("other-work", "During other work"),
    ("phone-complaint", "A complaint by phone, not filed online"),
    ("construction-inspection", "Construction site inspection"),
    ("other", "Another way"),
]
CONFIRMED = [
    ("no", "Not yet: it needs investigating"),
    ("yes", "Yes: a confirmed illicit discharge"),
]
HOW_FOUND_WORDS = dict(HOW_FOUND)
