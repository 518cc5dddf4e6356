"""site.yaml as the loader reads it (content_model/site.py and site_values.py): what each
field gives, the default of each one a pack may leave out, and what a content editor is told
for a value refused. The test pack's site.yaml, changed one field at a time."""

from __future__ import annotations

import copy
import datetime as dt
from pathlib import Path

import pytest
import yaml
from pack_traces import PACK

from content_model.fields import ContentError
from content_model.site import Colours, Holiday, load_settings, tel_uri

PACK_SITE = yaml.safe_load((PACK / "site.yaml").read_text(encoding="utf-8"))


def settings(change=None):
    data = copy.deepcopy(PACK_SITE)
    if change:
        change(data)
    return load_settings(Path("site.yaml"), data)


def refused(change) -> str:
    with pytest.raises(ContentError) as error:
        settings(change)
    return str(error.value)


def test_the_test_pack_as_read():
    s = settings()
    assert (s.name, s.short_name, s.kind, s.state) == (
        "Town of Wrenfield",
        "Wrenfield",
        "Town",
        "New York",
    )
    assert s.code_title == "Code of the Town of Wrenfield"
    office = s.office
    assert (office.name, office.street, office.locality) == (
        "Wrenfield Town Hall",
        "45 Mill Road",
        "Wrenfield, New York 13999",
    )
    assert (office.phone.label, office.phone.number) == ("Town Clerk", "(315) 555-0142")
    assert office.hours == "Monday to Friday, 7:30 a.m. to 3:30 p.m."
    assert (office.opens, office.closes) == (dt.time(7, 30), dt.time(15, 30))
    assert (office.email, office.fax) == ("clerk@wrenfield.example", "(315) 555-0143")
    assert office.office_hours_apply_to_fax is False
    assert (office.latitude, office.longitude) == (42.9412, -76.0391)
    assert (s.smo_title, s.smo_email, s.smo_fax) == (
        "Town Stormwater Coordinator",
        "stormwater@wrenfield.example",
        None,
    )
    assert s.notice_fax == "(315) 555-0143"
    assert list(s.phones) == ["emergency", "police", "spill_hotline", "highway"]
    assert (s.phones["highway"].label, s.phones["highway"].number) == (
        "Town Highway Department",
        "(315) 555-0188",
    )
    assert (s.public_url, s.portal_origin) == (None, None)
    assert s.legal_notice == "A plain-language guide, not legal advice. The Town's law governs."
    assert s.penalties.startswith("Under § 147-13 B, a person convicted")
    assert s.unofficial_notice.startswith("This is an unofficial copy of the law")
    assert s.record_keeping_reading.startswith("The Town's law does not say when")
    assert s.record_keepers_reading.startswith("The law does not say which places")
    assert (s.online_filing.counts_as_notice, s.online_filing.counts_as_written_confirmation) == (
        True,
        False,
    )
    assert s.written_confirmation.contents[3] == "your signature and the date"
    assert len(s.written_confirmation.contents) == 4
    assert s.written_confirmation.printed_receipt_accepted is True
    assert s.state_reporting.within == "within two hours of discovery"
    assert s.state_reporting.petroleum.startswith("a petroleum spill, unless")
    assert s.state_reporting.hazardous.startswith("a hazardous substance released")
    assert str(s.timezone) == "America/New_York"
    assert s.referral_agencies == (
        "New York State Department of Environmental Conservation (NYSDEC)",
        "Alder County Soil and Water Conservation District",
    )
    assert s.reporting_year_starts == (1, 3)
    assert s.colours == Colours("#0b4f6c", "#ffffff")


def test_the_holidays_as_read():
    rules = settings().holidays
    assert rules.source == "the Town's holiday schedule"
    assert (rules.sunday_to_monday, rules.saturday_to_friday) == (True, True)
    assert rules.proclaimed is None
    assert rules.closures == (dt.date(2026, 11, 27), dt.date(2026, 12, 24))
    assert rules.observed[0] == Holiday("New Year's Day", 1, day=1)
    assert rules.observed[3] == Holiday("Memorial Day", 5, weekday=0, nth=-1)
    assert rules.observed[7] == Holiday("Election Day", 11, weekday=1, after_first=0)
    assert rules.observed[9] == Holiday("Thanksgiving Day", 11, weekday=3, nth=4)
    assert all(h.shift for h in rules.observed)


