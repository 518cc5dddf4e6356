"""Track-down on a case in the workspace (issue 24 point 4): investigation steps in date
order, a sample's chain of custody and its lab results added days later, the source found
with its respondent, its elimination, every change in the case's audit log, and the
enforcement page's violation form filled from the source. Staff only, CSRF on every form,
4xx for a step of another case or a malformed date, valid HTML throughout."""

from __future__ import annotations

import csv
import html
import io
import re
from urllib.parse import parse_qs, urlsplit

from enforcement_helpers import post
from helpers import csrf_of, open_form, report_data, rows, save_case
from nuchecker import assert_valid_pages

pytest_plugins = ["enforcement_fixtures"]  # the clock (2027-03-01 10:00 local) and the officer

CASE = "/staff/cases/1/"
NEW_STEP = "/staff/cases/1/trackdown/steps/new"
SOURCE = "/staff/cases/1/trackdown/source"
ELIMINATION = "/staff/cases/1/trackdown/elimination"
DYE = {
    "kind": "dye",
    "done_at": "2027-03-01T09:30",
    "done_by": "Jo Smith",
    "structure": "MH-12",
    "location": "Manhole at Elm Street and Main Street",
    "findings": "Green dye flushed down the laundry sink at 12 Elm Street showed at MH-12.",
    "result": "confirmed",
}
SAMPLE = {
    "kind": "sample",
    "done_at": "2027-02-28T14:05",
    "done_by": "Jo Smith",
    "structure": "MH-11",
    "findings": "Grey water, soapy smell, about a gallon a minute.",
    "result": "pending",
    "sample_id": "S-2027-014",
    "relinquished_to": "Finger Lakes Courier",
    "relinquished_at": "2027-02-28T16:00",
    "received_by": "R. Patel",
    "received_at": "2027-03-01T08:15",
    "lab_name": "Southern Tier Labs",
    "lab_reference": "WO-55812",
}
SOURCE_FORM = {
    "found_on": "2027-03-01",
    "description": "Laundry drain tied into the storm line",
    "address": "12 Elm Street",
    "parcel_id": "71.05-2-14",
    "latitude": "42.16701",
    "longitude": "-76.82099",
    "name": "Elm Street Laundromat LLC",
    "mailing_address": "12 Elm Street\nHorseheads, NY 14845",
    "role": "operator",
}


def record(client, url: str, data: dict, page_url: str | None = None):
    return post(client, url, page_url or url, **data)


def value_of(page: str, name: str) -> str:
    """The value an input of the page holds."""
    tag = re.search(rf'<input[^>]* name="{name}"[^>]*>', page).group(0)
    return html.unescape(re.search(r'value="([^"]*)"', tag).group(1))


def audit_log(page: str) -> list[str]:
    """The case page's audit log, newest first, each entry's words without the time and actor."""
    log = page.split('<ol class="audit" reversed>')[1].split("</ol>")[0]
    entries = re.findall(r"<li><span class=\"muted\">[^<]*</span>(.*?)</li>", log, re.S)
    return [html.unescape(" ".join(re.sub(r"<[^>]+>", "", entry).split())) for entry in entries]


