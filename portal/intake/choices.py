"""Answers more than one form offers, as (stored value, label) pairs: the labels English,
as staff read them, and in the page's language on a public form (options())."""

from content_model.site import N_

YES_NO = [("yes", N_("Yes")), ("no", N_("No"))]
YES_NO_UNSURE = [*YES_NO, ("unsure", N_("Not sure"))]
