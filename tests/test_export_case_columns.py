"""The staff CSV's columns the officer missed (officer's week 2026-12-03 F10): the language a
report was filed in (to answer Spanish reports in Spanish), and for a case under enforcement
the respondent, the owner of the property and the notices of violation issued."""

from __future__ import annotations

import csv
import io

from enforcement_helpers import issue, ok, post, violation
from helpers import open_form, report_data

pytest_plugins = ["enforcement_fixtures"]  # the clock (2027-03-01 10:00 local) and the officer


def cases_csv(client) -> list[dict[str, str]]:
    answer = client.get(
        "/staff/exports/cases.csv", query_string={"start": "2027-01-01", "end": "2027-12-31"}
    )
    assert answer.status_code == 200
    return list(csv.DictReader(io.StringIO(answer.data.decode("utf-8-sig"))))


def test_f10_the_language_and_the_enforcement_of_each_case(officer, clock):
    # Case 2, in Spanish, never under enforcement.
    hidden = open_form(officer, "/report/?lang=es")
    ok(officer.post("/report/", data={**hidden, **report_data(description="Agua jabonosa")}), 303)
    violation(
        officer,
        owner_name="Hanover Realty",
        owner_address="PO Box 9\nElmira NY 14901",
    )
    ok(post(officer, "/staff/violations/1/notice", order_1="y", order_2="y", deadline="2027-03-31"))
    issue(officer)
    first, second = cases_csv(officer)
    assert (first["Reference"], first["Language"]) == ("IDR-2027-0001", "English")
    assert first["Respondent"] == "Elm Street Auto LLC"
    assert first["Owner of the property"] == "Hanover Realty"
    assert first["Notices of violation issued"] == "NOV-2027-0001"
    assert (second["Reference"], second["Language"]) == ("IDR-2027-0002", "Spanish")
    assert second["Respondent"] == second["Owner of the property"] == ""
    assert second["Notices of violation issued"] == ""


def test_f10_a_draft_notice_is_not_listed_as_issued(officer, clock):
    violation(officer)
    ok(post(officer, "/staff/violations/1/notice", order_1="y", order_2="y", deadline="2027-03-31"))
    (row,) = cases_csv(officer)
    assert row["Respondent"] == "Elm Street Auto LLC"
    assert row["Notices of violation issued"] == ""
