"""An officer traces a discharge to its source in Chromium, on a 360 px phone: a dye test, a
sample with its chain of custody, the lab's results days later, the source with a new
respondent, its elimination, then "Start enforcement against this source" opens the violation
form filled from it. axe-core on every page, nothing wider than the screen, and the Nu HTML
Checker on the case page with its track-down filled."""

from __future__ import annotations

import re

import pytest
from browsing import check, give_session
from helpers import add_enrolled_account
from nuchecker import html_errors
from playwright.sync_api import expect
from test_enforcement_browser import clock  # noqa: F401  (the live portal's clock, moved here)

pytestmark = pytest.mark.browser


def fill(page, fields: dict[str, str], choose: tuple[str, ...] = ()) -> None:
    """Type into fields by their labels (exact), and tick radio buttons by theirs."""
    for label in choose:
        page.get_by_label(label, exact=True).check()
    for label, value in fields.items():
        page.get_by_label(label, exact=True).fill(value)


def send(page, button: str, message: str) -> None:
    page.get_by_role("button", name=button).click()
    expect(page.locator(".flash")).to_contain_text(message)


def open_case(page, live_app, live_server) -> str:
    """A resident's report, then the officer signs in and opens it; returns the case's URL."""
    add_enrolled_account(live_app, "tracker")
    page.goto(f"{live_server}/report/")
    page.get_by_label("Describe what you saw").fill("Grey soapy water from the storm drain")
    page.get_by_label("Street address or landmark").fill("Elm Street and Main Street")
    page.get_by_role("button", name="Send report").click()
    reference = page.text_content(".reference").strip()
    give_session(page, live_app, live_server, "tracker")
    page.goto(f"{live_server}/staff/")
    page.get_by_label("Search").fill(reference)
    page.get_by_role("button", name="Filter").click()
    page.get_by_role("link", name=reference).click()
    return page.url.split("#")[0]


