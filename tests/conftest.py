"""Shared fixtures: the content, a frozen build, the portal app and a live local server."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from flask import Flask
from helpers import serving
from mailserver import MailServer, SettlingClient

from content_model.loader import load_content
from portal import create_app as create_portal
from portal.mail.courier import Courier
from static_site.freeze import freeze

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


@pytest.fixture
def app(tmp_path, build, mail_server, content_dir):
    return create_portal(
        {
            **({"CONTENT_DIR": str(content_dir)} if content_dir else {}),
            "TESTING": True,
            "DATABASE": str(tmp_path / "portal.sqlite3"),
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
    )


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
