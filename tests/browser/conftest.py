"""Playwright fixtures: one headless Debian chromium per run (per xdist worker), a fresh
context per tab, or one tab per screen size for the walks over many pages."""

from __future__ import annotations

import contextlib
import itertools
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import pytest
from browsing import VIEWPORTS
from helpers import serving
from playwright.sync_api import Page, sync_playwright

CHROMIUM = "/usr/bin/chromium"
# No sandbox in containers; and nothing phoning home on this offline machine.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TIMEOUT_MS = 15_000


@dataclass
class Tab:
    """A page, with what it did that a test may forbid: other hosts contacted, errors logged."""

    page: Page
    external_requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


def watched(context) -> Tab:
    """A new page of `context`, its other hosts, console errors and failed loads recorded."""
    context.set_default_timeout(TIMEOUT_MS)
    tab = Tab(context.new_page())

    def on_request(request):
        url = urlsplit(request.url)
        if url.scheme not in ("data", "blob", "about") and url.hostname != "127.0.0.1":
            tab.external_requests.append(request.url)

    tab.page.on("request", on_request)
    # Tests never reach OpenStreetMap, whatever a page asks for (it is still recorded).
    context.route(re.compile(r"^https?://([^/]*\.)?openstreetmap\.org/"), lambda r: r.abort())

    def on_console(message):
        where = message.location.get("url", "")
        # The browser's own probe for /favicon.ico happens once per browser, on whichever
        # page comes first: test_site_has_a_favicon checks it, in one place.
        if message.type == "error" and urlsplit(where).path != "/favicon.ico":
            tab.errors.append(f"console: {message.text} ({where})")

    tab.page.on("console", on_console)
    tab.page.on("pageerror", lambda error: tab.errors.append(f"page error: {error}"))
    tab.page.on(
        "response",
        lambda response: (
            response.status >= 400 and tab.errors.append(f"HTTP {response.status}: {response.url}")
        ),
    )
    return tab


@pytest.fixture
def open_tab(browser):
    """`open_tab("phone" | "desktop", **context_options)`: a new page in its own context,
    watched for problems (options: geolocation, permissions, java_script_enabled...)."""
    contexts = []

    def open_(viewport: str = "desktop", **options) -> Tab:
        context = browser.new_context(**VIEWPORTS[viewport], **options)
        contexts.append(context)
        return watched(context)

    yield open_
    for context in contexts:
        context.close()


@pytest.fixture(scope="session")
def walk_tab(browser):
    """`walk_tab("phone" | "desktop")`: one watched tab per screen size for the whole run,
    for walks over many static pages, each visited in turn (a context per page cost more
    than the page's own checks); what it recorded is emptied for each test."""
    tabs: dict[str, Tab] = {}

    def tab_for(viewport: str) -> Tab:
        if viewport not in tabs or tabs[viewport].page.is_closed():
            tabs[viewport] = watched(browser.new_context(**VIEWPORTS[viewport]))
        tab = tabs[viewport]
        tab.errors.clear()
        tab.external_requests.clear()
        return tab

    yield tab_for
    for tab in tabs.values():
        tab.page.context.close()


@dataclass
class Served:
    url: str
    app: Any


@pytest.fixture
def tiled_server(tmp_path, build):
    """The portal with a (pretend) tile server configured; tiles are answered by the test
    (`page.route`), so no test ever reaches a real tile server."""
    from portal import create_app

    app = create_app(
        {
            "DATABASE": str(tmp_path / "db.sqlite3"),
            "SITE_DIR": str(build),
            "MAIL_FOLDER": str(tmp_path / "mail"),
            "STAFF_TOTP": False,
            "MAP_TILE_URL": "https://tiles.test/{z}/{x}/{y}.png",
            "MAP_TILE_ATTRIBUTION": "Test tiles",
        }
    )
    with serving(app) as url:
        yield Served(url, app)


@pytest.fixture
def serve_portal(tmp_path, build):
    """`serve_portal(**settings)`: the portal on its own database (so a test can count what
    arrived), with these settings, on 127.0.0.1 in a thread; returns a Served."""
    from portal import create_app

    served = itertools.count()
    with contextlib.ExitStack() as servers:

        def serve(**settings) -> Served:
            folder = tmp_path / f"portal{next(served)}"
            folder.mkdir()
            app = create_app(
                {
                    "DATABASE": str(folder / "db.sqlite3"),
                    "SITE_DIR": str(build),
                    "MAIL_FOLDER": str(folder / "mail"),
                    "MAP_TILE_URL": "",
                    **settings,
                }
            )
            return Served(servers.enter_context(serving(app)), app)

        yield serve


@pytest.fixture
def portal(serve_portal):
    """The portal on its own database, so a test can count what arrived: (url, app)."""
    served = serve_portal()
    return served.url, served.app
