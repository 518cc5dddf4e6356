"""POST requests: an API request becomes the report form's data, and is checked, stored
and mailed exactly as the web form's would be (the report view's own functions)."""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import hmac
import itertools
import json
from typing import Any
from urllib.parse import urlsplit

from flask import current_app
from werkzeug.datastructures import MultiDict

from content_model.open311 import Service
from portal.core.cases import Stored
from portal.core.clock import local_now, local_stamp
from portal.core.db import get_db, insert, transaction, value
from portal.intake.fields import DATETIME_FORMAT
from portal.intake.pending import store_submission
from portal.intake.storage import DuplicateSubmission
from portal.open311.keys import ApiKey
from portal.open311.services import DATETIME_HINT, FORMS, STANDARD, attributes
from portal.report import views as report

MEDIA_URL_LIMIT = 2000
ADDRESS_ID_LIMIT = 100
# The same body with the same key within this time is a client's retry (after a timeout,
# say), not a new report: it gets the first request's id and files nothing.
RETRY_WINDOW = dt.timedelta(minutes=10)


class Refused(ValueError):
    """The request cannot be filed; `problems` say why, naming the parameters."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def _local_datetime(value: str) -> str | None:
    """A W3C date-time as the web form's field reads it (local time, to the minute)."""
    try:
        moment = dt.datetime.fromisoformat(value.strip())
        local = local_now().tzinfo
        moment = moment.replace(tzinfo=local) if moment.tzinfo is None else moment.astimezone(local)
    except (ValueError, OverflowError):  # OverflowError: year 1 moved to another zone
        return None
    return moment.strftime(DATETIME_FORMAT)


def form_data(service: Service, params: MultiDict, key: ApiKey) -> MultiDict:
    """The web form's fields from the API's parameters; Refused for what the form would
    never receive (an unknown attribute, two answers to a one-answer question)."""
    problems = []
    given = {key for key in params if key.startswith("attribute[")}
    data = MultiDict()
    for attribute in attributes(service):
        names = [f"attribute[{attribute.code}]", f"attribute[{attribute.code}][]"]
        values = [v for name in names for v in params.getlist(name)]
        given -= set(names)
        if attribute.datatype == "multivaluelist":
            values = list(dict.fromkeys(values))  # "suds" sent 2,000 times is one answer
        elif len(values) > 1:
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
    # The specification's third way to give a place. There is no address register here to
    # look it up in, so staff get it as words beside any address_string.
    address_id = (params.get("address_id") or "").strip()
    if address_id and (len(address_id) > ADDRESS_ID_LIMIT or not address_id.isprintable()):
        problems.append(f"address_id: give at most {ADDRESS_ID_LIMIT} printable characters")
    elif address_id:
        given = data.get("address")
        data["address"] = (
            f"{given} (address ID {address_id})" if given else (f"Address ID {address_id}")
        )
    media_url = params.get("media_url") or ""
    if media_url and not _web_address(media_url):
        problems.append("media_url: give an http or https address of a photo")
    if problems:
        raise Refused(problems)
    data["submission_key"] = _retry_key(key, params)
    return data


def _retry_key(key: ApiKey, params: MultiDict) -> str:
    """The submission key of this body from this API key: the one a filing of it within
    RETRY_WINDOW used (storing then files nothing new, as a double tap on the web form),
    else a fresh one. Two retries at once race to the same key and still file once."""
    items = sorted(
        (name, given) for name, values in params.lists() if name != "api_key" for given in values
    )
    body = json.dumps([key.id, items], ensure_ascii=False).encode()
    secret = current_app.secret_key
    secret = secret.encode() if isinstance(secret, str) else secret
    digest = hmac.new(secret, b"open311-retry:" + body, hashlib.sha256).digest()
    base = "api-" + base64.urlsafe_b64encode(digest[:18]).decode()
    since = local_now() - RETRY_WINDOW
    for n in itertools.count(1):
        candidate = f"{base}-{n}"
        received = value(
            get_db(), "SELECT received_at FROM cases WHERE submission_key = ?", [candidate]
        )
        if received is None or dt.datetime.fromisoformat(received) >= since:
            return candidate
    raise AssertionError("unreachable")


def _web_address(url: str) -> bool:
    parts = urlsplit(url)
    return len(url) <= MEDIA_URL_LIMIT and parts.scheme in ("http", "https") and bool(parts.netloc)


def _problems(form: Any, service: Service) -> list[str]:
    """The form's errors, each named by the API parameter it came from (a missing date and
    time in the API's own format, not the web form's)."""
    datetimes = {a.code for a in attributes(service) if a.datatype == "datetime"}
    found = []
    for field, messages in form.errors.items():
        param = STANDARD.get(field, f"attribute[{field}]")
        if field in datetimes and form[field].data is None:
            messages = [f"required. {DATETIME_HINT}"]
        found += [f"{param}: {message}" for message in messages]
    return found


def file_request(service: Service, params: MultiDict, key: ApiKey) -> Stored:
    """Check and store one request as the web form would, record which key filed it, and
    queue the same mail. Raises Refused (nothing stored) for a request the form refuses."""
    form = FORMS[service.form](
        formdata=form_data(service, params, key), meta={"csrf": False}, clock=local_now
    )
    if not form.validate():
        raise Refused(_problems(form, service))
    try:
        stored = store_submission(
            form,
            [],
            kind=service.form,
            case=report._case_fields(form),
            details=report._report_fields(form),
            now=local_now(),
        )
    except DuplicateSubmission as error:  # the same body stored differently: never expected
        raise Refused([f"this request was filed already as {error.reference}"]) from None
    if stored.created:  # a retry files nothing and counts nothing
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
