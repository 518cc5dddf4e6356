"""Track-down's forms as the officer met them (officer's week 2026-12-03): a step dated before
its case was opened is kept but said beside it, so a mistyped time shows (F6); the new
respondent's name and mailing address are not labelled "(optional)" when they are asked as
soon as anything of one is given (F7). The case is received Monday 1 March 2027, 10:00 a.m."""

from __future__ import annotations

import html
import re

from enforcement_helpers import post

pytest_plugins = ["enforcement_fixtures"]  # the clock (2027-03-01 10:00 local) and the officer

CASE = "/staff/cases/1/"
NEW_STEP = "/staff/cases/1/trackdown/steps/new"
SOURCE = "/staff/cases/1/trackdown/source"
STEP = {
    "kind": "structure",
    "done_by": "Pat Kowalski",
    "structure": "MH-12",
    "findings": "Grey water at the manhole's inlet from the east.",
    "result": "pending",
}
WARNING = "Dated before this case was opened (March 1, 2027 at 10:00 a.m.): check the time."


def text(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def steps(page: str) -> list[str]:
    """Each investigation step of the case page, in words."""
    part = page.split("<h3>Investigation steps</h3>")[1].split('<h3 id="source">')[0]
    return [text(s) for s in re.findall(r'<div class="inspection"[^>]*>(.*?)</div>', part, re.S)]


def test_f6_a_step_before_the_case_was_opened_is_said_beside_it(officer, clock):
    post(officer, NEW_STEP, NEW_STEP, **STEP, done_at="2027-03-01T09:40")
    post(officer, NEW_STEP, NEW_STEP, **STEP, done_at="2027-03-01T10:00")
    post(officer, NEW_STEP, NEW_STEP, **STEP, done_at="2027-03-01T10:05")
    early, same, later = steps(officer.get(CASE).text)
    assert early.startswith(
        "Structure or manhole inspected, March 1, 2027 at 9:40 a.m. , Pat Kowalski " + WARNING
    )
    assert WARNING not in same and WARNING not in later


def test_f7_a_new_respondent_s_name_and_address_are_not_called_optional(officer):
    page = officer.get(SOURCE).text
    label = re.search(r'<label for="name">(.*?)</label>', page, re.S).group(1)
    assert text(label) == "Name of the person or business"
    label = re.search(r'<label for="mailing_address">(.*?)</label>', page, re.S).group(1)
    assert text(label) == "Mailing address"
    assert (
        "None known: leave this part empty. A new respondent needs a name and a mailing"
        " address; the rest is optional." in text(page)
    )
    for name in ("phone", "email"):
        label = re.search(rf'<label for="{name}">(.*?)</label>', page, re.S).group(1)
        assert text(label).endswith("(optional)")
    # The owner chosen alone asks for the two, next to each.
    source = {
        "found_on": "2027-03-01",
        "description": "Car wash runoff",
        "address": "12 Elm Street",
        "role": "owner",
    }
    refused = post(officer, SOURCE, SOURCE, **source)
    assert refused.status_code == 422
    for name, message in (
        ("name", "Enter the respondent's name."),
        ("mailing_address", "Enter their mailing address."),
    ):
        error = re.search(rf'<p class="error-message" id="{name}-error">(.*?)</p>', refused.text)
        assert error and text(error.group(1)) == f"Error: {message}"
