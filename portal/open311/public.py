"""GET requests: what a public status page may show of a case, and nothing more."""

from __future__ import annotations

import datetime as dt
from typing import Any

from werkzeug.datastructures import MultiDict

from content_model.open311 import Open311
from portal.core.clock import local_now
from portal.core.db import get_db, one, rows
from portal.core.statuses import STATUSES

WINDOW = dt.timedelta(days=90)
MOST = 1000
# About 100 m: enough to find the drain, not the house of whoever reported it.
PLACES = 3
# Only these columns are ever read: no contact, description, note to the sender or
# staff-only data can leak. updated_datetime: when the public last saw a change, or, for a
# closed request, when it was closed (the specification's words); a file made before
# these were kept falls back to updated_at.
COLUMNS = (
    "reference, kind, status, public_update, received_at, latitude, longitude,"
    " coalesce(public_changed_at, updated_at) AS public_changed_at,"
    " coalesce(closed_at, public_changed_at, updated_at) AS closed_at"
)


class BadQuery(ValueError):
    """A parameter the API cannot read; str(error) names it."""


class UnknownService(BadQuery):
    """A service_code no service has (the specification's 404)."""


def statuses_wanted(wanted: set[str]) -> list[str]:
    """The statuses a list asks for by open/closed (none asked: every one)."""
    return [
        key
        for key, status in STATUSES.items()
        if not wanted or ("closed" if status.closed else "open") in wanted
    ]


def public_request(case: dict[str, Any], api: Open311) -> dict[str, Any]:
    service = api.for_form(case["kind"])
    status = STATUSES[case["status"]]
    item = {
        "service_request_id": case["reference"],
        "status": "closed" if status.closed else "open",
        "status_notes": case["public_update"] or "",
        "service_name": service.service_name,
        "service_code": service.service_code,
        "description": "",
        "agency_responsible": service.agency_responsible,
        "service_notice": service.service_notice,
        "requested_datetime": case["received_at"],
        "updated_datetime": case["closed_at"] if status.closed else case["public_changed_at"],
    }
    if case["latitude"] is not None:
        item["lat"] = round(case["latitude"], PLACES)
        item["long"] = round(case["longitude"], PLACES)
    return item


def _where(forms: list[str], statuses: list[str]) -> tuple[str, list[Any]]:
    """Cases of the services' forms (a service is its form: content_model/open311.py lets
    one form stand for one service only) in the statuses asked for."""
    marks = lambda items: ", ".join("?" for _ in items)  # noqa: E731
    return (
        f"kind IN ({marks(forms)}) AND status IN ({marks(statuses)})",
        [*forms, *statuses],
    )


def find(api: Open311, reference: str) -> dict[str, Any] | None:
    """One case of a service by its reference, as the API shows it."""
    where, params = _where([s.form for s in api.services], statuses_wanted(set()))
    query = f"SELECT {COLUMNS} FROM cases WHERE reference = ? AND {where}"
    row = one(get_db(), query, [reference, *params])
    return public_request(row, api) if row else None


def _moment(params: MultiDict, name: str) -> dt.datetime | None:
    value = params.get(name)
    if not value:
        return None
    try:
        moment = dt.datetime.fromisoformat(value.strip())
    except ValueError:
        raise BadQuery(f"{name}: give a W3C date and time, like 2026-05-14T00:00:00Z") from None
    return moment.replace(tzinfo=local_now().tzinfo) if moment.tzinfo is None else moment


def _split(params: MultiDict, name: str) -> list[str]:
    return [v.strip() for value in params.getlist(name) for v in value.split(",") if v.strip()]


def search(api: Open311, params: MultiDict) -> list[dict[str, Any]]:
    """The requests a GET asks for, newest first, at most MOST; BadQuery for a bad parameter."""
    ids = _split(params, "service_request_id")
    if ids:
        # The specification: ids override every other parameter.
        found = [find(api, reference) for reference in dict.fromkeys(ids)]
        return [item for item in found if item]
    codes = _split(params, "service_code")
    forms = []
    for code in codes:
        service = api.service(code)
        if service is None:
            raise UnknownService(f"service_code: no service {code!r}")
        forms.append(service.form)
    wanted = set(_split(params, "status"))
    if wanted - {"open", "closed"}:
        raise BadQuery("status: use open or closed (or both, comma separated)")
    start, end = _moment(params, "start_date"), _moment(params, "end_date")
    if start is None and end is None:
        end = local_now()
    try:
        start = start or end - WINDOW
        end = end or start + WINDOW
    except OverflowError:  # 90 days before year 1, or after year 9999
        raise BadQuery("start_date, end_date: give dates between the years 1 and 9999") from None
    if end < start:
        raise BadQuery("end_date: comes before start_date")
    if end - start > WINDOW:
        raise BadQuery("start_date, end_date: may not span more than 90 days")
    where, values = _where(forms or [s.form for s in api.services], statuses_wanted(wanted))
    found = rows(
        get_db(),
        f"SELECT {COLUMNS} FROM cases WHERE {where}"
        " AND julianday(received_at) BETWEEN julianday(?) AND julianday(?)"
        f" ORDER BY julianday(received_at) DESC, id DESC LIMIT {MOST}",
        [*values, start.isoformat(), end.isoformat()],
    )
    return [public_request(row, api) for row in found]