def test_steps_listed_in_the_order_done_with_a_sample_s_chain_of_custody(officer, app, clock):
    dye = record(officer, NEW_STEP, DYE)
    assert dye.status_code == 303
    assert dye.headers["Location"] == "/staff/cases/1/#trackdown"
    assert record(officer, NEW_STEP, SAMPLE).status_code == 303
    page = officer.get(CASE).text
    # The sample, done the day before, comes first.
    sample_at = page.index('Sample taken, <time datetime="2027-02-28T14:05">')
    dye_at = page.index('Dye test, <time datetime="2027-03-01T09:30">March 1, 2027 at 9:30 a.m.')
    assert sample_at < dye_at
    assert "Where: MH-12, Manhole at Elm Street and Main Street" in page
    assert "Result: <strong>Source confirmed here</strong>" in page
    assert "S-2027-014, Southern Tier Labs, lab reference WO-55812" in page
    # Collected by whoever did the step, when it was done, unless told otherwise.
    assert 'By Jo Smith, <time datetime="2027-02-28T14:05">February 28, 2027 at 2:05 p.m.' in page
    assert 'To Finger Lakes Courier, <time datetime="2027-02-28T16:00">' in page
    assert 'By R. Patel, <time datetime="2027-03-01T08:15">' in page
    assert "2 investigation steps</a>; no source found yet." in page
    assert audit_log(page)[:2] == [
        "Sample recorded (February 28, 2027 at 2:05 p.m., at MH-11, sample S-2027-014)",
        "Dye test recorded (March 1, 2027 at 9:30 a.m., at MH-12)",
    ]
    stored = rows(app, "SELECT kind, collected_by, collected_at FROM trackdown_steps ORDER BY id")
    assert stored == [
        {"kind": "dye", "collected_by": None, "collected_at": None},
        {"kind": "sample", "collected_by": "Jo Smith", "collected_at": "2027-02-28T14:05"},
    ]


def test_a_structure_of_the_inventory_links_to_it(officer, app, clock):
    from test_screening import INVENTORY, add_outfalls

    add_outfalls(app, *INVENTORY)
    record(officer, NEW_STEP, {**DYE, "structure": "of-a", "location": ""})
    (step,) = rows(app, "SELECT structure_code, outfall_id FROM trackdown_steps")
    assert step == {"structure_code": "OF-A", "outfall_id": 1}
    assert 'Where: <a href="/staff/outfalls/1/">OF-A</a></p>' in officer.get(CASE).text


def test_lab_results_added_days_later_and_one_removed(officer, app, clock):
    record(officer, NEW_STEP, SAMPLE)
    clock.set("2027-03-05")
    url = "/staff/cases/1/trackdown/steps/1/results"
    added = record(
        officer,
        url,
        {
            "reported_on": "2027-03-04",
            "results-0-parameter": "ammonia",
            "results-0-value": "1.2",
            "results-1-parameter": "e_coli",
            "results-1-value": "> 2,419.6",
            "results-2-parameter": "other",
            "results-2-other": "Optical brighteners",
            "results-2-value": "0.9",
            "results-2-unit": "ppb",
            "results-3-parameter": "ph",
            "results-3-value": "7.4",
        },
    )
    assert added.status_code == 303 and added.headers["Location"] == "/staff/cases/1/#step-1"
    page = officer.get(CASE).text
    assert '<li>Ammonia: 1.2 mg/L (reported <time datetime="2027-03-04">' in page
    assert "<li>E. coli: >2419.6 CFU/100 mL" in page.replace("&gt;", ">")
    assert "<li>Optical brighteners: 0.9 ppb" in page and "<li>pH: 7.4 (reported" in page
    assert audit_log(page)[0] == (
        "Lab results added for sample S-2027-014: Ammonia 1.2 mg/L; E. coli >2419.6 CFU/100 mL;"
        " Optical brighteners 0.9 ppb; pH 7.4"
    )
    removed = record(officer, f"{url}/2/remove", {}, url)
    assert removed.status_code == 303
    page = officer.get(CASE).text
    assert "E. coli" not in page.split('<ol class="audit"')[0]
    assert (
        audit_log(page)[0]
        == "Lab result removed from sample S-2027-014: E. coli >2419.6 CFU/100 mL"
    )
    assert rows(app, "SELECT name, removed_by FROM trackdown_results WHERE id = 2") == [
        {"name": "E. coli", "removed_by": "smo"}
    ]
    # Removed once: a second try finds nothing to remove.
    assert record(officer, f"{url}/2/remove", {}, url).status_code == 404


