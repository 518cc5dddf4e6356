"""Shared fixtures: the content, a frozen build, the portal app and a live local server.

Everything a session may build once is built once per pytest-xdist worker (session scope):
the frozen sites, an empty database with every migration applied (copied for each test),
the browser."""

from __future__ import annotations

import itertools
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import helpers
import pytest
from flask import Flask
from helpers import serving
from made_once import share_checked_packs, share_compiled_templates
from mailserver import MailServer, SettlingClient, wait_for

from content_model.loader import load_content
from portal import create_app as create_portal
from portal.mail.courier import Courier
from static_site.freeze import freeze

share_compiled_templates()

# Tests that measure time (a decoder's wait, a worker stopping, a page's speed) or load the
# machine to test under load (kill -9 mid-load, a stalled photo upload): one worker runs
# them one after another (an xdist_group with `--dist loadgroup`), so that none shares the
# machine with another; the other worker goes on with the rest. A file, or file::test.
TIMED = (
    "test_crash.py",
    "test_photo_stall.py",
    "test_outbox.py::test_a_stopping_worker_finishes_the_message_in_hand_and_claims_no_more",
    "test_security_round3.py::test_a_seventh_request_for_the_decoder_is_answered_busy_at_once",
    "test_security_round3.py::test_a_request_waits_for_the_decoder_ten_seconds_at_most",
    "test_staff_maps.py::test_five_thousand_cases_are_one_data_array",
)
# Files that share one server started by a fixture (the Open311 gunicorn): one worker.
SHARING = {"test_open311.py": "open311", "test_open311_letter.py": "open311"}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the timed and server-sharing tests with their group (before xdist reads it)."""
    for item in items:
        file = item.path.name
        if file in TIMED or f"{file}::{item.name.split('[')[0]}" in TIMED:
            item.add_marker(pytest.mark.xdist_group("timed"))
        elif group := SHARING.get(file):
            item.add_marker(pytest.mark.xdist_group(group))


@pytest.fixture(scope="session", autouse=True)
def checked_packs():
    """Each content pack checked and loaded once per run, not once per app (made_once.py)."""
    with pytest.MonkeyPatch.context() as patch:
        share_checked_packs(patch)
        yield


# Mail leaves the portal one way, through each worker's courier thread, in the tests too: a
# test client's request returns once the couriers have sent what it queued.
Flask.test_client_class = SettlingClient


@pytest.fixture(autouse=True)
def stop_couriers():
    """Every test stops the mail couriers (outbox threads) its portals started."""
    yield
    Courier.stop_all()


@pytest.fixture(scope="session")
def content():
    return load_content()


@pytest.fixture(scope="session")
def build(tmp_path_factory) -> Path:
    """The whole site, frozen once per run into a temporary folder (`make mutation` runs
    the tests once per mutant, and freezes once for all of them: $TEST_SITE_BUILD)."""
    if prebuilt := os.environ.get("TEST_SITE_BUILD"):
        return Path(prebuilt)
    destination = tmp_path_factory.mktemp("build")
    freeze(destination)
    return destination


@pytest.fixture(scope="session")
def town_build(tmp_path_factory) -> Path:
    """The second pack's site (tests/packs/wrenfield, a Town), frozen once per run."""
    from pack_traces import PACK

    destination = tmp_path_factory.mktemp("town-build")
    freeze(destination, {"CONTENT_DIR": str(PACK)})
    return destination


@pytest.fixture
def mail_server():
    """A real SMTP server on 127.0.0.1 that records every message."""
    server = MailServer().start()
    yield server
    server.stop()


@pytest.fixture
def content_dir() -> Path | None:
    """The content pack `app` serves: None, the default one (a module may override this)."""
    return None


@pytest.fixture(scope="session")
def blank_database(tmp_path_factory, build) -> Path:
    """A database file as the portal leaves it on first start (every migration applied,
    nothing stored): copied for each test, so migrations run once a session, not per test
    (tests/test_migrations.py runs them from scratch)."""
    path = tmp_path_factory.mktemp("blank") / "portal.sqlite3"
    create_portal({"TESTING": True, "DATABASE": str(path), "SITE_DIR": str(build)})
    assert not Path(f"{path}-wal").exists(), "the first start's connection was closed"
    return path


def portal_settings(folder: Path, build: Path, mail_server: MailServer) -> dict:
    """What a test portal runs with: its own database in `folder`, the frozen site, mail to
    the test's SMTP server, no rate limits, plain-http cookies."""
    return {
        "TESTING": True,
        "DATABASE": str(folder / "portal.sqlite3"),
        "SITE_DIR": str(build),
        "MAIL_SERVER": "127.0.0.1",
        "MAIL_PORT": mail_server.port,
        "MAIL_TIMEOUT": 5,
        "SMO_EMAIL": "smo@village.test",
        "PUBLIC_URL": "https://portal.village.test",
        "RATELIMIT_ENABLED": False,
        # The test client speaks plain http, which would never send a Secure cookie back.
        "SESSION_COOKIE_SECURE": False,
    }


