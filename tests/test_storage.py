"""Storing a case: one transaction per submission key, and named refusals the views answer."""

from __future__ import annotations

import datetime as dt

import pytest

from portal import create_app
from portal.core.db import get_db, transaction
from portal.intake.storage import (
    DuplicateSubmission,
    PhotoExpired,
    StorageError,
    move_pending_photos,
    photo_table,
    store_case,
)

NOW = dt.datetime(2028, 2, 29, 0, 30, tzinfo=dt.timezone(dt.timedelta(hours=-5)))
KEY = "k" * 24
REPORT = {"indicators": "[]", "description": "Foam", "observed_at": "2028-02-29T00:15"}


@pytest.fixture
def db(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "p.sqlite3")})
    with app.app_context():
        yield get_db()


def store(db, key=KEY, case=None, photo_ids=(), kind="report", details=REPORT):
    return store_case(
        db,
        kind=kind,
        secret="secret",
        submission_key=key,
        case=case or {"service_code": "illicit-discharge", "address": "Main Street"},
        details=details,
        photo_ids=list(photo_ids),
        now=NOW,
    )


def pending(db, photo_id: str, key: str = KEY, sha: str = "abc") -> None:
    db["pending_photos"].insert(
        {"id": photo_id, "submission_key": key, "filename": "a.jpg", "content_type": "image/jpeg",
         "width": 1, "height": 1, "sha256": sha, "data": b"x", "created_at": NOW.isoformat()}
    )  # fmt: skip


def test_the_kind_alone_decides_the_reference_and_the_details_table(db):
    stored = store(db)
    assert stored.created and stored.reference == "IDR-2028-0001"
    assert db["reports"].get(stored.case_id)["description"] == "Foam"
    required = ("danger", "hazardous", "petroleum", "facility_name", "facility_address",
                "facility_kind", "permit", "discovered_at", "is_over", "materials",
                "reached_drain", "cause", "cleanup", "prevention", "prior_notice", "notice_due",
                "retain_until")  # fmt: skip
    details = {name: "x" for name in required} | {"facility_name": "Garage", "notice_met": 1}
    case = {
        "service_code": "release-notification",
        "address": "1 Mill St",
        "contact_email": "a@x.org",
    }
    notice = store(db, key="n" * 24, case=case, kind="notification", details=details)
    assert notice.reference.startswith("REL-2028-")
    assert db["notifications"].get(notice.case_id)["facility_name"] == "Garage"


def test_the_same_form_twice_is_stored_once(db):
    first, again = store(db), store(db)
    assert (again.case_id, again.reference, again.token) == (
        first.case_id,
        first.reference,
        first.token,
    )
    assert not again.created
    assert db.execute("SELECT count(*) FROM cases").fetchone()[0] == 1


def test_a_reused_key_with_other_content_is_a_duplicate_submission(db):
    first = store(db)
    with pytest.raises(DuplicateSubmission) as refused:
        store(db, case={"service_code": "illicit-discharge", "address": "Elsewhere"})
    assert isinstance(refused.value, StorageError)
    assert refused.value.reference == first.reference
    assert first.reference in refused.value.message and "new form" in refused.value.message
    assert db.execute("SELECT count(*) FROM cases").fetchone()[0] == 1


def test_a_photo_that_expired_stores_nothing_and_names_the_photo(db):
    pending(db, "p" * 20)
    with pytest.raises(PhotoExpired) as refused:
        store(db, photo_ids=["p" * 20, "gone" * 5])
    assert isinstance(refused.value, StorageError)
    assert refused.value.photo_id == "gone" * 5
    assert "attach it again" in refused.value.message
    for table in ("cases", "reports", "photos", "reference_counters"):
        assert db.execute(f"SELECT count(*) FROM {table}").fetchone()[0] == 0, table
    assert db.execute("SELECT count(*) FROM pending_photos").fetchone()[0] == 1


def test_kept_photos_move_with_the_case_in_order(db):
    pending(db, "a" * 20, sha="1")
    pending(db, "b" * 20, sha="2")
    stored = store(db, photo_ids=["b" * 20, "a" * 20])
    rows = db.execute(
        "SELECT position, sha256 FROM photos WHERE case_id = ? ORDER BY position", [stored.case_id]
    ).fetchall()
    assert rows == [(1, "2"), (2, "1")]
    assert db.execute("SELECT count(*) FROM pending_photos").fetchone()[0] == 0


