"""Every page of the outfall inventory and of screening is valid HTML (Nu HTML Checker):
empty and filled, with errors, with an import's report, and the maps with their layer."""

from __future__ import annotations

import io
import re

from helpers import DATA, csrf_of, hidden_fields, jpeg, open_form, report_data, rows, sign_in
from nuchecker import assert_valid_pages

from portal.core.cases import status_token


def test_every_outfall_page_is_valid_html(app, client, tmp_path):
    client.post(
        "/report/",
        data={**open_form(client), **report_data(latitude="42.1656", longitude="-76.8200")},
    )
    sign_in(client, app)
    pages = {
        "inventory-empty": client.get("/staff/outfalls/"),
        "import-form": client.get("/staff/outfalls/import"),
    }
    token = csrf_of(pages["import-form"].text)
    for name in ("horseheads-outfalls.geojson", "horseheads-stateplane.zip"):
        data = (DATA / "outfalls" / name).read_bytes()
        pages[f"import-{name}"] = client.post(
            "/staff/outfalls/import",
            content_type="multipart/form-data",
            data={"csrf_token": token, "file": (io.BytesIO(data), name)},
        )
    pages["import-no-file"] = client.post("/staff/outfalls/import", data={"csrf_token": token})
    for name, url in [
        ("inventory", "/staff/outfalls/"),
        ("inventory-filtered", "/staff/outfalls/?q=brook&due=later"),
        ("outfall", "/staff/outfalls/1/"),
        # OF-007, a kind no list knows: kept as "other" with its words (the import's table).
        ("outfall-other", "/staff/outfalls/6/"),
        ("edit", "/staff/outfalls/1/edit"),
        ("edit-other", "/staff/outfalls/6/edit"),
        ("new", "/staff/outfalls/new"),
        ("pick", "/staff/screenings/"),
        ("pick-typed", "/staff/screenings/?q=OF"),
        ("pick-none", "/staff/screenings/?q=zz"),
        ("pick-near", "/staff/screenings/?lat=42.1656&lon=-76.82"),
        ("pick-bad-place", "/staff/screenings/?lat=x&lon=y"),
        ("sheet", "/staff/screenings/outfall/1/new"),
        ("due", "/staff/screenings/due"),
        ("route", "/staff/screenings/route"),
        ("route-bad-start", "/staff/screenings/route?from=zz"),
        ("case-with-outfalls", "/staff/cases/1/"),
        ("map", "/staff/map/"),
        ("map-frame", "/staff/map/frame"),
        ("case-map-frame", "/staff/cases/1/map"),
    ]:
        pages[name] = client.get(url)
    pages["edit-errors"] = client.post(
        "/staff/outfalls/1/edit",
        data={"csrf_token": token, "code": "", "latitude": "x", "size_in": "big"},
    )
    pages["edit-words-refused"] = client.post(
        "/staff/outfalls/6/edit",
        data={"csrf_token": token, "code": "OF-007", "material": "rcp", "material_other": "x"},
    )
    pages["photos-refused"] = client.post(
        "/staff/outfalls/1/photos", data={"csrf_token": token}, content_type="multipart/form-data"
    )
    fields = hidden_fields(pages["sheet"].text)
    sheet = {
        **fields,
        "screened_at": "2026-11-20T10:30",
        "inspector": "Jo",
        "flow": "trickle",
        "odor": "sewage",
        "odor_severity": "",
        "overall": "obvious",
        "photos": [(io.BytesIO(jpeg((800, 600))), "outfall.jpg")],
    }
    pages["sheet-errors"] = client.post(
        "/staff/screenings/outfall/1/new", data=sheet, content_type="multipart/form-data"
    )
    # The call lower than the signs, half a measurement, every list of the sheet ticked.
    pages["sheet-call-too-low"] = client.post(
        "/staff/screenings/outfall/1/new",
        data={
            **sheet,
            "odor_severity": "3",
            "floatables": "sewage",
            "floatables_severity": "3",
            "overall": "unlikely",
            "flow_volume_l": "2",
            "land_use": ["commercial"],
            "pool_quality": ["sheen"],
            "benthic_growth": ["orange"],
            "submerged_water": "partly",
            "flow_trap": "obm",
            "photos": [],
        },
    )
    assert 'id="overall-error"' in pages["sheet-call-too-low"].text
    pages["sheet-expired"] = client.post(
        "/staff/screenings/outfall/1/new", data={**sheet, "csrf_token": "old", "photos": []}
    )
    kept = re.search(
        r'name="kept_photos" type="hidden" value="([^"]*)"', pages["sheet-errors"].text
    ).group(1)
    saved = client.post(
        "/staff/screenings/outfall/1/new",
        data={**sheet, "odor_severity": "3", "kept_photos": kept, "photos": []},
    )
    assert saved.status_code == 303, saved.text[:500]
    pages["saved-obvious"] = client.get(saved.headers["Location"])
    pages["saved-print"] = client.get(saved.headers["Location"].split("?")[0] + "print")
    pages["due-with-follow-up"] = client.get("/staff/screenings/due")
    screening = saved.headers["Location"].split("?")[0]
    pages["saved-link-refused"] = client.post(
        f"{screening}link", data={"csrf_token": token, "reference": "nonsense"}
    )
    opened = client.post(f"{screening}case", data={"csrf_token": token})
    pages["case-from-screening"] = client.get(opened.headers["Location"])
    pages["case-from-screening-print"] = client.get(f"{opened.headers['Location']}print")
    pages["saved-with-case"] = client.get(screening)
    (sheet,) = rows(app, "SELECT sheet_key FROM screenings WHERE case_id IS NOT NULL")
    token = status_token(app.secret_key, f"screening-{sheet['sheet_key']}")
    pages["status-of-a-screening-case"] = client.get(f"/status/{token}/")
    # Corrected, then voided: the correction form (with its errors), the history, the void.
    pages["correct"] = client.get(f"{screening}correct")
    pages["correct-errors"] = client.post(
        f"{screening}correct",
        data={
            "csrf_token": token_of(client, screening),
            "screened_at": "1901-01-01T10:00",
            "hours_since_rain": "6",
            "flow": "trickle",
            "overall": "obvious",
            "inspector": "Jo",
        },
    )
    client.post(
        f"{screening}correct",
        data={
            "csrf_token": token_of(client, screening),
            "screened_at": "2026-11-20T10:00",
            "hours_since_rain": "6",
            "wet_ok": "y",
            "flow": "trickle",
            "odor": "sewage",
            "odor_severity": "3",
            "overall": "obvious",
            "inspector": "Jo",
            "reason": "Wrong time",
        },
    )
    pages["void-refused"] = client.post(
        f"{screening}void", data={"csrf_token": token_of(client, screening), "reason": ""}
    )
    client.post(
        f"{screening}void",
        data={"csrf_token": token_of(client, screening), "reason": "Saved twice"},
    )
    pages["saved-void-with-history"] = client.get(screening)
    pages["case-of-a-void-screening"] = client.get(opened.headers["Location"])
    for name in ("correct-errors", "void-refused", "edit-words-refused"):
        assert pages[name].status_code == 422, name
    assert "Saved twice" in pages["saved-void-with-history"].text
    assert "<h1>OF-007: other structure (Pump station)</h1>" in pages["outfall-other"].text
    assert "<li>Kept as other: 1</li>" in pages["import-horseheads-outfalls.geojson"].text
    assert_valid_pages(pages, tmp_path)


def token_of(client, url: str) -> str:
    return csrf_of(client.get(url).text)
