"""A plain ArcGIS point shapefile of outfalls, as a county hands it out (the officer's week
of 2026-12-03, B2), imported whole through the page a person uses: dBASE's ten-character
field names, numbers left empty (read back as 0), words no list knows kept as "other", the
owner and the conveyance; and the outfall pages, the edit form and the export after it."""

from __future__ import annotations

import io
import zipfile
from dataclasses import replace

import pytest
import shapefile
from helpers import csrf_of, rows, sign_in

from portal.core import search_index
from portal.core.db import connect
from portal.outfalls import sheets

WGS_84 = (
    'GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],'
    'PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]'
)
FIELDS = (
    ("FACILITYID", "C", 20),
    ("TYPE", "C", 20),
    ("OUTFALLTYP", "C", 20),
    ("MATERIAL", "C", 30),
    ("PIPESHAPE", "C", 20),
    ("DIAMETER", "N", 5),
    ("RECV_WATER", "C", 40),
    ("SEWERSHED", "C", 20),
    ("CONDITION", "C", 10),
    ("LOCATION", "C", 80),
    ("LAST_SCREE", "D", 8),
    ("INSTALLDAT", "D", 8),
    ("OWNER", "C", 40),
)
# (longitude, latitude), then the fields in order. ArcGIS writes an empty DIAMETER as 0.
COUNTY = (
    ((-76.8201, 42.1655), "HH-OF-001", "Outfall", "Pipe", "RCP", "Circular", 24,
     "Newtown Creek", "North", "Good", "End of Grand Central Avenue", "20230614", "19750501",
     "Village"),
    ((-76.8302, 42.1601), "HH-OF-007", "Outfall", "Open channel", "Earthen", "Trapezoidal", 0,
     "Newtown Creek", "West", "Fair", "Ditch behind the ball fields", "20220720", None,
     "Village"),
    ((-76.8088, 42.1733), "HH-OF-012", "Outfall", "Pipe", "Asbestos cement", "Circular", 15,
     "Sing Sing Creek", "East", "Poor", "Rear of the plaza lot", None, "19680901",
     "Private (plaza owner)"),
    ((-76.8155, 42.1682), "HH-OF-019", "Outfall", "Open drainage", "Rip-rap", "Parabolic", 0,
     "Newtown Creek", "North", "Good", "Swale off the county road", None, None, "Village"),
    ((-76.8033, 42.1711), "HH-OF-033", "Outfall", "In-stream", "Concrete", "Box", 0,
     "Newtown Creek", "South", "Good", "In the creek bed", None, None, "County"),
    ((-76.8190, 42.1660), "HH-OF-040", "Pipe", "Pipe", "PVC", "Circular", 12,
     "Newtown Creek", "North", "Good", "Under the State route", None, None, "State"),
    ((-76.8100, 42.1690), "HH-OF-044", "Outfall", "Pipe", "RCP", "Circular", -12,
     "Newtown Creek", "North", "Good", "A size typed wrong", None, None, "Village"),
    ((-76.8110, 42.1695), "", "Outfall", "Pipe", "RCP", "Circular", 18,
     "Newtown Creek", "North", "Good", "No id", None, None, "Village"),
    ((-76.8200, 42.3000), "HH-OF-051", "Outfall", "Pipe", "RCP", "Circular", 18,
     "Newtown Creek", "North", "Good", "North of the Village", None, None, "Village"),
)  # fmt: skip


def county_zip(records=COUNTY, prj: str = WGS_84) -> bytes:
    """The records as a zipped point shapefile, written with pyshp as ArcGIS writes one."""
    shp, shx, dbf = io.BytesIO(), io.BytesIO(), io.BytesIO()
    writer = shapefile.Writer(shp=shp, shx=shx, dbf=dbf, shapeType=shapefile.POINT)
    for name, kind, size in FIELDS:
        writer.field(name, kind, size)
    for (lon, lat), *cells in records:
        writer.point(lon, lat)
        writer.record(*cells)
    writer.close()
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as archive:
        for ending, part in (("shp", shp), ("shx", shx), ("dbf", dbf)):
            archive.writestr(f"Outfalls.{ending}", part.getvalue())
        archive.writestr("Outfalls.prj", prj)
    return data.getvalue()


