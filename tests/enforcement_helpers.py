"""Walking a case through enforcement with the test client, for the page checks."""

from __future__ import annotations

import datetime as dt
import re

from helpers import csrf_of


def post(client, url: str, page_url: str | None = None, **data):
    """Post a form of a staff page with that page's CSRF token."""
    page = client.get(page_url or url).text
    return client.post(url, data={"csrf_token": csrf_of(page), **data})


def post_prefixed(client, url: str, page_url: str, prefix: str, **data):
    """Post one of a page's several forms of one kind, whose fields (its CSRF token too) carry
    `prefix`: the fields are named `<prefix>-<name>`."""
    token = csrf_of(client.get(page_url).text)
    fields = {f"{prefix}-{name}": value for name, value in {"csrf_token": token, **data}.items()}
    return client.post(url, data={"csrf_token": token, **fields})


def local_today(app) -> dt.date:
    from portal.core.clock import local_today as today

    with app.test_request_context():
        return today()


def enforcement_pages(client, case_id: int) -> dict:
    """Every enforcement page, with a notice taken all the way to a payment, and the forms
    shown again with their errors. The client is signed in; every date is the local today."""
    app = client.application
    law = app.extensions["enforcement"]
    today = local_today(app)
    day = today.isoformat()
    enforce = f"/staff/cases/{case_id}/enforcement"
    # The section violated: the exemptions section's subdivision A, in the pack's numbers.
    violated = app.extensions["content"].ordinance.roles["exemptions"] + " A"
    pages = {
        "enf-case-empty": client.get(enforce),
        "enf-respondents-empty": client.get("/staff/respondents/"),
    }
    pages["enf-case-errors"] = post(client, enforce, name="", committed_on="x", email="nope")
    violation = {
        "committed_on": day,
        "found_on": day,
        "section": violated,
        "description": "Wash water.",
    }
    post(
        client,
        enforce,
        respondent="",
        name="Elm Street Auto LLC",
        mailing_address="PO Box 12",
        phone="(607) 555-0142",
        role="operator",
        place="12 Elm Street",
        **violation,
    )
    post(
        client,
        enforce,
        respondent="1",
        place="Catch basin at Orchard and Broad",
        owner_name="Broad Street Holdings",
        owner_address="1 Broad Street",
        **violation,
    )
    pages["enf-violation-edit"] = client.get("/staff/violations/2/edit")
    pages["enf-violation-edit-errors"] = post(
        client,
        "/staff/violations/2/edit",
        committed_on=day,
        found_on=(today - dt.timedelta(days=1)).isoformat(),
        section=violated,
        description="Wash water.",
        owner_name="Broad Street Holdings",
    )
    new = "/staff/violations/1/notice"
    pages["enf-draft-new"] = client.get(new)
    pages["enf-draft-errors"] = post(client, new, order_2="y")
    # A deadline before the appeal period ends: the page warns.
    drafted = post(
        client,
        new,
        order_1="y",
        specifics_1="Stop.",
        order_2="y",
        deadline=(today + dt.timedelta(days=5)).isoformat(),
    )
    notice = drafted.headers["Location"]
    pages["enf-notice-draft"] = client.get(notice)
    pages["enf-letter-draft"] = client.get(f"{notice}letter")
    pages["enf-issue-errors"] = post(client, f"{notice}issue", notice, served_on="", method="x")
    post(
        client,
        f"{notice}issue",
        notice,
        served_on=day,
        method=law.service_methods[1],
        signer_name="Dana Reyes",
        signer_title="Stormwater Management Officer",
    )
    for step, data in [
        ("appeal", {"appeal_filed_on": day}),
        ("decision", {"decided_on": day, "hearing_on": day, "upheld": "yes"}),
        ("completion", {"completed_on": day, "work": "1000", "admin": "100"}),
        ("costs", {"cost_notice_mailed_on": day, "payment_count": "2", "protest_filed_on": day}),
        (
            "protest",
            {
                "protest_outcome": "upheld",
                "protest_decided_on": day,
                "protest_payment_due_on": day,
            },
        ),
        (
            "attorney",
            {
                "attorney_recommendation": "Workshop.",
                "attorney_recommended_on": day,
                "smo_concurs": "yes",
            },
        ),
        ("conditions", {f"holds_{i}": "y" for i in range(5)}),
    ]:
        post(client, f"{notice}steps/{step}", notice, **data)
    post(client, f"{notice}payments", notice, paid_on=day, amount="100")
    post(client, f"{notice}payments", notice, paid_on=day, amount="1000")
    post_prefixed(client, f"{notice}payments/2/void", notice, "void-2", reason="Typed twice.")
    post_prefixed(
        client,
        f"{notice}payments/1/correct",
        notice,
        "fix-1",
        paid_on=day,
        amount="10.00",
        reason="Wrong amount.",
    )
    remedy = law.provisions["remedies"].items[0].text
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
    pages["enf-void-errors"] = post_prefixed(client, f"{notice}payments/3/void", notice, "void-3")
    pages["enf-protest-errors"] = post(
        client, f"{notice}steps/protest", notice, protest_outcome="reduced", protest_decided_on=day
    )
    pages["enf-letter"] = client.get(f"{notice}letter")
    mailed = post(client, f"{notice}statement/mailed", f"{notice}statement")
    pages["enf-statement"] = client.get(f"{notice}statement")
    kept = re.search(r'href="(/staff/notices/\d+/papers/\d+)"', pages["enf-statement"].text)
    assert mailed.status_code == 303 and kept, "the statement is kept as mailed"
    pages["enf-statement-kept"] = client.get(kept.group(1))
    pages["enf-cost-letter"] = client.get(f"{notice}cost-letter")
    # The request for access follows only a missed correction date: before it, the page
    # sends the officer back; a month on (the clock moved), the letter prints.
    pages["enf-access-refused"] = client.get(f"{notice}access-letter", follow_redirects=True)
    with app.test_request_context():
        from portal.core.clock import local_now

        month_on = local_now() + dt.timedelta(days=30)
    kept = app.config.get("CLOCK")
    app.config["CLOCK"] = lambda: month_on
    pages["enf-access-letter"] = client.get(f"{notice}access-letter?method=First-class+mail")
    app.config["CLOCK"] = kept
    pages["enf-inspection-letter"] = client.get("/staff/violations/2/inspection-letter")
    pages["enf-signature"] = client.get("/staff/enforcement/signature")
    pages["enf-signature-errors"] = post(client, "/staff/enforcement/signature", letter_name="")
    person = "/staff/respondents/1/"
    post(
        client,
        f"{person}prior",
        person,
        committed_on="2023-05-01",
        section=violated,
        reference="NOV-2023-0007",
        outcome="notice",
    )
    pages["enf-prior-errors"] = post(client, f"{person}prior", person, committed_on="2999-01-01")
    pages["enf-respondent-errors"] = post(client, f"{person}edit", person, name="", email="x@")
    post(
        client,
        enforce,
        respondent="",
        name="Elm St. Auto",
        mailing_address="PO Box 12",
        place="12 Elm Street",
        **violation,
    )
    pages["enf-merge-errors"] = post(client, f"{person}merge", person, other="2")
    post(client, f"{person}merge", person, other="2", same="y")
    pages["enf-respondents"] = client.get("/staff/respondents/")
    pages["enf-respondent"] = client.get(person)
    pages["enf-respondent-merged"] = client.get("/staff/respondents/2/")
    pages["enf-case"] = client.get(enforce)
    pages["enf-deadlines"] = client.get("/staff/enforcement/deadlines")
    pages["enf-queue"] = client.get("/staff/")
    return pages