def test_results_in_words_and_what_they_show_said_with_them(officer, app, clock):
    """Fresh review: "ND" was refused, a presence test could not be entered, and the sample
    stayed "Waiting for results" after its results came in."""
    record(officer, NEW_STEP, SAMPLE)
    clock.set("2027-03-05")
    url = "/staff/cases/1/trackdown/steps/1/results"
    form = officer.get(url).text
    assert "The step now says: Waiting for results (the lab, the camera report)." in form
    added = record(
        officer,
        url,
        {
            "results-0-parameter": "ammonia",
            "results-0-value": "nd",
            "results-1-parameter": "e_coli",
            "results-1-value": "Present",
            "shows": "seen",
        },
    )
    assert added.status_code == 303
    page = officer.get(CASE).text
    assert "<li>Ammonia: ND</li>" in page and "<li>E. coli: Present</li>" in page
    assert "Result: <strong>Discharge (or dye, smoke) seen here: trace it on upstream" in page
    assert rows(app, "SELECT result FROM trackdown_steps") == [{"result": "seen"}]
    assert audit_log(page)[:2] == [
        "Lab results added for sample S-2027-014: Ammonia ND; E. coli Present",
        "Sample of February 28, 2027 at 2:05 p.m. changed: result",
    ]
    # The same form sent again (Back, a second tap): nothing new.
    again_same = record(
        officer,
        url,
        {
            "results-0-parameter": "ammonia",
            "results-0-value": "nd",
            "results-1-parameter": "e_coli",
            "results-1-value": "Present",
        },
    )
    assert again_same.status_code == 303
    assert (
        "These results are on the sample already: nothing new was stored." in officer.get(CASE).text
    )
    assert len(rows(app, "SELECT id FROM trackdown_results")) == 2
    # More results later, the step's result left as it is.
    again = record(officer, url, {"results-0-parameter": "ph", "results-0-value": "7.1"})
    assert again.status_code == 303
    assert rows(app, "SELECT result FROM trackdown_steps") == [{"result": "seen"}]


def test_results_refused_beside_their_row_with_what_was_typed(officer, clock):
    record(officer, NEW_STEP, SAMPLE)
    url = "/staff/cases/1/trackdown/steps/1/results"
    refused = record(
        officer,
        url,
        {
            "reported_on": "2027-02-27",
            "results-0-parameter": "ph",
            "results-0-value": "15",
            "results-1-parameter": "ammonia",
            "results-1-value": "about 2",
            "results-2-value": "0.4",
            "results-3-parameter": "other",
            "results-3-value": "3",
        },
    )
    assert refused.status_code == 422
    text = refused.text
    assert "Please fix these 5 things" in text
    assert (
        '<a href="#reported_on">Date the lab reported: The lab cannot report before the sample'
        in text
    )
    assert "Value 1: A pH is between 0 and 14." in text
    assert "Value 2: Enter the lab&#39;s value as a number, like 0.25, or as it wrote it" in text
    assert "Parameter 3: Choose the parameter." in text
    assert "Other parameter 4: Name the parameter." in text
    assert value_of(text, "results-1-value") == "about 2"
    empty = record(officer, url, {})
    assert empty.status_code == 422 and "Parameter 1: Enter at least one result." in empty.text


