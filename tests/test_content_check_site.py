"""What the content checker tells a content editor about site.yaml (content_model/check/
site.py), beyond tests/test_content_check.py's cases: each value it refuses with its fix,
fields left out at every depth, several problems at once, and phone numbers."""

from __future__ import annotations

import pytest
from test_content_check import PHONE_FIX, RULE_FIX, _holiday, _replace, _site, broken_pack

from content_model.check import check_pack, is_phone_number

AREA_FIX = "give the box's edges in degrees (south < north, west < east) and a center inside it"
TILES_FIX = (
    "give an https:// address with {z}, {x} and {y}, its credit and max_zoom, "
    "or map_tiles: null for no map"
)


def told(tmp_path, *edits) -> list[str]:
    return [str(p) for p in check_pack(broken_pack(tmp_path, *edits))]


def test_a_missing_site_yaml(tmp_path):
    assert told(tmp_path, lambda root: (root / "site.yaml").unlink()) == [
        "site.yaml: file is missing\n"
        "    fix: copy site.yaml from content/ into the pack and change it"
    ]


def test_site_yaml_that_is_not_yaml(tmp_path):
    [problem] = told(tmp_path, _replace("site.yaml", "municipality:", "municipality: ["))
    assert problem.startswith("site.yaml: not valid YAML: while parsing")
    assert problem.endswith("\n    fix: correct the YAML at the line and column named")


def test_site_yaml_that_is_a_list(tmp_path):
    def as_list(root):
        (root / "site.yaml").write_text("- name: Wrenfield\n", encoding="utf-8")

    assert told(tmp_path, as_list) == [
        "site.yaml: the top level: expected a mapping of fields\n    fix: start from the default"
    ]


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            _site(lambda d: d["office"].update(opens="7.30")),
            "site.yaml: office.opens: '7.30' is not a time like 16:00\n"
            '    fix: write a 24-hour time in quotes, like "08:00"',
        ),
        (
            _site(lambda d: d["map_tiles"].update(max_zoom=0)),
            f"site.yaml: map_tiles.max_zoom: must be 1 to 22\n    fix: {TILES_FIX}",
        ),
        (
            _site(lambda d: d["map_tiles"].update(url="http://tiles.example/{z}/{x}/{y}")),
            "site.yaml: map_tiles.url: must be an https:// address with {z}, {x} and {y} in it\n"
            f"    fix: {TILES_FIX}",
        ),
        (
            _site(lambda d: d["service_area"]["center"].update(zoom=0)),
            f"site.yaml: service_area.center.zoom: must be a number from 1 to 19\n    fix: {AREA_FIX}",
        ),
        (
            _site(lambda d: d["service_area"].update(south=43.0)),
            "site.yaml: service_area.south: the box must have south < north and west < east\n"
            f"    fix: {AREA_FIX}",
        ),
        (
            _site(lambda d: d.update(reporting_year_starts="Jan 3")),
            "site.yaml: reporting_year_starts: 'Jan 3' is not a month and day like 01-03\n"
            '    fix: write the month and day in quotes, like "01-03"',
        ),
        (
            _site(lambda d: d["office"]["location"].update(latitude=91)),
            "site.yaml: office.location.latitude: must be a number from -90 to 90\n"
            "    fix: change `office.location.latitude` as the message says",
        ),
        (
            _site(lambda d: d.update(office="Town Hall")),
            "site.yaml: office: expected a mapping of fields\n"
            "    fix: change `office` as the message says",
        ),
        (
            _site(lambda d: d.update(holidays="the State's")),
            "site.yaml: holidays: expected a mapping of fields\n"
            "    fix: change `holidays` as the message says",
        ),
        (
            _site(lambda d: d["office"].update(fax="")),
            "site.yaml: office.fax: must be non-empty text\n"
            "    fix: change `office.fax` as the message says",
        ),
        (
            _site(lambda d: d["office"].update(fax=3155550143)),
            f"site.yaml: office.fax: 3155550143 is not a phone number\n    fix: {PHONE_FIX}",
        ),
        (
            _site(lambda d: d["smo"].update(fax="fax us")),
            f"site.yaml: smo.fax: 'fax us' is not a phone number\n    fix: {PHONE_FIX}",
        ),
        (
            _site(lambda d: d["phones"]["highway"].update(number="ext. 12")),
            f"site.yaml: phones.highway.number: 'ext. 12' is not a phone number\n    fix: {PHONE_FIX}",
        ),
        (
            _site(lambda d: d["holidays"]["observed"].__setitem__(3, "Memorial Day")),
            "site.yaml: holidays.observed[3]: is not a holiday rule\n"
            "    fix: write it like {name: Labor Day, month: 9, weekday: monday, nth: 1}",
        ),
        (
            _holiday(1, name="MLK Day", month=1, weekday="Mon", nth=3),
            "site.yaml: holidays.observed[1].weekday: must be a weekday name, not 'Mon'\n"
            f"    fix: {RULE_FIX}",
        ),
    ],
    ids=[
        "opening time",
        "map zoom",
        "map over http",
        "area zoom",
        "area box",
        "permit year",
        "office latitude",
        "office not a mapping",
        "holidays not a mapping",
        "empty fax",
        "fax unquoted",
        "officer's fax",
        "extra phone",
        "holiday as words",
        "weekday abbreviated",
    ],
)
def test_a_value_refused_and_its_fix(tmp_path, edit, message):
    assert told(tmp_path, edit) == [message]


