"""What staff search for in a case's track-down (the queue's search, portal/core/
search_index.py): the source's respondent and tax parcel, a sample's id and its lab's work
order, and the owner of an outfall a step was at. When the lab phones about a work order, the
officer finds the case (officer's week F1)."""

from __future__ import annotations

from portal.core.search_index import Source, add_source

_STEPS = (
    ("trackdown_steps", "insert", "SELECT NEW.case_id"),
    ("trackdown_steps", "update", "SELECT NEW.case_id"),
)
_SOURCE = (
    ("discharge_sources", "insert", "SELECT NEW.case_id"),
    ("discharge_sources", "update", "SELECT NEW.case_id"),
)

add_source(
    Source(
        "Respondent",
        "(SELECT r.name FROM discharge_sources s JOIN respondents r ON r.id = s.respondent_id"
        " WHERE s.case_id = c.id)",
        (
            *_SOURCE,
            (
                "respondents",
                "update",
                "SELECT case_id FROM discharge_sources WHERE respondent_id = NEW.id",
            ),
        ),
    )
)
add_source(
    Source(
        "Tax parcel",
        "(SELECT parcel_id FROM discharge_sources WHERE case_id = c.id)",
        _SOURCE,
    )
)
add_source(
    Source(
        "Sample id",
        "(SELECT group_concat(sample_id, ' ') FROM trackdown_steps"
        " WHERE case_id = c.id AND removed_at IS NULL)",
        _STEPS,
    )
)
add_source(
    Source(
        "Lab reference",
        "(SELECT group_concat(coalesce(lab_name, '') || ' ' || lab_reference, ' ')"
        " FROM trackdown_steps WHERE case_id = c.id AND removed_at IS NULL"
        " AND lab_reference IS NOT NULL)",
        _STEPS,
    )
)
add_source(
    Source(
        "Outfall owner",
        "(SELECT group_concat(o.owner, ' ') FROM outfalls o WHERE o.id IN (SELECT outfall_id"
        " FROM trackdown_steps WHERE case_id = c.id AND removed_at IS NULL))",
        (
            *_STEPS,
            (
                "outfalls",
                "update",
                "SELECT case_id FROM trackdown_steps WHERE outfall_id = NEW.id",
            ),
        ),
    )
)
