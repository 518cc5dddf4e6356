"""The service area's box includes its edges: a place exactly on the south, west, north or
east line is inside (the report form, the outfall import and edit, the content check all
ask ServiceArea.contains), a place a hair beyond is not."""

from __future__ import annotations

import pytest

from content_model.loader import load_content

AREA = load_content().settings.service_area


@pytest.mark.parametrize(
    ("latitude", "longitude", "inside"),
    [
        (42.150, -76.820, True),  # on the south line
        (42.185, -76.820, True),  # on the north line
        (42.170, -76.850, True),  # on the west line
        (42.170, -76.795, True),  # on the east line
        (42.150, -76.795, True),  # the south-east corner
        (42.14999, -76.820, False),
        (42.18501, -76.820, False),
        (42.170, -76.85001, False),
        (42.170, -76.79499, False),
    ],
)
def test_the_box_includes_its_edges(latitude, longitude, inside):
    assert AREA.contains(latitude, longitude) is inside
