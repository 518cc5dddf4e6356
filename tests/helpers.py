"""Small helpers for tests: reading a frozen build, filling and walking the portal's forms."""

from __future__ import annotations

import contextlib
import io
import shutil
import sqlite3
import struct
import threading
import time
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from html.parser import HTMLParser
from pathlib import Path

from PIL import Image

DATA = Path(__file__).resolve().parent / "data"


@contextmanager
def serving(app) -> Iterator[str]:
    """`app` on 127.0.0.1 in a thread, as a live server; yields its base URL."""
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join()


# The languages the default pack's site is also built in, each under its prefix (/es/).
TRANSLATED = ("es",)


def built_pages(build: Path, language: str | None = None) -> list[Path]:
    """Every HTML page of a frozen build; with `language`, only that language's ('en': the
    pages outside every language's prefix)."""
    pages = sorted(build.rglob("*.html"))
    if language is None:
        return pages

    def language_of(page: Path) -> str:
        first = page.relative_to(build).parts[0]
        return first if first in TRANSLATED else "en"

    return [page for page in pages if language_of(page) == language]


def page_url(build: Path, page: Path) -> str:
    """The URL path a built file is served at: build/learn/index.html -> /learn/."""
    relative = page.relative_to(build).as_posix()
    return "/" + relative.removesuffix("index.html")


BLOCKS = {
    "p",
    "div",
    "li",
    "dt",
    "dd",
    "h1",
    "h2",
    "h3",
    "h4",
    "section",
    "nav",
    "ul",
    "ol",
    "dl",
    "header",
    "footer",
    "main",
    "aside",
    "td",
    "th",
    "label",
    "legend",
}


class PageParser(HTMLParser):
    """Collects what the build tests look at: ids, links, resources, inline code and text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.resources: list[str] = []
        self.alternates: list[tuple[str | None, str | None]] = []
        self.inline_code: list[str] = []
        self.chunks: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(values["id"])
        if tag == "a" and values.get("href"):
            self.links.append(values["href"])
        # The same page in another language is a page, not something the page loads.
        alternate = tag == "link" and values.get("rel") == "alternate"
        if alternate:
            self.alternates.append((values.get("hreflang"), values.get("href")))
        elif tag in ("link", "script", "img", "iframe", "source") and (
            values.get("href") or values.get("src")
        ):
            self.resources.append(values.get("href") or values.get("src"))
        if tag in ("script", "style") and not values.get("src"):
            self.inline_code.append(tag)
        if any(name.startswith("on") or name == "style" for name, _ in attrs):
            self.inline_code.append(f"{tag} attribute")
        if tag in ("script", "style", "title"):
            self._skip += 1
        if tag == "br":
            self.chunks.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "title"):
            self._skip -= 1
        if tag in BLOCKS:  # block ends separate words, as a browser's layout would
            self.chunks.append(" ")

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.chunks.append(data)

    @property
    def text(self) -> str:
        return " ".join("".join(self.chunks).split())


def parse_page(path: Path) -> PageParser:
    parser = PageParser()
    parser.feed(path.read_text(encoding="utf-8"))
    parser.close()
    return parser


class _HiddenInputs(HTMLParser):
    """Every <input type="hidden">, as (name, value), in page order (values unescaped)."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "input" and named.get("type") == "hidden" and named.get("name"):
            self.found.append((named["name"], named.get("value") or ""))


def hidden_inputs(page: str) -> list[tuple[str, str]]:
    parser = _HiddenInputs()
    parser.feed(page)
    parser.close()
    return parser.found


def form_keys(page: str) -> dict[str, str]:
    """A public form's CSRF token and submission key."""
    return {k: v for k, v in hidden_inputs(page) if k in ("csrf_token", "submission_key")}


def open_form(client, url: str = "/report/") -> dict[str, str]:
    """GET a form page; return its hidden fields (CSRF token, submission key)."""
    response = client.get(url)
    assert response.status_code == 200
    return form_keys(response.text)


def report_data(**overrides) -> dict:
    """A complete, valid report as the browser would post it (without hidden fields)."""
    data = {
        "indicators": ["suds", "odor"],
        "odor": "chemical",
        "description": "White foam coming out of the pipe under the Main Street bridge.",
        "address": "Main Street bridge over the creek",
        "latitude": "42.16701",
        "longitude": "-76.82099",
        "location_type": "outfall",
        "observed_at": "2026-11-29T08:15",
        "still_happening": "yes",
        "happened_before": "unsure",
        "source_description": "The car wash next to the bridge",
        "source_vehicle": "",
        "source_notes": "",
        "contact_name": "Pat Doe",
        "contact_email": "pat@example.test",
        "contact_phone": "(555) 555-0123",
        "nickname": "",
    }
    data.update(overrides)
    return {key: value for key, value in data.items() if value is not None}