def test_a_photo_kept_for_another_form_is_never_attached_by_its_id(db):
    """A pending photo's id reaches the browser; another person's id posted with this form
    must not move their photo into this case."""
    pending(db, "theirs" + "x" * 14, key="t" * 24)
    with pytest.raises(PhotoExpired) as refused:
        store(db, photo_ids=["theirs" + "x" * 14])
    assert refused.value.photo_id == "theirs" + "x" * 14
    assert db.execute("SELECT count(*) FROM photos").fetchone()[0] == 0
    assert db.execute("SELECT count(*) FROM cases").fetchone()[0] == 0
    assert db.execute("SELECT submission_key FROM pending_photos").fetchall() == [("t" * 24,)]


def test_photos_added_to_an_owner_follow_its_last_one_with_their_own_columns(db):
    db.execute("CREATE TABLE things (id INTEGER PRIMARY KEY)")
    db.execute("INSERT INTO things (id) VALUES (7)")
    db.execute(photo_table("thing_photos", "thing_id", "things", "added_by TEXT NOT NULL"))
    for batch, key in ((("a", "b"), "1" * 24), (("c",), "2" * 24)):
        for name in batch:
            pending(db, name * 20, key=key, sha=name)
        pending(db, "left" * 5, key=key, sha="removed from the form before it was sent")
        with transaction(db):
            ids = [name * 20 for name in batch]
            move_pending_photos(db, "thing_photos", "thing_id", 7, ids, key, {"added_by": "jo"})
    rows = db.execute("SELECT position, sha256, added_by FROM thing_photos ORDER BY position")
    assert rows.fetchall() == [(1, "a", "jo"), (2, "b", "jo"), (3, "c", "jo")]
    assert db.execute("SELECT count(*) FROM pending_photos").fetchone()[0] == 0


def test_a_photo_gone_from_a_staff_form_adds_none_of_them(db):
    case_id = store(db).case_id
    db.execute(
        "INSERT INTO inspections (id, case_id, visited_at, inspector, findings, sampled,"
        " recorded_at, recorded_by) VALUES (1, ?, '2028-02-29', 'Jo', 'x', 0, 'x', 'jo')",
        [case_id],
    )
    pending(db, "a" * 20, key="1" * 24)
    pending(db, "b" * 20, key="2" * 24)  # another officer's form
    with pytest.raises(PhotoExpired), transaction(db):
        move_pending_photos(
            db, "inspection_photos", "inspection_id", 1, ["a" * 20, "b" * 20], "1" * 24
        )
    assert db.execute("SELECT count(*) FROM inspection_photos").fetchone()[0] == 0
    assert db.execute("SELECT count(*) FROM pending_photos").fetchone()[0] == 2


# A checked photo's columns, the same in every photo table: (type, not null, default).
PHOTO = {
    "content_type": ("TEXT", 1, None),
    "width": ("INTEGER", 1, None),
    "height": ("INTEGER", 1, None),
    "sha256": ("TEXT", 1, None),
    "data": ("BLOB", 1, None),
}


def shape(db, table: str) -> dict:
    """A photo table's photo columns, its owner (column, table) and its unique positions."""
    columns = {
        row[1]: (row[2], row[3], row[4]) for row in db.execute(f"PRAGMA table_info({table})")
    }
    owners = [(row[3], row[2]) for row in db.execute(f"PRAGMA foreign_key_list({table})")]
    unique = [
        [row[2] for row in db.execute(f"PRAGMA index_info({index[1]})")]
        for index in db.execute(f"PRAGMA index_list({table})")
        if index[2]
    ]
    return {
        "photo": {name: columns.get(name) for name in PHOTO},
        "owners": owners,
        "position": columns.get("position"),
        "unique": unique,
        "id": columns.get("id"),
    }


@pytest.mark.parametrize(
    ("table", "owner"),
    [
        ("photos", ("case_id", "cases")),
        ("inspection_photos", ("inspection_id", "inspections")),
        ("outfall_photos", ("outfall_id", "outfalls")),
        ("screening_photos", ("screening_id", "screenings")),
        ("made_now", ("thing_id", "things")),
    ],
)
def test_every_photo_table_has_the_one_shape(db, table, owner):
    if table == "made_now":
        db.execute("CREATE TABLE things (id INTEGER PRIMARY KEY)")
        db.execute(photo_table("made_now", "thing_id", "things"))
    assert shape(db, table) == {
        "photo": PHOTO,
        "owners": [owner],
        "id": ("INTEGER", 0, None),
        "position": ("INTEGER", 1, None),
        "unique": [[owner[0], "position"]],
    }


def test_the_migrated_photo_tables_are_those_five_and_pending_photos_shares_the_columns(db):
    tables = [
        row[0]
        for row in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%sha256%' ORDER BY name"
        )
    ]
    assert tables == [
        "inspection_photos",
        "outfall_photos",
        "pending_photos",
        "photos",
        "screening_photos",
    ]
    assert shape(db, "pending_photos")["photo"] == PHOTO
