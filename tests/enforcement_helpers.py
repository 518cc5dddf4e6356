"""Walking a case through enforcement with the test client, for the page checks."""

from __future__ import annotations

import datetime as dt

from helpers import csrf_of


def post(client, url: str, page_url: str | None = None, **data):
    """Post a form of a staff page with that page's CSRF token."""
    page = client.get(page_url or url).text
    return client.post(url, data={"csrf_token": csrf_of(page), **data})


def local_today(app) -> dt.date:
    from portal.clock import local_today as today

    with app.test_request_context():
        return today()


def enforcement_pages(client, case_id: int) -> dict:
    """Every enforcement page, with a notice taken all the way to a payment, and the forms
    shown again with their errors. The client is signed in; every date is the local today."""
    app = client.application
    today = local_today(app)
    day = today.isoformat()
    enforce = f"/staff/cases/{case_id}/enforcement"
    # The section violated: the exemptions section's subdivision A, in the pack's numbers.
    violated = app.extensions["content"].ordinance.roles["exemptions"] + " A"
    pages = {
        "enf-case-empty": client.get(enforce),
        "enf-respondents-empty": client.get("/staff/respondents/"),
    }
    pages["enf-case-errors"] = post(client, enforce, name="", committed_on="x")
    post(client, enforce, respondent="", name="Elm Street Auto LLC", mailing_address="PO Box 12",
         property_address="12 Elm Street", committed_on=day, section=violated, description="Wash water.")  # fmt: skip
    new = "/staff/violations/1/notice"
    pages["enf-draft-new"] = client.get(new)
    pages["enf-draft-errors"] = post(client, new, order_2="y")
    drafted = post(client, new, order_1="y", specifics_1="Stop.", order_2="y",
                   deadline=(today + dt.timedelta(days=30)).isoformat())  # fmt: skip
    notice = drafted.headers["Location"]
    pages["enf-notice-draft"] = client.get(notice)
    pages["enf-letter-draft"] = client.get(f"{notice}letter")
    post(client, f"{notice}issue", notice)
    for step, data in [("appeal", {"appeal_filed_on": day}),
                       ("decision", {"decided_on": day, "hearing_on": day, "upheld": "yes"}),
                       ("completion", {"completed_on": day, "work": "1000", "admin": "100"}),
                       ("costs", {"cost_notice_mailed_on": day, "payment_count": "2"})]:  # fmt: skip
        post(client, f"{notice}steps/{step}", notice, **data)
    post(client, f"{notice}payments", notice, paid_on=day, amount="100")
    remedy = app.extensions["enforcement"].provisions["remedies"].items[0].text
    post(
        client,
        f"{notice}remedies",
        notice,
        kind=remedy,
        due_on=(today + dt.timedelta(days=20)).isoformat(),
    )
    pages["enf-notice-issued"] = client.get(notice)
    pages["enf-notice-errors"] = post(
        client, f"{notice}steps/filing", notice, decision_filed_on="1999-01-01"
    )
    pages["enf-payment-errors"] = post(
        client, f"{notice}payments", notice, paid_on="", amount="ten"
    )
    pages["enf-letter"] = client.get(f"{notice}letter")
    pages["enf-statement"] = client.get(f"{notice}statement")
    pages["enf-respondents"] = client.get("/staff/respondents/")
    pages["enf-respondent"] = client.get("/staff/respondents/1/")
    pages["enf-case"] = client.get(enforce)
    pages["enf-deadlines"] = client.get("/staff/enforcement/deadlines")
    pages["enf-queue"] = client.get("/staff/")
    return pages
