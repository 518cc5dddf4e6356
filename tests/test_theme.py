"""The shared filters: citations become links, Markdown becomes safe HTML."""

from __future__ import annotations

import pytest
from markupsafe import Markup

from content_model.theme import Citations, render_markdown, strip_js_comments


@pytest.fixture(scope="module")
def cite(content):
    return Citations(content)


@pytest.mark.parametrize(
    ("text", "page", "html"),
    [
        ("see § 216-6 of this", "", 'see <a href="#sec-216-6">§ 216-6</a> of this'),
        (
            "§ 216-4, Definitions",
            "/ordinance/",
            '<a href="/ordinance/#sec-216-4">§ 216-4</a>, Definitions',
        ),
        ("§ 216-99 is not a section", "", "§ 216-99 is not a section"),
        (
            "§ 10(1)(ii)(a)(11) of the Municipal Home Rule Law",
            "",
            "§ 10(1)(ii)(a)(11) of the Municipal Home Rule Law",
        ),
        (
            "<b>§ 216-1</b> & more",
            "",
            '&lt;b&gt;<a href="#sec-216-1">§ 216-1</a>&lt;/b&gt; &amp; more',
        ),
    ],
)
def test_citations(cite, text, page, html):
    assert cite(text, page) == Markup(html)


def test_citations_inside_markup_skip_tags_and_existing_links(cite):
    html = Markup('<p title="§ 216-2">§ 216-3 and <a href="/x">§ 216-5</a></p>')
    assert cite(html) == Markup(
        '<p title="§ 216-2"><a href="#sec-216-3">§ 216-3</a> and <a href="/x">§ 216-5</a></p>'
    )


def test_markdown_renders_safe_html():
    html = render_markdown("## Why\n\n- one\n- two")
    assert isinstance(html, Markup)
    assert "<h2>Why</h2>" in html and "<li>one</li>" in html


def test_a_style_sheet_is_sent_without_its_comments(client):
    page = client.get("/report/").text
    href = next(p.split('"')[0] for p in page.split('href="')[1:] if "/css/portal.css" in p)
    sheet = client.get(href)
    assert sheet.status_code == 200 and sheet.mimetype == "text/css"
    assert sheet.headers["Cache-Control"] == "public, max-age=31536000"
    assert "/*" not in sheet.text and "*/" not in sheet.text
    assert ".reference-inline { white-space: nowrap; }" in sheet.text


def test_a_script_is_sent_without_its_comment_lines(client):
    page = client.get("/report/").text
    src = next(p.split('"')[0] for p in page.split('src="')[1:] if "/js/report.js" in p)
    script = client.get(src)
    assert script.status_code == 200 and script.mimetype == "text/javascript"
    assert script.headers["Cache-Control"] == "public, max-age=31536000"
    assert "Enhancements to the report form" not in script.text
    assert "// Read out once typing pauses" not in script.text
    # Code, strings and regular expressions stay as written.
    assert "const QUALITIES = [0.8, 0.7, 0.6, 0.5, 0.4, 0.3];" in script.text
    assert "replace(/[.*+?^${}()|[\\]\\\\]/g, '\\\\$&')" in script.text


def test_only_comments_on_lines_of_their_own_are_left_out():
    source = (
        "/* About this file,\n   on two lines. */\n"
        "  // why the next line\n"
        "a(); // kept: after code\n"
        "/* a */ b(); /* c */\n"
        "const url = 'http://x.test/y'; const r = /\\//g;\n"
        "  /* one line */  \n"
        "c();\n"
    )
    assert strip_js_comments(source) == (
        "a(); // kept: after code\n"
        "/* a */ b(); /* c */\n"
        "const url = 'http://x.test/y'; const r = /\\//g;\n"
        "c();\n"
    )
