"""Made-up cases in bulk, for the benchmark and for tests of the staff workspace."""

from __future__ import annotations

import datetime as dt
import json
import random
import secrets
from typing import Any

import sqlite_utils

from portal.core.cases import token_hash
from portal.core.db import insert, transaction
from portal.core.kinds import statuses_for
from portal.report.choices import INDICATORS

TZ = dt.timezone(dt.timedelta(hours=-5))


def case_row(number: int, received: dt.datetime, **fields: Any) -> dict[str, Any]:
    """A report's `cases` row with every required column filled."""
    stamp = received.isoformat(timespec="seconds")
    return {
        "kind": "report",
        "reference": f"IDR-{received.year}-{number:05d}",
        "token_hash": token_hash(secrets.token_urlsafe(8)),
        "submission_key": f"seed-{number}-{secrets.token_hex(4)}",
        "submission_digest": "seed",
        "received_at": stamp,
        "updated_at": stamp,
        "status": "received",
        "service_code": "illicit-discharge",
        "address": f"{number} Seed Street",
        **fields,
    }


def report_row(case_id: int, received: dt.datetime, **fields: Any) -> dict[str, Any]:
    return {
        "case_id": case_id,
        "indicators": "[]",
        "description": "Seeded report",
        "observed_at": received.isoformat(timespec="minutes"),
        **fields,
    }


def insert_reports(db: sqlite_utils.Database, cases: list[tuple[dict, dict]]) -> list[int]:
    """Insert (case row, report row) pairs in one transaction; return the case ids."""
    ids = []
    with transaction(db):
        for case, report in cases:
            case_id = insert(db, "cases", case)
            insert(db, "reports", {**report, "case_id": case_id})
            ids.append(case_id)
    return ids


def seed_reports(
    db: sqlite_utils.Database,
    count: int,
    *,
    center: tuple[float, float] = (42.167, -76.821),
    spread: float = 0.02,
    days: int = 400,
    now: dt.datetime | None = None,
    seed: int = 42,
) -> list[int]:
    """`count` random but repeatable reports around `center` over the past `days`."""
    rng = random.Random(seed)
    now = now or dt.datetime.now(TZ).replace(microsecond=0)
    codes = [code for code, _ in INDICATORS]
    pairs = []
    for number in range(1, count + 1):
        received = now - dt.timedelta(minutes=rng.randrange(days * 24 * 60))
        case = case_row(
            number,
            received,
            status=rng.choice(statuses_for("report")),
            latitude=round(center[0] + rng.uniform(-spread, spread), 6),
            longitude=round(center[1] + rng.uniform(-spread, spread), 6),
        )
        indicators = json.dumps(rng.sample(codes, rng.randint(1, 3)))
        report = report_row(0, received, indicators=indicators, description=f"Seeded {number}")
        pairs.append((case, report))
    return insert_reports(db, pairs)
