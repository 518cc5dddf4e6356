"""Search on the frozen site, in a real browser: Pagefind's index, served from the build.
The queries of the tables are typed in turn into one search page (per worker), as a
visitor searching again would; the page's own behaviour (loading, no JavaScript, the
keyboard) is tested on pages of its own."""

from __future__ import annotations

import time

import pytest
from browsing import describe, run_axe
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

# What a resident types, and where the first result must lead.
QUERIES = {
    "car wash": "/learn/car-washing/",
    "pool": "/learn/pools-and-hot-tubs/",
    "oil change": "/learn/motor-oil/",  # the page's keywords: its text says "used oil"
    "dog": "/learn/pet-waste/",
    "dog poop": "/learn/pet-waste/",
    "fertilizer": "/learn/lawn-chemicals/",
    "paint": "/learn/paint-and-cleaners/",
    # A result inside a long page links to its part: a section of the law, an exempt entry.
    "notification of spills": "/ordinance/#sec-216-12",
    "air conditioning": "/exempt-discharges/#air-conditioning-condensate",
    "air conditioner": "/exempt-discharges/#air-conditioning-condensate",
    "sump pump": "/exempt-discharges/#crawl-space-or-basement-sump-pumps",
    # Questions: the law's penalties, whom to call, where to report (content/search.yaml).
    "fine": "/ordinance/#sec-216-13",
    "fines": "/ordinance/#sec-216-13",
    "penalty": "/ordinance/#sec-216-13",
    "penalties": "/ordinance/#sec-216-13",
    "who do I call": "/contact/",
    "phone": "/contact/",
    "contact": "/contact/",
    "emergency": "/contact/",
    "report": "/report/",
    "complaint": "/report/",
    # A business owner's spill: the release notification form (content/search.yaml).
    "spill": "/notify/",
    "leak": "/notify/",
}
FIRST = "#search-results > li:first-child a"


def search(
    tab, live_server: str, query: str, path: str = "/search/", label: str = "Search the law"
) -> None:
    """Type the query into the search page's field and send it, as a visitor would: again on
    the search page the tab shows (a visitor searching once more), else on a new one."""
    page = tab.page
    field = page.get_by_label(label)
    if page.url.split("?")[0] != live_server + path:
        page.goto(live_server + path)
        field.wait_for(state="visible")
    else:  # the field emptied, the page clears the last answer: then the next query
        field.fill("")
        page.wait_for_function(CLEARED)
    field.press_sequentially(query)
    field.press("Enter")
    page.wait_for_function(
        "q => document.getElementById('search-status').textContent.includes(q)", arg=query
    )


CLEARED = """() => document.getElementById('search-status').textContent === ''
  && document.getElementById('search-results').children.length === 0"""


@pytest.mark.parametrize(("query", "target"), QUERIES.items(), ids=list(QUERIES))
def test_first_result_is_the_right_page_on_a_phone_screen(walk_tab, live_server, query, target):
    tab = walk_tab("phone")
    search(tab, live_server, query)
    first = tab.page.locator(FIRST)
    assert first.get_attribute("href") == target
    box = first.bounding_box()
    assert box and box["y"] + box["height"] <= tab.page.viewport_size["height"], (
        f"the first result is below the first screen: {box}"
    )
    assert tab.page.url.endswith("/search/?q=" + query.replace(" ", "+"))
    assert not tab.errors, tab.errors
    assert not tab.external_requests, tab.external_requests


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_results_are_accessible(open_tab, live_server, viewport):
    tab = open_tab(viewport)
    search(tab, live_server, "car wash")
    violations = run_axe(tab.page)
    assert not violations, describe(violations)


def test_search_works_by_keyboard(open_tab, live_server):
    tab = open_tab("desktop")
    page = tab.page
    page.goto(live_server + "/")
    for _ in range(12):  # from the top of any page, through the header to "Search"
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.textContent.trim()") == "Search":
            break
    page.keyboard.press("Enter")
    page.wait_for_url("**/search/")
    page.get_by_label("Search the law").wait_for(state="visible")
    page.keyboard.press("Tab")  # skip link
    while page.evaluate("document.activeElement.id") != "search-query":
        page.keyboard.press("Tab")
    page.keyboard.type("sump pump")
    page.keyboard.press("Enter")
    page.wait_for_selector(FIRST)
    page.keyboard.press("Tab")  # the Search button
    page.keyboard.press("Tab")  # the first result
    assert page.locator(FIRST).evaluate("link => link === document.activeElement")
    page.keyboard.press("Enter")
    page.wait_for_url("**/exempt-discharges/#crawl-space-or-basement-sump-pumps")
    assert not tab.errors, tab.errors


@pytest.mark.parametrize("query", ["who do I call", "phone", "emergency"])
def test_whom_to_call_shows_the_numbers_in_the_first_result(walk_tab, live_server, content, query):
    tab = walk_tab("phone")
    search(tab, live_server, query)
    first = tab.page.locator("#search-results > li").first.inner_text()
    assert content.settings.phones["emergency"].number in first
    assert content.settings.office.phone.number in first


