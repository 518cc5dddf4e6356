"""Storing a case: one transaction per submission key, and named refusals the views answer."""

from __future__ import annotations

import datetime as dt
import hashlib

import pytest

from portal import create_app
from portal.core.cases import (
    digest,
    find_by_token,
    new_submission_key,
    next_reference,
    status_token,
)
from portal.core.db import get_db, one, rows, transaction, value
from portal.core.kinds import UnknownKind
from portal.intake.storage import (
    DuplicateSubmission,
    PhotoExpired,
    StorageError,
    delete_abandoned_photos,
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
        {
            "id": photo_id,
            "submission_key": key,
            "filename": "a.jpg",
            "content_type": "image/jpeg",
            "width": 1,
            "height": 1,
            "sha256": sha,
            "data": b"x",
            "created_at": NOW.isoformat(),
        }
    )


def test_the_kind_alone_decides_the_reference_and_the_details_table(db):
    stored = store(db)
    assert stored.created and stored.reference == "IDR-2028-0001"
    assert db["reports"].get(stored.case_id)["description"] == "Foam"
    required = (
        "danger",
        "hazardous",
        "petroleum",
        "facility_name",
        "facility_address",
        "facility_kind",
        "permit",
        "discovered_at",
        "is_over",
        "materials",
        "reached_drain",
        "cause",
        "cleanup",
        "prevention",
        "prior_notice",
        "notice_due",
        "retain_until",
    )
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
    known = {"id", "position", *PHOTO, *(column for column, _ in owners)}
    return {
        "photo": {name: columns.get(name) for name in PHOTO},
        "more": [name for name in columns if name not in known],
        "owners": owners,
        "position": columns.get("position"),
        "unique": unique,
        "id": columns.get("id"),
    }


