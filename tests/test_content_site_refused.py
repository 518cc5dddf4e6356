"""site.yaml values the loader refuses (content_model/site_values.py), each with what a
content editor is told: the service area, map, colours, clock times, dates, readings and
hazard rules. The test pack's site.yaml, changed one field at a time."""

from __future__ import annotations

import pytest
from test_content_site import refused, settings


def _area(**change):
    return lambda d: d["service_area"].update(change)


def _center(**change):
    return lambda d: d["service_area"]["center"].update(change)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_area(south=-91), "service_area.south: must be a number from -90 to 90"),
        (_area(north=90.5), "service_area.north: must be a number from -90 to 90"),
        (_area(west=-181), "service_area.west: must be a number from -180 to 180"),
        (_area(east=180.5), "service_area.east: must be a number from -180 to 180"),
        (_center(latitude=-90.1), "service_area.center.latitude: must be a number from -90 to 90"),
        (
            _center(longitude=181),
            "service_area.center.longitude: must be a number from -180 to 180",
        ),
        (_center(zoom=0), "service_area.center.zoom: must be a number from 1 to 19"),
        (_center(zoom=20), "service_area.center.zoom: must be a number from 1 to 19"),
        (_area(name=""), "service_area.name: must be non-empty text"),
        (
            _area(south=42.98),
            "service_area.south: the box must have south < north and west < east",
        ),
        (_area(west=-75.98), "service_area.south: the box must have south < north and west < east"),
        (_area(west=-75.0), "service_area.south: the box must have south < north and west < east"),
        (
            _center(latitude=42.99),
            "service_area.center.latitude: the center must lie inside the box",
        ),
        (
            _center(longitude=-76.2),
            "service_area.center.latitude: the center must lie inside the box",
        ),
        (lambda d: d["service_area"].pop("center"), "service_area.center: is missing"),
    ],
)
def test_a_service_area_refused(change, message):
    assert refused(change) == f"site.yaml: {message}"


def test_a_service_area_edge_on_the_box_is_inside():
    area = settings(_center(latitude=42.9, longitude=-75.98, zoom=1)).service_area
    assert (area.center_latitude, area.center_longitude, area.zoom) == (42.9, -75.98, 1)
    assert settings(_center(zoom=19)).service_area.zoom == 19
    area = settings(_center(latitude=42.98, longitude=-76.1)).service_area
    assert (area.center_latitude, area.center_longitude) == (42.98, -76.1)


