"""The building blocks every feature stands on: the clock, the settings, the database and
its schema, the kinds of case, the statuses, business days and how dates are shown."""
