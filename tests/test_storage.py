"""Storing a case: one transaction per submission key, and named refusals the views answer."""

from __future__ import annotations

import datetime as dt

import pytest

from portal import create_app
from portal.core.db import get_db
from portal.intake.storage import DuplicateSubmission, PhotoExpired, StorageError, store_case

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