def test_a_step_refused_beside_its_field_with_what_was_typed(officer, clock):
    future = record(
        officer,
        NEW_STEP,
        {
            **DYE,
            "done_at": "2027-03-01T11:30",
            "structure": "",
            "location": "",
            "findings": "Dye at MH-12",
        },
    )
    assert future.status_code == 422
    assert "Date and time it was done: It cannot be in the future." in future.text
    assert "Structure id: Enter the structure&#39;s id, or the street or manhole." in future.text
    assert (
        value_of(future.text, "done_at") == "2027-03-01T11:30"
        and "\nDye at MH-12</textarea>" in future.text
    )
    # Custody on a dye test; a sample handed over before it was collected, received before.
    stray = record(officer, NEW_STEP, {**DYE, "lab_name": "Southern Tier Labs"})
    assert "Lab: Only a sample has a chain of custody" in stray.text
    order = record(
        officer,
        NEW_STEP,
        {
            **SAMPLE,
            "sample_id": "",
            "relinquished_at": "2027-02-28T13:00",
            "received_at": "2027-02-28T12:00",
        },
    )
    text = order.text
    assert "Sample id: Give the sample&#39;s id" in text
    assert (
        "Handed over at: It cannot be handed over before it was collected (February 28,"
        " 2027 at 2:05 p.m.)."
    ) in text
    assert (
        "Received by the lab at: The lab cannot receive it before it was handed over"
        " (February 28, 2027 at 1:00 p.m.)."
    ) in text
    missing = record(officer, NEW_STEP, {**SAMPLE, "relinquished_to": "", "received_by": ""})
    assert "Handed over to (the courier or the lab): Say whom it was handed to" in missing.text
    assert "Received at the lab by: Say who at the lab received it." in missing.text
    # A mistyped year: more than a year before the case was opened (1 March 2027).
    old = record(officer, NEW_STEP, {**SAMPLE, "done_at": "2026-02-28T14:05"})
    assert old.status_code == 422
    assert (
        "Date and time it was done: That is more than a year before this case was opened"
        " (Monday, March 1, 2027): check the year."
    ) in old.text
    assert officer.get(CASE).text.count("Dye test, <time") == 0
    year_before = record(officer, NEW_STEP, {**DYE, "done_at": "2026-03-01T09:30"})
    assert year_before.status_code == 303


def test_changing_a_step_keeps_the_audit_trail(officer, app, clock):
    record(officer, NEW_STEP, {**SAMPLE, "lab_reference": "", "received_by": "", "received_at": ""})
    url = "/staff/cases/1/trackdown/steps/1/"
    form = officer.get(url).text
    assert value_of(form, "done_at") == "2027-02-28T14:05"
    assert value_of(form, "sample_id") == "S-2027-014"
    clock.set("2027-03-03")
    changed = record(
        officer,
        url,
        {
            **SAMPLE,
            "received_by": "R. Patel",
            "received_at": "2027-03-01T08:15",
            "lab_reference": "WO-55812",
        },
    )
    assert changed.status_code == 303 and changed.headers["Location"] == "/staff/cases/1/#step-1"
    page = officer.get(CASE).text
    assert audit_log(page)[0] == (
        "Sample of February 28, 2027 at 2:05 p.m. changed: received by, received at, lab reference"
    )
    (event,) = rows(app, "SELECT detail FROM events WHERE action = 'trackdown_step_changed'")
    assert '"lab_reference": {"from": null, "to": "WO-55812"}' in event["detail"]
    assert "(changed by smo, March 3, 2027 at 10:00 a.m.)" in page
    # A sample with results stays a sample.
    record(
        officer,
        "/staff/cases/1/trackdown/steps/1/results",
        {"results-0-parameter": "ammonia", "results-0-value": "1.2"},
    )
    kept = record(
        officer,
        url,
        {
            **SAMPLE,
            "kind": "structure",
            "sample_id": "",
            "relinquished_to": "",
            "relinquished_at": "",
            "received_by": "",
            "received_at": "",
            "lab_name": "",
            "lab_reference": "",
        },
    )
    assert (
        kept.status_code == 422 and "This sample has lab results: it stays a sample." in kept.text
    )


def test_a_step_recorded_in_error_is_removed_with_its_reason(officer, app, clock):
    """A step typed on the wrong case stayed on it for good."""
    record(officer, NEW_STEP, SAMPLE)
    record(officer, NEW_STEP, DYE)
    record(
        officer,
        "/staff/cases/1/trackdown/steps/1/results",
        {"results-0-parameter": "ammonia", "results-0-value": "1.2"},
    )
    url = "/staff/cases/1/trackdown/steps/1/"
    nameless = record(officer, f"{url}remove", {"reason": " "}, url)
    assert nameless.status_code == 422
    assert "Why remove it: Say why it is removed (for the case&#39;s log)." in nameless.text
    removed = record(officer, f"{url}remove", {"reason": "Typed on the wrong case"}, url)
    assert removed.status_code == 303 and removed.headers["Location"] == "/staff/cases/1/#trackdown"
    page = officer.get(CASE).text
    assert "S-2027-014" not in page.split('<ol class="audit"')[0]
    assert audit_log(page)[0] == (
        "Sample of February 28, 2027 at 2:05 p.m. removed: Typed on the wrong case"
        " (with its lab results: Ammonia 1.2 mg/L)"
    )
    assert rows(app, "SELECT id, removed_by, removed_reason FROM trackdown_steps") == [
        {"id": 1, "removed_by": "smo", "removed_reason": "Typed on the wrong case"},
        {"id": 2, "removed_by": None, "removed_reason": None},
    ]
    # Gone from its pages: changing it, its results, removing it again.
    assert officer.get(url).status_code == 404
    assert officer.get(f"{url}results").status_code == 404
    assert (
        record(
            officer, f"{url}remove", {"reason": "again"}, "/staff/cases/1/trackdown/steps/2/"
        ).status_code
        == 404
    )


