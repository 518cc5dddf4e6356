"""Whether an outfall's receiving water is impaired or a priority waterbody: a field of its
record, imported as a column and edited on its page, counted on the annual figures as it
was at the end of each period; and a database made before the field gets it, empty
(officer's week 2026-12-03, the IDDE table: "Priority areas, impaired waters")."""

from __future__ import annotations

import re

from helpers import csrf_of, sign_in
from test_inventory_history import BLANKS, _at, _import

from portal.core.db import connect, get_db
from portal.outfalls.sheets import match_columns

YEAR_2025 = {"start": "2025-01-03", "end": "2026-01-02"}
YEAR_2026 = {"start": "2026-01-03", "end": "2027-01-02"}
CSV = (
    b"Outfall ID,Type,Lat,Long,Mapped On,Receiving water,Impaired\n"
    b"HH-001,Outfall,42.1655,-76.8201,2019-05-01,Newtown Creek,Yes\n"
    b"HH-002,Outfall,42.1682,-76.8155,2019-05-01,Newtown Creek,n\n"
    b"HH-003,Outfall,42.1601,-76.8302,2019-05-01,Chemung River,maybe\n"
    b"HH-004,Outfall,42.1611,-76.8312,2019-05-01,,\n"
)


def shown(page: str, label: str) -> str:
    """What the annual page shows for a line."""
    return re.search(rf"{re.escape(label)}</th><td><a [^>]*>([^<]*)<", page).group(1)


def test_the_import_reads_yes_and_no_and_keeps_a_row_whose_answer_it_cannot_read(app):
    report = _import(app, CSV, "2025-03-01T09:00:00-05:00")
    assert report.lines()[1] == "added 4, updated 0, unchanged 0, refused 0, cells left out 1"
    assert (
        "  row 4 (HH-003), Impaired: 'maybe' is not yes or no (is the receiving water impaired"
        " or a priority?) (left out; the rest of the row is imported)"
    ) in report.lines()
    with app.app_context():
        stored = get_db().execute("SELECT code, impaired_water FROM outfalls ORDER BY code")
        assert [tuple(r) for r in stored] == [
            ("HH-001", "yes"),
            ("HH-002", "no"),
            ("HH-003", None),
            ("HH-004", None),
        ]


def test_a_shapefiles_cut_name_and_a_303d_column_are_read_as_impaired():
    assert match_columns(["FACILITYID", "IMPAIRED_W"])[0]["impaired_water"] == "IMPAIRED_W"
    assert match_columns(["id", "303(d)"])[0]["impaired_water"] == "303(d)"


def test_the_figures_count_outfalls_to_impaired_waters_as_at_the_end_of_the_period(app, client):
    _import(app, CSV, "2025-03-01T09:00:00-05:00")
    sign_in(client, app)
    page = client.get("/staff/annual-report/", query_string=YEAR_2025).text
    assert shown(page, "Outfalls to impaired or priority waters") == "1"
    assert shown(page, "Outfalls whose receiving water is not recorded as impaired or not") == "2"
    # On January 10, 2026 the State lists the Chemung River: HH-003 is marked on its page.
    _at(app, "2026-01-10")
    edit = client.get("/staff/outfalls/3/edit").text
    assert '<option value="">Not recorded</option>' in edit
    saved = client.post(
        "/staff/outfalls/3/edit",
        data={
            "csrf_token": csrf_of(edit),
            "code": "HH-003",
            "structure_type": "outfall",
            "latitude": "42.1601",
            "longitude": "-76.8302",
            "receiving_water": "Chemung River",
            **BLANKS,
            "impaired_water": "yes",
        },
    )
    assert saved.status_code == 303
    detail = client.get("/staff/outfalls/3/").text
    assert "<dt>Impaired or priority receiving water</dt><dd>Yes</dd>" in detail
    assert "impaired or priority receiving water: empty to yes" in detail
    # The closed year keeps what the record said then; 2026 counts HH-003.
    page = client.get("/staff/annual-report/", query_string=YEAR_2025).text
    assert shown(page, "Outfalls to impaired or priority waters") == "1"
    page = client.get("/staff/annual-report/", query_string=YEAR_2026).text
    assert shown(page, "Outfalls to impaired or priority waters") == "2"
    assert shown(page, "Outfalls whose receiving water is not recorded as impaired or not") == "1"
    records = client.get(
        "/staff/annual-report/records/outfalls.impaired", query_string=YEAR_2026
    ).text
    assert re.findall(r'<a href="/staff/outfalls/\d+/">([^<]+)</a>', records) == [
        "HH-001",
        "HH-003",
    ]
    sheet = client.get("/staff/annual-report.csv", query_string=YEAR_2026).text
    assert (
        "2026-01-03,2027-01-02,Outfalls and dry-weather screening,Outfalls to impaired or"
        " priority waters,2,2,https://portal.village.test/staff/annual-report/records/"
        "outfalls.impaired?start=2026-01-03&end=2027-01-02"
    ) in sheet.splitlines()


def test_a_database_made_before_the_field_gets_it_empty(tmp_path):
    path = tmp_path / "portal.sqlite3"
    db = connect(path)
    db.execute(
        "INSERT INTO outfalls (code, latitude, longitude, receiving_water, created_at,"
        " updated_at, updated_by) VALUES ('HH-001', 42.16, -76.82, 'Newtown Creek',"
        " '2024-05-01', '2024-05-01', 'import')"
    )
    # As the portal left it before: no column, the migration not recorded.
    db.execute("ALTER TABLE outfalls DROP COLUMN impaired_water")
    db.execute("DELETE FROM _sqlite_migrations WHERE name = '007_impaired_or_priority_water'")
    db.conn.commit()
    db.conn.close()
    db = connect(path)
    assert db.execute("SELECT code, receiving_water, impaired_water FROM outfalls").fetchall() == [
        ("HH-001", "Newtown Creek", None)
    ]
    assert db.execute(
        "SELECT count(*) FROM _sqlite_migrations WHERE name = '007_impaired_or_priority_water'"
    ).fetchone() == (1,)
    db.conn.close()