def notification_data(**overrides) -> dict:
    """A complete release notification: a small diesel spill, told by phone first."""
    data = {
        "danger": "no",
        "hazardous": "yes",
        "petroleum": "yes",
        "emergency_called": "yes",
        "emergency_called_at": "2026-11-02T09:10",
        "dec_called": "yes",
        "dec_called_at": "2026-11-02T09:20",
        "dec_spill_number": "2608123",
        "facility_name": "Depot Street Fuel",
        "facility_address": "12 Depot Street",
        "facility_kind": "commercial",
        "permit": "industrial",
        "permit_number": "NYR00A123",
        "responsible_name": "Sam Lee",
        "responsible_title": "Yard manager",
        "responsible_phone": "(555) 555-0100",
        "responsible_email": "sam@depot.test",
        "discovered_at": "2026-11-02T09:00",
        "began_at": "2026-11-02T08:30",
        "is_over": "yes",
        "ended_at": "2026-11-02T09:45",
        "materials": "Diesel fuel",
        "quantity": "20",
        "unit": "gallons",
        "address": "Loading dock behind 12 Depot Street",
        "latitude": "",
        "longitude": "",
        "reached_drain": "may",
        "amount_reached": "a cup or two",
        "cause": "A split fuel hose",
        "cleanup": "Absorbent booms around the drain, pads on the spill",
        "prevention": "Hoses replaced; inspections weekly",
        "prior_notice": "phone",
        "prior_notice_at": "2026-11-02T10:00",
        "prior_notice_to": "Village Clerk",
        "nickname": "",
    }
    data.update(overrides)
    return {key: value for key, value in data.items() if value is not None}


def hidden_fields(page: str) -> dict[str, str]:
    return dict(hidden_inputs(page))


def start_notification(client, triage: dict) -> object:
    """GET the triage step and answer it; returns the details page response."""
    first = client.get("/notify/")
    fields = hidden_fields(first.text)
    return client.post("/notify/", data={**fields, "step": "triage", **triage})


def file_notification(client, data: dict, photos=()) -> tuple[object, object]:
    """Walk triage, details and review; return (review response, final response)."""
    triage = {name: data[name] for name in ("danger", "hazardous", "petroleum")}
    details = start_notification(client, triage)
    assert details.status_code == 200, details.text[:300]
    payload = {**hidden_fields(details.text), **data, "step": "details"}
    if photos:
        payload["photos"] = photos
    review = client.post("/notify/", data=payload, content_type="multipart/form-data")
    if review.status_code != 200:
        return review, None
    confirm = hidden_fields(review.text)
    return review, client.post("/notify/", data={**confirm, "step": "confirm"})


PASSWORD = "a long staff password"


# Each password's hash, made once per test process (scrypt takes a third of a second).
_HASHES: dict[str, str] = {}


@contextmanager
def hashed_once() -> Iterator[None]:
    """New accounts' passwords hashed once per distinct password, not once per account: the
    same salted scrypt hash, only shared by the accounts of one test process."""
    from unittest import mock

    from werkzeug.security import generate_password_hash

    from portal.accounts import accounts

    def kept(password: str) -> str:
        if password not in _HASHES:
            _HASHES[password] = generate_password_hash(password)
        return _HASHES[password]

    with mock.patch.object(accounts, "generate_password_hash", kept):
        yield


def add_enrolled_account(app, username: str, password: str = PASSWORD) -> None:
    """A staff account whose authenticator app is set up (its secret only in the database)."""
    from portal.accounts import totp
    from portal.accounts.accounts import add_account
    from portal.core.db import get_db

    with app.app_context(), hashed_once():
        db = get_db()
        totp.enrol(db, add_account(db, username, password), totp.new_secret(), step=0)


def sign_in(client, app, username: str = "smo", password: str = PASSWORD, create: bool = True):
    """Signed in as `username` for a test about what staff do, not about signing in: the
    account made (unless told not to, then through the pages: the password is what is
    tried) and its session opened by the portal's own start of a session, without the
    password and code pages. Tests of the sign-in itself use `sign_in_by_form`."""
    if not create:
        return sign_in_by_form(client, app, username, password, create=False)
    add_enrolled_account(app, username, password)
    open_signed_in_session(client, app, username)
    return None


def open_signed_in_session(client, app, username: str) -> None:
    """What a right password and code end in (second_factor.start_session), in a request of
    the test client's address; its session cookie set in `client`."""
    from flask import session

    from portal.accounts.second_factor import start_session
    from portal.core.db import get_db, one

    with app.test_request_context(environ_base={"REMOTE_ADDR": "127.0.0.1"}):
        db = get_db()
        start_session(one(db, "SELECT id, username FROM staff WHERE username = ?", [username]))
        opened = dict(session)
    with client.session_transaction() as kept:
        kept.clear()
        kept.update(opened)
        kept.permanent = True


