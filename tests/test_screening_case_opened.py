"""A case the officer opens from a screening, as its page reads (officer's week 2026-12-03):
it starts "Being investigated", not "Received" as though someone had sent it in, and its log
says so (P6); the screening's photo shows under "Photos from the screening" with no
"Photos: None." after it (P3)."""

from __future__ import annotations

import datetime as dt
import html
import io
import re

from helpers import csrf_of, jpeg, rows, sign_in
from test_screening import INVENTORY, NY, SHEET, add_outfalls, clocked, open_sheet


def text(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def opened_case(app, client, photo: bool) -> str:
    add_outfalls(app, *INVENTORY)
    sign_in(client, app)
    clocked(app, dt.datetime(2026, 11, 30, 9, 0, tzinfo=NY))
    sheet = {**open_sheet(client), **SHEET}
    if photo:
        sheet["photos"] = [(io.BytesIO(jpeg((1200, 900))), "outfall.jpg")]
    saved = client.post(
        "/staff/screenings/outfall/1/new", data=sheet, content_type="multipart/form-data"
    )
    where = saved.headers["Location"].split("?")[0]
    page = client.get(where).text
    opened = client.post(f"{where}case", data={"csrf_token": csrf_of(page)})
    assert opened.status_code == 303
    return client.get(opened.headers["Location"]).text


def test_p6_a_case_from_a_screening_starts_being_investigated(app, client):
    page = opened_case(app, client, photo=False)
    assert '<option selected value="investigating">Being investigated</option>' in page
    assert '<option selected value="received">' not in page
    assert "Status Received → Being investigated" in text(page)
    assert rows(app, "SELECT status FROM cases") == [{"status": "investigating"}]
    # With no photo from the screening, the case's own photos say none.
    assert "Photos None." in text(page)


def test_p3_the_screening_s_photo_and_no_photos_none_after_it(app, client):
    page = opened_case(app, client, photo=True)
    assert "Photos from the screening" in page
    assert 'alt="OF-A, screening photo 1"' in page
    assert "<h2>Photos</h2>" not in page and "Photos None." not in text(page)