def ok(response, status: int = 303):
    errors = re.findall(r'class="error-message"[^>]*>(.*?)</p>', response.text)
    assert response.status_code == status, errors or response.text[:3000]
    return response


def times(page: str) -> list[str]:
    return re.findall(r'<time datetime="(\d{4}-\d{2}-\d{2})">', page)


def violation(client, **overrides):
    data = {
        "respondent": "",
        "name": "Elm Street Auto LLC",
        "mailing_address": "PO Box 12\nHorseheads NY 14845",
        "place": "12 Elm Street",
        "committed_on": "2027-02-26",
        "found_on": "2027-02-27",
        "section": "216-6 A",
        "description": "Wash water piped to the storm drain.",
    }
    return ok(post(client, "/staff/cases/1/enforcement", **{**data, **overrides}))


ISSUE = {
    "method": "Certified mail, return receipt requested",
    "signer_name": "Dana Reyes",
    "signer_title": "Stormwater Management Officer",
}


def issue(client, notice: int = 1, served_on: str = "2027-03-01", **overrides):
    url = f"/staff/notices/{notice}/"
    return ok(post(client, f"{url}issue", url, served_on=served_on, **{**ISSUE, **overrides}))


def issue_notice(client, clock, deadline: str = "2027-03-31") -> int:
    violation(client)
    ok(
        post(
            client,
            "/staff/violations/1/notice",
            order_1="y",
            specifics_1="Stop washing.",
            order_2="y",
            specifics_2="Clean the catch basin.",
            deadline=deadline,
        )
    )
    issue(client, served_on=clock().date().isoformat())
    return 1


def notice_served(officer, clock, served: str, deadline: str = "2027-04-30") -> None:
    """A violation and its notice (both orders, correction by `deadline`), served on `served`,
    the clock moved to that day."""
    violation(officer)
    ok(post(officer, "/staff/violations/1/notice", order_1="y", order_2="y", deadline=deadline))
    clock.set(served)
    issue(officer, served_on=served)