def sign_in_by_form(
    client, app, username: str = "smo", password: str = PASSWORD, create: bool = True
):
    """Create the account (unless told not to) with its second factor set up, then sign in
    through the pages with the password and, when asked for it, a code; returns the last
    response."""
    if create:
        add_enrolled_account(app, username, password)
    page = client.get("/staff/login")
    response = client.post(
        "/staff/login",
        data={**hidden_fields(page.text), "username": username, "password": password},
    )
    if response.headers.get("Location") == "/staff/second-factor":
        return enter_code(client, app, username)
    return response


def from_address(app, address: str):
    """A browser on its own address (every request it makes comes from there)."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def try_password(client, username: str, password: str):
    """One sign-in try with this username and password (the first step only)."""
    page = client.get("/staff/login")
    return client.post(
        "/staff/login",
        data={**hidden_fields(page.text), "username": username, "password": password},
    )


def enter_code(client, app, username: str, code: str | None = None):
    """Answer the second-factor page, by default with the account's next unused code."""
    page = client.get("/staff/second-factor")
    code = code if code is not None else next_code(app, username)
    return client.post("/staff/second-factor", data={**hidden_fields(page.text), "code": code})


def next_code(app, username: str) -> str:
    """What the officer's app shows next that the portal has not yet taken: a code one
    step early passes for clock drift; past that, wait for the app's next code."""
    import pyotp

    from portal.core.db import get_db

    # The portal takes a code one step early (tests/test_second_factor.py pins the window):
    # written here, not read from the code under test.
    drift_steps = 1

    with app.app_context():
        secret, last = (
            get_db()
            .execute("SELECT totp_secret, totp_last_step FROM staff WHERE username = ?", [username])
            .fetchone()
        )
    totp = pyotp.TOTP(secret)
    step = max(totp.timecode(time.time()) - drift_steps, (last or 0) + 1)
    # The oldest code accepted stops being accepted when the step ends: near its end, wait
    # for the next step rather than post a code that expires on its way.
    left = totp.interval - time.time() % totp.interval
    if step < totp.timecode(time.time()) and left < 5:
        time.sleep(left + 0.1)
        step = max(totp.timecode(time.time()) - drift_steps, (last or 0) + 1)
    while step > totp.timecode(time.time()) + drift_steps:
        time.sleep(1)
    return totp.generate_otp(step)


def csrf_of(page: str) -> str:
    """The CSRF token of a staff page's action forms."""
    return next(value for name, value in hidden_inputs(page) if name == "csrf_token")


def save_case(client, case_id: int, **data):
    """Post the case's one update form as opened now (its CSRF token and revision) with
    `data`; fields not given are not sent, so they stay as they are."""
    page = client.get(f"/staff/cases/{case_id}/").text
    first: dict[str, str] = {}
    for name, value in hidden_inputs(page):
        first.setdefault(name, value)
    hidden = {"csrf_token": first["csrf_token"], "revision": first["revision"]}
    return client.post(f"/staff/cases/{case_id}/", data={**hidden, **data})


def jpeg(size=(2400, 1800), color="teal") -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, color).save(buffer, "JPEG")
    return buffer.getvalue()


def post(client, data, photos=(), url="/report/"):
    hidden = open_form(client, url)
    payload = {**hidden, **data}
    if photos:
        payload["photos"] = [(io.BytesIO(content), name) for name, content in photos]
    return client.post(url, data=payload, content_type="multipart/form-data")


@contextlib.contextmanager
def database(path):
    """A connection to a database file that commits on success and is always closed
    (`with sqlite3.connect()` alone only ends the transaction and leaks the connection)."""
    conn = sqlite3.connect(path)
    try:
        with conn:
            yield conn
    finally:
        conn.close()


def rows(app, sql: str, *args) -> list[dict]:
    """Query the app's database file directly, as another process would; closes its connection
    (`with sqlite3.connect()` alone only ends the transaction)."""
    with database(app.config["DATABASE"]) as conn:
        conn.row_factory = sqlite3.Row
        return [dict(row) for row in conn.execute(sql, args)]


def png_chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def png_header_only(width: int, height: int) -> bytes:
    """A valid PNG signature and IHDR declaring any size, with one tiny IDAT: a bomb's shape."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB
    idat = zlib.compress(b"\x00" * 64)
    return (
        b"\x89PNG\r\n\x1a\n"
        + png_chunk(b"IHDR", ihdr)
        + png_chunk(b"IDAT", idat)
        + png_chunk(b"IEND", b"")
    )


def content_with_fax(root: Path, fax: str = "(607) 555-0148") -> Path:
    """A copy of the default content at `root` whose office publishes a fax number."""
    from content_model.fields import CONTENT_DIR

    shutil.copytree(CONTENT_DIR, root)
    site = root / "site.yaml"
    text = site.read_text(encoding="utf-8")
    assert text.count("  fax: null\n") == 2, "the office's fax comes first"
    site.write_text(text.replace("  fax: null\n", f'  fax: "{fax}"\n', 1), encoding="utf-8")
    return root
