"""content/enforcement.yaml: read and checked against the ordinance, each error naming the
file and the field, and its readings followed by the rules."""

from __future__ import annotations

import shutil

import pytest
import yaml

from content_model.enforcement import load_enforcement
from content_model.fields import CONTENT_DIR, ContentError


@pytest.fixture
def pack(tmp_path):
    root = tmp_path / "content"
    shutil.copytree(CONTENT_DIR, root)
    return root


def change(root, edit) -> None:
    path = root / "enforcement.yaml"
    data = yaml.safe_load(path.read_text())
    edit(data)
    path.write_text(yaml.safe_dump(data))


def test_the_sections_are_found_by_role(content):
    enforcement = load_enforcement(content.ordinance)
    assert set(enforcement.sections) == {"notice", "appeal", "corrective", "costs", "access"}
    # Only sections a person can violate: never the definitions, purpose or enforcement ones.
    # Only provisions that forbid or require something: not 216-7 A, 216-8 A, 216-10 A.
    assert enforcement.violable == (
        "216-6 A",
        "216-6 B",
        "216-7 B",
        "216-8 B",
        "216-9",
        "216-10 B",
        "216-11 A",
        "216-12",
    )
    assert enforcement.history_condition == "(2)"
    assert enforcement.terms.interest_days_in_year is None, "interest on the actual days"
    assert enforcement.terms.appeal_filed_when == "received"
    assert enforcement.terms.correction_after_appeal == "later"
    assert enforcement.sections == {
        "notice": "216-13",
        "appeal": "216-14",
        "corrective": "216-15",
        "costs": "216-16",
        "access": "216-10",
    }
    orders = enforcement.provisions["orders"].items
    assert [o.label for o in orders] == ["(a)", "(b)", "(c)", "(d)", "(e)", "(f)"]
    assert orders[2].text.startswith("The abatement or remediation")
    assert len(enforcement.provisions["conditions"].items) == 5
    assert "designated governmental agency" in enforcement.provisions["abatement_statement"].text


BROKEN = [
    # The sections come from the ordinance's roles: a list of its own is refused.
    ("sections: is not a field this file has", lambda d: d.update(sections={"appeal": "216-14"})),
    (
        "readings.roll_to_busines_day: is not a field this file has (did you mean roll_to_business_day?)",
        lambda d: d["readings"].update(
            roll_to_busines_day=d["readings"].pop("roll_to_business_day")
        ),
    ),
    (
        "readings.day_kind: must be one of calendar, business, not 'weekdays'",
        lambda d: d["readings"].update(day_kind="weekdays"),
    ),
    (
        "readings.protest_runs_from: must be one of receipt, mailing",
        lambda d: d["readings"].update(protest_runs_from="sent"),
    ),
    (
        "periods.appeal_days: must be a whole number from 1 to 365",
        lambda d: d["periods"].update(appeal_days=0),
    ),
    (
        "periods.max_payments: must be a whole number",
        lambda d: d["periods"].update(max_payments="twelve"),
    ),
    ("penalties[1].offense: must be 2", lambda d: d["penalties"][1].update(offense=3)),
    (
        "penalties[0].minimum: must not be more than the maximum",
        lambda d: d["penalties"][0].update(minimum=500),
    ),
    (
        "provisions.conditions: § 216-13 has no E.",
        lambda d: d["provisions"].update(conditions="E."),
    ),
    (
        "provisions.orders: § 216-13 A. (2) lists no items",
        lambda d: d["provisions"].update(orders="A. (2)"),
    ),
    ("abatement_order: '(z)' is not one of the orders", lambda d: d.update(abatement_order="(z)")),
    ("fine_order: '(z)' is not one of the orders", lambda d: d.update(fine_order="(z)")),
    ("bodies.board: is missing", lambda d: d["bodies"].pop("board")),
    (
        "violable: § 216-99 is not in the ordinance",
        lambda d: d.update(violable=["216-6 A", "216-99"]),
    ),
    (
        "violable: § 216-10 A forbids and requires nothing of a person",
        lambda d: d.update(violable=["216-10 A"]),
    ),
    (
        "violable: § 216-7 A forbids and requires nothing of a person",
        lambda d: d.update(violable=["216-7 A"]),
    ),
    (
        "violable: § 216-8 A forbids and requires nothing of a person",
        lambda d: d.update(violable=["216-8 A"]),
    ),
    (
        "violable: § 216-10: name the subdivision that forbids or requires something (216-10 A, 216-10 B)",
        lambda d: d.update(violable=["216-10"]),
    ),
    ("violable: § 216-6 C: § 216-6 has no subdivision C", lambda d: d.update(violable=["216-6 C"])),
    (
        "readings.offense_counts: must be one of conviction, final, issued",
        lambda d: d["readings"].update(offense_counts="notice"),
    ),
    (
        "history_condition: '(9)' is not one of the conditions",
        lambda d: d.update(history_condition="(9)"),
    ),
    (
        "service_methods: must list the ways a notice is served",
        lambda d: d.update(service_methods=[]),
    ),
    (
        "readings.appeal_filed_when: must be one of received, postmarked",
        lambda d: d["readings"].update(appeal_filed_when="sent"),
    ),
    (
        "readings.correction_after_appeal: must be one of later, decision",
        lambda d: d["readings"].update(correction_after_appeal="earlier"),
    ),
    (
        "readings.interest_days_in_year: must be actual, or a whole number from 360 to 366",
        lambda d: d["readings"].update(interest_days_in_year="leap"),
    ),
]


@pytest.mark.parametrize(("message", "edit"), BROKEN, ids=[m.split(":")[0] for m, _ in BROKEN])
def test_a_broken_file_names_the_file_and_field(pack, content, message, edit):
    change(pack, edit)
    with pytest.raises(ContentError) as error:
        load_enforcement(content.ordinance, pack)
    assert str(error.value).startswith(f"enforcement.yaml: {message}")


def test_a_reading_changed_in_content_changes_the_dates(pack, content, app):
    from portal.enforcement import rules

    change(pack, lambda d: d["readings"].update(roll_to_business_day=False, day_kind="calendar"))
    terms = load_enforcement(content.ordinance, pack).terms
    import datetime as dt

    calendar = app.extensions["calendar"]
    # 5 March 2027 + 15 days is Saturday 20 March: no longer run on to Monday.
    assert rules.appeal_window(dt.date(2027, 3, 5), terms, calendar) == dt.date(2027, 3, 20)


def test_a_missing_file_stops_the_portal(pack):
    from portal import create_app

    (pack / "enforcement.yaml").unlink()
    with pytest.raises(ContentError, match=r"enforcement\.yaml: file is missing"):
        create_app(
            {"TESTING": True, "CONTENT_DIR": str(pack), "DATABASE": str(pack / "db.sqlite3")}
        )
