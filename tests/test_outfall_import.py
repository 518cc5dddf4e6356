"""The outfall inventory's importer: GeoJSON, CSV and shapefiles of a fictional inventory
(tests/data/outfalls), every bad row refused with its number, column and reason, and a
re-import that updates by id without adding twice. The command and the upload page use it."""

from __future__ import annotations

import datetime as dt
import io
import zipfile

import pytest
from helpers import DATA, csrf_of, rows, sign_in

from content_model.loader import load_content
from content_model.site import ServiceArea
from portal.core.db import get_db
from portal.outfalls import checking, inventory, readers, shapefiles, sheets
from portal.outfalls.checking import Refusal
from portal.outfalls.readers import FileRefused

FILES = DATA / "outfalls"
HORSEHEADS = ServiceArea(
    "the Village of Horseheads", 42.150, -76.850, 42.185, -76.795, 42.1656, -76.8205, 14
)
WRENFIELD = ServiceArea(
    "the Town of Wrenfield", 42.900, -76.100, 42.980, -75.980, 42.94, -76.04, 13
)
OUTSIDE_HH = "is outside the service area (the Village of Horseheads: latitude 42.15 to 42.185, longitude -76.85 to -76.795)"
PUMP = "'Pump station' kept as Other structure, with the file's words (only outfalls are on the screening rotation: set its kind on its page)"


def sheet_of(name: str) -> sheets.Sheet:
    return readers.read_file(name, (FILES / name).read_bytes())


def test_geojson_rows_and_their_refusals():
    records, refusals = checking.check_rows(sheet_of("horseheads-outfalls.geojson"), HORSEHEADS)
    assert [r.code for r in records] == ["OF-001", "OF-002", "OF-003", "OF-004", "CB-101", "OF-007"]
    assert refusals == [
        Refusal(6, "outfall_id", "missing: every structure needs its id"),
        Refusal(7, "geometry", "longitude 200.0 is not between -180 and 180", "OF-006"),
        Refusal(
            9,
            "outfall_id",
            "OF-008 is also on feature 10 of this file: keep one and import again",
            "OF-008",
        ),
        Refusal(
            10,
            "outfall_id",
            "OF-008 is also on feature 9 of this file: keep one and import again",
            "OF-008",
        ),
        Refusal(11, "geometry", f"42.30000, -76.82000 {OUTSIDE_HH}", "OF-009"),
    ]
    first = records[0].values
    assert first == {
        "latitude": 42.1655,
        "longitude": -76.8201,
        "structure_type": "outfall",
        "conveyance": "closed-pipe",
        "material": "rcp",
        "shape": "circular",
        "size_in": 24.0,
        "receiving_water": "Test Creek",
        "drainage_area": "North",
        "condition": "good",
        "location": "End of Example Avenue",
    }
    # "24x36" is a width and a height; other spellings of the same words are understood.
    assert records[3].values["size_in"] == 24.0 and records[3].values["height_in"] == 36.0
    assert records[1].values["material"] == "cmp" and records[1].values["shape"] == "circular"
    assert records[4].values["structure_type"] == "catch-basin"
    # A kind no list knows keeps its row: "other", with the file's words.
    assert [records[5].values[n] for n in ("structure_type", "structure_type_other")] == [
        "other",
        "Pump station",
    ]


def test_csv_with_its_own_column_names():
    sheet = sheet_of("horseheads-outfalls.csv")
    assert sheet.columns == {
        "code": "Outfall ID",
        "latitude": "Lat",
        "longitude": "Long",
        "structure_type": "Structure Type",
        "material": "Pipe Material",
        "size_in": "Diameter",
        "receiving_water": "Receiving Water",
        "drainage_area": "Drainage Area",
        "condition": "Condition",
        "location": "Location",
        "notes": "Comments",
        "owner": "Owner",
    }
    assert sheet.ignored == []
    records, refusals = checking.check_rows(sheet, HORSEHEADS)
    assert [r.code for r in records] == ["OF-001", "OF-002", "OF-010", "OF-013"]
    assert records[2].values["owner"] == "Private"
    assert [(r.number, r.field, r.reason) for r in refusals] == [
        (5, "Outfall ID", "missing: every structure needs its id"),
        (6, "Lat, Long", "latitude 'abc' is not a number of degrees"),
        (8, "Outfall ID", "OF-014 is also on row 9 of this file: keep one and import again"),
        (9, "Outfall ID", "OF-014 is also on row 8 of this file: keep one and import again"),
        (10, "Lat, Long", f"42.50000, -76.81000 {OUTSIDE_HH}"),
    ]


