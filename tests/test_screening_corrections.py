"""A screening voided or corrected (its history, the rotation, the annual counts), and a
sheet made in wet weather (asked before saving, marked, counted apart)."""

from __future__ import annotations

import datetime as dt
import json
from zoneinfo import ZoneInfo

from helpers import csrf_of, hidden_fields, rows, sign_in

from portal.core.db import get_db, insert, transaction

NY = ZoneInfo("America/New_York")
SHEET = {
    "screened_at": "2026-11-20T10:30",
    "inspector": "Jo Smith",
    "hours_since_rain": "96",
    "rain_inches": "0.4",
    "flow": "moderate",
    "flow_gpm": "3",
    "odor": "sewage",
    "odor_severity": "3",
    "color": "none",
    "color_severity": "",
    "turbidity": "none",
    "floatables": "none",
    "floatables_severity": "",
    "deposits": "none",
    "staining": "none",
    "vegetation": "none",
    "damage": "none",
    "notes": "Grey flow",
    "overall": "suspect",
}
# The permit year 2026 (January 3, 2026 to January 2, 2027).
YEAR_2026 = (dt.date(2026, 1, 3), dt.date(2027, 1, 2))


def setup(app, client) -> None:
    with app.app_context():
        db = get_db()
        with transaction(db):
            for code in ("OF-1", "OF-2"):
                insert(
                    db,
                    "outfalls",
                    {
                        "code": code,
                        "latitude": 42.165,
                        "longitude": -76.82,
                        "location": "Rink",
                        "created_at": "2020-01-10T09:00:00-05:00",
                        "updated_at": "2020-01-10T09:00:00-05:00",
                        "updated_by": "test",
                    },
                )
    sign_in(client, app)
    app.config["CLOCK"] = lambda: dt.datetime(2026, 11, 30, 9, 0, tzinfo=NY)


def save(client, outfall_id=1, **change) -> str:
    """A sheet saved; the saved page's address."""
    page = client.get(f"/staff/screenings/outfall/{outfall_id}/new")
    answer = client.post(
        f"/staff/screenings/outfall/{outfall_id}/new",
        data={**hidden_fields(page.text), **SHEET, **change},
    )
    assert answer.status_code == 303, answer.text
    return answer.headers["Location"].split("?")[0]


def figures(app) -> dict:
    with app.app_context():
        from portal.staff.annual_figures import annual_report

        report = annual_report(get_db(), *YEAR_2026, dt.datetime(2027, 3, 1, 9, tzinfo=NY))
        return {
            key: [r.words for r in report.by_key[key].records]
            for key in (
                "screenings.made",
                "screenings.flagged",
                "screenings.wet",
                "outfalls.screened",
            )
        }


def test_a_void_screening_stays_shown_and_leaves_the_counts_and_the_rotation(app, client):
    setup(app, client)
    first = save(client)
    save(client, 2, overall="unlikely", odor="none", odor_severity="")
    assert figures(app) == {
        "screenings.made": ["Outfall OF-1: suspect", "Outfall OF-2: unlikely"],
        "screenings.flagged": ["Outfall OF-1: suspect"],
        "screenings.wet": [],
        "outfalls.screened": ["OF-1", "OF-2"],
    }
    opened = client.post(f"{first}case", data={"csrf_token": csrf_of(client.get(first).text)})
    case_page = opened.headers["Location"]
    page = client.get(first).text
    # A reason is asked for.
    refused = client.post(f"{first}void", data={"csrf_token": csrf_of(page), "reason": " "})
    assert refused.status_code == 422
    assert "Say why it is voided." in refused.text
    voided = client.post(
        f"{first}void", data={"csrf_token": csrf_of(page), "reason": "Saved for the wrong outfall"}
    )
    assert voided.status_code == 303
    page = client.get(first).text
    assert "<h2>Void</h2>" in page
    assert 'Voided <time datetime="2026-11-30">' in page and "Saved for the wrong outfall" in page
    assert "The case SCR-2026-0001 opened from it stays as it is" in page
    assert "Open a case from this screening" not in page and "Void this screening" not in page
    assert figures(app) == {
        "screenings.made": ["Outfall OF-2: unlikely"],
        "screenings.flagged": [],
        "screenings.wet": [],
        "outfalls.screened": ["OF-2"],
    }
    # OF-1 has no screening left: never screened, so overdue again; not on the follow-up list.
    due = client.get("/staff/screenings/due").text
    assert "Screenings that need follow-up: 0" in due
    assert ">OF-1</a>, Rink: due by" in due
    detail = client.get("/staff/outfalls/1/").text
    assert '<span class="flag">Void</span>' in detail
    # The case stays, and its log says the screening was voided.
    case = client.get(case_page).text
    assert (
        "The screening this case follows up was voided (the case stays): Saved for the wrong outfall"
        in case
    )
    (change,) = rows(app, "SELECT action, actor, reason FROM screening_changes")
    assert (change["action"], change["reason"]) == ("voided", "Saved for the wrong outfall")
    # A void screening is not corrected.
    assert client.get(f"{first}correct").status_code == 409