def test_what_a_pack_may_leave_out_and_its_default():
    def leave_out(d):
        for key in ("email", "fax", "office_hours_apply_to_fax", "location"):
            d["office"].pop(key, None)
        d["smo"].pop("email")
        d.pop("public_url")
        d.pop("portal_origin")
        d.pop("online_filing")
        d["online_filing"] = {}
        d["written_confirmation"].pop("printed_receipt_accepted")
        for key in ("sunday_to_monday", "saturday_to_friday", "closures"):
            d["holidays"].pop(key)
        d.pop("colours", None)

    s = settings(leave_out)
    assert (s.office.email, s.office.fax, s.smo_email, s.smo_fax) == (None, None, None, None)
    assert s.notice_fax is None
    assert s.office.office_hours_apply_to_fax is False
    assert (s.office.latitude, s.office.longitude) == (None, None)
    assert (s.public_url, s.portal_origin) == (None, None)
    assert (s.online_filing.counts_as_notice, s.online_filing.counts_as_written_confirmation) == (
        False,
        False,
    )
    assert s.written_confirmation.printed_receipt_accepted is False
    assert (s.holidays.sunday_to_monday, s.holidays.saturday_to_friday) == (True, False)
    assert s.holidays.closures == ()
    assert s.colours == Colours("#0b4f6c", "#ffffff")


def test_switches_turned_the_other_way():
    def turn(d):
        d["office"]["office_hours_apply_to_fax"] = True
        d["online_filing"] = {"counts_as_notice": False, "counts_as_written_confirmation": True}
        d["holidays"].update(sunday_to_monday=False, saturday_to_friday=False)
        d["holidays"]["proclaimed"] = "Days the Governor proclaims."
        d["holidays"]["observed"][0]["shift"] = False
        d["smo"]["fax"] = "(315) 555-0199"
        d["office"]["fax"] = None
        d["public_url"] = "https://wrenfield.example/stormwater/"
        d["portal_origin"] = "https://portal.wrenfield.example"
        d["colours"] = {"brand": "#123ABC", "background": "#fafafa"}
        d["holidays"]["closures"] = [dt.date(2027, 1, 2)]

    s = settings(turn)
    assert s.office.office_hours_apply_to_fax is True
    assert (s.online_filing.counts_as_notice, s.online_filing.counts_as_written_confirmation) == (
        False,
        True,
    )
    assert (s.holidays.sunday_to_monday, s.holidays.saturday_to_friday) == (False, False)
    assert s.holidays.proclaimed == "Days the Governor proclaims."
    assert s.holidays.observed[0].shift is False and s.holidays.observed[1].shift is True
    assert s.notice_fax == "(315) 555-0199", "the officer's fax when the office has none"
    assert s.public_url == "https://wrenfield.example/stormwater/"
    assert s.portal_origin == "https://portal.wrenfield.example"
    assert s.colours == Colours("#123ABC", "#fafafa")
    assert s.holidays.closures == (dt.date(2027, 1, 2),)


def test_what_the_filing_is_called():
    assert (settings().online_filing.name, settings().online_filing.short) == (
        "release notification",
        "notification",
    )
    record = settings(lambda d: d["online_filing"].update(counts_as_notice=False)).online_filing
    assert (record.name, record.short) == ("record of a release", "record")


@pytest.mark.parametrize(
    ("number", "tel"),
    [
        ("(315) 555-0142", "+13155550142"),
        ("1-800-457-7362", "+18004577362"),
        ("315.555.0142 ext", "+13155550142"),
        (" +44 20 7946 0958", "+442079460958"),
        ("911", "911"),
        ("555-555-012", "555555012"),
        (None, ""),
        ("", ""),
    ],
)
def test_a_phone_number_as_a_tel_link(number, tel):
    assert tel_uri(number) == tel


def test_a_pack_without_colours_or_map():
    s = settings(lambda d: d.update(colours=None, map_tiles=None))
    assert s.colours == Colours("#0b4f6c", "#ffffff")
    assert s.map_tiles is None