def test_from_a_dye_test_to_enforcement_against_the_source(
    open_tab,
    live_app,
    live_server,
    clock,  # noqa: F811  (the fixture imported above)
    tmp_path,
):
    tab = open_tab("phone")
    page = tab.page
    case_url = open_case(page, live_app, live_server)
    expect(page.locator("main")).to_contain_text("No investigation steps yet; no source found yet.")

    page.get_by_role("link", name="Record an investigation step").click()
    expect(page.locator("h1")).to_have_text("Record an investigation step")
    check(page, "a new step, phone")
    expect(page.get_by_label("Who did it", exact=True)).to_have_value("tracker")
    fill(
        page,
        {"Date and time it was done": "2027-03-01T09:30", "Who did it": "Jo Smith"},
        ("Dye test",),
    )
    page.get_by_role("button", name="Record the step").click()
    expect(page.locator(".error-summary")).to_contain_text("Describe what was found.")
    check(page, "a step refused, phone")
    fill(
        page,
        {
            "Structure id (optional)": "MH-12",
            "What was found": "Green dye flushed down"
            " the laundry sink at 12 Elm Street showed at MH-12 in four minutes.",
        },
        ("Source confirmed here",),
    )
    send(page, "Record the step", "Dye test recorded.")

    page.get_by_role("link", name="Record an investigation step").click()
    fill(
        page,
        {
            "Date and time it was done": "2027-02-28T14:05",
            "Who did it": "Jo Smith",
            "Structure id (optional)": "MH-11",
            "What was found": "Grey water, soapy smell.",
            "Sample id (optional)": "S-2027-014",
            "Handed over to (the courier or the lab) (optional)": "Finger Lakes Courier",
            "Handed over at (optional)": "2027-02-28T16:00",
            "Received at the lab by (optional)": "R. Patel",
            "Received by the lab at (optional)": "2027-03-01T08:15",
            "Lab (optional)": "Southern Tier Labs",
            "Lab reference (optional)": "WO-55812",
        },
        ("Sample taken", "Waiting for results (the lab, the camera report)"),
    )
    send(page, "Record the step", "Sample recorded.")
    steps = page.locator("#trackdown ~ .inspection h4")
    expect(steps).to_have_text(
        [re.compile(r"^Sample taken, February 28"), re.compile(r"^Dye test, March 1")]
    )

    # The lab answers four days later.
    clock.set("2027-03-05")
    page.reload()
    page.get_by_role("link", name="Add lab results").click()
    expect(page.locator("h1")).to_have_text("Lab results: sample S-2027-014")
    check(page, "lab results form, phone")
    page.get_by_label("Parameter 1", exact=True).select_option(label="Ammonia (mg/L)")
    page.get_by_label("Parameter 2", exact=True).select_option(
        label="Detergents (surfactants) (mg/L)"
    )
    fill(
        page,
        {"Date the lab reported (optional)": "2027-03-04", "Value 1": "1.2", "Value 2": "< 0.1"},
    )
    send(page, "Add the results", "Lab results added (2 results).")
    expect(page.locator(".lab-results")).to_contain_text("Ammonia: 1.2 mg/L")
    expect(page.locator(".lab-results")).to_contain_text("Detergents (surfactants): <0.1 mg/L")

    page.get_by_role("link", name="Record the source found").click()
    expect(page.locator("h1")).to_have_text("Record the source found")
    check(page, "source form, phone")
    fill(
        page,
        {
            "Date the source was found": "2027-03-05",
            "What the source is": "Laundry drain tied into the storm line",
            "Property or place": "12 Elm Street",
            "Tax parcel id (optional)": "71.05-2-14",
            "Name of the person or business": "Elm Street Laundromat LLC",
            "Mailing address": "12 Elm Street\nHorseheads, NY 14845",
        },
        ("Operator (runs the business or activity)",),
    )
    send(page, "Record the source", "Source recorded.")

    clock.set("2027-03-12")
    page.reload()
    page.get_by_role("link", name="Record the elimination").click()
    expect(page.locator("h1")).to_have_text("Elimination of the discharge")
    check(page, "elimination form, phone")
    fill(
        page,
        {"Date the discharge was eliminated": "2027-03-13"},
        ("Connection removed, or rerouted to the sanitary sewer",),
    )
    page.get_by_role("button", name="Record the elimination").click()
    expect(page.locator(".error-summary")).to_contain_text("Enter a date that has passed")
    check(page, "elimination refused, phone")
    fill(
        page,
        {
            "Date the discharge was eliminated": "2027-03-11",
            "Notes on the elimination (optional)": "Plumber rerouted the drain to the sewer.",
        },
    )
    send(page, "Record the elimination", "Elimination recorded.")

    # Confirmed, eliminated and still open: the page says so, and where to close it.
    page.get_by_label("Investigation found").select_option(label="Confirmed illicit discharge")
    page.get_by_role("button", name="Save changes").click()
    notice = page.locator(".notice.warning")
    expect(notice).to_contain_text("the case is still open (Received)")
    expect(page.locator("main")).to_contain_text(
        "2 investigation steps; source found Friday, March 5, 2027, eliminated on Thursday,"
        " March 11, 2027."
    )
    audit = page.locator(".audit")
    for entry in (
        "Dye test recorded",
        "Sample recorded",
        "Lab results added for sample S-2027-014",
        "Source found recorded",
        "Discharge eliminated on Thursday, March 11, 2027",
    ):
        expect(audit).to_contain_text(entry)
    check(page, "case with its track-down, phone")
    page.set_viewport_size({"width": 1280, "height": 900})
    check(page, "case with its track-down, desktop")
    page.set_viewport_size({"width": 360, "height": 740})
    # The page as the portal sends it, through the Nu HTML Checker.
    saved = tmp_path / "case-with-trackdown.html"
    saved.write_bytes(page.request.get(case_url).body())
    assert html_errors([saved], tmp_path) == []

    page.get_by_role("link", name="Start enforcement against this source").click()
    expect(page.locator("h1")).to_contain_text("Enforcement on")
    expect(page.locator("#respondent option:checked")).to_have_text(
        "Elm Street Laundromat LLC, 12 Elm Street"
    )
    expect(page.get_by_label("Place of the violation")).to_have_value(
        "12 Elm Street, tax parcel 71.05-2-14"
    )
    expect(page.get_by_label("Date the officer found it")).to_have_value("2027-03-05")
    expect(page.get_by_label("What was found")).to_have_value(
        "Laundry drain tied into the storm line"
    )
    check(page, "violation form filled from the source, phone")
    page.get_by_label("Date the violation was committed").fill("2027-03-01")
    page.select_option("#section", "216-6 A")
    send(page, "Record the violation", "Violation recorded.")
    expect(page.locator("main")).to_contain_text("Elm Street Laundromat LLC")
    assert not tab.external_requests