def test_access_to_private_property_and_the_notice_before_a_dye_test(officer, app, clock):
    """What was still on paper: consent or a warrant (the access section),
    and the verbal notice before someone else's dye test (the exemptions section)."""
    form = officer.get(NEW_STEP).text
    # Who must allow access, and when a warrant may be sought (it read as if any
    # owner must let the officer in; seed 136, 144).
    assert (
        "Operators of facilities the law regulates must allow the Stormwater Management"
        " Officer access (§\u00a0216-10); if access is refused, a search warrant may be"
        " sought by showing probable cause, or for a routine inspection and sampling"
        " program. Elsewhere, enter only with the owner's consent."
    ) in form
    assert (
        "dye testing that complies with state and local laws, with verbal notice to the"
        " Stormwater Management Officer before the test (§\u00a0216-6)"
    ) in form
    refused = record(
        officer,
        NEW_STEP,
        {
            **DYE,
            "access": "consent",
            "dye_notice_by": "Ace Plumbing",
            "dye_notice_at": "2027-03-01T09:45",
        },
    )
    assert refused.status_code == 422
    text = html.unescape(refused.text)
    assert "Access details: Say who consented, and how (in person, by phone, in writing)." in text
    assert "Notice given at: The notice must come before the test (" in text
    on_a_sample = record(officer, NEW_STEP, {**SAMPLE, "dye_notice_by": "Ace Plumbing"})
    assert "Notice given at: Only a dye test has a notice before it: clear this." in html.unescape(
        on_a_sample.text
    )
    saved = record(
        officer,
        NEW_STEP,
        {
            **DYE,
            "access": "consent",
            "access_notes": "Owner, Ann Lee, in person",
            "dye_notice_by": "Ace Plumbing",
            "dye_notice_at": "2027-03-01T08:50",
        },
    )
    assert saved.status_code == 303
    page = officer.get(CASE).text
    assert (
        "Access: With the owner&#39;s or operator&#39;s consent (Owner, Ann Lee, in person)" in page
    )
    assert 'Notice before the test: by Ace Plumbing, <time datetime="2027-03-01T08:50' in page
    # The print carries both (it went into the file without them).
    printed = html.unescape(officer.get(f"{CASE}print").text)
    assert "Access: With the owner's or operator's consent (Owner, Ann Lee, in person)." in printed
    assert "Notice before the test: by Ace Plumbing, March 1, 2027 at 8:50 a.m." in printed
    assert rows(
        app, "SELECT access, access_notes, dye_notice_at, dye_notice_by FROM trackdown_steps"
    ) == [
        {
            "access": "consent",
            "access_notes": "Owner, Ann Lee, in person",
            "dye_notice_at": "2027-03-01T08:50",
            "dye_notice_by": "Ace Plumbing",
        }
    ]


