"""What browser tests share: axe-core in the page, and a check for content wider than the page."""

from __future__ import annotations

import weakref
from pathlib import Path

# The screens tests open pages on (Playwright context options).
VIEWPORTS = {
    "phone": {
        "viewport": {"width": 360, "height": 740},
        "is_mobile": True,
        "has_touch": True,
        "device_scale_factor": 2,
    },
    "desktop": {"viewport": {"width": 1280, "height": 900}},
}

AXE = Path(__file__).resolve().parent.parent / "node_modules" / "axe-core" / "axe.min.js"
AXE_PATH = "/__tests__/axe.min.js"  # served to the page by a Playwright route, never the app
AXE_OPTIONS = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    # Only violations are read: axe then lists one node per passed rule, not every node.
    "resultTypes": ["violations"],
}


# The pages that already answer AXE_PATH themselves (a walk's tab runs axe on many pages).
_SERVING_AXE: weakref.WeakSet = weakref.WeakSet()


def run_axe(page) -> list[dict]:
    # The site's CSP (script-src 'self') forbids an inline script, so axe is served
    # from the page's own origin; the CSP stays on, as it is in production.
    if page not in _SERVING_AXE:
        page.route("**" + AXE_PATH, lambda route: route.fulfill(path=AXE))
        _SERVING_AXE.add(page)
    page.add_script_tag(url=page.evaluate("location.origin") + AXE_PATH)
    return page.evaluate("options => axe.run(document, options)", AXE_OPTIONS)["violations"]


def describe(violations: list[dict]) -> str:
    lines = []
    for violation in violations:
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']}")
        lines.extend(f"    {' >>> '.join(node['target'])}" for node in violation["nodes"])
    return "\n".join(lines)


# The elements sticking out past the layout width, or whose content does (a long word, a <pre>).
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const name = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
    + [...e.classList].map(c => '.' + c).join('');
  const wide = [...document.body.querySelectorAll('*')].filter(e =>
    e.getBoundingClientRect().right > width + 0.5
    || (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX === 'visible'));
  return {scrollWidth: document.documentElement.scrollWidth, clientWidth: width,
          innerWidth: window.innerWidth, wide: wide.slice(0, 5).map(name)};
}"""


def check(page, what: str) -> None:
    """No axe-core violation, and nothing wider than the screen, once the page a click
    started loading has loaded (a busy machine may still be on its way there)."""
    page.wait_for_load_state("load")
    violations = run_axe(page)
    assert not violations, f"{what}:\n{describe(violations)}"
    fit = page.evaluate(OVERFLOW)
    assert fit["scrollWidth"] <= fit["clientWidth"], f"{what}: wider than the screen: {fit}"


def give_session(page, app, url: str, username: str) -> None:
    """The tab's browser signed in as `username` (an account already made) without the
    sign-in pages: a session opened as the portal opens one (helpers.open_signed_in_session),
    its cookie handed to the browser. Signing in through the pages is tested on its own
    (test_second_factor_browser, test_staff_browser's day in the workspace)."""
    from helpers import open_signed_in_session

    client = app.test_client()
    open_signed_in_session(client, app, username)
    cookie = client.get_cookie(app.config["SESSION_COOKIE_NAME"])
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": url}])


def on_disk(folder: Path, files: dict[str, bytes]) -> list[Path]:
    """Files to choose in a file box, written to `folder` for the browser to read itself, as
    a phone's camera roll: bytes sent through Playwright's pipe cost seconds a megabyte."""
    paths = []
    for name, data in files.items():
        (path := folder / name).write_bytes(data)
        paths.append(path)
    return paths