@pytest.mark.parametrize(
    ("table", "owner", "more"),
    [
        ("photos", ("case_id", "cases"), []),
        ("inspection_photos", ("inspection_id", "inspections"), []),
        ("outfall_photos", ("outfall_id", "outfalls"), ["added_at", "added_by"]),
        ("screening_photos", ("screening_id", "screenings"), []),
        ("made_now", ("thing_id", "things"), []),
    ],
)
def test_every_photo_table_has_the_one_shape(db, table, owner, more):
    if table == "made_now":
        db.execute("CREATE TABLE things (id INTEGER PRIMARY KEY)")
        db.execute(photo_table("made_now", "thing_id", "things"))
    assert shape(db, table) == {
        "photo": PHOTO,
        "more": more,
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


def test_the_status_token_is_derived_from_the_secret_and_the_key_and_only_its_hash_is_kept(db):
    token = status_token("secret", KEY)
    assert token == "L0ZqQ-seUgcm63nLtsvEaRTFiIClGBEk"
    assert status_token(b"secret", KEY) == token
    assert status_token("other", KEY) != token and status_token("secret", "j" * 24) != token
    stored = store(db)
    assert stored.token == token
    (kept,) = db.execute("SELECT token_hash FROM cases").fetchone()
    assert kept == hashlib.sha256(token.encode()).hexdigest() and token not in kept


def test_a_case_is_found_by_its_token_and_by_nothing_else(db):
    stored = store(db)
    assert find_by_token(db, stored.token)["reference"] == "IDR-2028-0001"
    for wrong in ("", stored.token[:-1], stored.token + "x", "x" * 65, stored.token + "=" * 33):
        assert find_by_token(db, wrong) is None, wrong


def test_rows_are_dicts_by_column_and_a_value_is_the_first_column_of_the_first_row(db):
    store(db)
    store(db, key="m" * 24, case={"service_code": "illicit-discharge", "address": "Elm Street"})
    assert rows(db, "SELECT id, address FROM cases ORDER BY id") == [
        {"id": 1, "address": "Main Street"},
        {"id": 2, "address": "Elm Street"},
    ]
    assert one(db, "SELECT reference FROM cases WHERE id = ?", [2]) == {
        "reference": "IDR-2028-0002"
    }
    assert one(db, "SELECT reference FROM cases WHERE id = ?", [3]) is None
    assert value(db, "SELECT count(*), 'second column' FROM cases") == 2
    assert value(db, "SELECT reference FROM cases ORDER BY id DESC") == "IDR-2028-0002"
    assert value(db, "SELECT count(*) FROM cases WHERE id = ?", [3]) == 0, "a count, not None"
    assert value(db, "SELECT reference FROM cases WHERE id = ?", [3]) is None, "no row"


def test_references_count_per_prefix_and_year_with_four_digits_at_least(db):
    with transaction(db):
        made = [next_reference(db, "IDR", 2028) for _ in range(2)]
        made += [next_reference(db, "REL", 2028), next_reference(db, "IDR", 2029)]
        db.execute("UPDATE reference_counters SET last = 9999 WHERE prefix = 'IDR' AND year = 2028")
        made.append(next_reference(db, "IDR", 2028))
    assert made == [
        "IDR-2028-0001",
        "IDR-2028-0002",
        "REL-2028-0001",
        "IDR-2029-0001",
        "IDR-2028-10000",
    ]


def test_what_a_case_stores_and_when(db):
    new = []
    stored = store_case(
        db,
        kind="report",
        secret="secret",
        submission_key=KEY,
        case={"service_code": "illicit-discharge", "address": "Main Street"},
        details=REPORT,
        photo_ids=[],
        now=NOW,
        on_new=lambda: new.append(1),
    )
    assert (stored.case_id, stored.reference, stored.created) == (1, "IDR-2028-0001", True)
    case = db["cases"].get(stored.case_id)
    stamp = "2028-02-29T00:30:00-05:00"
    assert (case["kind"], case["status"], case["submission_key"]) == ("report", "received", KEY)
    assert case["received_at"] == case["updated_at"] == case["public_changed_at"] == stamp
    assert case["submission_digest"] == digest(
        {
            "case": {"service_code": "illicit-discharge", "address": "Main Street"},
            "details": REPORT,
            "photos": [],
        }
    )
    again = store_case(
        db,
        kind="report",
        secret="secret",
        submission_key=KEY,
        case={"service_code": "illicit-discharge", "address": "Main Street"},
        details=REPORT,
        photo_ids=[],
        now=NOW,
        on_new=lambda: new.append(2),
    )
    assert new == [1], "spent for the new case only"
    assert (again.case_id, again.created) == (1, False)


def test_a_fingerprint_is_the_content_whatever_its_order():
    assert digest({"a": 1, "b": [1, 2]}) == digest({"b": [1, 2], "a": 1})
    assert digest({"a": 1}) != digest({"a": 2}) and digest({"a": "é"}) != digest({"a": "e"})
    assert len(new_submission_key()) == 24 and new_submission_key() != new_submission_key()


def test_a_resent_form_with_its_photos_uploaded_again_is_the_same_form(db):
    pending(db, "a" * 20, sha="same photo")
    first = store(db, photo_ids=["a" * 20])
    pending(db, "b" * 20, sha="same photo")  # uploaded again: a new id, the same content
    pending(db, "c" * 20, sha="removed before sending")
    again = store(db, photo_ids=["b" * 20])
    assert (again.case_id, again.created) == (first.case_id, False)
    assert db.execute("SELECT count(*) FROM photos").fetchone() == (1,)
    assert db.execute("SELECT count(*) FROM pending_photos").fetchone() == (0,), "forgotten"
    pending(db, "d" * 20, sha="another photo")
    with pytest.raises(DuplicateSubmission):
        store(db, photo_ids=["d" * 20])


def test_an_unregistered_kind_is_refused_before_anything_is_written(db):
    with pytest.raises(UnknownKind):
        store(db, kind="yard_waste")
    assert db.execute("SELECT count(*) FROM reference_counters").fetchone() == (0,)


def test_photos_of_forms_never_sent_go_once_a_day_old_to_the_second(db):
    day = dt.timedelta(days=1)
    for name, age in (
        ("younger", day - dt.timedelta(seconds=1)),
        ("a-day", day),
        ("older", day + dt.timedelta(seconds=1)),
    ):
        photo = name.ljust(20, "x")
        pending(db, photo, key=photo.ljust(24, "k"))
        db.execute(
            "UPDATE pending_photos SET created_at = ? WHERE id = ?",
            [(NOW - age).isoformat(), photo],
        )
    assert delete_abandoned_photos(db, NOW) == 1
    left = sorted(row[0].rstrip("x") for row in db.execute("SELECT id FROM pending_photos"))
    assert left == ["a-day", "younger"]


def test_what_each_refusal_tells_the_person():
    assert StorageError().message == "This form could not be stored."
    assert PhotoExpired("p").message == "A photo could not be kept. Please attach it again."
    assert str(PhotoExpired("p" * 20)) == "p" * 20, "a logged refusal names the photo"
    assert DuplicateSubmission("IDR-2028-0007").message == (
        "This form was already sent as IDR-2028-0007. Open a new form to send another."
    )