def test_the_source_and_its_elimination_and_enforcement_from_it(officer, app, clock):
    record(officer, NEW_STEP, DYE)
    recorded = record(officer, SOURCE, SOURCE_FORM)
    assert recorded.status_code == 303 and recorded.headers["Location"] == "/staff/cases/1/#source"
    (person,) = rows(app, "SELECT id, name, role, created_by FROM respondents")
    assert person == {
        "id": 1,
        "name": "Elm Street Laundromat LLC",
        "role": "operator",
        "created_by": "smo",
    }
    (stored,) = rows(
        app,
        "SELECT case_id, found_on, eliminated_on, elimination_method,"
        " parcel_id, respondent_id, latitude FROM discharge_sources",
    )
    assert stored == {
        "case_id": 1,
        "found_on": "2027-03-01",
        "eliminated_on": None,
        "elimination_method": None,
        "parcel_id": "71.05-2-14",
        "respondent_id": 1,
        "latitude": 42.16701,
    }
    page = officer.get(CASE).text
    assert '1 investigation step</a>; source found <time datetime="2027-03-01">' in page
    assert "not yet eliminated." in page
    assert (
        '<a href="/staff/respondents/1/">Elm Street Laundromat LLC</a>, 12 Elm Street,'
        " Horseheads, NY 14845"
    ) in page
    assert audit_log(page)[0] == (
        "Source found recorded (Monday, March 1, 2027): Laundry drain tied into the storm line,"
        " at 12 Elm Street; respondent Elm Street Laundromat LLC (a new record)"
    )
    # Enforcement starts from the source: the violation form filled from it.
    link = (
        re.search(r'<a class="button" href="([^"]+)">Start enforcement against this source', page)
        .group(1)
        .replace("&amp;", "&")
    )
    where = urlsplit(link)
    assert where.path == "/staff/cases/1/enforcement" and where.fragment == "record-violation"
    assert parse_qs(where.query) == {
        "respondent": ["1"],
        "place": ["12 Elm Street, tax parcel 71.05-2-14"],
        "found_on": ["2027-03-01"],
        "description": ["Laundry drain tied into the storm line"],
    }
    form = officer.get(link).text
    assert '<option selected value="1">Elm Street Laundromat LLC, 12 Elm Street</option>' in form
    assert value_of(form, "place") == "12 Elm Street, tax parcel 71.05-2-14"
    assert value_of(form, "found_on") == "2027-03-01"
    assert "\nLaundry drain tied into the storm line</textarea>" in form
    # The elimination: before the source was found, or in the future, is refused.
    before = record(
        officer,
        ELIMINATION,
        {"eliminated_on": "2027-02-27", "elimination_method": "connection_removed"},
    )
    assert before.status_code == 422
    assert (
        "It cannot be eliminated before the source was found (Monday, March 1, 2027)."
        in before.text
    )
    assert value_of(before.text, "eliminated_on") == "2027-02-27"
    later = record(
        officer, ELIMINATION, {"eliminated_on": "2027-03-02", "elimination_method": "referred"}
    )
    assert "Enter a date that has passed (today at the latest)." in later.text
    assert "Name the agency and say what it did." in later.text
    clock.set("2027-03-09")
    done = record(
        officer,
        ELIMINATION,
        {
            "eliminated_on": "2027-03-08",
            "elimination_method": "connection_removed",
            "elimination_notes": "Plumber rerouted it to the sewer.",
        },
    )
    assert done.status_code == 303
    page = officer.get(CASE).text
    assert ', eliminated on <time datetime="2027-03-08">Monday, March 8, 2027</time>.' in page
    assert audit_log(page)[0] == (
        "Discharge eliminated on Monday, March 8, 2027: Connection removed, or rerouted to the"
        " sanitary sewer"
    )
    # Not confirmed yet: no word about the status. Confirmed, still open: said plainly.
    assert "recording the elimination does not close it" not in page
    save_case(officer, 1, confirmed="yes", status="investigating")
    page = officer.get(CASE).text
    assert (
        "Confirmed, and the discharge was eliminated, but the case is still open (Being"
        " investigated): recording the elimination does not close it."
    ) in page
    assert '<a href="#update-heading">Update the case\'s status</a>' in page
    assert rows(app, "SELECT status FROM cases") == [{"status": "investigating"}]
    save_case(officer, 1, status="resolved")
    assert "recording the elimination does not close it" not in officer.get(CASE).text
    # The source's found day cannot move past its elimination.
    moved = record(
        officer,
        SOURCE,
        {
            **SOURCE_FORM,
            "name": "",
            "mailing_address": "",
            "role": "",
            "respondent": "1",
            "found_on": "2027-03-09",
        },
    )
    assert "the source cannot have been found after that." in moved.text
    printed = officer.get(f"{CASE}print").text
    assert "Source found Monday, March 1, 2027:</strong> Laundry drain tied into" in printed
    assert "Eliminated Monday, March 8, 2027: Connection removed" in printed
    # The staff CSV carries what track-down found (it had none of it: leftover of the review).
    sheet = officer.get(
        "/staff/exports/cases.csv", query_string={"start": "2027-03-01", "end": "2027-03-01"}
    ).text.lstrip("\ufeff")
    table = list(csv.DictReader(io.StringIO(sheet)))
    assert [
        {
            k: line[k]
            for k in (
                "Reference",
                "Investigation steps",
                "Source found on",
                "Source found",
                "Discharge eliminated on",
                "How it was eliminated",
            )
        }
        for line in table
    ] == [
        {
            "Reference": "IDR-2027-0001",
            "Investigation steps": "1",
            "Source found on": "2027-03-01",
            "Source found": "Laundry drain tied into the storm line",
            "Discharge eliminated on": "2027-03-08",
            "How it was eliminated": "Connection removed, or rerouted to the sanitary sewer",
        }
    ]


