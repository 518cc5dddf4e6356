"""The second pack (a Town, Chapter 147) in a real browser on a phone: every built page and
the public forms accessible, fitting and local, the forms showing nothing of the default
municipality (the built pages' text: test_second_pack.py); a report sent from the form
reaches its confirmation and status pages."""

from __future__ import annotations

import re

import pytest
from browsing import check
from helpers import built_pages, page_url, serving
from pack_traces import PACK, traces

from portal import create_app
from static_site.freeze import page_urls

pytestmark = pytest.mark.browser

# The Town's built pages, listed without building them (test_second_pack.py reads every one
# of the frozen files for traces of the default municipality: no browser needed for text).
PAGES = page_urls({"CONTENT_DIR": str(PACK)})
# The public forms, served by the portal rather than built (each in a tab of its own: a
# form's page starts its offline service worker).
FORMS = ["/report/", "/notify/", "/report/?lang=es", "/notify/?lang=es"]


@pytest.fixture(scope="module")
def pack_server(tmp_path_factory, town_build):
    """The portal serving the pack's frozen site, as `make run` does, on 127.0.0.1."""
    folder = tmp_path_factory.mktemp("pack-live")
    app = create_app(
        {
            "CONTENT_DIR": str(PACK),
            "DATABASE": str(folder / "db.sqlite3"),
            "SITE_DIR": str(town_build),
            "MAIL_FOLDER": str(folder / "mail"),
            "SMO_EMAIL": "smo@wrenfield.test",
            "MAP_TILE_URL": "",
        }
    )
    with serving(app) as url:
        yield url


def assert_the_towns(tab, what: str) -> None:
    check(tab.page, what)
    found = traces(tab.page.content())
    assert not found, f"{what} shows the default municipality:\n" + "\n".join(found)
    assert not tab.errors and not tab.external_requests, (tab.errors, tab.external_requests)


def test_every_page_of_the_towns_build_is_walked(town_build):
    assert sorted(page_url(town_build, page) for page in built_pages(town_build)) == PAGES


def open_the_towns(tab, server: str, path: str) -> None:
    response = tab.page.goto(server + path)
    assert response is not None and response.ok, f"{path}: HTTP {response and response.status}"
    assert "Wrenfield" in tab.page.title()


@pytest.mark.parametrize("path", PAGES, ids=PAGES)
def test_pack_page_on_a_phone(walk_tab, pack_server, path):
    tab = walk_tab("phone")
    open_the_towns(tab, pack_server, path)
    check(tab.page, path)
    assert not tab.errors and not tab.external_requests, (tab.errors, tab.external_requests)


@pytest.mark.parametrize("path", FORMS, ids=FORMS)
def test_pack_form_on_a_phone(open_tab, pack_server, path):
    tab = open_tab("phone")
    open_the_towns(tab, pack_server, path)
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
