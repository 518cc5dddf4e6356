"""The frozen site in a real browser: layout on a phone and a desktop, axe-core, the keyboard."""

from __future__ import annotations

import pytest
from browsing import OVERFLOW, describe, run_axe
from helpers import built_pages, page_url

from static_site.freeze import page_urls

pytestmark = pytest.mark.browser

MAX_TABS = 60
VIEWPORTS = ["phone", "desktop"]  # the `open_tab` fixture's sizes
# axe-core runs once per page, on the phone: the site's stylesheet hides nothing by screen
# width (static/css/site.css: its only display: none is for print), so the same elements
# are checked at either width; what the width changes, the fit, is checked at both.
AXE_ON = "phone"

# The URL path of every page, listed without building the site (parameters exist before
# fixtures); test_every_built_page_is_checked holds the list to the real build.
PATHS = page_urls()


def test_every_built_page_is_checked(build):
    assert sorted(PATHS) == sorted(page_url(build, page) for page in built_pages(build))


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("path", PATHS, ids=PATHS)
def test_page_fits_is_accessible_and_stays_local(walk_tab, live_server, path, viewport):
    tab = walk_tab(viewport)
    page = tab.page
    response = page.goto(live_server + path)
    assert response is not None and response.ok, f"{path}: HTTP {response and response.status}"
    problems = []

    # A phone (is_mobile) may zoom out to fit a wide page, growing innerWidth with it:
    # clientWidth, the layout width, must stay the screen's width and hold everything.
    layout = page.evaluate(OVERFLOW)
    if not layout["scrollWidth"] <= layout["clientWidth"] <= page.viewport_size["width"]:
        problems.append(f"scrolls sideways: {layout}")
    violations = run_axe(page) if viewport == AXE_ON else []
    if violations:
        problems.append(f"axe-core found {len(violations)} violation(s):\n{describe(violations)}")
    problems += [f"request to another host: {url}" for url in tab.external_requests]
    problems += tab.errors
    assert not problems, f"{path} ({viewport}):\n" + "\n".join(problems)


def test_site_has_a_favicon(open_tab, live_server):
    """Browsers fetch an icon for every site, /favicon.ico unless the page names one:
    a 404 there is a console error on a visitor's first page."""
    page = open_tab().page
    page.goto(live_server + "/")
    icon = page.evaluate(
        "document.querySelector('link[rel~=icon]')?.href ?? location.origin + '/favicon.ico'"
    )
    if icon.startswith("data:"):
        return
    response = page.request.get(icon)
    assert response.ok, f"no favicon: {icon} answers HTTP {response.status}"


# Keyboard ---------------------------------------------------------------------------

FOCUSED = """() => {
  const e = document.activeElement;
  return {tag: e.tagName.toLowerCase(), href: e.getAttribute('href'),
          text: e.textContent.trim().replace(/\\s+/g, ' ').slice(0, 80),
          inMain: !!e.closest('main'), isMain: e.tagName === 'MAIN'};
}"""

IN_VIEWPORT = """element => {
  const r = element.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && r.left >= 0 && r.top >= 0
    && r.right <= window.innerWidth && r.bottom <= window.innerHeight;
}"""


def focused(page) -> dict:
    return page.evaluate(FOCUSED)


def in_viewport(page, selector: str) -> bool:
    return page.locator(selector).evaluate(IN_VIEWPORT)


def tab_to(page, href: str) -> None:
    """Press Tab until the link to `href` has focus."""
    for _ in range(MAX_TABS):
        page.keyboard.press("Tab")
        if focused(page)["href"] == href:
            return
    pytest.fail(f"no link to {href} within {MAX_TABS} Tab presses (last: {focused(page)})")


def follow(page, href: str) -> None:
    """Press Enter on the focused in-page link and wait for the hash to change."""
    page.keyboard.press("Enter")
    page.wait_for_function("hash => location.hash === hash", arg=href)


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_skip_link_is_first_and_moves_focus_into_main(open_tab, live_server, viewport):
    page = open_tab(viewport).page
    page.goto(live_server + "/")

    page.keyboard.press("Tab")
    first = focused(page)
    assert (first["tag"], first["text"], first["href"]) == ("a", "Skip to main content", "#main")
    assert page.locator(":focus").evaluate(IN_VIEWPORT), "skip link not visible when focused"

    follow(page, "#main")
    assert focused(page)["inMain"], f"focus did not move into <main>: {focused(page)}"

    page.keyboard.press("Tab")
    after = focused(page)
    assert after["inMain"] and not after["isMain"], f"Tab after the skip link went to {after}"


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_ordinance_contents_and_glossary_by_keyboard(open_tab, live_server, viewport):
    page = open_tab(viewport).page
    page.goto(live_server + "/ordinance/")
    tab_to(page, "#sec-216-12")
    follow(page, "#sec-216-12")
    assert in_viewport(page, "#sec-216-12"), "§ 216-12's heading is not in view"

    page.goto(live_server + "/ordinance/")
    tab_to(page, "#glossary")
    assert focused(page)["text"] == "Glossary of defined terms"
    follow(page, "#glossary")
    assert in_viewport(page, "#glossary-heading"), "the glossary's heading is not in view"
    page.keyboard.press("Tab")  # on from the glossary, not from the contents
    assert page.evaluate("!!document.activeElement.closest('#glossary')"), focused(page)
    tab_to(page, "#def-stormwater")
    follow(page, "#def-stormwater")
    assert in_viewport(page, "#def-stormwater"), "the term “Stormwater” is not in view"


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_focus_is_visible(open_tab, live_server, viewport):
    page = open_tab(viewport).page
    page.goto(live_server + "/")
    for _ in range(6):
        page.keyboard.press("Tab")
        style = page.evaluate(
            """() => { const s = getComputedStyle(document.activeElement);
                       return {outline: s.outlineStyle, width: s.outlineWidth,
                               shadow: s.boxShadow}; }"""
        )
        outlined = style["outline"] != "none" and style["width"] != "0px"
        assert outlined or style["shadow"] != "none", f"{focused(page)}: no focus style {style}"