def test_a_field_left_out_deep_down_or_in_a_list(tmp_path):
    found = told(
        tmp_path,
        _site(lambda d: d["service_area"]["center"].pop("zoom")),
        _site(lambda d: d["holidays"]["observed"][0].pop("name")),
        _site(lambda d: d.pop("timezone")),
    )
    assert found == [
        "site.yaml: holidays.observed[0].name: is missing\n"
        "    fix: add `name` under `holidays.observed[0]` (see the default pack)",
        "site.yaml: timezone: is missing\n"
        "    fix: add `timezone` at the top level (see the default pack)",
        "site.yaml: service_area.center.zoom: is missing\n"
        "    fix: add `zoom` under `service_area.center` (see the default pack)",
    ]


def test_a_whole_mapping_left_out_is_named_once(tmp_path):
    assert told(tmp_path, _site(lambda d: d.pop("office"))) == [
        "site.yaml: office: is missing\n"
        "    fix: add `office` at the top level (see the default pack)"
    ]


def test_a_refused_holiday_rule_is_named_once_not_its_other_fields_too(tmp_path):
    found = told(
        tmp_path,
        _holiday(2, month=13, day=1),
        _site(lambda d: d["office"].pop("hours")),
    )
    assert found == [
        "site.yaml: office.hours: is missing\n"
        "    fix: add `hours` under `office` (see the default pack)",
        f"site.yaml: holidays.observed[2].month: must be 1 to 12\n    fix: {RULE_FIX}",
    ]


def test_a_refused_rule_past_the_default_packs_list_does_not_hide_what_follows(tmp_path):
    """The default pack has 14 rules: a bad 16th is taken out, and the loader read on."""

    def many(d):
        rules = d["holidays"]["observed"]
        rules += [{"name": f"Day {n}", "month": 3, "day": n} for n in range(1, 5)]
        rules.append({"month": 3, "day": 40})

    found = told(tmp_path, _site(many), _site(lambda d: d.pop("timezone")))
    assert found == [
        "site.yaml: timezone: is missing\n"
        "    fix: add `timezone` at the top level (see the default pack)",
        f"site.yaml: holidays.observed[15].day: month 3 has no day 40\n    fix: {RULE_FIX}",
    ]


