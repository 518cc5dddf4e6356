"""The search index in the frozen build: what Pagefind indexes, and where its script may run."""

from __future__ import annotations

import json

import pytest
from helpers import built_pages, page_url, parse_page

from static_site.search import BUNDLE, SearchIndexError, index_site

# Pages that are the site's way around, not its content: searching them would only echo
# the query back (the home page names every topic; the search page is the search).
NOT_INDEXED = {"/", "/learn/", "/search/", "/404.html"}


def test_freeze_writes_the_index_beside_the_pages(build):
    bundle = build / BUNDLE
    for name in ("pagefind.js", "pagefind-worker.js", "pagefind-entry.json", "wasm.en.pagefind"):
        assert (bundle / name).is_file(), name
    assert list((bundle / "fragment").glob("*.pf_fragment"))
    # Pagefind's own interfaces are not used (search.js is): not published either.
    assert not list(bundle.glob("pagefind-*ui*")), sorted(p.name for p in bundle.iterdir())


def test_only_the_content_pages_are_indexed(build, content):
    entry = json.loads((build / BUNDLE / "pagefind-entry.json").read_text(encoding="utf-8"))
    indexed = {
        page_url(build, page)
        for page in built_pages(build)
        if "data-pagefind-body" in page.read_text(encoding="utf-8")
    }
    expected = {"/ordinance/", "/exempt-discharges/", "/contact/"}
    expected |= {f"/learn/{p.slug}/" for p in content.pages}
    # The same pages in Spanish (/es/...), each language in an index of its own.
    assert indexed == expected | {"/es" + url for url in expected}
    not_indexed = {page_url(build, page) for page in built_pages(build)} - indexed
    assert not_indexed == NOT_INDEXED | {"/es" + url for url in NOT_INDEXED}
    # As many pages as carry the attribute in each language: nothing else slipped in.
    assert set(entry["languages"]) == {"en", "es"}
    assert entry["languages"]["en"]["page_count"] == len(expected)
    assert entry["languages"]["es"]["page_count"] == len(expected)


def test_sections_and_exempt_entries_are_headings_with_their_anchor(build, content):
    """Pagefind makes a result of each heading with an id: so each section and entry is one."""
    ordinance = (build / "ordinance" / "index.html").read_text(encoding="utf-8")
    for section in content.ordinance.sections:
        assert f'<h2 id="{section.anchor}" data-pagefind-weight="10">' in ordinance, section.number
    exempt = (build / "exempt-discharges" / "index.html").read_text(encoding="utf-8")
    for entry in content.exempt.entries:
        assert f'<h3 id="{entry.slug}">' in exempt, entry.slug


def test_learn_page_keywords_are_indexed_but_not_shown(build, content):
    page = content.page_by_slug["motor-oil"]
    assert "oil change" in page.keywords
    html = (build / "learn" / "motor-oil" / "index.html").read_text(encoding="utf-8")
    assert f"<p hidden>{', '.join(page.keywords)}</p>" in html


def test_only_the_search_page_loads_pagefind(build):
    for page in built_pages(build):
        mentions = f"/{BUNDLE}/" in page.read_text(encoding="utf-8")
        assert mentions == (page_url(build, page) in ("/search/", "/es/search/")), page
    # Both languages' search pages load the one bundle; each searches its own language.
    spanish = (build / "es" / "search" / "index.html").read_text(encoding="utf-8")
    assert 'data-pagefind="/pagefind/pagefind.js"' in spanish


def test_search_page_without_javascript_offers_the_contents(build):
    html = (build / "search" / "index.html").read_text(encoding="utf-8")
    page = parse_page(build / "search" / "index.html")
    # The form shows only once the script has started; the ways in by hand are there before.
    assert 'role="search" data-pagefind="/pagefind/pagefind.js" hidden>' in html
    assert "Search needs JavaScript" in html
    assert "/ordinance/#contents" in page.links


def test_every_page_links_to_search(build):
    for page in built_pages(build, "en"):
        assert "/search/" in parse_page(page).links, page_url(build, page)
    for page in built_pages(build, "es"):
        assert "/es/search/" in parse_page(page).links, page_url(build, page)


def test_a_folder_without_pages_is_an_error(tmp_path):
    with pytest.raises(SearchIndexError, match="pagefind failed"):
        index_site(tmp_path)


@pytest.mark.parametrize("path", ["/search/", f"/{BUNDLE}/pagefind-worker.js"])
def test_webassembly_is_allowed_only_where_search_runs(client, path):
    policy = client.get(path).headers["Content-Security-Policy"]
    assert "script-src 'self' 'wasm-unsafe-eval';" in policy
    assert "unsafe-inline" not in policy and "'unsafe-eval'" not in policy


@pytest.mark.parametrize("path", ["/", "/ordinance/", "/learn/pet-waste/", "/report/"])
def test_everywhere_else_keeps_the_strict_policy(client, path):
    policy = client.get(path).headers["Content-Security-Policy"]
    assert "script-src 'self';" in policy
    assert "wasm" not in policy and "unsafe" not in policy


def test_the_penalties_section_carries_its_search_words_hidden(build):
    html = (build / "ordinance" / "index.html").read_text(encoding="utf-8")
    heading = html.index('<h2 id="sec-216-13"')
    words = '<p hidden data-pagefind-weight="10">fine, fines, penalty, penalties, ticket, punishment</p>'
    assert html.index(words) > heading
    assert html.count('data-pagefind-weight="10">fine,') == 1
    # Every guide's penalties paragraph weighs lightly: the law's section comes first.
    guide = (build / "learn" / "pet-waste" / "index.html").read_text(encoding="utf-8")
    assert '<h2 data-pagefind-weight="0.5">Penalties</h2>' in guide