def test_a_zipped_shapefile():
    records, refusals = checking.check_rows(sheet_of("horseheads-outfalls.zip"), HORSEHEADS)
    assert [(r.code, r.values["structure_type"], r.values.get("size_in")) for r in records] == [
        ("OF-001", "outfall", 24.0),
        ("OF-020", "outfall", 30.0),
        ("MH-7", "manhole", 48.0),
        ("OF-022", "other", 15.0),
    ]
    assert records[1].values["receiving_water"] == "Example Brook"
    assert [(r.number, r.field, r.code) for r in refusals] == [
        (4, "OUTFALL_ID", None),
        (5, "geometry", "OF-021"),
        (7, "OUTFALL_ID", "OF-023"),
        (8, "OUTFALL_ID", "OF-023"),
    ]


def test_a_shapefile_in_state_plane_feet_is_refused_whole():
    with pytest.raises(FileRefused) as refused:
        sheet_of("horseheads-stateplane.zip")
    assert str(refused.value).startswith(
        "The file cannot be read: it is in NAD_1983_StatePlane_New_York_Central_FIPS_3102_Feet,"
        " and only longitude and latitude in degrees (WGS 84, EPSG:4326, or NAD83, EPSG:4269)"
    )


def test_a_damaged_shapefile_is_refused_in_words():
    with zipfile.ZipFile(FILES / "horseheads-outfalls.zip") as archive:
        parts = {n.rsplit(".", 1)[1]: archive.read(n) for n in archive.namelist()}
    for cut in (40, 120, 200):
        with pytest.raises(FileRefused) as refused:
            shapefiles.read_shapefile({**parts, "shp": parts["shp"][:cut]})
        assert str(refused.value).startswith("The shapefile cannot be read (is it damaged?)")
    # A zip of zeros: damaged, not "No coordinates".
    zeros = {ending: bytes(len(data)) for ending, data in parts.items()}
    with pytest.raises(FileRefused) as refused:
        shapefiles.read_shapefile(zeros)
    assert str(refused.value).startswith("The shapefile cannot be read (is it damaged?)")
    with pytest.raises(FileRefused) as refused:
        shapefiles.read_shapefile({"shp": parts["shp"], "dbf": parts["dbf"]})
    assert str(refused.value) == (
        "A shapefile comes in parts, and .shx is missing: give the .shp, .shx and .dbf"
        " together (zip them)."
    )


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("inventory.xlsx", b"PK", "inventory.xlsx: not a kind of file read here."),
        ("a.geojson", b"{not json", "The file is not valid JSON"),
        (
            "a.geojson",
            b'{"type": "FeatureCollection", "crs": {"type": "name", "properties": {"name": "urn:ogc:def:crs:EPSG::2261"}}, "features": []}',
            "The file cannot be read: its coordinate system is urn:ogc:def:crs:EPSG::2261",
        ),
        (
            "a.csv",
            b"name,street\nOF-1,Main\n",
            "No coordinates: give latitude and longitude columns",
        ),
        ("a.csv", b"lat,lon\n42.16,-76.82\n", "No column holds the structures' ids"),
        ("a.csv", b"", "The file is empty."),
        ("a.zip", b"not a zip", "The .zip file cannot be opened."),
    ],
)
def test_files_that_cannot_be_read(name, data, message):
    with pytest.raises(FileRefused) as refused:
        readers.read_file(name, data)
    assert str(refused.value).startswith(message)


@pytest.mark.parametrize(
    ("text", "inches"),
    [
        ("24", (24.0, None)),
        ('18"', (18.0, None)),
        ("18 in", (18.0, None)),
        ("2 ft", (24.0, None)),
        ("600 mm", (23.62, None)),
        ("24x36", (24.0, 36.0)),
        ("24 X 36 in", (24.0, 36.0)),
        ("30.5 cm", (12.01, None)),
    ],
)
def test_sizes_in_inches(text, inches):
    assert checking.parse_size(text) == inches


@pytest.mark.parametrize("text", ["", "big", "0", "24x", "-12", "24x0"])
def test_sizes_refused(text):
    with pytest.raises(ValueError):
        checking.parse_size(text)


def test_swapped_and_projected_coordinates_are_named():
    sheet = readers.read_csv(b"id,latitude,longitude\nA,-76.82,42.16\nB,776000,771000\n")
    _, refusals = checking.check_rows(sheet, HORSEHEADS)
    assert [r.reason for r in refusals] == [
        "-76.82000, 42.16000 is outside the service area (the Village of Horseheads: latitude"
        " 42.15 to 42.185, longitude -76.85 to -76.795) (latitude and longitude swapped?)",
        "latitude 776000 is not between -90 and 90 (is the file in State Plane feet or UTM"
        " metres? export it in degrees)",
    ]