def upload(client, data: bytes, name: str = "county-outfalls.zip", **ticked):
    page = client.get("/staff/outfalls/import").text
    form = {"csrf_token": csrf_of(page), "file": (io.BytesIO(data), name), **ticked}
    return client.post("/staff/outfalls/import", data=form, content_type="multipart/form-data")


def page_of(app, client, code: str) -> str:
    (found,) = rows(app, "SELECT id FROM outfalls WHERE code = ?", code)
    return client.get(f"/staff/outfalls/{found['id']}/").text


def test_the_countys_shapefile_comes_in_whole(app, client):
    sign_in(client, app)
    answer = upload(client, county_zip())
    assert answer.status_code == 200
    report = answer.text
    for words in (
        "<p>county-outfalls.zip: 9 records read</p>",
        "<li>Added: 6</li>",
        "<li>Refused: 3</li>",
        "<li>Kept as other: 2</li>",
        "<td>7</td><td>HH-OF-044</td><td>DIAMETER</td><td>&#39;-12&#39; is not a size in"
        " inches (like 24, 24 in, 600 mm or 24x36)</td>",
        "<td>8</td><td></td><td>FACILITYID</td><td>missing: every structure needs its id</td>",
        "<td>9</td><td>HH-OF-051</td><td>geometry</td><td>42.30000, -76.82000 is outside the"
        " service area",
        "<td>3</td><td>HH-OF-012</td><td>MATERIAL</td><td>Asbestos cement</td>"
        "<td>Other material</td>",
        "<td>6</td><td>HH-OF-040</td><td>TYPE</td><td>Pipe</td><td>Other structure (not on the"
        " screening rotation: only outfalls are)</td>",
    ):
        assert words in report
    # Every field of the file is read: OUTFALLTYP, LAST_SCREE and INSTALLDAT as cut.
    assert "Columns not read" not in report
    # The open channels: in, with no diameter, their conveyance recorded.
    open_channel = page_of(app, client, "HH-OF-007")
    for words in (
        "<dt>Conveyance</dt><dd>Open drainage (channel or swale)</dd>",
        "<dt>Size</dt><dd>Not recorded</dd>",
        "<dt>Owner</dt><dd>Village</dd>",
        'last on <time datetime="2022-07-20">',
    ):
        assert words in open_channel
    assert "<dt>Conveyance</dt><dd>Open drainage (channel or swale)</dd>" in page_of(
        app, client, "HH-OF-019"
    )
    in_stream = page_of(app, client, "HH-OF-033")
    assert "<dt>Conveyance</dt><dd>In-stream</dd>" in in_stream
    assert "<dt>Size</dt><dd>Not recorded</dd>" in in_stream
    piped = page_of(app, client, "HH-OF-001")
    assert "<dt>Conveyance</dt><dd>Closed pipe</dd>" in piped
    assert "<dt>Size</dt><dd>24 in</dd>" in piped
    # The material no list knows, kept in its own words; a private owner.
    private = page_of(app, client, "HH-OF-012")
    assert "<dt>Material</dt><dd>Other material: Asbestos cement</dd>" in private
    assert "<dt>Owner</dt><dd>Private (plaza owner)</dd>" in private
    assert '<time datetime="1968-09-01">' in private
    pipe = page_of(app, client, "HH-OF-040")
    assert "<h1>HH-OF-040: other structure (Pipe)</h1>" in pipe
    assert "Not on the screening rotation (only outfalls are)." in pipe
    listed = client.get("/staff/outfalls/?q=private").text
    assert "HH-OF-012</a></th>" in listed and "<td>Private (plaza owner)</td>" in listed
    assert "HH-OF-001</a>" not in listed