@pytest.fixture
def make_app(tmp_path, build, mail_server, blank_database) -> Callable[..., Flask]:
    """`make_app(**overrides)`: a portal with `app`'s settings but these (each call its own
    database unless DATABASE is given; `RATELIMIT_ENABLED=True` turns the limits on)."""
    made = itertools.count()

    def make(**overrides) -> Flask:
        folder = tmp_path / f"portal-{next(made)}"
        folder.mkdir()
        settings = portal_settings(folder, build, mail_server) | overrides
        if "DATABASE" not in overrides and "CONTENT_DIR" not in overrides:
            shutil.copyfile(blank_database, settings["DATABASE"])
        return create_portal(settings)

    return make


@pytest.fixture(scope="module")
def prepared(tmp_path_factory, build, blank_database):
    """`prepared(app, make)`: the state `make(client)` leaves (reports posted through the
    forms, say), made once per module on a portal of its own (its own SMTP server: no test
    sees the mail it sent) and copied into `app`'s database, with the secret key it was
    made under (status links derive from it). For fixtures whose tests read what was made,
    not how: each test starts from the same copy, wherever it runs."""
    made: dict[str, tuple[Path, str]] = {}

    def prepare(app: Flask, make: Callable) -> None:
        name = make.__qualname__
        if name not in made:
            folder = tmp_path_factory.mktemp("prepared")
            with MailServer().start() as mail:
                maker = create_portal(portal_settings(folder, build, mail))
                shutil.copyfile(blank_database, maker.config["DATABASE"])
                make(maker.test_client())
                wait_for(lambda: not queued_mail(maker.config["DATABASE"]), timeout=30)
            made[name] = (Path(maker.config["DATABASE"]), maker.config["SECRET_KEY"])
        template, secret = made[name]
        app.config["SECRET_KEY"] = secret
        copy_database(template, Path(app.config["DATABASE"]))

    return prepare


def queued_mail(database: str) -> int:
    with helpers.database(database) as conn:
        return conn.execute(
            "SELECT count(*) FROM outbox WHERE status IN ('queued', 'sending')"
        ).fetchone()[0]


def copy_database(source: Path, target: Path) -> None:
    """`source`'s whole content into the database file `target` (SQLite's backup: safe while
    either is open, WAL included)."""
    with helpers.database(source) as origin, helpers.database(target) as copy:
        origin.backup(copy)


@pytest.fixture
def app(tmp_path, build, mail_server, content_dir, blank_database):
    settings = portal_settings(tmp_path, build, mail_server)
    if content_dir:
        settings["CONTENT_DIR"] = str(content_dir)
    else:
        shutil.copyfile(blank_database, settings["DATABASE"])
    return create_portal(settings)


@pytest.fixture
def guarded(make_app):
    """The portal with its per-address sign-in limit on, as deployed, and the officer `smo`
    (enrolled; mail about its sign-ins to officer@village.test)."""
    from helpers import add_enrolled_account

    from portal.core.db import get_db

    app = make_app(
        RATELIMIT_ENABLED=True,
        RATELIMIT_STORAGE_URI="memory://",
        SMO_EMAIL="smo-office@village.test",
    )
    add_enrolled_account(app, "smo")
    with app.app_context():
        get_db().execute("UPDATE staff SET email = 'officer@village.test'")
    return app


@pytest.fixture(scope="session")
def open311_server(tmp_path_factory):
    """One portal under gunicorn for both Open311 files (their xdist_group keeps them on one
    worker): tests/open311_server.py."""
    from open311_server import open311_portal

    with open311_portal(tmp_path_factory.mktemp("open311")) as served:
        yield served


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture(scope="session")
def live_app(tmp_path_factory, build):
    """The portal serving the frozen site, as `make run` does (for the live server)."""
    folder = tmp_path_factory.mktemp("live")
    return create_portal(
        {
            "DATABASE": str(folder / "portal.sqlite3"),
            "SITE_DIR": str(build),
            "MAIL_FOLDER": str(folder / "mail"),
            "SMO_EMAIL": "smo@village.test",
            # No map: tests never fetch OpenStreetMap's tiles (those that need tiles serve them).
            "MAP_TILE_URL": "",
        }
    )


@pytest.fixture(scope="session")
def live_server(live_app):
    """`live_app` on 127.0.0.1, in a thread; yields its base URL."""
    with serving(live_app) as url:
        yield url
