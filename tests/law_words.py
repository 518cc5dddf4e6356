"""What no page or mail may say about the law (the overclaims of the legal review of
2026-11-30), and what it must say wherever it names the State's spill hotline."""

from __future__ import annotations

import re
from html.parser import HTMLParser

# Each overclaim, named for what it would tell a reader. The filing is not the notice of the
# release notification section nor its mailed confirmation (unless the content says so, and
# then the pages say "accepts ... as"); the law "requires" what it says "shall".
OVERCLAIMS = {
    "'as the law requires' beside a filing": re.compile(r"\bas the law requires\b", re.I),
    "a filing called the written confirmation": re.compile(
        r"\bis (?:the|your|that) written confirmation\b", re.I
    ),
    "a filing called the notice": re.compile(
        r"\b(?:form|filing|receipt) is (?:the|your|that) notice\b", re.I
    ),
    "the receipt called the facility's written record": re.compile(
        r"\breceipt(?:,| and) (?:the facility's )?written record\b", re.I
    ),
    "a soft verb for a duty": re.compile(
        r"\b(?:the law|the State|§ ?\d+-\d+) asks\b|\basks (?:you )?(?:for notice|to tell)\b", re.I
    ),
}
# A receipt headed as if it were the notice: "Release notification under ... § N-12".
RECEIPT_HEADING = re.compile(r"\bunder\b[^.]*§ ?\d+-\d+", re.I)
TWO_HOURS = "within two hours"
# The hotline named as somewhere to call or report to. A record's question or answer about a
# call already made ("Called the NYSDEC Spill Hotline: Yes") is not advice and is left out.
HOTLINE_NAMED = re.compile(r"\bSpill Hotline\b", re.I)
ABOUT_A_CALL = re.compile(
    r"\b(?:called|did you call|when did you call) the NYSDEC Spill Hotline\b", re.I
)


class LawText(HTMLParser):
    """The words a reader meets on a page: the text inside <main> (all of it when the page
    has none, as in mail), and its headings (h1-h6 and the kicker above a title)."""

    HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.main: list[str] = []
        self.everything: list[str] = []
        self.headings: list[str] = []
        self._in_main = self._skip = 0
        self._heading: list[str] | None = None
        self._heading_tags: list[str] = []
        self.has_main = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "main":
            self._in_main += 1
            self.has_main = True
        if tag in ("script", "style", "title"):
            self._skip += 1
        classes = (dict(attrs).get("class") or "").split()
        if tag in self.HEADINGS or "kicker" in classes:
            self._heading, self._heading_tags = [], [*self._heading_tags, tag]
        self._add(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag == "main":
            self._in_main -= 1
        if tag in ("script", "style", "title"):
            self._skip -= 1
        if self._heading is not None and self._heading_tags and tag == self._heading_tags[-1]:
            self.headings.append(" ".join("".join(self._heading).split()))
            self._heading, self._heading_tags = None, []
        self._add(" ")

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self._add(data)
            if self._heading is not None:
                self._heading.append(data)

    def _add(self, text: str) -> None:
        self.everything.append(text)
        if self._in_main:
            self.main.append(text)

    @property
    def text(self) -> str:
        return " ".join("".join(self.main if self.has_main else self.everything).split())


def read(document: str) -> LawText:
    """A page or an HTML mail part as the reader meets it; plain text stays as it is."""
    parser = LawText()
    if "<" in document and ">" in document:
        parser.feed(document)
        parser.close()
    else:
        parser.everything = [document]
        parser.headings = document.strip().splitlines()[:1]
    return parser


def overclaims(document: str, hotline: str) -> list[str]:
    """Every overclaim of a page or mail, named: words that call a filing the notice or the
    confirmation, soft verbs for duties, a receipt headed as the notice, and the State's
    hotline named (by its name or number) without its two-hour rule."""
    page = read(document)
    found = [name for name, pattern in OVERCLAIMS.items() if pattern.search(page.text)]
    found += [
        f"a heading that says the filing is made under the law: {heading!r}"
        for heading in page.headings
        if RECEIPT_HEADING.search(heading)
    ]
    advice = ABOUT_A_CALL.sub("", page.text)
    if (hotline in advice or HOTLINE_NAMED.search(advice)) and TWO_HOURS not in page.text:
        found.append("the hotline named without its two-hour rule")
    return found
