"""The resident's report: its page (views), form, choices."""
