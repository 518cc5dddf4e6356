"""POST requests: an API request becomes the report form's data, and is checked, stored
and mailed exactly as the web form's would be (the report view's own functions)."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any
from urllib.parse import urlsplit

from werkzeug.datastructures import MultiDict

from content_model.open311 import Service
from portal.clock import local_now, local_stamp
from portal.db import get_db, insert, transaction
from portal.intake.fields import DATETIME_FORMAT
from portal.intake.pending import store_submission
from portal.intake.storage import Stored, new_submission_key
from portal.open311.keys import ApiKey
from portal.open311.services import DATETIME_HINT, FORMS, STANDARD, attributes
from portal.report import views as report

MEDIA_URL_LIMIT = 2000


class Refused(ValueError):
    """The request cannot be filed; `problems` say why, naming the parameters."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def _local_datetime(value: str) -> str | None:
    """A W3C date-time as the web form's field reads it (local time, to the minute)."""
    try:
        moment = dt.datetime.fromisoformat(value.strip())
    except ValueError:
        return None
    local = local_now().tzinfo
    moment = moment.replace(tzinfo=local) if moment.tzinfo is None else moment.astimezone(local)
    return moment.strftime(DATETIME_FORMAT)


def form_data(service: Service, params: MultiDict) -> MultiDict:
    """The web form's fields from the API's parameters; Refused for what the form would
    never receive (an unknown attribute, two answers to a one-answer question)."""
    problems = []
    given = {key for key in params if key.startswith("attribute[")}
    data = MultiDict()
    for attribute in attributes(service):
        names = [f"attribute[{attribute.code}]", f"attribute[{attribute.code}][]"]
        values = [v for name in names for v in params.getlist(name)]
        given -= set(names)
        if attribute.datatype != "multivaluelist" and len(values) > 1:
            problems.append(f"attribute[{attribute.code}]: give one value, not {len(values)}")
            continue
        if attribute.datatype == "datetime" and values:
            moment = _local_datetime(values[0])
            if moment is None:
                problems.append(
                    f"attribute[{attribute.code}]: not a date and time. {DATETIME_HINT}"
                )
                continue
            values = [moment]
        data.setlist(attribute.code, values)
    problems += [f"{name}: this service has no such attribute" for name in sorted(given)]
    for field, param in STANDARD.items():
        if field != "contact_name" and params.get(param):
            data[field] = params[param]
    name = " ".join(filter(None, (params.get("first_name"), params.get("last_name"))))
    if name.strip():
        data["contact_name"] = name
    media_url = params.get("media_url") or ""
    if media_url and not _web_address(media_url):
        problems.append("media_url: give an http or https address of a photo")
    if problems:
        raise Refused(problems)
    # A fresh key: each POST is a new report (the web form's key guards double taps).
    data["submission_key"] = new_submission_key()
    return data


def _web_address(url: str) -> bool:
    parts = urlsplit(url)
    return len(url) <= MEDIA_URL_LIMIT and parts.scheme in ("http", "https") and bool(parts.netloc)


def _problems(form: Any) -> list[str]:
    """The form's errors, each named by the API parameter it came from."""
    found = []
    for field, messages in form.errors.items():
        param = STANDARD.get(field, f"attribute[{field}]")
        found += [f"{param}: {message}" for message in messages]
    return found


def file_request(service: Service, params: MultiDict, key: ApiKey) -> Stored:
    """Check and store one request as the web form would, record which key filed it, and
    queue the same mail. Raises Refused (nothing stored) for a request the form refuses."""
    form = FORMS[service.form](
        formdata=form_data(service, params), meta={"csrf": False}, clock=local_now
    )
    if not form.validate():
        raise Refused(_problems(form))
    stored = store_submission(
        form,
        [],
        kind=service.form,
        case=report._case_fields(form),
        details=report._report_fields(form),
        now=local_now(),
    )
    _record_filing(stored.case_id, key, params.get("media_url") or None)
    return stored


def _record_filing(case_id: int, key: ApiKey, media_url: str | None) -> None:
    """Which key filed the case, for the staff case page and the audit log."""
    db = get_db()
    stamp = local_stamp()
    with transaction(db):
        insert(
            db, "open311_filings", {"case_id": case_id, "key_id": key.id, "media_url": media_url}
        )
        db.execute("UPDATE open311_keys SET filed = filed + 1 WHERE id = ?", [key.id])
        # Not workflow.log(): filing is not staff's first action on the case.
        detail = {"key": key.name, "media_url": media_url}
        insert(
            db,
            "events",
            {
                "case_id": case_id,
                "at": stamp,
                "actor": f"Open311 key {key.name}",
                "action": "open311",
                "detail": json.dumps(detail, ensure_ascii=False),
            },
        )
