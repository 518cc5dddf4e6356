"""The forms that fill in who did it (officer's week 2026-12-03 P5): "Screened by" read "smo"
while the letters carried "Pat Kowalski". Until the officer sets the name they sign letters
with, the field holds the username and says where to set the name; once set, the name."""

from __future__ import annotations

import html
import re

import pytest
from enforcement_helpers import ok, post
from test_screening_field_sheet import setup

HINT = (
    "Filled in with your username: set your name as you sign letters once, and forms fill in"
    " your name."
)


def field(page: str, name: str) -> tuple[str, str]:
    """The input's value and its hint's words."""
    value = re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', page)
    hint = re.search(rf'<p class="hint" id="{name}-hint">(.*?)</p>', page, re.S)
    words = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", hint.group(1))).split()) if hint else ""
    return html.unescape(value.group(1)), words


@pytest.mark.parametrize(
    ("url", "name", "before"),
    [
        ("/staff/screenings/outfall/1/new", "inspector", ""),
        ("/staff/found/new", "found_by", "You, unless a colleague found it. "),
    ],
)
def test_p5_the_username_says_where_to_set_the_name(app, client, url, name, before):
    setup(app, client)
    page = client.get(url).text
    assert field(page, name) == ("smo", f"{before}{HINT}")
    assert '<a href="/staff/enforcement/signature">set your name as you sign letters</a>' in page
    ok(
        post(
            client,
            "/staff/enforcement/signature",
            letter_name="Pat Kowalski",
            letter_title="Stormwater Management Officer",
        )
    )
    page = client.get(url).text
    assert field(page, name) == ("Pat Kowalski", before.strip())
