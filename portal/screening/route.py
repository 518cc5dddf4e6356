"""A day's screening route: the outfalls to visit in a walkable order. Nearest neighbour
from the start: from each stop, the nearest outfall not yet visited. Not the shortest
route there is, but never one that doubles back across town, and quick for a few dozen."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from portal.staff.queue import distance_m

# A route printed on at most two Letter pages (tests/browser/test_screening_browser.py).
MAX_STOPS = 30


def walking_order(
    stops: Sequence[dict[str, Any]], start: tuple[float, float]
) -> list[dict[str, Any]]:
    """`stops` (each with latitude and longitude) in nearest-neighbour order from `start`;
    each returned with `leg` (metres from the stop before) and `walked` (metres so far)."""
    left = list(stops)
    here, walked, ordered = start, 0.0, []
    while left:
        # Ties go to the first in `stops` (its own order: soonest due first).
        nearest = min(
            range(len(left)),
            key=lambda i: (distance_m(*here, left[i]["latitude"], left[i]["longitude"]), i),
        )
        stop = left.pop(nearest)
        leg = distance_m(*here, stop["latitude"], stop["longitude"])
        walked += leg
        ordered.append({**stop, "leg": leg, "walked": walked})
        here = (stop["latitude"], stop["longitude"])
    return ordered
