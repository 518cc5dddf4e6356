"""Answers more than one form offers, as (stored value, label) pairs."""

YES_NO = [("yes", "Yes"), ("no", "No")]
YES_NO_UNSURE = [*YES_NO, ("unsure", "Not sure")]