def test_the_source_against_a_respondent_on_record_or_none(officer, app, clock):
    none = record(officer, SOURCE, {**SOURCE_FORM, "name": "", "mailing_address": "", "role": ""})
    assert none.status_code == 303
    page = officer.get(CASE).text
    assert "<dt>Respondent</dt><dd>Not known yet</dd>" in page
    link = re.search(r'href="(/staff/cases/1/enforcement\?[^"]+)"', page).group(1)
    assert "respondent=" not in link
    # Both a respondent chosen and details typed: which one is meant is asked.
    with app.app_context():
        from portal.core.db import get_db, transaction
        from portal.enforcement import people

        db = get_db()
        with transaction(db):
            people.add(db, "smo", {"name": "Ada Owner", "mailing_address": "1 Oak St"})
    both = record(officer, SOURCE, {**SOURCE_FORM, "respondent": "1"})
    assert both.status_code == 422
    assert "A respondent is chosen above: clear these details" in both.text
    half = record(officer, SOURCE, {**SOURCE_FORM, "mailing_address": "", "respondent": ""})
    assert "Mailing address: Enter their mailing address." in half.text
    chosen = record(
        officer,
        SOURCE,
        {**SOURCE_FORM, "name": "", "mailing_address": "", "role": "", "respondent": "1"},
    )
    assert chosen.status_code == 303
    assert audit_log(officer.get(CASE).text)[0] == (
        "Source changed: respondent (respondent now Ada Owner)"
    )
    assert rows(app, "SELECT count(*) AS n FROM respondents") == [{"n": 1}]


