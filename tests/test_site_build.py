"""The frozen site as Netlify would publish it: pages, links, weight and headers."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from urllib.parse import urldefrag, urlsplit

import pytest
from helpers import built_pages, page_url, parse_page

from bench.site import page_weights
from bench.weights import SITE_PAGE_BUDGET as PAGE_BUDGET
from content_model.theme import PORTAL_PATHS
from portal.web.headers import SITE_HEADERS
from static_site.freeze import freeze, netlify_redirects

ROOT = Path(__file__).resolve().parent.parent


def test_freeze_yields_every_page(build, content):
    urls = {page_url(build, page) for page in built_pages(build)}
    expected = {
        "/",
        "/ordinance/",
        "/exempt-discharges/",
        "/learn/",
        "/search/",
        "/contact/",
        "/404.html",
    }
    expected |= {f"/learn/{page.slug}/" for page in content.pages}
    # The same pages in Spanish, under /es/ (content/translations.yaml).
    expected |= {"/es" + url for url in expected}
    assert urls == expected


def test_freeze_proxies_every_path_the_site_lacks_to_the_portal(tmp_path, monkeypatch):
    """One rule, not forced: the site's files win, the portal answers every other path (a
    portal page added later needs no rule of its own)."""
    monkeypatch.setenv("SITE_PORTAL_ORIGIN", "https://portal.example.test/")
    freeze(tmp_path)
    rules = (tmp_path / "_redirects").read_text(encoding="utf-8").splitlines()
    assert rules == ["/*  https://portal.example.test/:splat  200"]


def test_no_proxy_rules_without_a_portal_origin():
    assert netlify_redirects(None) == ""


def _target(build: Path, base: str, href: str) -> tuple[Path | None, str]:
    """The built file and fragment an internal link points at (None: not in the build)."""
    url, fragment = urldefrag(href)
    path = urlsplit(url).path if url else base
    if not path.startswith("/"):
        path = base.rsplit("/", 1)[0] + "/" + path
    if any(path.startswith(prefix) for prefix in PORTAL_PATHS.values()):
        return None, fragment
    file = build / path.lstrip("/")
    if path.endswith("/"):
        file = file / "index.html"
    return file, fragment


def test_every_internal_link_and_fragment_resolves(build):
    problems = []
    for page in built_pages(build):
        base = page_url(build, page)
        parsed = parse_page(page)
        for href in parsed.links + parsed.resources:
            scheme = urlsplit(href).scheme
            if scheme in ("tel", "mailto"):
                continue
            assert not scheme and not href.startswith("//"), f"{base}: external {href}"
            file, fragment = _target(build, base, href)
            if file is None:
                continue
            if not file.is_file():
                problems.append(f"{base}: {href} -> no file {file.relative_to(build)}")
            elif fragment and fragment not in parse_page(file).ids:
                problems.append(f"{base}: {href} -> no element with id {fragment!r}")
    assert not problems, "\n".join(problems)


def test_every_page_is_reachable_from_the_home_page(build):
    seen, queue = set(), ["/"]
    while queue:
        url = queue.pop()
        if url in seen:
            continue
        seen.add(url)
        file, _ = _target(build, url, url)
        for href in parse_page(file).links:
            target, _ = _target(build, url, urldefrag(href)[0] or url)
            if target is not None and target.suffix == ".html" and not urlsplit(href).scheme:
                queue.append(urlsplit(href).path or url)
    orphans = (
        {page_url(build, p) for p in built_pages(build)} - seen - {"/404.html", "/es/404.html"}
    )
    assert not orphans


def test_home_page_offers_what_to_do_now(build, content):
    home = parse_page(build / "index.html")
    for path in ("/report/", "/notify/", "/exempt-discharges/"):
        assert path in home.links
    phones = content.settings.phones
    assert f"tel:{phones['emergency'].tel}" in home.links
    assert f"tel:{phones['spill_hotline'].tel}" in home.links
    assert "call 911 now" in home.text


def test_exempt_page_lists_every_entry_with_its_note(build, content):
    page = parse_page(build / "exempt-discharges" / "index.html")
    for entry in content.exempt.entries:
        assert entry.slug in page.ids
        assert entry.note in page.text
    assert "/ordinance/#sec-216-6-a-1" in page.links


@pytest.mark.parametrize("slug", ["pet-waste", "motor-oil", "lawn-chemicals"])
def test_learn_pages_link_the_sections_that_apply(build, content, slug):
    page = parse_page(build / "learn" / slug / "index.html")
    for number in content.page_by_slug[slug].sections:
        assert f"/ordinance/#sec-{number}" in page.links


def test_pages_stay_within_the_weight_budget(build):
    """Weights are deterministic, so the budget is checked here; timings stay in bench."""
    rows = page_weights(build)
    assert len(rows) == len(built_pages(build))
    over = {url: total for url, _, total in rows if total > PAGE_BUDGET}
    assert not over, f"over {PAGE_BUDGET} bytes gzipped: {over}"


def test_no_inline_script_or_style(build):
    """A strict Content-Security-Policy (no 'unsafe-inline') must hold on every page."""
    for page in built_pages(build):
        assert not parse_page(page).inline_code, page_url(build, page)


def test_netlify_config_matches_the_portal(build):
    config = tomllib.loads((ROOT / "netlify.toml").read_text(encoding="utf-8"))
    assert config["build"]["publish"] == "build"
    assert config["build"]["environment"]["PYTHON_VERSION"] == "3.11"
    headers = {rule["for"]: rule["values"] for rule in config["headers"]}
    assert headers["/*"] == SITE_HEADERS
    assert "geolocation=(self)" in headers["/*"]["Permissions-Policy"]
    assert "immutable" in headers["/assets/*"]["Cache-Control"]


def test_assets_have_fingerprinted_paths(build):
    """Only content-addressed paths may carry the year-long cache header."""
    for page in built_pages(build):
        for resource in parse_page(page).resources:
            assert re.fullmatch(r"/assets/[0-9a-f]{12}/[\w/.-]+", resource), resource


def test_every_link_from_the_site_into_the_portal_is_answered(build, client):
    """The site links to the portal's paths (proxied by Netlify); each must exist."""
    targets = set()
    for page in built_pages(build):
        for href in parse_page(page).links:
            path = urlsplit(href).path
            if any(path.startswith(prefix) for prefix in PORTAL_PATHS.values()):
                targets.add(path)
    assert {"/report/", "/notify/"} <= targets
    for path in targets:
        assert client.get(path).status_code == 200, path