def test_semicolons_and_a_windows_code_page():
    data = "id;lat;lon;location\nOF-1;42.16;-76.82;Café corner\n".encode("cp1252")
    records, refusals = checking.check_rows(readers.read_csv(data), HORSEHEADS)
    assert refusals == [] and records[0].values["location"] == "Café corner"


def test_the_second_pack_has_its_own_inventory():
    for name, added in (
        ("wrenfield-outfalls.geojson", ["WF-1", "WF-2", "WF-CB-1"]),
        ("wrenfield-outfalls.csv", ["WF-1", "WF-4", "WF-6"]),
        ("wrenfield-outfalls.zip", ["WF-1", "WF-7"]),
    ):
        records, refusals = checking.check_rows(sheet_of(name), WRENFIELD)
        assert [r.code for r in records] == added, name
        assert refusals, name
    records, _ = checking.check_rows(sheet_of("wrenfield-outfalls.csv"), WRENFIELD)
    assert records[1].values["size_in"] == 11.81  # 300 mm


# ---------------------------------------------------------------- stored


def imported(app, name: str, **options):
    with app.app_context():
        return inventory.import_file(
            get_db(),
            name,
            (FILES / name).read_bytes(),
            HORSEHEADS,
            actor="test",
            stamp="2026-11-30T09:00:00-05:00",
            **options,
        )


def counts(report) -> tuple[int, int, int, int]:
    return report.added, report.updated, report.unchanged, len(report.refusals)


def test_a_reimport_updates_by_id_and_never_adds_twice(app):
    assert counts(imported(app, "horseheads-outfalls.geojson")) == (6, 0, 0, 5)
    csv_report = imported(app, "horseheads-outfalls.csv")
    # OF-001 is now fair, with a note and its owner; OF-002 gains its owner; OF-010, OF-013 new.
    assert counts(csv_report) == (2, 2, 0, 5)
    assert csv_report.not_in_file == 4
    (of1,) = rows(app, "SELECT * FROM outfalls WHERE code = 'OF-001'")
    assert (of1["condition"], of1["notes"], of1["conveyance"], of1["owner"]) == (
        "fair",
        "Headwall cracked (seen 2026)",
        "closed-pipe",
        "Village",
    )  # kept: the CSV has no column
    again = imported(app, "horseheads-outfalls.geojson")
    assert counts(again) == (0, 1, 5, 5)  # OF-001 good again; its note and owner stay
    assert rows(app, "SELECT count(*) AS n FROM outfalls")[0]["n"] == 8
    (of1,) = rows(app, "SELECT condition, notes, owner FROM outfalls WHERE code = 'OF-001'")
    assert of1 == {"condition": "good", "notes": "Headwall cracked (seen 2026)", "owner": "Village"}


def test_ids_differing_only_in_case_are_one_structure(app):
    imported(app, "horseheads-outfalls.geojson")
    with app.app_context():
        sheet = readers.read_csv(b"ID,LAT,LON\nof-001,42.1655,-76.8201\n")
        report = inventory.import_file(
            get_db(), "lower.csv", sheet, HORSEHEADS, actor="t", stamp="2026-11-30T09:00:00-05:00"
        )
    assert counts(report) == (0, 0, 1, 0)


def test_checking_only_changes_nothing(app):
    report = imported(app, "horseheads-outfalls.geojson", check_only=True)
    assert counts(report) == (6, 0, 0, 5)
    assert report.lines()[:2] == [
        "horseheads-outfalls.geojson: 11 features read (checked only: nothing was changed)",
        "would add 6, would update 0, unchanged 0, refused 5, kept as other 1",
    ]
    assert rows(app, "SELECT count(*) AS n FROM outfalls")[0]["n"] == 0


