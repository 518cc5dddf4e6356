"""How every content file is read (content_model/fields.py): each kind of field, what it
gives for a value, a missing key and a bad type, and what a content editor is told."""

from __future__ import annotations

from pathlib import Path

import pytest

from content_model.fields import ContentError, Fields, keywords, read_yaml, slugify


def refused(call) -> str:
    with pytest.raises(ContentError) as error:
        call()
    return str(error.value)


def test_a_file_that_is_not_a_mapping_is_named_at_the_top_level():
    assert refused(lambda: Fields([1, 2], "site.yaml")) == (
        "site.yaml: the top level: expected a mapping of fields"
    )
    assert refused(lambda: Fields(None, "open311.yaml")) == (
        "open311.yaml: the top level: expected a mapping of fields"
    )


def test_a_nested_field_that_is_not_a_mapping_is_named_by_its_path():
    assert refused(lambda: Fields("text", "site.yaml", "office.location.")) == (
        "site.yaml: office.location: expected a mapping of fields"
    )
    fields = Fields({"office": ["a list"]}, "site.yaml")
    assert refused(lambda: fields.mapping("office")) == (
        "site.yaml: office: expected a mapping of fields"
    )


def test_text_is_stripped_and_a_number_is_text_too():
    fields = Fields({"name": "  Wrenfield  ", "zip": 13999, "zero": 0}, "site.yaml")
    assert fields.text("name") == "Wrenfield"
    assert fields.text("zip") == "13999"
    assert fields.text("zero") == "0"


@pytest.mark.parametrize("value", ["", "   ", True, False, [1], {"a": 1}, 1.5])
def test_text_refuses_what_is_not_text(value):
    fields = Fields({"office": {"name": value}}, "site.yaml").mapping("office")
    assert refused(lambda: fields.text("name")) == "site.yaml: office.name: must be non-empty text"


def test_a_missing_text_is_named_unless_optional():
    fields = Fields({"email": None}, "site.yaml", "office.")
    assert refused(lambda: fields.text("name")) == "site.yaml: office.name: is missing"
    assert refused(lambda: fields.text("email")) == "site.yaml: office.email: is missing"
    assert fields.text("email", optional=True) is None
    assert fields.text("fax", optional=True) is None


def test_a_number_is_a_float_within_its_bounds_both_ends_included():
    fields = Fields({"low": -90, "high": 90, "mid": 42.5, "int": 3}, "site.yaml")
    assert fields.number("low", -90, 90) == -90.0
    assert fields.number("high", -90, 90) == 90.0
    assert fields.number("mid", -90, 90) == 42.5
    value = fields.number("int", 1, 19)
    assert value == 3.0 and isinstance(value, float)


@pytest.mark.parametrize("value", [-90.5, 90.01, "42", True])
def test_a_number_out_of_bounds_or_not_a_number_is_refused(value):
    fields = Fields({"center": {"latitude": value}}, "site.yaml").mapping("center")
    assert refused(lambda: fields.number("latitude", -90, 90)) == (
        "site.yaml: center.latitude: must be a number from -90 to 90"
    )


def test_a_number_left_out_is_missing_and_true_is_not_a_number_even_within_bounds():
    fields = Fields({"zoom": True, "none": None}, "site.yaml")
    assert refused(lambda: fields.number("none", 0, 19)) == "site.yaml: none: is missing"
    assert refused(lambda: fields.number("zoom", 0, 19)) == (
        "site.yaml: zoom: must be a number from 0 to 19"
    )


def test_a_whole_number():
    fields = Fields({"month": 7, "day": None, "nth": "3", "yes": True, "half": 2.5}, "x.yaml")
    assert fields.integer("month") == 7
    assert fields.integer("day", optional=True) is None
    assert fields.integer("gone", True) is None
    assert refused(lambda: fields.integer("day")) == "x.yaml: day: is missing"
    assert refused(lambda: fields.integer("gone")) == "x.yaml: gone: is missing"
    for key in ("nth", "yes", "half"):
        assert (
            refused(lambda key=key: fields.integer(key)) == f"x.yaml: {key}: must be a whole number"
        )
        assert refused(lambda key=key: fields.integer(key, True)) == (
            f"x.yaml: {key}: must be a whole number"
        )


def test_a_switch_takes_its_default_when_left_out_and_nothing_but_true_or_false():
    fields = Fields({"on": True, "off": False, "word": "yes", "empty": None}, "site.yaml", "h.")
    assert fields.flag("on", False) is True
    assert fields.flag("off", True) is False
    assert fields.flag("absent", True) is True
    assert fields.flag("absent", False) is False
    assert refused(lambda: fields.flag("word", False)) == "site.yaml: h.word: must be true or false"
    assert refused(lambda: fields.flag("empty", True)) == (
        "site.yaml: h.empty: must be true or false"
    )
    assert fields.unknown() == [], "every switch read counts as read"