def test_malformed_and_misdirected_requests_get_4xx(officer, app, clock):
    record(officer, NEW_STEP, DYE)
    other = officer.post("/report/", data={**open_form(officer), **report_data()})
    assert other.status_code in (302, 303)
    # Case 2 exists; step 1 is case 1's.
    for url in (
        "/staff/cases/2/trackdown/steps/1/",
        "/staff/cases/2/trackdown/steps/1/results",
        "/staff/cases/1/trackdown/steps/1/results",  # a dye test has no lab results
        "/staff/cases/1/trackdown/steps/9/",
        "/staff/cases/99/trackdown/steps/new",
        "/staff/cases/99/trackdown/source",
        # An id past SQLite's integers is no record either (never a 500).
        "/staff/cases/1/trackdown/steps/99999999999999999999/",
        "/staff/cases/99999999999999999999/trackdown/source",
    ):
        assert officer.get(url).status_code == 404, url
    token = csrf_of(officer.get(CASE).text)
    assert (
        officer.post(
            "/staff/cases/2/trackdown/steps/1/", data={"csrf_token": token, **DYE}
        ).status_code
        == 404
    )
    assert (
        officer.post(
            "/staff/cases/1/trackdown/steps/1/results/1/remove", data={"csrf_token": token}
        ).status_code
        == 404
    )
    # No CSRF token: refused, nothing stored.
    assert officer.post(NEW_STEP, data=DYE).status_code == 400
    assert officer.post(SOURCE, data=SOURCE_FORM).status_code == 400
    assert rows(app, "SELECT count(*) AS n FROM trackdown_steps") == [{"n": 1}]
    # A tampered choice or a date that is none: said beside the field.
    bad = record(officer, NEW_STEP, {**DYE, "kind": "x-ray", "done_at": "yesterday"})
    assert bad.status_code == 422 and "Choose one of the options shown." in bad.text
    bad = record(officer, SOURCE, {**SOURCE_FORM, "found_on": "2027-02-30"})
    assert bad.status_code == 422 and "Enter the date it was found." in bad.text
    # The elimination before any source: sent to record the source first.
    early = officer.get(ELIMINATION)
    assert early.status_code == 303 and early.headers["Location"] == SOURCE
    # The enforcement form filled from a link: a respondent not on record, a date that is none.
    assert officer.get("/staff/cases/1/enforcement?respondent=7").status_code == 400
    assert officer.get("/staff/cases/1/enforcement?found_on=2027-13-01").status_code == 400


def test_staff_only(app, client, officer):
    record(officer, NEW_STEP, DYE)
    anonymous = app.test_client()
    for url in (NEW_STEP, SOURCE, ELIMINATION, "/staff/cases/1/trackdown/steps/1/"):
        answer = anonymous.get(url)
        assert answer.status_code == 401 and "Sign in" in answer.text
        assert answer.headers["Cache-Control"] == "no-store"
    assert anonymous.post(NEW_STEP, data=DYE).status_code == 401
    # The person who sent the case sees none of it on their status page.
    status = anonymous.get(officer.status_url).text
    assert "Green dye" not in status and "MH-12" not in status


def test_every_track_down_page_is_valid_html(officer, app, clock, tmp_path):
    pages = {
        "case-empty": officer.get(CASE),
        "step-new": officer.get(NEW_STEP),
        "source-new": officer.get(SOURCE),
    }
    pages["step-refused"] = record(
        officer, NEW_STEP, {**SAMPLE, "done_at": "2027-03-02T10:00", "sample_id": "", "kind": "dye"}
    )
    record(officer, NEW_STEP, DYE)
    record(officer, NEW_STEP, SAMPLE)
    results = "/staff/cases/1/trackdown/steps/2/results"
    pages["results-refused"] = record(
        officer, results, {"results-0-parameter": "ph", "results-0-value": "99"}
    )
    record(officer, results, {"results-0-parameter": "ammonia", "results-0-value": "1.2"})
    pages["results"] = officer.get(results)
    pages["source-refused"] = record(
        officer, SOURCE, {**SOURCE_FORM, "found_on": "", "latitude": "x", "mailing_address": ""}
    )
    record(officer, SOURCE, SOURCE_FORM)
    pages["elimination-refused"] = record(officer, ELIMINATION, {"eliminated_on": "2027-02-01"})
    record(officer, ELIMINATION, {"eliminated_on": "2027-03-01", "elimination_method": "repaired"})
    save_case(officer, 1, confirmed="yes")
    for name, url in [
        ("case-filled", CASE),
        ("print", f"{CASE}print"),
        ("step-edit", "/staff/cases/1/trackdown/steps/2/"),
        ("source-edit", SOURCE),
        ("elimination-edit", ELIMINATION),
    ]:
        pages[name] = officer.get(url)
    page = pages["case-filled"].text
    link = re.search(r'href="(/staff/cases/1/enforcement\?[^"]+)"', page).group(1)
    pages["enforcement-from-source"] = officer.get(link.replace("&amp;", "&"))
    assert "still open" in page
    assert_valid_pages(pages, tmp_path)
