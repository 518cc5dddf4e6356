"""The legal read of 3 December 2026 (findings B1, C1-C16), through the frozen site's pages
in both languages: each corrected sentence as a person reads it."""

from __future__ import annotations

import html
import re

from helpers import built_pages


def text(build, url: str) -> str:
    """The words of a built page, tags dropped and spaces collapsed."""
    page = (build / url.strip("/") / "index.html").read_text(encoding="utf-8")
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.DOTALL)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def test_b1_the_spanish_rule_covers_causing_a_discharge_by_any_means(build):
    """B1 (seed 99, "or cause to be discharged"): not only making another person discharge."""
    rule = "Nadie puede descargar ni hacer que se descargue al sistema de drenaje pluvial nada"
    assert rule in text(build, "/es/ordinance/")
    guide = "El § 216-6 dice que nadie puede descargar ni hacer que se descargue al sistema"
    assert guide in text(build, "/es/learn/motor-oil/")
    assert guide in text(build, "/es/learn/lawn-chemicals/")
    exempt = "nadie puede descargar ni hacer que se descargue nada que no sea agua pluvial"
    assert exempt in text(build, "/es/exempt-discharges/")
    for page in built_pages(build, "es"):
        assert "hacer que otro descargue" not in page.read_text(encoding="utf-8"), page
