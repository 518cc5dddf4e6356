"""The GeoReport v2 endpoints under /open311/v2/, each as .json and .xml."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, request
from flask_limiter.util import get_remote_address
from werkzeug.exceptions import HTTPException

from portal.core.db import get_db
from portal.open311.filing import Refused, file_request
from portal.open311.formats import answer, errors, format_of
from portal.open311.keys import ApiKey, known_key, use_key
from portal.open311.public import BadQuery, UnknownService, find, search
from portal.open311.services import definition, open311, service_entry
from portal.web.routes import Limit, declare

PREFIX = "/open311/v2"
SPECIFICATION = "http://wiki.open311.org/GeoReport_v2"


def client() -> str:
    """Who a request counts against: its key if it is a key in use, else its address. A
    made-up key is counted with its address: it gets no bucket of its own, so
    guessing costs the address its limit and adds no rows."""
    given = given_key()
    found = known_key(get_db(), given) if given else None
    return f"open311-key:{found.id}" if found else get_remote_address()


READS = Limit("OPEN311_READ_RATE_LIMIT", key=lambda: client())
FILINGS = Limit("OPEN311_FILE_RATE_LIMIT", key=lambda: client())

bp = Blueprint("open311", __name__, url_prefix=PREFIX)


class ApiError(HTTPException):
    """An answer in the specification's error format, with its own words."""

    def __init__(self, code: int, *descriptions: str) -> None:
        super().__init__("; ".join(descriptions))
        self.code, self.descriptions = code, descriptions


@bp.before_request
def check_jurisdiction() -> None:
    # The specification: an empty optional parameter is the same as none; an unknown
    # jurisdiction is a 404. Domain names match whatever their case.
    given = (request.values.get("jurisdiction_id") or "").strip()
    if given and given.casefold() != open311().jurisdiction_id.casefold():
        raise ApiError(404, f"jurisdiction_id: no jurisdiction {given!r} here")


@bp.after_request
def readable_from_browsers(response: Response) -> Response:
    # Anyone may read what the API shows (public fields only); a POST needs a key, and its
    # answer is for the client that sent it alone.
    if request.method == "GET":
        response.headers["Access-Control-Allow-Origin"] = "*"
    return response


def api_error(error: HTTPException) -> Response:
    """Any error on an API path, as the specification's list of {code, description}."""
    code = error.code or 500
    if isinstance(error, ApiError):
        return errors(format_of(request.path), code, *error.descriptions)
    words = {
        403: "api_key: a valid key is required",
        404: "Not found",
        405: f"{request.method} is not allowed here",
        413: "The request is too large",
        429: "Too many requests: wait a minute and try again",
    }
    if code in words:
        return errors(format_of(request.path), code, words[code])
    if code >= 500:
        return errors(format_of(request.path), 500, "Something went wrong; try again later")
    # Anything else the request checks refuse (unreadable query, JSON body): a bad request.
    return errors(format_of(request.path), 400, error.description or "Bad request")


# Addresses are written to access logs; a POST's body is not, so a key
# sent in an address is refused (and should be replaced).
KEY_IN_ADDRESS = (
    "api_key: send the key in the request body, never in the address (addresses are "
    "logged); if it was sent in an address, ask for a new key"
)

READ_WITH_KEY = (
    "api_key: reads need no key; never send a key in the address (addresses are logged); "
    "if it was sent in one, ask for a new key"
)


def given_key() -> str:
    """The key a POST gives in its body. Reads take none (GeoReport v2 puts api_key on
    POST Service Request alone), so a read is counted with its address."""
    return (request.form.get("api_key") or "").strip() if request.method == "POST" else ""


def _key() -> ApiKey:
    """The key's holder, counting the request: a POST needs a known, unrevoked key."""
    given = given_key()
    key = use_key(get_db(), given) if given else None
    if key is None:
        if given:
            raise ApiError(403, "api_key: this key is unknown or revoked")
        raise ApiError(403, "api_key: a key is required to file a request")
    return key


def _read() -> None:
    """A read takes no key; one given in its address is refused, not ignored, so that the
    integrator stops sending it where it is logged (an empty one is no key: the spec's
    empty optional parameter)."""
    if (request.args.get("api_key") or "").strip():
        raise ApiError(403, READ_WITH_KEY)


@bp.route("/discovery.<any(json,xml):fmt>")
@declare(limit=READS)
def discovery(fmt: str):
    _read()
    api = open311()
    office = current_app.extensions["content"].settings.office
    # The public address (required in production); the request's own in a bare test app.
    base = (current_app.config["PUBLIC_URL"] or request.host_url).rstrip("/") + PREFIX
    return answer(
        fmt,
        "discovery",
        {
            "changeset": api.changeset,
            "contact": f"{office.name}, {office.street}, {office.locality}, {office.phone.number}",
            "key_service": api.key_service,
            "endpoints": [
                {
                    "specification": SPECIFICATION,
                    "url": base,
                    "changeset": api.changeset,
                    "type": "production",
                    "formats": ["text/xml", "application/json"],
                }
            ],
        },
    )


@bp.route("/services.<any(json,xml):fmt>")
@declare(limit=READS)
def services(fmt: str):
    _read()
    return answer(fmt, "services", [service_entry(s) for s in open311().services])


@bp.route("/services/<service_code>.<any(json,xml):fmt>")
@declare(limit=READS)
def service_definition(service_code: str, fmt: str):
    _read()
    service = open311().service(service_code)
    if service is None:
        raise ApiError(404, f"service_code: no service {service_code!r}")
    return answer(fmt, "service_definition", definition(service))


@bp.route("/requests.<any(json,xml):fmt>", methods=["GET"])
@declare(limit=READS)
def requests_list(fmt: str):
    _read()
    try:
        found = search(open311(), request.args)
    except UnknownService as error:
        raise ApiError(404, str(error)) from None
    except BadQuery as error:
        raise ApiError(400, str(error)) from None
    return answer(fmt, "service_requests", found)


@bp.route("/requests.<any(json,xml):fmt>", methods=["POST"])
@declare(limit=FILINGS)
def requests_create(fmt: str):
    if "api_key" in request.args:
        raise ApiError(403, KEY_IN_ADDRESS)
    key = _key()
    code = (request.form.get("service_code") or "").strip()
    if not code:
        raise ApiError(400, "service_code: required")
    service = open311().service(code)
    if service is None:
        raise ApiError(404, f"service_code: no service {code!r}")
    try:
        stored = file_request(service, request.form, key)
    except Refused as error:
        raise ApiError(400, *error.problems) from None
    item = {
        "service_request_id": stored.reference,
        "service_notice": service.service_notice,
        "account_id": None,
    }
    return answer(fmt, "service_requests", [item])


@bp.route("/requests/<service_request_id>.<any(json,xml):fmt>")
@declare(limit=READS)
def request_one(service_request_id: str, fmt: str):
    _read()
    found = find(open311(), service_request_id)
    if found is None:
        raise ApiError(404, f"service_request_id: no request {service_request_id!r}")
    return answer(fmt, "service_requests", [found])


@bp.route("/tokens/<token>.<any(json,xml):fmt>")
@declare(limit=READS)
def token(token: str, fmt: str):
    _read()
    # Requests get their id at once, so no token ever stands for one.
    raise ApiError(404, f"token: no token {token!r}; requests get their id when filed")
