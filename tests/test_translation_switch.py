"""`translations.yaml`'s `pending_review` switch, turned each way by a throwaway pack: while
true every page in that language says the translation waits for review; once the
municipality signs it off (false), no page says so, in the site or the portal."""

from __future__ import annotations

import shutil

import pytest

from content_model.fields import CONTENT_DIR
from static_site import create_app as create_site

NOTE = '<p class="translation-note" data-pagefind-ignore>Esta traducción'


@pytest.fixture(params=[True, False], ids=["pending", "signed-off"])
def pack(request, tmp_path):
    root = tmp_path / "content"
    shutil.copytree(CONTENT_DIR, root)
    text = (root / "translations.yaml").read_text(encoding="utf-8")
    flag = "true" if request.param else "false"
    (root / "translations.yaml").write_text(
        text.replace("pending_review: true", f"pending_review: {flag}"), encoding="utf-8"
    )
    return root, request.param


def test_the_site_says_a_translation_waits_for_review_only_while_it_does(pack):
    root, pending = pack
    client = create_site({"CONTENT_DIR": str(root)}).test_client()
    spanish = client.get("/es/learn/pet-waste/").get_data(as_text=True)
    english = client.get("/learn/pet-waste/").get_data(as_text=True)
    assert (NOTE in spanish) is pending
    assert "translation-note" not in english


def test_the_portal_says_it_too_only_while_it_does(pack, make_app):
    root, pending = pack
    client = make_app(CONTENT_DIR=str(root)).test_client()
    spanish = client.get("/report/?lang=es").get_data(as_text=True)
    assert (NOTE in spanish) is pending
    english = client.get("/report/?lang=en").get_data(as_text=True)
    assert "translation-note" not in english
