"""A case from a screening (issue 24 points 2 and 7): one tap on a suspect screening opens a
case of the screening kind at the outfall, a second tap shows the same case, or the screening
is linked to a case there already; the case is found in the queue, its page, the search, the
export and its print like any other."""

from __future__ import annotations

import datetime as dt
import re

from helpers import csrf_of, open_form, report_data, rows, sign_in
from test_screening import INVENTORY, NY, SHEET, add_outfalls, clocked, open_sheet

from portal.core.cases import status_token


def _suspect_screening(app, client) -> str:
    """Screen OF-A (suspect) and return the saved page's address."""
    add_outfalls(app, *INVENTORY)
    sign_in(client, app)
    clocked(app, dt.datetime(2026, 11, 30, 9, 0, tzinfo=NY))
    saved = client.post("/staff/screenings/outfall/1/new", data={**open_sheet(client), **SHEET})
    assert saved.status_code == 303
    return saved.headers["Location"].split("?")[0]


def test_a_suspect_screening_opens_a_linked_case_in_one_tap(app, client):
    where = _suspect_screening(app, client)
    page = client.get(where).text
    assert "Open a case from this screening</button>" in page
    opened = client.post(f"{where}case", data={"csrf_token": csrf_of(page)})
    assert opened.status_code == 303
    case_url = opened.headers["Location"]
    assert re.fullmatch(r"/staff/cases/\d+/", case_url)
    case = client.get(case_url).text
    assert "SCR-2026-0001" in case and "Screening finding" in case
    assert '<a href="/staff/outfalls/1/">OF-A</a>, At OF-A' in case
    assert "Odor: sewage (severity 3)" in case and "Overall call: Suspect" in case
    assert "Opened from the screening of OF-A" in case  # its log
    assert '<option value="resolved">Resolved</option>' in case
    # The screening shows its case, and is no longer waiting for follow-up.
    back = client.get(where).text
    assert re.search(r'Followed up under <a href="/staff/cases/\d+/">SCR-2026-0001</a>', back)
    assert "Open a case from this screening" not in back
    assert "Screenings that need follow-up: 0" in client.get("/staff/screenings/due").text
    # A second tap (the form sent again) shows the same case: one case.
    again = client.post(f"{where}case", data={"csrf_token": csrf_of(page)})
    assert again.headers["Location"] == case_url
    assert rows(app, "SELECT reference, kind, latitude FROM cases") == [
        {"reference": "SCR-2026-0001", "kind": "screening", "latitude": 42.1655}
    ]
    (screening,) = rows(app, "SELECT case_id FROM screenings WHERE inspector = 'Jo Smith'")
    assert case_url == f"/staff/cases/{screening['case_id']}/"
    # The queue, its filter and its search by the outfall's id; the export; the print.
    queue = client.get("/staff/", query_string={"kind": "screening"}).text
    assert '<option value="screening" selected>Screening findings</option>' in queue
    assert re.search(r">SCR-2026-0001</a> <span class=\"muted\">Screening</span>", queue)
    found = client.get("/staff/", query_string={"q": "OF-A"}).text
    assert ">SCR-2026-0001</a>" in found and "outfall: “OF-A”" in found
    csv = client.get(
        "/staff/exports/cases.csv", query_string={"start": "2026-11-30", "end": "2026-11-30"}
    ).text
    heading, line = csv.lstrip("\ufeff").splitlines()[:2]
    assert {"Outfall", "Overall call", "Screening findings"} <= set(heading.split(","))
    assert line.startswith("SCR-2026-0001,Screening finding,") and ",OF-A," in line
    # The screening's time as a spreadsheet reads one (not 2026-11-30T10:15).
    assert re.search(r",OF-A,\d{4}-\d\d-\d\d \d\d:\d\d,", line), line
    printed = client.get(f"{case_url}print").text
    assert "What the screening found" in printed and "OF-A, At OF-A" in printed
    # Its status page, should its link ever be given out: the status, never the findings.
    (sheet,) = rows(app, "SELECT sheet_key FROM screenings WHERE inspector = 'Jo Smith'")
    token = status_token(app.secret_key, f"screening-{sheet['sheet_key']}")
    status = client.get(f"/status/{token}/").text
    assert "Staff opened this case after an inspection" in status and "SCR-2026-0001" in status
    assert "sewage" not in status.lower() and "OF-A" not in status


def test_a_screening_linked_to_a_case_there_already(app, client):
    where = _suspect_screening(app, client)
    report = client.post("/report/", data={**open_form(client), **report_data()})
    assert report.status_code in (302, 303)
    (reported,) = rows(app, "SELECT id, reference FROM cases")
    page = client.get(where).text
    wrong = client.post(
        f"{where}link", data={"csrf_token": csrf_of(page), "reference": "IDR-2026-9999"}
    )
    assert wrong.status_code == 422
    assert "Error: </span>No case has the reference IDR-2026-9999." in wrong.text
    assert 'value="IDR-2026-9999"' in wrong.text
    typed = reported["reference"].lower()
    linked = client.post(f"{where}link", data={"csrf_token": csrf_of(page), "reference": typed})
    assert linked.status_code == 303
    assert f'Followed up under <a href="/staff/cases/{reported["id"]}/">' in client.get(where).text
    case = client.get(f"/staff/cases/{reported['id']}/").text
    assert "Screenings this case follows up:" in case
    assert re.search(r'<a href="/staff/screenings/\d+/">OF-A, <time datetime="2026-11-20">', case)
    assert "Linked to the screening of OF-A" in case
    # Opening a case now shows the one it is linked to: no second case.
    opened = client.post(f"{where}case", data={"csrf_token": csrf_of(page)})
    assert opened.headers["Location"] == f"/staff/cases/{reported['id']}/"
    assert rows(app, "SELECT count(*) AS n FROM cases")[0]["n"] == 1


def test_the_queue_search_leads_to_an_outfall_and_its_last_screening(app, client):
    where = _suspect_screening(app, client)
    found = client.get("/staff/", query_string={"q": "of-a"}).text
    assert re.search(
        r'Outfall <a href="/staff/outfalls/1/">OF-A</a>, At OF-A · <a href="'
        + re.escape(where)
        + r'">its last screening</a>, <time datetime="2026-11-20">[^<]+</time>: suspect',
        found,
    )
    assert (
        'Outfall <a href="/staff/outfalls/3/">OF-C</a>, At OF-C · never screened'
        in client.get("/staff/", query_string={"q": "OF-C"}).text
    )
    assert "/staff/outfalls/2/" not in found  # OF-B does not start with OF-A
    assert "OF-A" not in client.get("/staff/", query_string={"q": "Elm"}).text.split("<main")[1]
