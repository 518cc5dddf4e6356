"""The inventory stays true over time (issue 24 point 5):
retiring and bringing back a structure, paper screening days by hand and by
re-import kept as history, a renamed outfall's old id refused on re-import, and the annual
figures of a closed year unchanged by later reclassification and retirement."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import replace

import pytest
from helpers import csrf_of, rows, sign_in
from test_annual_figures import outfall_figures
from test_outfall_import import HORSEHEADS
from test_screening import NY, SHEET, clocked, open_sheet

from portal.core.db import get_db
from portal.outfalls import history, inventory

YEAR_2025 = (dt.date(2025, 1, 3), dt.date(2026, 1, 2))
YEAR_2026 = (dt.date(2026, 1, 3), dt.date(2027, 1, 2))
CSV = (
    b"Outfall ID,Type,Lat,Long,Mapped On,Last Screened\n"
    b"HH-001,Outfall,42.1655,-76.8201,2019-05-01,\n"
    b"HH-002,Outfall,42.1682,-76.8155,,\n"
    b"CB-001,Catch basin,42.1601,-76.8302,,\n"
)


def _import(app, data: bytes, stamp: str, name: str = "inventory.csv", **options):
    with app.app_context():
        return inventory.import_file(
            get_db(), name, data, HORSEHEADS, actor="test", stamp=stamp, **options
        )


def _at(app, day: str) -> None:
    clocked(app, dt.datetime.fromisoformat(f"{day}T10:00").replace(tzinfo=NY))


# What the edit form sends for the drop-downs left at "Not recorded".
BLANKS = {"conveyance": "", "material": "", "shape": "", "condition": ""}


def _post(client, url: str, data: dict, page: str):
    return client.post(url, data={"csrf_token": csrf_of(client.get(page).text), **data})


def test_a_closed_year_does_not_move_when_a_structure_is_reclassified_or_retired(app, client):
    _import(app, CSV, "2025-03-01T09:00:00-05:00")
    sign_in(client, app)
    _at(app, "2025-06-11")
    added = _post(
        client, "/staff/outfalls/2/paper", {"screened_on": "2025-06-10"}, "/staff/outfalls/2/"
    )
    assert added.status_code == 303
    before = outfall_figures(app, YEAR_2025)
    assert (
        before["outfalls.inventory"],
        before["outfalls.others"],
        before["outfalls.screened"],
    ) == (["HH-001", "HH-002"], ["CB-001"], ["HH-002"])
    # In 2026: HH-002 found to be a catch basin, HH-001 removed in road work.
    _at(app, "2026-02-10")
    edited = _post(
        client,
        "/staff/outfalls/2/edit",
        {
            "code": "HH-002",
            "structure_type": "catch-basin",
            "latitude": "42.1682",
            "longitude": "-76.8155",
            **BLANKS,
        },
        "/staff/outfalls/2/edit",
    )
    assert edited.status_code == 303
    retired = _post(
        client,
        "/staff/outfalls/1/retire",
        {"retired_on": "2026-02-01", "retired_reason": "pipe removed in the road work"},
        "/staff/outfalls/1/",
    )
    assert retired.status_code == 303
    assert outfall_figures(app, YEAR_2025) == before
    after = outfall_figures(app, YEAR_2026)
    assert (after["outfalls.inventory"], after["outfalls.others"]) == ([], ["CB-001", "HH-002"])
    page = client.get("/staff/outfalls/1/").text
    assert 'Retired</span> on <time datetime="2026-02-01">' in page
    assert "smo: retired from 2026-02-01: pipe removed in the road work" in page
    assert "smo: kind: outfall to catch-basin" in client.get("/staff/outfalls/2/").text


def test_a_retired_structure_leaves_the_rotation_the_map_and_the_public_file(app, client):
    _import(app, CSV, "2025-03-01T09:00:00-05:00")
    sign_in(client, app)
    _at(app, "2026-02-10")
    # Mapped on 1 May 2019 and never screened: overdue since 1 May 2024, on the map too
    # (its ring drawn as overdue, its popup in words); HH-002, entered 2025, is not due.
    assert "HH-001" in client.get("/staff/screenings/due").text.split('id="due-this-month"')[0]
    frame = client.get("/staff/map/frame").text
    assert (
        '"HH-001","Outfall","/staff/outfalls/1/","overdue","Overdue (due 2024-05-01),'
        ' never screened"'
    ) in frame
    assert (
        '"HH-002","Outfall","/staff/outfalls/2/","later","Not yet due (due 2030-03-01),'
        ' never screened"'
    ) in frame
    refused = _post(
        client,
        "/staff/outfalls/1/retire",
        {"retired_on": "2026-02-11", "retired_reason": ""},
        "/staff/outfalls/1/",
    )
    assert refused.status_code == 422
    assert "Enter a day that has passed (today at the latest)." in refused.text
    assert "Say why, like" in refused.text
    _post(
        client,
        "/staff/outfalls/1/retire",
        {"retired_on": "2026-02-01", "retired_reason": "not ours: a private drain"},
        "/staff/outfalls/1/",
    )
    assert ">HH-001</a>" not in client.get("/staff/screenings/due").text
    # Not screened while retired (a retired outfall's sheet was once saved and counted);
    # a sheet from before its retirement, typed late, is its history and is kept.
    assert "Screen HH-001" not in client.get("/staff/outfalls/1/").text
    late = client.post(
        "/staff/screenings/outfall/1/new",
        data={**open_sheet(client), **SHEET, "screened_at": "2026-02-05T10:30"},
    )
    assert late.status_code == 422
    assert (
        "HH-001 was retired on Sunday, February 1, 2026: a screening from that day on is"
        " not of the inventory. Bring it back into service on its page first."
    ) in late.text
    before = client.post(
        "/staff/screenings/outfall/1/new",
        data={**open_sheet(client), **SHEET, "screened_at": "2026-01-20T10:30"},
    )
    assert before.status_code == 303
    assert '"HH-001"' not in client.get("/staff/map/frame").text
    assert '"HH-002"' in client.get("/staff/map/frame").text
    assert "inventory</a> (2 in service): rings, dark red" in client.get("/staff/map/").text
    app.extensions["outfalls"] = replace(app.extensions["outfalls"], public=True)
    public = app.test_client().get("/open-data/outfalls.geojson").json
    assert [f["properties"]["id"] for f in public["features"]] == ["CB-001", "HH-002"]
    staff = client.get("/staff/outfalls/outfalls.geojson").json["features"]
    assert {f["properties"]["id"]: f["properties"]["retired_on"] for f in staff} == {
        "CB-001": None,
        "HH-001": "2026-02-01",
        "HH-002": None,
    }
    # Brought back: on the rotation again, and the log keeps both.
    _at(app, "2026-03-02")
    back = _post(client, "/staff/outfalls/1/retire", {}, "/staff/outfalls/1/")
    assert back.status_code == 303
    assert "HH-001" in client.get("/staff/screenings/due").text
    page = client.get("/staff/outfalls/1/").text
    assert "smo: brought back into service (retired from 2026-02-01)" in page
    assert "smo: retired from 2026-02-01: not ours: a private drain" in page
    # Retired through February 2026 only: in service at the end of 2026 again.
    assert outfall_figures(app, YEAR_2026)["outfalls.inventory"] == ["HH-001", "HH-002"]
    # Entered in error ("a private drain" once kept counting in past years): out of
    # every period, 2025 included, with no day to give.
    assert outfall_figures(app, YEAR_2025)["outfalls.inventory"] == ["HH-001", "HH-002"]
    wrong = _post(
        client,
        "/staff/outfalls/2/retire",
        {"retired_on": "", "in_error": "y", "retired_reason": "a private drain"},
        "/staff/outfalls/2/",
    )
    assert wrong.status_code == 303
    assert outfall_figures(app, YEAR_2025)["outfalls.inventory"] == ["HH-001"]
    assert outfall_figures(app, YEAR_2026)["outfalls.inventory"] == ["HH-001"]
    page = client.get("/staff/outfalls/2/").text
    assert "counts in the annual figures of no period" in page
    assert "retired from 2025-03-01: entered in error: a private drain" in page


def test_paper_days_by_hand_and_by_import_are_kept_as_history(app, client):
    _import(app, CSV, "2025-03-01T09:00:00-05:00")
    again = b"Outfall ID,Lat,Long,Last Screened\nHH-002,42.1682,-76.8155,2021-04-20\n"
    assert _import(app, again, "2025-03-02T09:00:00-05:00").lines()[1] == (
        "added 0, updated 1, unchanged 0, refused 0"
    )
    newer = b"Outfall ID,Lat,Long,Last Screened\nHH-002,42.1682,-76.8155,2024-09-30\n"
    _import(app, newer, "2025-03-03T09:00:00-05:00")
    # The newer file's day beside the older one, never over it; the same file again: unchanged.
    assert _import(app, newer, "2025-03-04T09:00:00-05:00").lines()[1] == (
        "added 0, updated 0, unchanged 1, refused 0"
    )
    days = "SELECT screened_on FROM outfall_paper_screenings ORDER BY screened_on"
    assert [r["screened_on"] for r in rows(app, days)] == ["2021-04-20", "2024-09-30"]
    sign_in(client, app)
    _at(app, "2026-02-10")
    assert 'last on <time datetime="2024-09-30">' in client.get("/staff/outfalls/2/").text
    page = "/staff/outfalls/2/"
    # 1901 is a slip of the keys, as on the sheet.
    slip = _post(client, "/staff/outfalls/2/paper", {"screened_on": "1901-07-01"}, page)
    assert slip.status_code == 422
    assert (
        "A screening cannot be before January 1, 1990 (the earliest day the sheet takes):"
        " check the year."
    ) in slip.text
    _post(client, "/staff/outfalls/2/paper", {"screened_on": "2025-07-01"}, page)
    (later,) = rows(app, "SELECT id FROM outfall_paper_screenings WHERE screened_on = '2025-07-01'")
    _post(
        client,
        f"/staff/outfalls/2/paper/{later['id']}",
        {"screened_on": "2025-07-08", "action": "correct"},
        page,
    )
    (oldest,) = rows(
        app, "SELECT id FROM outfall_paper_screenings WHERE screened_on = '2021-04-20'"
    )
    _post(client, f"/staff/outfalls/2/paper/{oldest['id']}", {"action": "remove"}, page)
    assert [r["screened_on"] for r in rows(app, days)] == ["2024-09-30", "2025-07-08"]
    text = client.get(page).text
    assert 'last on <time datetime="2025-07-08">' in text
    assert 'next due by <time datetime="2030-07-08">' in text
    log = re.findall(r"smo: (paper screening day [^<]+)</li>", text)
    assert log == [
        "paper screening day 2021-04-20 removed",
        "paper screening day 2025-07-01 corrected to 2025-07-08",
        "paper screening day 2025-07-01 added",
    ]
    future = _post(client, "/staff/outfalls/2/paper", {"screened_on": "2026-02-11"}, page)
    assert future.status_code == 422
    # Each paper day counts in its own year: 2025's screened list has HH-002.
    assert outfall_figures(app, YEAR_2025)["outfalls.screened"] == ["HH-002"]


def test_a_paper_day_before_the_inventory_day_counts_the_outfall_from_it(app):
    data = b"Outfall ID,Lat,Long,Last Screened\nHH-009,42.1655,-76.8201,2025-05-05\n"
    _import(app, data, "2026-11-30T09:00:00-05:00")
    # Imported in 2026 with a paper screening of 2025: a screening shows it was there.
    figures = outfall_figures(app, YEAR_2025)
    assert (figures["outfalls.inventory"], figures["outfalls.screened"]) == (["HH-009"], ["HH-009"])


def test_a_renamed_outfalls_old_id_is_refused_on_reimport(app, client):
    _import(app, CSV, "2025-03-01T09:00:00-05:00")
    sign_in(client, app)
    _post(
        client,
        "/staff/outfalls/2/edit",
        {
            "code": "HH-002A",
            "structure_type": "outfall",
            "latitude": "42.1682",
            "longitude": "-76.8155",
            **BLANKS,
        },
        "/staff/outfalls/2/edit",
    )
    report = _import(app, CSV, "2025-03-05T09:00:00-05:00")
    assert report.lines()[1:3] == [
        "added 0, updated 0, unchanged 2, refused 1",
        "  row 3 (HH-002), Outfall ID: a new id 0.0 m from HH-002A, stored under that id: if"
        " HH-002A is HH-002 renamed, give the file's row the id HH-002A (or rename it back on"
        ' its page); if HH-002 is another structure at that place, import again with "Add new'
        ' ids beside a stored structure" ticked (--beside)',
    ]
    # Three metres away is the same place too; ten metres is another structure.
    near = b"id,lat,lon\nHH-050,42.16823,-76.8155\nHH-051,42.16829,-76.8155\n"
    counts, refused = _import(app, near, "2025-03-05T10:00:00-05:00").lines()[1:3]
    assert counts.startswith("added 1, updated 0, unchanged 0, refused 1")
    assert refused.startswith("  row 2 (HH-050), id: a new id 3.3 m from HH-002A")
    beside = _import(app, CSV, "2025-03-06T09:00:00-05:00", beside=True)
    assert beside.lines()[1] == "added 1, updated 0, unchanged 2, refused 0"
    assert "smo: id: HH-002 to HH-002A" in client.get("/staff/outfalls/2/").text


def test_the_first_day_of_a_structure_not_there_is_a_lookup_error(app):
    # Only a structure's own page asks (it answers 404 first): an unknown id is a bug, said.
    _import(app, CSV, "2025-03-01T09:00:00-05:00")
    with app.app_context():
        assert history.first_day(get_db(), 1) == "2019-05-01"
        with pytest.raises(LookupError, match="no structure with id 99"):
            history.first_day(get_db(), 99)