def test_a_correction_keeps_the_old_values(app, client):
    setup(app, client)
    first = save(client)
    form = client.get(f"{first}correct").text
    assert 'value="2026-11-20T10:30"' in form and "Grey flow</textarea>" in form
    fields = {
        **hidden_fields(form),
        **SHEET,
        "screened_at": "2026-11-19T14:10",
        "overall": "potential",
        # Lower than a sewage odor at severity 3 reads: asked, and kept with the call.
        "call_reason": "A broken sewer lateral next door, reported",
        "reason": "Typed the wrong day",
    }
    missing = client.post(f"{first}correct", data={**fields, "reason": ""})
    assert missing.status_code == 422 and "Say why it is corrected." in missing.text
    done = client.post(f"{first}correct", data=fields)
    assert done.status_code == 303
    (row,) = rows(app, "SELECT screened_at, overall FROM screenings")
    assert (row["screened_at"], row["overall"]) == ("2026-11-19T14:10", "potential")
    (change,) = rows(app, "SELECT action, reason, old, new FROM screening_changes")
    assert change["action"] == "corrected" and change["reason"] == "Typed the wrong day"
    assert json.loads(change["old"]) == {
        "screened_at": "2026-11-20T10:30",
        "overall": "suspect",
        "call_reason": None,
    }
    assert json.loads(change["new"]) == {
        "screened_at": "2026-11-19T14:10",
        "overall": "potential",
        "call_reason": "A broken sewer lateral next door, reported",
    }
    page = client.get(first).text
    assert (
        "corrected Date and time (was 2026-11-20T10:30); Overall call (was suspect);"
        " Why the call is lower than what was seen (was none)"
    ) in page
    assert figures(app)["screenings.flagged"] == []
    # The same values again change nothing.
    again = client.post(f"{first}correct", data=fields)
    assert "Nothing differed from the saved screening" in client.get(again.headers["Location"]).text
    assert len(rows(app, "SELECT id FROM screening_changes")) == 1


def test_a_wet_weather_sheet_is_asked_marked_and_counted_apart(app, client):
    setup(app, client)
    page = client.get("/staff/screenings/outfall/1/new")
    fields = {
        **hidden_fields(page.text),
        **SHEET,
        "hours_since_rain": "6",
        "rain_inches": "0.5",
        "flow": "substantial",
    }
    asked = client.post("/staff/screenings/outfall/1/new", data=fields)
    assert asked.status_code == 422
    assert (
        "Wet weather: Fewer than 72 hours after a rain of more than 0.1 inch is wet weather"
        " (our reading)"
    ) in asked.text
    assert 'id="wet_ok-error"' in asked.text and 'id="wet-confirm" hidden' not in asked.text
    assert rows(app, "SELECT count(*) AS n FROM screenings")[0]["n"] == 0
    saved = client.post("/staff/screenings/outfall/1/new", data={**fields, "wet_ok": "y"})
    assert saved.status_code == 303
    shown = client.get(saved.headers["Location"]).text
    assert "Screening of OF-1 saved as a wet-weather visit." in shown
    assert "Wet weather: 6 hours since the last rain" in shown
    # A light rain (0.1 inch or less) leaves the weather dry; no hours typed count as dry.
    save(
        client,
        2,
        hours_since_rain="6",
        rain_inches="0.1",
        overall="unlikely",
        odor="none",
        odor_severity="",
    )
    save(
        client,
        2,
        hours_since_rain="",
        rain_inches="",
        screened_at="2026-11-21T09:00",
        overall="unlikely",
        odor="none",
        odor_severity="",
    )
    assert figures(app) == {
        "screenings.made": ["Outfall OF-2: unlikely", "Outfall OF-2: unlikely"],
        "screenings.flagged": [],
        "screenings.wet": ["Outfall OF-1: suspect"],
        "outfalls.screened": ["OF-2"],
    }
    # The wet visit is not OF-1's last screening: it stays due (never screened in dry weather).
    assert ">OF-1</a>, Rink: due by" in client.get("/staff/screenings/due").text