def test_every_value_is_judged_though_one_is_missing(tmp_path):
    found = told(
        tmp_path,
        _site(lambda d: d.pop("timezone")),
        _site(lambda d: d["office"].pop("phone")),
        _site(lambda d: d["office"].update(closes="5pm")),
        _site(lambda d: d["smo"].update(fax="none")),
        _holiday(0, name="New Year", month=1),
        _holiday(5, name="Fourth", month=7, day=32),
    )
    assert found == [
        "site.yaml: office.phone: is missing\n"
        "    fix: add `phone` under `office` (see the default pack)",
        "site.yaml: timezone: is missing\n"
        "    fix: add `timezone` at the top level (see the default pack)",
        "site.yaml: office.closes: '5pm' is not a time like 16:00\n"
        '    fix: write a 24-hour time in quotes, like "16:00"',
        f"site.yaml: smo.fax: 'none' is not a phone number\n    fix: {PHONE_FIX}",
        "site.yaml: holidays.observed[0].day: give a day, or a weekday with nth or after_first\n"
        f"    fix: {RULE_FIX}",
        f"site.yaml: holidays.observed[5].day: month 7 has no day 32\n    fix: {RULE_FIX}",
    ]


def test_a_pack_without_an_office_location_or_map_is_clean(tmp_path):
    assert told(tmp_path / "a", _site(lambda d: d["office"].pop("location"))) == []
    assert told(tmp_path / "b", _site(lambda d: d.update(map_tiles=None))) == []


def test_an_office_outside_the_box_to_the_west(tmp_path):
    assert told(tmp_path, _site(lambda d: d["office"]["location"].update(longitude=-77.0))) == [
        "site.yaml: service_area: the office at 42.94120, -77.00000 is outside the service area "
        "(the Town of Wrenfield: latitude 42.9 to 42.98, longitude -76.1 to -75.98)\n"
        "    fix: widen the service_area box to take in the office, or correct office.location"
    ]


def test_an_office_outside_a_box_the_loader_refuses_is_not_named(tmp_path):
    found = told(
        tmp_path,
        _site(lambda d: d["office"]["location"].update(latitude=43.5)),
        _site(lambda d: d["service_area"].update(west=-75.0)),
    )
    assert found == [
        "site.yaml: service_area.south: the box must have south < north and west < east\n"
        f"    fix: {AREA_FIX}"
    ]


@pytest.mark.parametrize(
    ("number", "ok"),
    [
        ("2125550100", True),
        ("1 (212) 555-0100", True),
        ("(115) 555-0142", False),
        ("2-800-457-7362", False),
        ("1-800-457-736", False),
        ("211", True),
        ("011", False),
        ("(607) 739-5691 x2", False),
        ("", False),
    ],
)
def test_more_of_what_counts_as_a_phone_number(number, ok):
    assert is_phone_number(number) is ok


def test_a_refused_value_taken_out_does_not_hide_a_field_missing_after_it(tmp_path):
    found = told(
        tmp_path,
        _site(lambda d: d["office"].update(fax="")),
        _site(lambda d: d.pop("timezone")),
    )
    assert found == [
        "site.yaml: timezone: is missing\n"
        "    fix: add `timezone` at the top level (see the default pack)",
        "site.yaml: office.fax: must be non-empty text\n"
        "    fix: change `office.fax` as the message says",
    ]


def test_a_refused_rule_just_past_the_default_packs_list(tmp_path):
    def many(d):
        rules = d["holidays"]["observed"]
        rules += [{"name": f"Day {n}", "month": 3, "day": n} for n in range(1, 4)]
        rules.append({"month": 3, "day": 40})

    found = told(tmp_path, _site(many), _site(lambda d: d.pop("timezone")))
    assert found == [
        "site.yaml: timezone: is missing\n"
        "    fix: add `timezone` at the top level (see the default pack)",
        f"site.yaml: holidays.observed[14].day: month 3 has no day 40\n    fix: {RULE_FIX}",
    ]


