"""Each validator alone, as a table of input and the message a person would see."""

from __future__ import annotations

import datetime as dt

import pytest
from wtforms import Form, StringField
from wtforms.validators import StopValidation, ValidationError

from portal.intake.validators import (
    coordinate,
    email_address,
    not_in_future,
    phone_number,
    printable_text,
)

TZ = dt.timezone(dt.timedelta(hours=-5))
NOW = dt.datetime(2026, 11, 29, 12, 0, tzinfo=TZ)


def run(validator, value):
    class F(Form):
        f = StringField()

    form = F(data={"f": value})
    validator(form, form.f)
    return form.f.data


@pytest.mark.parametrize(
    ("value", "expected"),
    [("42.16701", 42.16701), (" -76.8210 ", -76.821), ("", None), ("42,5", 42.5), ("90", 90.0)],
)
def test_coordinate_accepts(value, expected):
    assert run(coordinate(-90, 90, "latitude"), value) == expected


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("200", "The latitude must be between -90 and 90."),
        ("-90.5", "The latitude must be between -90 and 90."),
        ("north", "Enter the latitude as a decimal number, or leave it empty."),
        ("nan", "The latitude must be between -90 and 90."),
        ("inf", "The latitude must be between -90 and 90."),
    ],
)
def test_coordinate_refuses(value, message):
    with pytest.raises(StopValidation, match=f"^{message}$"):
        run(coordinate(-90, 90, "latitude"), value)


def test_not_in_future():
    check = not_in_future()

    class F(Form):
        f = StringField()
        clock = staticmethod(lambda: NOW)

    form = F()
    check(form, form.f)

    for ok in (NOW - dt.timedelta(days=400), NOW + dt.timedelta(minutes=5)):
        form = F()
        form.f.data = ok.replace(tzinfo=None)
        check(form, form.f)
    form = F()
    form.f.data = dt.datetime(2099, 1, 1, 9, 0)
    with pytest.raises(ValidationError, match="in the future"):
        check(form, form.f)


@pytest.mark.parametrize("value", ["a@b.co", "first.last+tag@sub.example.org", ""])
def test_email_accepts(value):
    run(email_address, value)


@pytest.mark.parametrize("value", ["a@b", "ab.co", "a b@c.co", "a@b.c o", "@b.co"])
def test_email_refuses(value):
    with pytest.raises(ValidationError, match=r"like name@example\.com"):
        run(email_address, value)


@pytest.mark.parametrize(
    "value", ["(607) 739-5691", "607.739.5691", "+1 607 739 5691", "607-739-5691 ext 12", ""]
)
def test_phone_accepts(value):
    run(phone_number, value)


@pytest.mark.parametrize("value", ["12345", "call me", "607-739-5691; DROP TABLE", "1" * 20])
def test_phone_refuses(value):
    with pytest.raises(ValidationError, match=r"like \(555\) 555-0123"):
        run(phone_number, value)


@pytest.mark.parametrize("value", ["a\x00b", "bell\x07", "esc\x1b[31m"])
def test_printable_text_refuses_control_characters(value):
    with pytest.raises(ValidationError, match="characters we cannot store"):
        run(printable_text, value)


def test_printable_text_keeps_new_lines_and_accents():
    run(printable_text, "Línea uno\nline two\tend")