@pytest.mark.parametrize(
    ("query", "hidden"),
    [("dog poop", "pooper scooper"), ("penalty", "ticket"), ("who do I call", "phone number")],
)
def test_hidden_search_words_never_show_in_an_excerpt(walk_tab, live_server, query, hidden):
    tab = walk_tab("phone")
    search(tab, live_server, query)
    results = tab.page.locator("#search-results").inner_text()
    assert results and hidden not in results


def test_the_search_says_loading_while_it_loads(open_tab, serve_portal):
    served = serve_portal()
    wsgi = served.app.wsgi_app

    def slow(environ, start_response):
        """The search engine arrives late, as on a weak signal."""
        if environ["PATH_INFO"].endswith("/pagefind.js"):
            time.sleep(2)
        return wsgi(environ, start_response)

    served.app.wsgi_app = slow
    page = open_tab("phone").page
    page.goto(served.url + "/search/", wait_until="domcontentloaded")
    expect(page.locator("#search-status")).to_have_text("Loading the search…")
    assert "JavaScript" not in page.locator("main").inner_text()
    page.get_by_label("Search the law").wait_for(state="visible")
    expect(page.locator("#search-status")).to_have_text("")


def test_without_javascript_the_page_says_so_and_links_the_contents(open_tab, live_server):
    tab = open_tab("phone", java_script_enabled=False)
    page = tab.page
    page.goto(live_server + "/search/")
    assert not page.locator("form[role=search]").is_visible()
    # (Playwright's text locators skip <noscript>: the page's own text is read instead.)
    text = page.locator("main").inner_text()
    assert "Search needs JavaScript, which is turned off in this browser." in text
    assert "Loading" not in text
    contents = page.locator("a[href='/ordinance/#contents']")
    assert contents.is_visible()
    contents.click()
    page.wait_for_url("**/ordinance/#contents")


def test_nothing_found_offers_the_pages_to_start_from(open_tab, live_server):
    tab = open_tab("phone")
    search(tab, live_server, "xylophone")
    page = tab.page
    assert page.locator("#search-results > li").count() == 0
    assert "Nothing found" in page.inner_text("#search-status")
    assert page.locator("a[href='/ordinance/#contents']").is_visible()
    assert "JavaScript" not in page.locator("main").inner_text()
    assert "While the search loads" not in page.locator("main").inner_text(), "it has loaded"
    assert not tab.errors, tab.errors


# What a Spanish speaker in New York types (the guides' `keywords`, content/search.es.yaml),
# and the title of the first result, as the Spanish walk asked.
SPANISH = {
    "carro": "Lavado de autos",
    "lavar el carro": "Lavado de autos",
    "troca": "Lavado de autos",
    "alberca": "Piscinas y jacuzzis",
    "pileta": "Piscinas y jacuzzis",
    "tina caliente": "Piscinas y jacuzzis",
    "zacate": "Desechos del jardín",
    "fertilizante": "Químicos para el césped",
    "thinner": "Pintura y productos de limpieza",
    "colillas": "Basura",
    "lodo": "Tierra y sedimento",
    "manteca": "Grasas y aceites de cocina",
    "aceite quemado": "Aceite de motor y líquidos de autos",
    "derrame en mi negocio": "Un derrame en una instalación de la que soy responsable",
    "fuga en el taller": "Un derrame en una instalación de la que soy responsable",
}


@pytest.mark.parametrize(("query", "title"), SPANISH.items(), ids=list(SPANISH))
def test_everyday_spanish_words_find_their_page_first(walk_tab, live_server, query, title):
    tab = walk_tab("phone")
    search(tab, live_server, query, "/es/search/", "Busque en la ley")
    page = tab.page
    first = page.locator(FIRST)
    assert first.inner_text() == title
    box = first.bounding_box()
    assert box and box["y"] + box["height"] <= page.viewport_size["height"], box
    assert not tab.errors and not tab.external_requests, (tab.errors, tab.external_requests)


def test_a_spill_search_leads_to_the_notification_form_in_its_language(open_tab, live_server):
    tab = open_tab("phone")
    page = tab.page
    search(tab, live_server, "spill")
    assert (
        page.locator(FIRST).inner_text() == "A spill or release at a facility I am responsible for"
    )
    page.locator(FIRST).click()
    page.wait_for_url("**/notify/")
    assert page.locator("h1").first.inner_text() == "Report a spill or release at a facility"
    page.goto(live_server + "/es/search/?q=derram%C3%B3")
    first = page.locator(FIRST)
    first.wait_for()
    assert first.get_attribute("href") == "/notify/?lang=es"
    first.click()
    page.wait_for_url("**/notify/?lang=es")
    assert page.locator("h1").first.inner_text() == "Reportar un derrame en una instalación"