def _tiles(**change):
    return lambda d: d["map_tiles"].update(change)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            _tiles(url="http://tile.example/{z}/{x}/{y}.png"),
            "map_tiles.url: must be an https:// address with {z}, {x} and {y} in it",
        ),
        (
            _tiles(url="https://tile.example/{z}/{x}.png"),
            "map_tiles.url: must be an https:// address with {z}, {x} and {y} in it",
        ),
        (
            _tiles(url="https://tile.example/{x}/{y}.png"),
            "map_tiles.url: must be an https:// address with {z}, {x} and {y} in it",
        ),
        (_tiles(max_zoom=0), "map_tiles.max_zoom: must be 1 to 22"),
        (_tiles(max_zoom=23), "map_tiles.max_zoom: must be 1 to 22"),
        (_tiles(max_zoom="19"), "map_tiles.max_zoom: must be a whole number"),
        (lambda d: d["map_tiles"].pop("max_zoom"), "map_tiles.max_zoom: is missing"),
        (lambda d: d["map_tiles"].pop("url"), "map_tiles.url: is missing"),
        (lambda d: d.update(map_tiles="osm"), "map_tiles: expected a mapping of fields"),
        (
            lambda d: d["map_tiles"].update(credit="x"),
            "map_tiles.credit: is not a field this file has",
        ),
    ],
)
def test_map_tiles_refused(change, message):
    assert refused(change) == f"site.yaml: {message}"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: d.update(colours={"brand": "navy", "background": "#ffffff"}),
            "colours.brand: must be a colour like #0b4f6c, not 'navy'",
        ),
        (
            lambda d: d.update(colours={"brand": "#0b4f6c", "background": "#fff"}),
            "colours.background: must be a colour like #0b4f6c, not '#fff'",
        ),
        (
            lambda d: d.update(colours={"brand": "#0b4f6c"}),
            "colours.background: is missing",
        ),
        (
            lambda d: d.update(colours={"brand": "#0b4f6c", "background": "#fff", "text": "#000"}),
            "colours.background: must be a colour like #0b4f6c, not '#fff'",
        ),
        (
            lambda d: d.update(colours={"brand": "#0b4f6c", "background": "#ffffff", "x": 1}),
            "colours.x: is not a field this file has",
        ),
    ],
)
def test_colours_refused(change, message):
    assert refused(change) == f"site.yaml: {message}"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: d["office"].update(opens="7:30"),
            "office.opens: '7:30' is not a time like 16:00",
        ),
        (
            lambda d: d["office"].update(closes="late"),
            "office.closes: 'late' is not a time like 16:00",
        ),
        (lambda d: d["office"].pop("opens"), "office.opens: is missing"),
        (
            lambda d: d.update(timezone="Mars/Olympus"),
            "timezone: 'Mars/Olympus' is not a known time zone",
        ),
        (
            lambda d: d.update(timezone="/etc/passwd"),
            "timezone: '/etc/passwd' is not a known time zone",
        ),
        (lambda d: d.pop("timezone"), "timezone: is missing"),
        (
            lambda d: d.update(reporting_year_starts="1-3"),
            "reporting_year_starts: '1-3' is not a month and day like 01-03",
        ),
        (
            lambda d: d.update(reporting_year_starts="02-30"),
            "reporting_year_starts: '02-30' is not a month and day like 01-03",
        ),
        (
            lambda d: d.update(reporting_year_starts="02-29"),
            "reporting_year_starts: February 29 is not a date in three years of four, so no year "
            "could start on it",
        ),
        (
            lambda d: d["holidays"].update(closures=["2026-11-27", "11/27/2026"]),
            "holidays.closures[1]: '11/27/2026' is not a date (YYYY-MM-DD)",
        ),
        (
            lambda d: d["holidays"].update(closures="2026-11-27"),
            "holidays.closures: must be a list",
        ),
        (
            lambda d: d["written_confirmation"].update(contents=[]),
            "written_confirmation.contents: must be a list of non-empty texts",
        ),
        (
            lambda d: d["written_confirmation"].update(contents=["the date", "  "]),
            "written_confirmation.contents: must be a list of non-empty texts",
        ),
        (
            lambda d: d["written_confirmation"].update(contents=["the date", 7]),
            "written_confirmation.contents: must be a list of non-empty texts",
        ),
        (
            lambda d: d["written_confirmation"].pop("contents"),
            "written_confirmation.contents: is missing",
        ),
        (
            lambda d: d["office"].update(location={"latitude": 91, "longitude": -76.0}),
            "office.location.latitude: must be a number from -90 to 90",
        ),
        (
            lambda d: d["office"].update(location={"latitude": 42.9, "longitude": -180.5}),
            "office.location.longitude: must be a number from -180 to 180",
        ),
        (
            lambda d: d["office"].update(location={"latitude": 42.9}),
            "office.location.longitude: is missing",
        ),
        (lambda d: d["phones"].pop("emergency"), "phones.emergency: is missing"),
        (lambda d: d["phones"]["highway"].pop("label"), "phones.highway.label: is missing"),
        (lambda d: d.pop("referral_agencies"), "referral_agencies: is missing"),
        (lambda d: d.pop("hazard_rules"), "hazard_rules: is missing"),
        (
            lambda d: d["hazard_rules"].append({"name": "Smoke"}),
            "hazard_rules[4].words: a rule needs indicators, odors or words",
        ),
        (
            lambda d: d["hazard_rules"].append({"indicators": ["smoke"]}),
            "hazard_rules[4].name: is missing",
        ),
        (lambda d: d["holidays"].pop("source"), "holidays.source: is missing"),
        (lambda d: d["smo"].pop("title"), "smo.title: is missing"),
        (lambda d: d["state_reporting"].pop("hazardous"), "state_reporting.hazardous: is missing"),
        (lambda d: d.pop("record_keeping_reading"), "record_keeping_reading: is missing"),
        (
            lambda d: d["online_filing"].update(counts_as_notice="yes"),
            "online_filing.counts_as_notice: must be true or false",
        ),
        (lambda d: d.update(extra=1), "extra: is not a field this file has"),
    ],
)
def test_a_value_refused(change, message):
    assert refused(change) == f"site.yaml: {message}"


def test_a_hazard_rule_by_one_kind_of_sign_is_enough_and_its_words_are_lower_case():
    def rules(d):
        d["hazard_rules"] = [
            {"name": "Smell", "odors": [" Rotten Eggs "]},
            {"name": "Sheen", "indicators": ["SHEEN"]},
            {"name": "Words", "words": ["Diesel", "fuel"]},
        ]

    read = settings(rules).hazard_rules
    assert [(r.name, r.indicators, r.odors, r.words) for r in read] == [
        ("Smell", (), ("rotten eggs",), ()),
        ("Sheen", ("sheen",), (), ()),
        ("Words", (), (), ("diesel", "fuel")),
    ]


def test_readings_and_words_are_stripped():
    def spaced(d):
        d["written_confirmation"]["contents"] = ["  your signature  "]
        d["referral_agencies"] = [" County ", 42]

    s = settings(spaced)
    assert s.written_confirmation.contents == ("your signature",)
    assert s.referral_agencies == (" County ", "42")


def test_the_permit_year_may_start_on_any_day_every_year_has():
    assert settings(lambda d: d.update(reporting_year_starts="12-31")).reporting_year_starts == (
        12,
        31,
    )
    assert settings(lambda d: d.update(reporting_year_starts="02-28")).reporting_year_starts == (
        2,
        28,
    )