def test_who_to_call_gives_every_number_and_is_searchable(build, content):
    page = parse_page(build / "contact" / "index.html")
    html = (build / "contact" / "index.html").read_text(encoding="utf-8")
    assert "data-pagefind-body" in html
    for key in ("emergency", "police", "spill_hotline", "national_response_center"):
        assert content.settings.phones[key].number in page.text, key
    assert content.settings.office.phone.number in page.text
    assert "/report/" in page.links
    # The numbers people look for come first: a search result's excerpt shows them.
    first = page.text.split("Who to call", 1)[1][:200]
    assert "911" in first and content.settings.office.phone.number in first
    # Every page's footer leads to it (a Spanish page's to the Spanish one).
    for built in built_pages(build, "en"):
        assert "/contact/" in parse_page(built).links, page_url(build, built)
    for built in built_pages(build, "es"):
        assert "/es/contact/" in parse_page(built).links, page_url(build, built)


def test_the_search_page_carries_its_shortcuts_and_hidden_words(build, content):
    html = (build / "search" / "index.html").read_text(encoding="utf-8")
    assert '<li data-words="report|reports|reporting|complaint|complaints|complain|tell">' in html
    assert '<a href="/report/">Report a problem</a>' in html
    hidden = json.loads(
        html.split('data-hidden-words="', 1)[1].split('"', 1)[0].replace("&#34;", '"')
    )
    assert "dog poop, dog waste, poop, pooper scooper" in hidden
    assert "fine, fines, penalty, penalties, ticket, punishment" in hidden
    assert ", ".join(content.search.contact) in hidden
    # "Loading" for browsers with scripts, "needs JavaScript" only inside <noscript>.
    assert '<span class="search-loading">Loading the search…</span>' in html
    assert "<noscript><p>Search needs JavaScript" in html


def test_the_guides_link_the_report_form(build, content):
    for page in content.pages:
        html = (build / "learn" / page.slug / "index.html").read_text(encoding="utf-8")
        assert 'use the <a href="/report/">Report a problem</a> form on this site' in html, (
            page.slug
        )


def test_the_spanish_search_page_leads_a_business_owner_to_the_spill_form(build):
    """The Spanish walk: a second shortcut, to the release notification form."""
    html = (build / "es" / "search" / "index.html").read_text(encoding="utf-8")
    assert (
        '<li data-words="derrame|derrames|derramó|derramo|fuga|fugas|negocio|instalación|'
        'instalacion|planta|taller|aviso|registrar"><h2><a href="/notify/?lang=es">Un derrame en'
        " una instalación de la que soy responsable</a></h2><p>Un derrame o una fuga en un"
        " negocio u otra instalación de la que usted es responsable, que llega o puede llegar al"
        " sistema de drenaje pluvial. Lo que la ley le exige y para cuándo, y un registro del"
        " derrame que puede llenar aquí.</p></li>"
    ) in html
    assert '<a href="/report/?lang=es">Reportar un problema</a>' in html
    english = (build / "search" / "index.html").read_text(encoding="utf-8")
    assert (
        '<li data-words="spill|spilled|release|released|leak|leaks|leaked|leaking|facility|'
        'business|plant|notify"><h2><a href="/notify/">A spill or release at a facility I am'
        " responsible for</a></h2>"
    ) in english


# The Spanish walk: the everyday words Spanish speakers in New York use, hidden on
# each Spanish guide for the index (and hidden from the excerpts).
SPANISH_KEYWORDS = {
    "car-washing": "carro, coche, troca, camioneta, lavar el carro, lavar la troca, car wash,"
    " autolavado",
    "pools-and-hot-tubs": "alberca, pileta, jacuzzi, tina caliente, hidromasaje, vaciar la alberca",
    "lawn-chemicals": "pasto, zacate, yarda, fertilizante, herbicida, insecticida, veneno para"
    " hierbas",
    "yard-waste": "hojas, ramas, zacate cortado, pasto cortado, cortar el pasto, sopladora, yarda",
    "paint-and-cleaners": "thinner, solvente, aguarrás, pintura, brocha, rodillo, limpiador,"
    " detergente",
    "trash-and-litter": "basura, bolsas, colillas, tirar basura, basurero, zafacón, botellas,"
    " latas",
    "soil-and-sediment": "lodo, fango, barro, tierra, construcción, obra, escombros, excavación",
    "fats-oils-grease": "grasa, aceite de cocina, manteca, aceite de freír, freidora, grasa de"
    " tocino",
    "motor-oil": "cambio de aceite, aceite usado, aceite quemado, aceite de motor, filtro de"
    " aceite, aceite del carro",
    "pet-waste": "caca de perro, excremento de perro, popó, recoger la caca",
}


def test_every_spanish_guide_carries_everyday_words_hidden(build, content):
    assert set(SPANISH_KEYWORDS) == {page.slug for page in content.pages}
    search = (build / "es" / "search" / "index.html").read_text(encoding="utf-8")
    hidden = json.loads(
        search.split('data-hidden-words="', 1)[1].split('"', 1)[0].replace("&#34;", '"')
    )
    for slug, words in SPANISH_KEYWORDS.items():
        html = (build / "es" / "learn" / slug / "index.html").read_text(encoding="utf-8")
        assert f"<p hidden>{words}</p>" in html, slug
        assert words in hidden, slug