def test_the_command_prints_what_was_kept_as_other(app, tmp_path):
    path = tmp_path / "county-outfalls.zip"
    path.write_bytes(county_zip())
    result = app.test_cli_runner().invoke(args=["outfalls", "import", str(path), "--check-only"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "county-outfalls.zip: 9 records read (checked only: nothing was changed)",
        "would add 6, would update 0, unchanged 0, refused 3, kept as other 2",
        "  record 7 (HH-OF-044), DIAMETER: '-12' is not a size in inches (like 24, 24 in,"
        " 600 mm or 24x36)",
        "  record 8, FACILITYID: missing: every structure needs its id",
        "  record 9 (HH-OF-051), geometry: 42.30000, -76.82000 is outside the service area"
        " (the Village of Horseheads: latitude 42.15 to 42.185, longitude -76.85 to -76.795)",
        "  record 3 (HH-OF-012), MATERIAL: 'Asbestos cement' kept as Other material, with the"
        " file's words",
        "  record 6 (HH-OF-040), TYPE: 'Pipe' kept as Other structure, with the file's words"
        " (only outfalls are on the screening rotation: set its kind on its page)",
    ]


def test_a_known_word_later_replaces_the_words_kept(app, client):
    sign_in(client, app)
    upload(client, county_zip())
    first = list(COUNTY[2])
    first[4] = "RCP"
    again = upload(client, county_zip([tuple(first)]), "county-2027.zip").text
    assert "<li>Updated: 1</li>" in again and "Kept as other" not in again
    page = page_of(app, client, "HH-OF-012")
    assert "<dt>Material</dt><dd>Reinforced concrete pipe (RCP)</dd>" in page
    assert "other material, in words: Asbestos cement to empty" in page
    (stored,) = rows(app, "SELECT material, material_other FROM outfalls WHERE code = 'HH-OF-012'")
    assert stored == {"material": "rcp", "material_other": None}


def test_the_edit_form_keeps_the_owner_and_the_words(app, client):
    sign_in(client, app)
    upload(client, county_zip())
    (found,) = rows(app, "SELECT id FROM outfalls WHERE code = 'HH-OF-012'")
    url = f"/staff/outfalls/{found['id']}/edit"
    form = client.get(url).text
    assert 'value="Asbestos cement"' in form and 'value="Private (plaza owner)"' in form
    edit = {
        "csrf_token": csrf_of(form),
        "code": "HH-OF-012",
        "structure_type": "outfall",
        "latitude": "42.1733",
        "longitude": "-76.8088",
        "owner": "Elm Plaza LLC",
        "conveyance": "closed-pipe",
        "material": "rcp",
        "material_other": "Transite",
        "shape": "circular",
        "condition": "poor",
    }
    refused = client.post(url, data=edit)
    assert refused.status_code == 422
    assert "Choose “Other material” above to keep these words, or clear them." in refused.text
    saved = client.post(url, data={**edit, "material": "other"})
    assert saved.status_code == 303
    page = client.get(saved.location).text
    assert "<dt>Material</dt><dd>Other material: Transite</dd>" in page
    assert "<dt>Owner</dt><dd>Elm Plaza LLC</dd>" in page
    assert "owner: Private (plaza owner) to Elm Plaza LLC" in page


def test_the_export_has_the_owner_for_staff_only(app, client):
    sign_in(client, app)
    upload(client, county_zip())
    staff = client.get("/staff/outfalls/outfalls.geojson").json["features"]
    (kept,) = [f["properties"] for f in staff if f["properties"]["id"] == "HH-OF-012"]
    assert (kept["owner"], kept["material"], kept["material_other"]) == (
        "Private (plaza owner)",
        "other",
        "Asbestos cement",
    )
    app.extensions["outfalls"] = replace(app.extensions["outfalls"], public=True)
    public = app.test_client().get("/open-data/outfalls.geojson").json["features"]
    (shown,) = [f["properties"] for f in public if f["properties"]["id"] == "HH-OF-012"]
    assert "owner" not in shown and shown["material_other"] == "Asbestos cement"


def test_bad_files_still_get_a_clear_answer(app, client):
    sign_in(client, app)
    projected = 'PROJCS["NAD_1983_StatePlane_New_York_Central_FIPS_3102_Feet",GEOGCS[]]'
    answer = upload(client, county_zip(prj=projected))
    assert answer.status_code == 422
    assert "county-outfalls.zip: nothing imported." in answer.text
    assert "it is in NAD_1983_StatePlane_New_York_Central_FIPS_3102_Feet" in answer.text
    with zipfile.ZipFile(io.BytesIO(county_zip())) as archive:
        without_dbf = io.BytesIO()
        with zipfile.ZipFile(without_dbf, "w") as cut:
            for name in ("Outfalls.shp", "Outfalls.shx", "Outfalls.prj"):
                cut.writestr(name, archive.read(name))
    answer = upload(client, without_dbf.getvalue())
    assert answer.status_code == 422
    assert "A shapefile comes in parts, and .dbf is missing" in answer.text
    assert rows(app, "SELECT count(*) AS n FROM outfalls") == [{"n": 0}]


@pytest.mark.parametrize(
    ("name", "field"),
    [
        ("LAST_SCREE", "last_screened_on"),
        ("LASTSCREEN", "last_screened_on"),
        ("LASTINSP", "last_screened_on"),
        ("SCREENDATE", "last_screened_on"),
        ("INSP_DATE", "last_screened_on"),
        ("OUTFALLTYP", "conveyance"),
        ("OUTFALL_TY", "conveyance"),
        ("INSTALLDAT", "inventoried_on"),
        ("DATE_MAPPE", "inventoried_on"),
        ("RECEIVINGW", "receiving_water"),
    ],
)
def test_dbase_s_ten_character_names_are_read_as_cut(name, field):
    found, ignored = sheets.match_columns(["FACILITYID", "LAT", "LONG", name])
    assert found[field] == name and ignored == []


@pytest.mark.parametrize(
    ("names", "found"),
    [
        # Nine characters: not cut by dBASE, so not read as the start of a longer name.
        (["FACILITYID", "OUTFALLTY"], {"code": "FACILITYID"}),
        # The start of both OUTFALL_TYPE (conveyance) and OUTFALL_TO (receiving water).
        (["FACILITYID", "OUTFALL_T_"], {"code": "FACILITYID"}),
        # The conveyance is already read from a column of its own name.
        (
            ["FACILITYID", "CONVEYANCE", "OUTFALLTYP"],
            {"code": "FACILITYID", "conveyance": "CONVEYANCE"},
        ),
    ],
)
def test_a_cut_that_cannot_be_told_is_listed_as_not_read(names, found):
    assert sheets.match_columns(names) == (found, names[len(found) :])


def test_an_existing_database_gains_the_owner_and_the_words(tmp_path):
    path = tmp_path / "portal.sqlite3"
    db = connect(path)
    # As a file made before migration 005: the inventory without its columns, nor its record.
    new = ("owner", "structure_type_other", "conveyance_other", "material_other")
    search_index.drop(db)  # an older file's search views did not name these columns
    for column in (*new, "shape_other", "condition_other"):
        db.execute(f"ALTER TABLE outfalls DROP COLUMN {column}")
    db.execute("DELETE FROM _sqlite_migrations WHERE name = '005_owner_and_words_kept_as_other'")
    db.execute(
        "INSERT INTO outfalls (code, latitude, longitude, material, created_at, updated_at,"
        " updated_by) VALUES ('HH-OF-001', 42.1655, -76.8201, 'rcp', '2025-01-02T09:00:00-05:00',"
        " '2025-01-02T09:00:00-05:00', 'import outfalls.zip')"
    )
    db.conn.close()
    db = connect(path)
    (row,) = db.execute(
        "SELECT code, material, owner, material_other, condition_other FROM outfalls"
    ).fetchall()
    assert row == ("HH-OF-001", "rcp", None, None, None)
    db.conn.close()