def test_the_command_prints_the_report(app, tmp_path):
    runner = app.test_cli_runner()
    result = runner.invoke(args=["outfalls", "import", str(FILES / "horseheads-outfalls.geojson")])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "horseheads-outfalls.geojson: 11 features read",
        "added 6, updated 0, unchanged 0, refused 5, kept as other 1",
        "  feature 6, outfall_id: missing: every structure needs its id",
        "  feature 7 (OF-006), geometry: longitude 200.0 is not between -180 and 180",
        "  feature 9, outfall_id: OF-008 is also on feature 10 of this file: keep one and import again",
        "  feature 10, outfall_id: OF-008 is also on feature 9 of this file: keep one and import again",
        f"  feature 11 (OF-009), geometry: 42.30000, -76.82000 {OUTSIDE_HH}",
        f"  feature 8 (OF-007), type: {PUMP}",
    ]
    # A .shp on disk with its parts beside it.
    with zipfile.ZipFile(FILES / "horseheads-outfalls.zip") as archive:
        archive.extractall(tmp_path)
    result = runner.invoke(args=["outfalls", "import", str(tmp_path / "horseheads_outfalls.shp")])
    assert result.output.splitlines()[:2] == [
        "horseheads_outfalls.shp: 8 records read",
        "added 3, updated 0, unchanged 1, refused 4, kept as other 1",
    ]
    result = runner.invoke(args=["outfalls", "import", str(FILES / "horseheads-stateplane.zip")])
    assert result.exit_code == 1
    assert result.output.startswith("horseheads-stateplane.zip: nothing imported.\n")


def test_the_upload_page_shows_the_report(app, client):
    sign_in(client, app)
    page = client.get("/staff/outfalls/import")
    assert page.status_code == 200
    upload = {
        "csrf_token": csrf_of(page.text),
        "file": (io.BytesIO((FILES / "horseheads-outfalls.csv").read_bytes()), "hh.csv"),
    }
    answer = client.post("/staff/outfalls/import", data=upload, content_type="multipart/form-data")
    assert answer.status_code == 200
    text = answer.text
    for words in (
        "hh.csv: 9 rows read",
        "Added: 4",
        "Updated: 0",
        "Refused: 5",
        "Kept as other: 1",
        "<td>6</td><td>OF-012</td><td>Lat, Long</td><td>latitude &#39;abc&#39; is not a number of degrees</td>",
        "<td>7</td><td>OF-013</td><td>Structure Type</td><td>Lift station</td><td>Other structure (not on the screening rotation: only outfalls are)</td>",
    ):
        assert words in text
    assert "Columns not read" not in text  # the Owner column is read
    none = client.post(
        "/staff/outfalls/import",
        data={"csrf_token": csrf_of(text)},
        content_type="multipart/form-data",
    )
    assert none.status_code == 422 and "Choose a file" in none.text
    bad = {"csrf_token": csrf_of(text), "file": (io.BytesIO(b"x"), "plan.pdf")}
    refused = client.post("/staff/outfalls/import", data=bad, content_type="multipart/form-data")
    assert refused.status_code == 422 and "plan.pdf: not a kind of file read here." in refused.text


def test_a_pack_without_the_file_gets_the_defaults(tmp_path):
    import shutil

    from content_model.loader import CONTENT_DIR
    from content_model.outfalls import load_outfall_settings

    pack = tmp_path / "pack"
    shutil.copytree(CONTENT_DIR, pack)
    (pack / "outfalls.yaml").unlink()
    settings = load_outfall_settings(pack)
    assert (settings.every_years, settings.public, settings.route_start) == (5, False, None)
    (pack / "outfalls.yaml").write_text("screening: {every_years: 0}\nopen_data: {public: false}\n")
    from content_model.check import check_pack

    assert [str(p) for p in check_pack(pack)] == [
        "outfalls.yaml: screening.every_years: must be a whole number of years from 1 to 20"
        "\n    fix: change `screening.every_years` as the message says"
    ]
    assert load_content(pack).settings.name  # the rest of the pack loads as before


@pytest.mark.parametrize(
    ("written", "expected"),
    [("2024-01-03", dt.date(2024, 1, 3)), ('"2024-01-03"', dt.date(2024, 1, 3)), ("null", None)],
)
def test_a_pack_may_give_its_permit_term(tmp_path, written, expected):
    from content_model.outfalls import load_outfall_settings

    (tmp_path / "outfalls.yaml").write_text(
        f"screening: {{every_years: 5}}\nopen_data: {{public: false}}\n"
        f"permit_term_starts: {written}\n"
    )
    assert load_outfall_settings(tmp_path).permit_term_starts == expected


def test_a_permit_term_that_is_no_day_is_refused_by_name(tmp_path):
    from content_model.fields import ContentError
    from content_model.outfalls import load_outfall_settings

    (tmp_path / "outfalls.yaml").write_text(
        "screening: {every_years: 5}\nopen_data: {public: false}\npermit_term_starts: January\n"
    )
    with pytest.raises(ContentError, match="permit_term_starts: must be a day written like 2024"):
        load_outfall_settings(tmp_path)
