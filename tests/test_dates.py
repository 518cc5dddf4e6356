"""The same day some years later, with the 29 February choice each rule names."""

from __future__ import annotations

import datetime as dt

import pytest

from portal.core.dates import EARLIER, LATER, add_years


@pytest.mark.parametrize(
    ("day", "years", "leap_day", "expected"),
    [
        (dt.date(2024, 2, 29), 1, EARLIER, dt.date(2025, 2, 28)),
        (dt.date(2024, 2, 29), 1, LATER, dt.date(2025, 3, 1)),
        (dt.date(2024, 2, 29), 4, EARLIER, dt.date(2028, 2, 29)),
        (dt.date(2024, 2, 29), 4, LATER, dt.date(2028, 2, 29)),
        (dt.date(2024, 2, 29), -1, EARLIER, dt.date(2023, 2, 28)),
        (dt.date(2024, 2, 29), -1, LATER, dt.date(2023, 3, 1)),
        (dt.date(2023, 2, 28), 1, LATER, dt.date(2024, 2, 28)),
        (dt.date(2023, 3, 1), 5, EARLIER, dt.date(2028, 3, 1)),
        (dt.date(2026, 12, 31), 3, LATER, dt.date(2029, 12, 31)),
        (dt.date(2026, 1, 1), 0, EARLIER, dt.date(2026, 1, 1)),
    ],
)
def test_the_same_day_years_later(day, years, leap_day, expected):
    assert add_years(day, years, leap_day=leap_day) == expected


def test_the_choice_must_be_named():
    with pytest.raises(ValueError, match="leap_day is 'earlier' or 'later'"):
        add_years(dt.date(2024, 2, 29), 1, leap_day="feb28")
    with pytest.raises(TypeError):
        add_years(dt.date(2024, 2, 29), 1)  # type: ignore[call-arg]
