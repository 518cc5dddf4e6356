"""content/outfalls.yaml as a content editor writes it: each number at its bounds, each
left out, and what the editor is told when one is wrong (content_model/outfalls.py)."""

from __future__ import annotations

import datetime as dt

import pytest

from content_model.fields import ContentError
from content_model.outfalls import OutfallSettings, load_outfall_settings


def settings_of(tmp_path, screening: str = "every_years: 5", rest: str = "") -> OutfallSettings:
    (tmp_path / "outfalls.yaml").write_text(
        f"screening: {{{screening}}}\nopen_data: {{public: false}}\n{rest}", encoding="utf-8"
    )
    return load_outfall_settings(tmp_path)


def refusal(tmp_path, screening: str, rest: str = "") -> str:
    with pytest.raises(ContentError) as refused:
        settings_of(tmp_path, screening, rest)
    return str(refused.value)


def test_a_pack_without_the_file_gets_the_defaults(tmp_path):
    assert load_outfall_settings(tmp_path) == OutfallSettings(
        every_years=5,
        public=False,
        first_within_days=None,
        follow_up_within_days=30,
        route_start_name=None,
        route_start=None,
        permit_term_starts=None,
        dry_weather_hours=72,
        dry_weather_rain_inches=0.1,
        earliest_screening=dt.date(1990, 1, 1),
    )


def test_only_every_years_given_leaves_the_rest_at_the_defaults(tmp_path):
    found = settings_of(tmp_path, "every_years: 4")
    assert (found.every_years, found.first_within_days, found.follow_up_within_days) == (
        4,
        None,
        30,
    )
    assert (found.dry_weather_hours, found.dry_weather_rain_inches) == (72, 0.1)
    assert found.earliest_screening == dt.date(1990, 1, 1)


@pytest.mark.parametrize("years", [1, 20])
def test_every_years_from_1_to_20(tmp_path, years):
    assert settings_of(tmp_path, f"every_years: {years}").every_years == years


@pytest.mark.parametrize("years", [0, 21])
def test_every_years_outside_1_to_20_is_refused(tmp_path, years):
    assert refusal(tmp_path, f"every_years: {years}") == (
        "outfalls.yaml: screening.every_years: must be a whole number of years from 1 to 20"
    )


@pytest.mark.parametrize(
    ("key", "days"),
    [
        ("never_screened_due_within_days", 0),
        ("never_screened_due_within_days", 3650),
        ("rescreen_suspect_within_days", 0),
        ("rescreen_suspect_within_days", 3650),
    ],
)
def test_days_from_0_to_3650(tmp_path, key, days):
    found = settings_of(tmp_path, f"every_years: 5, {key}: {days}")
    given = {
        "never_screened_due_within_days": found.first_within_days,
        "rescreen_suspect_within_days": found.follow_up_within_days,
    }
    assert given[key] == days


@pytest.mark.parametrize(
    ("key", "days"),
    [
        ("never_screened_due_within_days", -1),
        ("never_screened_due_within_days", 3651),
        ("rescreen_suspect_within_days", -1),
        ("rescreen_suspect_within_days", 3651),
    ],
)
def test_days_outside_0_to_3650_are_refused(tmp_path, key, days):
    assert refusal(tmp_path, f"every_years: 5, {key}: {days}") == (
        f"outfalls.yaml: screening.{key}: must be a whole number of days from 0 to 3650"
    )


def test_days_left_null_keep_the_defaults(tmp_path):
    found = settings_of(
        tmp_path,
        "every_years: 5, never_screened_due_within_days: null, rescreen_suspect_within_days: null",
    )
    assert (found.first_within_days, found.follow_up_within_days) == (None, 30)


@pytest.mark.parametrize("hours", [1, 720])
def test_dry_weather_hours_from_1_to_720(tmp_path, hours):
    assert (
        settings_of(tmp_path, f"every_years: 5, dry_weather_hours: {hours}").dry_weather_hours
        == hours
    )


@pytest.mark.parametrize("hours", [0, 721])
def test_dry_weather_hours_outside_1_to_720_are_refused(tmp_path, hours):
    assert refusal(tmp_path, f"every_years: 5, dry_weather_hours: {hours}") == (
        "outfalls.yaml: screening.dry_weather_hours: must be a whole number of hours from 1 to 720"
    )


@pytest.mark.parametrize("inches", [0, 10, 0.25])
def test_dry_weather_rain_from_0_to_10_inches(tmp_path, inches):
    found = settings_of(tmp_path, f"every_years: 5, dry_weather_rain_inches: {inches}")
    assert found.dry_weather_rain_inches == inches


@pytest.mark.parametrize("inches", [-0.1, 10.5])
def test_dry_weather_rain_outside_0_to_10_inches_is_refused(tmp_path, inches):
    assert refusal(tmp_path, f"every_years: 5, dry_weather_rain_inches: {inches}") == (
        "outfalls.yaml: screening.dry_weather_rain_inches: must be a number from 0 to 10"
    )


def test_dry_weather_rain_left_null_keeps_the_default(tmp_path):
    found = settings_of(tmp_path, "every_years: 5, dry_weather_rain_inches: null")
    assert found.dry_weather_rain_inches == 0.1


def test_the_earliest_screening_day_a_pack_gives(tmp_path):
    found = settings_of(tmp_path, "every_years: 5, earliest_screening: 2001-05-04")
    assert found.earliest_screening == dt.date(2001, 5, 4)


def test_a_route_start_gives_its_name_and_place(tmp_path):
    rest = "route_start: {name: Village Hall, latitude: 42.1667, longitude: -76.8211}\n"
    found = settings_of(tmp_path, rest=rest)
    assert (found.route_start_name, found.route_start) == ("Village Hall", (42.1667, -76.8211))


@pytest.mark.parametrize(
    ("rest", "message"),
    [
        (
            "route_start: {name: Hall, latitude: 91, longitude: 0}\n",
            "outfalls.yaml: route_start.latitude: must be a number from -90 to 90",
        ),
        (
            "route_start: {name: Hall, latitude: 0, longitude: -181}\n",
            "outfalls.yaml: route_start.longitude: must be a number from -180 to 180",
        ),
        (
            "route_start: {latitude: 0, longitude: 0}\n",
            "outfalls.yaml: route_start.name: is missing",
        ),
        ("rotation: yearly\n", "outfalls.yaml: rotation: is not a field this file has"),
    ],
)
def test_a_wrong_route_start_or_an_unknown_key_is_refused_by_name(tmp_path, rest, message):
    assert refusal(tmp_path, "every_years: 5", rest).startswith(message)


def test_a_public_inventory(tmp_path):
    (tmp_path / "outfalls.yaml").write_text(
        "screening: {every_years: 5}\nopen_data: {public: true}\n", encoding="utf-8"
    )
    assert load_outfall_settings(tmp_path).public is True
