"""Every route declares what it needs where it is written (portal/web/routes.py): a walk of
the URL map fails on a route that forgot a rate limit, a no-store, its photo previews or what
answers it when its form has expired."""

from __future__ import annotations

import pytest

from portal.web.limits import FORM, SIGN_IN, TOKEN_PAGES
from portal.web.routes import BACK_STEP, NO_STORE, declarations

# The sign-in's steps: the only staff pages an anonymous visitor reaches.
SIGN_IN_PAGES = {"accounts.login", "accounts.second_factor", "accounts.enrol"}


def rules(app, method):
    return [r for r in app.url_map.iter_rules() if method in r.methods and r.endpoint != "static"]


def public(rule) -> bool:
    return not rule.rule.startswith("/staff") or rule.endpoint in SIGN_IN_PAGES


def test_every_post_an_anonymous_visitor_can_reach_has_a_rate_limit(app):
    declared = declarations(app)
    missing = [
        r.endpoint for r in rules(app, "POST") if public(r) and not declared[r.endpoint].limit
    ]
    assert missing == []
    assert declared["report.submit"].limit == FORM and declared["notify.submit"].limit == FORM
    assert {declared[e].limit for e in SIGN_IN_PAGES} == {SIGN_IN}


def test_every_page_a_secret_token_opens_is_no_store_and_counted_with_the_others(app):
    declared = declarations(app)
    token_pages = sorted(
        r.endpoint
        for r in rules(app, "GET")
        if "token" in r.arguments and not r.rule.startswith("/open311")
    )
    assert token_pages == ["offline.status_json", "report.sent", "status.show"]
    for endpoint in token_pages:
        assert declared[endpoint].caching == NO_STORE, endpoint
        assert declared[endpoint].limit == TOKEN_PAGES, endpoint


def test_every_staff_page_is_no_store(app):
    declared = declarations(app)
    staff = [r.endpoint for r in app.url_map.iter_rules() if r.rule.startswith("/staff/")]
    assert len(staff) > 40
    assert [e for e in staff if declared[e].caching != NO_STORE] == []


def test_every_public_form_shows_itself_again_when_its_token_expired(app, client):
    """A CSRF-protected public POST (the Open311 API takes keys, not forms) declares how it is
    shown again with what was typed."""
    declared = declarations(app)
    forms = {
        r.endpoint
        for r in rules(app, "POST")
        if public(r) and not r.rule.startswith(("/open311", "/staff"))
    }
    assert sorted(forms) == ["notify.submit", "report.submit"]
    assert [e for e in forms if declared[e].on_expired is None] == []
    assert declared["notify.submit"].back_step and declared["notify.submit"].caching is None


@pytest.mark.parametrize("path", ["/report/", "/notify/"])
def test_every_public_page_with_a_photo_field_declares_its_previews(app, client, path):
    """The CSP allows blob: (a photo shown before it is sent) only where a route declares it;
    every public GET page without arguments is rendered to find its photo fields."""
    declared = declarations(app)
    pages = [
        r
        for r in rules(app, "GET")
        if public(r) and not r.arguments and not r.rule.startswith(("/open311", "/staff"))
    ]
    with_photos = set()
    for rule in pages:
        page = client.get(rule.rule)
        if 'type="file"' in page.text:
            with_photos.add(rule.endpoint)
            assert declared[rule.endpoint].photo_previews, rule.endpoint
            assert "blob:" in page.headers["Content-Security-Policy"]
    assert "report.form" in with_photos
    assert "blob:" not in client.get("/report/mine/").headers["Content-Security-Policy"]
    assert client.get(path).status_code == 200


def test_a_post_answer_is_private_and_a_back_step_may_be_kept(app, client):
    assert client.post("/report/", data={}).headers["Cache-Control"] == NO_STORE
    step = client.post("/notify/", data={"step": "triage"})
    assert step.headers["Cache-Control"] == BACK_STEP == "private, no-cache"
    # The report form is kept for Back (the same report, not a second one, after Send), and
    # the notification's first step as its other steps.
    assert client.get("/report/").headers["Cache-Control"] == "private, no-cache"
    assert client.get("/notify/").headers["Cache-Control"] == "private, no-cache"
    assert client.get("/staff").headers["Cache-Control"] == "no-store"