def test_a_missing_center_is_named_once_not_filled_in_for_the_box_checks(tmp_path):
    assert told(tmp_path, _site(lambda d: d["service_area"].pop("center"))) == [
        "site.yaml: service_area.center: is missing\n"
        "    fix: add `center` under `service_area` (see the default pack)"
    ]


def test_a_rule_that_is_not_one_and_a_bad_rule_after_it(tmp_path):
    found = told(
        tmp_path,
        _site(lambda d: d["holidays"]["observed"].__setitem__(3, "Memorial Day")),
        _holiday(5, name="Fourth", month=7, day=32),
    )
    assert found == [
        "site.yaml: holidays.observed[3]: is not a holiday rule\n"
        "    fix: write it like {name: Labor Day, month: 9, weekday: monday, nth: 1}",
        f"site.yaml: holidays.observed[5].day: month 7 has no day 32\n    fix: {RULE_FIX}",
    ]


def test_a_pack_without_closures_is_clean(tmp_path):
    assert told(tmp_path, _site(lambda d: d["holidays"].pop("closures"))) == []


@pytest.mark.parametrize("number", ["607-739-5691 ext", "607_739_5691", "tel:6077395691"])
def test_a_number_with_other_characters_is_not_a_phone_number(number):
    assert is_phone_number(number) is False


def test_a_rule_past_the_default_packs_list_without_its_name(tmp_path):
    def many(d):
        rules = d["holidays"]["observed"]
        rules += [{"name": f"Day {n}", "month": 3, "day": n} for n in range(1, 5)]
        rules.append({"month": 3, "day": 5})

    assert told(tmp_path, _site(many)) == [
        "site.yaml: holidays.observed[15].name: is missing\n"
        "    fix: add `name` under `holidays.observed[15]` (see the default pack)"
    ]


def test_a_map_without_its_address_does_not_stop_the_checks_after_it(tmp_path):
    found = told(
        tmp_path,
        _site(lambda d: d["map_tiles"].pop("url")),
        _site(lambda d: d["holidays"].update(closures=["24 Dec"])),
    )
    assert found == [
        "site.yaml: map_tiles.url: is missing\n"
        "    fix: add `url` under `map_tiles` (see the default pack)",
        "site.yaml: holidays.closures[0]: '24 Dec' is not a date (YYYY-MM-DD)\n"
        "    fix: write each closure as a date, like 2026-12-24",
    ]


def test_a_citation_in_a_field_nothing_reads_is_named_by_its_whole_name(tmp_path):
    def extra(d):
        d["seeX"] = "See § 147-98."
        d["notesX"] = ["See § 147-99."]

    assert told(tmp_path, _site(extra)) == [
        "site.yaml: seeX: is not a field this file has\n"
        "    fix: remove `seeX`, or spell it as the field it was meant to be",
        "site.yaml: notesX: is not a field this file has\n"
        "    fix: remove `notesX`, or spell it as the field it was meant to be",
        "site.yaml: seeX: cites § 147-98, which is not in the ordinance\n"
        "    fix: cite a section or subdivision the ordinance has (§ 147-1 to § 147-20), or add "
        "it to ordinance.yaml",
        "site.yaml: notesX[0]: cites § 147-99, which is not in the ordinance\n"
        "    fix: cite a section or subdivision the ordinance has (§ 147-1 to § 147-20), or add "
        "it to ordinance.yaml",
    ]


def test_a_rule_without_its_name_does_not_stop_the_rules_after_it(tmp_path):
    found = told(
        tmp_path,
        _site(lambda d: d["holidays"]["observed"][0].pop("name")),
        _holiday(5, name="Fourth", month=7, day=32),
    )
    assert found == [
        "site.yaml: holidays.observed[0].name: is missing\n"
        "    fix: add `name` under `holidays.observed[0]` (see the default pack)",
        f"site.yaml: holidays.observed[5].day: month 7 has no day 32\n    fix: {RULE_FIX}",
    ]