def test_a_missing_mapping_is_named_with_its_path():
    fields = Fields({"office": {"location": None}}, "site.yaml").mapping("office")
    assert refused(lambda: fields.mapping("location")) == "site.yaml: office.location: is missing"
    inner = Fields({"a": {"b": {"c": 1}}}, "f.yaml").mapping("a").mapping("b")
    assert inner.integer("c") == 1
    assert refused(lambda: inner.text("d")) == "f.yaml: a.b.d: is missing"


def test_records_are_each_item_a_mapping_named_by_its_index():
    fields = Fields({"observed": [{"month": 1}, {"month": 2}], "bad": [{"a": 1}, "x"]}, "s.yaml")
    items = fields.records("observed")
    assert [item.integer("month") for item in items] == [1, 2]
    assert refused(lambda: items[1].text("name")) == "s.yaml: observed[1].name: is missing"
    assert refused(lambda: fields.records("bad")) == (
        "s.yaml: bad[1]: expected a mapping of fields"
    )


def test_records_left_out_or_not_a_list():
    fields = Fields({"empty": [], "none": None, "text": "a, b"}, "s.yaml", "holidays.")
    assert fields.records("empty") == []
    assert fields.records("none", optional=True) == []
    assert fields.records("absent", True) == []
    assert refused(lambda: fields.records("none")) == "s.yaml: holidays.none: is missing"
    assert refused(lambda: fields.records("text")) == "s.yaml: holidays.text: must be a list"


def test_values_are_a_list_as_it_is():
    fields = Fields({"list": [1, "b", None], "none": None, "map": {"a": 1}}, "s.yaml")
    assert fields.values("list") == [1, "b", None]
    assert fields.values("none", optional=True) == []
    assert fields.values("absent", True) == []
    assert refused(lambda: fields.values("absent")) == "s.yaml: absent: is missing"
    assert refused(lambda: fields.values("map")) == "s.yaml: map: must be a list"


def test_a_field_nothing_reads_is_named_with_the_nearest_field_read():
    fields = Fields({"opens": "08:00", "opening": "x", "zzz": 1}, "site.yaml", "office.")
    fields.text("opens")
    assert [str(e) for e in fields.unknown()] == [
        "site.yaml: office.opening: is not a field this file has (did you mean opens?)",
        "site.yaml: office.zzz: is not a field this file has",
    ]
    assert refused(fields.refuse_unknown) == (
        "site.yaml: office.opening: is not a field this file has (did you mean opens?)"
    )


def test_the_fields_of_every_mapping_and_record_read_through_it_are_checked():
    data = {
        "top": 1,
        "extra": 2,
        "office": {"name": "Hall", "nam": "x"},
        "items": [{"a": 1}, {"a": 2, "b": 3}],
    }
    fields = Fields(data, "s.yaml")
    fields.integer("top")
    fields.mapping("office").text("name")
    for item in fields.records("items"):
        item.integer("a")
    assert [str(e) for e in fields.unknown()] == [
        "s.yaml: extra: is not a field this file has",
        "s.yaml: office.nam: is not a field this file has (did you mean name?)",
        "s.yaml: items[1].b: is not a field this file has",
    ]


def test_fields_read_by_other_means_are_known():
    fields = Fields({"colours": None, "roles": {"a": 1}}, "s.yaml")
    fields.known("colours", "roles")
    assert fields.unknown() == []
    fields.refuse_unknown()


def test_a_number_key_is_named_as_text():
    fields = Fields({216: "x"}, "search.yaml", "sections.")
    assert [str(e) for e in fields.unknown()] == [
        "search.yaml: sections.216: is not a field this file has"
    ]


def test_keywords_are_stripped_words_and_optional():
    fields = Fields({"keywords": [" oil change ", 42], "k": 1}, "learn/motor-oil.md")
    assert keywords(fields) == ("oil change", "42")
    assert keywords(Fields({}, "learn/x.md")) == ()
    assert keywords(Fields({"keywords": None}, "learn/x.md")) == ()
    assert [str(e) for e in fields.unknown()] == [
        "learn/motor-oil.md: k: is not a field this file has"
    ]


def test_an_empty_keyword_is_refused():
    for words in ([" "], ["oil", ""]):
        fields = Fields({"keywords": words}, "learn/motor-oil.md")
        assert refused(lambda fields=fields: keywords(fields)) == (
            "learn/motor-oil.md: keywords: must be a list of words or phrases"
        )


def test_a_yaml_file_missing_or_malformed(tmp_path):
    assert refused(lambda: read_yaml(tmp_path / "site.yaml")) == "site.yaml: file is missing"
    (tmp_path / "open311.yaml").write_text("a: [1,\n", encoding="utf-8")
    message = refused(lambda: read_yaml(tmp_path / "open311.yaml"))
    assert message.startswith("open311.yaml: not valid YAML: while parsing a flow node\n")
    (tmp_path / "ok.yaml").write_text("a: 2026-12-24\nb: [x]\n", encoding="utf-8")
    import datetime as dt

    assert read_yaml(Path(tmp_path / "ok.yaml")) == {"a": dt.date(2026, 12, 24), "b": ["x"]}


def test_slugify_drops_punctuation_at_either_end():
    assert slugify("(a) Stormwater, Runoff.") == "a-stormwater-runoff"
    assert slugify("MS4") == "ms4"
