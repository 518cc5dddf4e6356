"""Discharges staff found themselves (issue 24 point 7): a kind of case registered through
the kind descriptor, and the staff page that records one. Importing the package registers
both (the app factory imports it before it builds an app: its pages hang on the workspace's
blueprint, which takes routes only until it is first registered)."""

from portal.staff_found import kind, views  # noqa: F401  (register the kind and the pages)
