"""The security review of round 3 (../shared/reviews, security.md): each finding, held."""

from __future__ import annotations

import threading

from helpers import open_form, report_data, rows

from portal import create_app


def _parallel(count: int, send) -> list[int]:
    """`send(n)` from `count` threads released at the same moment: their status codes."""
    start = threading.Barrier(count)
    codes: list[int] = [0] * count

    def one(n: int) -> None:
        start.wait()
        codes[n] = send(n)

    threads = [threading.Thread(target=one, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sorted(codes)


def test_parallel_reports_from_one_address_store_no_more_than_the_limit(tmp_path):
    """M1: eight valid reports sent at once against "2 per minute": two stored, six refused
    with the 429 page (the limit was only tested before the view and counted after it)."""
    app = create_app({"DATABASE": str(tmp_path / "db.sqlite3"), "REPORT_RATE_LIMIT": "2 per minute",
                      "MAIL_FOLDER": str(tmp_path / "mail")})  # fmt: skip
    clients = [app.test_client() for _ in range(8)]
    forms = [
        {**open_form(c), **report_data(description=f"Foam {n}")} for n, c in enumerate(clients)
    ]

    codes = _parallel(8, lambda n: clients[n].post("/report/send/", data=forms[n]).status_code)

    assert codes == [303, 303, 429, 429, 429, 429, 429, 429]
    assert rows(app, "SELECT count(*) AS n FROM cases") == [{"n": 2}]


def test_a_refused_report_says_when_to_send_it_again(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "db.sqlite3"), "REPORT_RATE_LIMIT": "1 per minute",
                      "MAIL_FOLDER": str(tmp_path / "mail")})  # fmt: skip
    client = app.test_client()
    assert (
        client.post("/report/send/", data={**open_form(client), **report_data()}).status_code == 303
    )
    refused = client.post(
        "/report/send/", data={**open_form(client), **report_data(description="More")}
    )
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert "Too many reports have come from this connection in a short time." in refused.text
    assert rows(app, "SELECT count(*) AS n FROM cases") == [{"n": 1}]
