"""What staff search for in a case's enforcement (the queue's search, portal/core/
search_index.py): the respondent of each violation and the owner the notice names. The
business a violation is against finds every case it is on, its screening's too (officer's
week F1: "Grand Central Quick Lube" found only the resident's report)."""

from __future__ import annotations

from portal.core.search_index import Source, add_source

_VIOLATIONS = (
    ("violations", "insert", "SELECT NEW.case_id"),
    ("violations", "update", "SELECT NEW.case_id"),
    ("violations", "delete", "SELECT OLD.case_id"),
)

add_source(
    Source(
        "Respondent",
        "(SELECT group_concat(r.name, ' ') FROM violations v JOIN respondents r"
        " ON r.id = v.respondent_id WHERE v.case_id = c.id)",
        (
            *_VIOLATIONS,
            (
                "respondents",
                "update",
                "SELECT case_id FROM violations WHERE respondent_id = NEW.id",
            ),
        ),
    )
)
add_source(
    Source(
        "Owner",
        "(SELECT group_concat(owner_name, ' ') FROM violations WHERE case_id = c.id)",
        _VIOLATIONS,
    )
)