def test_the_form_says_wet_weather_next_to_the_hours(app, client):
    setup(app, client)
    page = client.get("/staff/screenings/outfall/1/new").text
    assert 'data-dry-hours="72"' in page and 'data-dry-inches="0.1"' in page
    assert "Dry weather: 72 hours or more since a rain of more than 0.1 inch (our reading)." in page
    assert 'id="wet-confirm" hidden' in page


def test_a_screening_in_1901_is_refused(app, client):
    setup(app, client)
    page = client.get("/staff/screenings/outfall/1/new")
    answer = client.post(
        "/staff/screenings/outfall/1/new",
        data={**hidden_fields(page.text), **SHEET, "screened_at": "1901-06-01T10:00"},
    )
    assert answer.status_code == 422
    assert (
        "The screening cannot be before January 1, 1990 (the earliest day the sheet takes):"
        " check the year."
    ) in answer.text


def test_too_large_for_the_sheet_or_the_import_says_that_page_s_limits(app, client):
    import io

    setup(app, client)
    big = io.BytesIO(b"x" * (26 * 1024 * 1024))
    page = client.get("/staff/screenings/outfall/1/new")
    sheet = client.post(
        "/staff/screenings/outfall/1/new",
        data={**hidden_fields(page.text), **SHEET, "photos": [(big, "a.jpg")]},
        content_type="multipart/form-data",
    )
    assert sheet.status_code == 413
    assert (
        "Photos can be up to 10 MB each, and the whole sheet up to 25 MB. Nothing was saved:"
        " go back to the sheet"
    ) in sheet.text
    big = io.BytesIO(b"x" * (26 * 1024 * 1024))
    page = client.get("/staff/outfalls/import")
    imported = client.post(
        "/staff/outfalls/import",
        data={"csrf_token": csrf_of(page.text), "file": (big, "gis.zip")},
        content_type="multipart/form-data",
    )
    assert imported.status_code == 413
    assert (
        "The import takes a file of up to 20 MB. Go back and choose a smaller file" in imported.text
    )
    assert "photo" not in imported.text.split("<main")[1].split("</main>")[0].lower()
    assert rows(app, "SELECT count(*) AS n FROM screenings")[0]["n"] == 0


def test_a_sentence_ending_with_a_value_that_ends_with_a_period_has_one():
    from portal.core.display import sentence

    assert sentence("Structure inspected: MH-17.") == "Structure inspected: MH-17."
    assert sentence("Screened November 20, 2026 at 2:10 p.m.") == (
        "Screened November 20, 2026 at 2:10 p.m."
    )
    assert sentence("Found by Jo") == "Found by Jo."


def test_the_queue_line_of_a_screening_case_ends_with_one_period(app, client):
    setup(app, client)
    first = save(client, screened_at="2026-11-20T14:10")
    client.post(f"{first}case", data={"csrf_token": csrf_of(client.get(first).text)})
    queue = client.get("/staff/").text
    assert "suspect at its screening of November 20, 2026 at 2:10 p.m.\n" in queue or (
        "suspect at its screening of November 20, 2026 at 2:10 p.m.<" in queue
    )
    assert "p.m.." not in queue