def test_the_map_tiles_as_read_and_their_credit_link_optional():
    tiles = settings().map_tiles
    assert (tiles.url, tiles.attribution, tiles.attribution_url, tiles.max_zoom) == (
        "https://tile.openstreetmap.org/{z}/{x}/{y}.png",
        "© OpenStreetMap contributors",
        "https://www.openstreetmap.org/copyright",
        19,
    )
    tiles = settings(lambda d: d["map_tiles"].pop("attribution_url")).map_tiles
    assert tiles.attribution_url is None
    for zoom in (1, 22):
        assert (
            settings(lambda d, z=zoom: d["map_tiles"].update(max_zoom=z)).map_tiles.max_zoom == zoom
        )


def test_the_service_area_as_read():
    area = settings().service_area
    assert (area.name, area.south, area.west, area.north, area.east) == (
        "the Town of Wrenfield",
        42.9,
        -76.1,
        42.98,
        -75.98,
    )
    assert (area.center_latitude, area.center_longitude, area.zoom) == (42.94, -76.04, 14)
    assert isinstance(area.zoom, int)


def test_a_holiday_on_february_29_is_read_for_the_checker_to_name():
    s = settings(
        lambda d: d["holidays"]["observed"].append({"name": "Leap", "month": 2, "day": 29})
    )
    assert s.holidays.observed[-1] == Holiday("Leap", 2, day=29)


@pytest.mark.parametrize(
    ("rule", "read"),
    [
        ({"month": 12, "day": 31}, Holiday("X", 12, day=31)),
        ({"month": 10, "weekday": "Monday", "nth": 2}, Holiday("X", 10, weekday=0, nth=2)),
        ({"month": 6, "weekday": "SUNDAY", "nth": 1}, Holiday("X", 6, weekday=6, nth=1)),
        ({"month": 3, "weekday": "friday", "nth": 3}, Holiday("X", 3, weekday=4, nth=3)),
        ({"month": 5, "weekday": "monday", "nth": -1}, Holiday("X", 5, weekday=0, nth=-1)),
        (
            {"month": 11, "weekday": "tuesday", "after_first": "Monday"},
            Holiday("X", 11, weekday=1, after_first=0),
        ),
    ],
)
def test_a_holiday_rule_as_read(rule, read):
    s = settings(lambda d: d["holidays"].update(observed=[{"name": "X", **rule}]))
    assert s.holidays.observed == (read,)


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        ({"month": 0, "day": 1}, "holidays.observed[0].month: must be 1 to 12"),
        ({"month": 13, "day": 1}, "holidays.observed[0].month: must be 1 to 12"),
        ({"day": 1}, "holidays.observed[0].month: is missing"),
        ({"month": 2, "day": 30}, "holidays.observed[0].day: month 2 has no day 30"),
        ({"month": 4, "day": 31}, "holidays.observed[0].day: month 4 has no day 31"),
        (
            {"month": 9, "weekday": "Funday", "nth": 1},
            "holidays.observed[0].weekday: must be a weekday name, not 'Funday'",
        ),
        (
            {"month": 11, "weekday": "tuesday", "after_first": "first"},
            "holidays.observed[0].after_first: must be a weekday name, not 'first'",
        ),
        (
            {"month": 9, "weekday": "monday"},
            "holidays.observed[0].day: give a day, or a weekday with nth or after_first",
        ),
        (
            {"month": 9, "nth": 1},
            "holidays.observed[0].day: give a day, or a weekday with nth or after_first",
        ),
        (
            {"month": 9, "weekday": "monday", "nth": 1, "after_first": "monday"},
            "holidays.observed[0].day: give a day, or a weekday with nth or after_first",
        ),
        (
            {"month": 9, "weekday": "monday", "nth": 0},
            "holidays.observed[0].nth: must be 1 to 4, or -1 for the last",
        ),
        (
            {"month": 9, "weekday": "monday", "nth": 5},
            "holidays.observed[0].nth: must be 1 to 4, or -1 for the last",
        ),
        (
            {"month": 9, "weekday": "monday", "nth": -2},
            "holidays.observed[0].nth: must be 1 to 4, or -1 for the last",
        ),
        (
            {"month": 1, "day": 1, "shift": "no"},
            "holidays.observed[0].shift: must be true or false",
        ),
    ],
)
def test_a_holiday_rule_refused(rule, message):
    assert refused(lambda d: d["holidays"].update(observed=[{"name": "X", **rule}])) == (
        f"site.yaml: {message}"
    )


def test_an_office_location_given_as_null():
    s = settings(lambda d: d["office"].update(location=None))
    assert (s.office.latitude, s.office.longitude) == (None, None)
