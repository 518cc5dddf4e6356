"""The second pack (a Town, Chapter 147) in a real browser on a phone: every built page and
the public forms accessible, fitting, local, and showing nothing of the default
municipality; a report sent from the form reaches its confirmation and status pages."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest
from browsing import check
from helpers import built_pages, page_url, serving
from pack_traces import PACK, traces

from portal import create_app
from static_site.freeze import freeze

pytestmark = pytest.mark.browser


def _paths() -> list[str]:
    with tempfile.TemporaryDirectory() as folder:
        freeze(folder, {"CONTENT_DIR": str(PACK)})
        return [page_url(Path(folder), page) for page in built_pages(Path(folder))]


PATHS = [*_paths(), "/report/", "/notify/", "/report/?lang=es", "/notify/?lang=es"]


@pytest.fixture(scope="module")
def pack_server(tmp_path_factory):
    """The portal serving the pack's frozen site, as `make run` does, on 127.0.0.1."""
    folder = tmp_path_factory.mktemp("pack-live")
    freeze(folder / "build", {"CONTENT_DIR": str(PACK)})
    app = create_app({"CONTENT_DIR": str(PACK), "DATABASE": str(folder / "db.sqlite3"),
                      "SITE_DIR": str(folder / "build"), "MAIL_FOLDER": str(folder / "mail"),
                      "SMO_EMAIL": "smo@wrenfield.test", "MAP_TILE_URL": ""})  # fmt: skip
    with serving(app) as url:
        yield url


def assert_the_towns(tab, what: str) -> None:
    check(tab.page, what)
    found = traces(tab.page.content())
    assert not found, f"{what} shows the default municipality:\n" + "\n".join(found)
    assert not tab.errors and not tab.external_requests, (tab.errors, tab.external_requests)


@pytest.mark.parametrize("path", PATHS, ids=PATHS)
def test_pack_page_on_a_phone(open_tab, pack_server, path):
    tab = open_tab("phone")
    response = tab.page.goto(pack_server + path)
    assert response is not None and response.ok, f"{path}: HTTP {response and response.status}"
    assert "Wrenfield" in tab.page.title()
    assert_the_towns(tab, path)


def test_a_report_from_a_phone_reaches_the_town(open_tab, pack_server):
    tab = open_tab("phone")
    page = tab.page
    page.goto(f"{pack_server}/report/")
    page.fill("#description", "Grey water running from a pipe into the ditch on Mill Road.")
    page.fill("#address", "Mill Road, by the culvert")
    page.locator("form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/report/sent/[\w-]+/$"))
    assert_the_towns(tab, "the confirmation page")
    page.click(".status-link a")
    page.wait_for_url(re.compile(r"/status/[\w-]+/$"))
    assert_the_towns(tab, "the status page")
