"""The review's low findings that are not tested with their larger neighbours: token pages
rate limited together, and `check` naming the risk of a proxy setting."""

from __future__ import annotations

import pytest

from portal.core.settings import problems


def test_every_page_a_token_opens_counts_against_one_limit(make_app):
    app = make_app(
        RATELIMIT_ENABLED=True, STATUS_RATE_LIMIT="4 per minute", MAIL_SUPPRESS_SEND=True
    )
    client = app.test_client()
    guesses = [
        "/status/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/status.json",
        "/report/sent/BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB/",
        "/status/CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC/",
        "/status/DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD/status.json",
        "/report/sent/EEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE/",
    ]
    assert [client.get(url).status_code for url in guesses] == [404, 404, 404, 404, 429]


@pytest.mark.parametrize(("hops", "warned"), [(0, False), (1, True), (2, True)])
def test_check_says_gunicorn_must_listen_only_for_the_proxy(hops, warned):
    found = [p for p in problems({"PROXY_HOPS": hops}) if p.setting == "PORTAL_PROXY_HOPS"]
    assert bool(found) == warned
    if warned:
        assert not found[0].fatal and "--bind 127.0.0.1" in found[0].text
