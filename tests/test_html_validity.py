"""Every page is valid HTML, by the Nu HTML Checker: the whole build, then the portal's pages."""

from __future__ import annotations

import io
import re

import pyotp
from enforcement_helpers import enforcement_pages
from helpers import (
    PASSWORD,
    built_pages,
    csrf_of,
    file_notification,
    hidden_fields,
    jpeg,
    next_code,
    notification_data,
    open_form,
    report_data,
    save_case,
    sign_in,
    start_notification,
)
from nuchecker import assert_valid_pages, html_errors


def test_every_built_page_is_valid_html(build):
    errors = html_errors(built_pages(build), build)
    assert not errors, f"{len(errors)} HTML error(s):\n" + "\n".join(errors)


def test_every_portal_page_is_valid_html(app, client, tmp_path):
    pages = {"report-form": client.get("/report/")}
    pages["report-errors"] = client.post("/report/", data={**open_form(client), "latitude": "200"})
    sent = client.post("/report/", data={**open_form(client), **report_data()})
    pages["report-sent"] = client.get(sent.headers["Location"])
    status_url = re.search(r'href="(/status/[\w-]+/)"', pages["report-sent"].text).group(1)
    pages["status"] = client.get(status_url)
    pages["not-found"] = client.get("/status/nothing/")
    pages["my-reports"] = client.get("/report/mine/")
    pages["method-not-allowed"] = client.put("/report/")
    pages["expired-form"] = client.post("/report/", data=report_data())
    pages["notify-triage"] = client.get("/notify/")
    pages["notify-details"] = start_notification(
        client, {"danger": "yes", "hazardous": "yes", "petroleum": "yes"}
    )
    pages["notify-errors"], _ = file_notification(client, notification_data(facility_name=""))
    pages["notify-review"], filed = file_notification(client, notification_data())
    pages["notify-receipt"] = client.get(filed.headers["Location"])
    sign_in(client, app)
    page = client.get("/staff/phone-notices/new").text
    client.post(
        "/staff/phone-notices/new",
        data={
            "csrf_token": csrf_of(page),
            "told_at": "2026-11-02T10:00",
            "how": "phone",
            "facility_name": "Depot Street Fuel",
            "caller_name": "Sam",
            "material": "Oil",
        },
    )
    for name, url in [
        ("staff-queue", "/staff/"),
        ("staff-report", "/staff/cases/1/"),
        ("staff-notification", "/staff/cases/4/"),
        ("staff-map", "/staff/map/"),
        ("staff-map-frame", "/staff/map/frame"),
        ("staff-annual", "/staff/annual-report/"),
        ("staff-annual-records", "/staff/annual-report/records/reports.received"),
        ("staff-exports", "/staff/exports/"),
        ("staff-outbox", "/staff/outbox/"),
        ("staff-phone-notice", "/staff/phone-notices/new"),
        ("staff-training", "/staff/training/"),
    ]:
        pages[name] = client.get(url)
    pages.update(enforcement_pages(client, 1))
    pages.update(case_desk_pages(app, client))
    client.post("/staff/logout", data={"csrf_token": csrf_of(pages["staff-queue"].text)})
    pages["staff-login"] = client.get("/staff/")
    pages.update(sent_again_pages(client))
    pages.update(second_factor_pages(app))
    assert_valid_pages(pages, tmp_path)


def sent_again_pages(client) -> dict:
    """A report form sent twice: unchanged (the thanks page says so), then changed (409)."""
    hidden = open_form(client)
    client.post("/report/", data={**hidden, **report_data(description="Once")})
    again = client.post("/report/", data={**hidden, **report_data(description="Once")})
    return {
        "report-sent-again": client.get(again.headers["Location"]),
        "report-already-sent": client.post(
            "/report/", data={**hidden, **report_data(description="Changed")}
        ),
    }


def case_desk_pages(app, client) -> dict:
    """The case form refused, in conflict, with a site visit; the printable cases."""
    pages = {"staff-case-errors": save_case(client, 1, status="referred", public_note="Kept")}
    page = client.get("/staff/cases/1/").text
    visit = {
        "csrf_token": csrf_of(page),
        "visited_at": "2026-11-20T10:30",
        "inspector": "Jo",
        "findings": "Grey water",
        "sampled": "yes",
        "lab_reference": "LAB-1",
        "photos": [(io.BytesIO(jpeg((800, 600))), "site.jpg")],
    }
    client.post("/staff/cases/1/inspections", data=visit, content_type="multipart/form-data")
    pages["staff-inspection-errors"] = client.post(
        "/staff/cases/1/inspections",
        data={**visit, "findings": "", "photos": [(io.BytesIO(jpeg((800, 600))), "kept.jpg")]},
        content_type="multipart/form-data",
    )
    # A second report, marked a duplicate of the first through the confirm step; its status.
    client.post("/report/", data={**open_form(client), **report_data(contact_email="sam@x.test")})
    with app.app_context():
        from portal.core.db import get_db

        db = get_db()
        (second,) = db.execute("SELECT max(id) FROM cases").fetchone()
        (first,) = db.execute("SELECT reference FROM cases WHERE id = 1").fetchone()
    pages["staff-confirm-duplicate"] = client.get(f"/staff/cases/{second}/duplicate?of={first}")
    save_case(client, second, status="duplicate", duplicate_of=first)
    with app.app_context():
        # Read to the end: a statement left open would hold its connection's read snapshot
        # while the courier writes, and that connection's next write would find it locked.
        ack = get_db().execute("SELECT body_text FROM outbox WHERE recipient = 'sam@x.test'")
        status_url = re.search(r"https?://[^/]+(/status/[\w-]+/)", ack.fetchall()[0][0]).group(1)
    pages["status-of-a-duplicate"] = client.get(status_url)
    save_case(client, 1, status="investigating", follow_up_on="2026-11-01", note="n")
    pages["staff-case-conflict"] = client.post(
        "/staff/cases/1/", data={"csrf_token": csrf_of(page), "revision": "0", "status": "resolved"}
    )
    assert pages["staff-case-conflict"].status_code == 409
    pages["staff-queue-flags"] = client.get("/staff/")
    pages["staff-report-print"] = client.get("/staff/cases/1/print")
    pages["staff-notification-print"] = client.get("/staff/cases/4/print")
    return pages


def second_factor_pages(app) -> dict:
    """The sign-in's second step, with and without errors; enrolment and recovery codes."""
    from portal.accounts.accounts import add_account, issue_enrol_code
    from portal.core.db import get_db

    with app.app_context():
        db = get_db()
        enrol_code = issue_enrol_code(db, add_account(db, "clerk", PASSWORD))
    client, pages = app.test_client(), {}
    page = client.get("/staff/login")
    client.post(
        "/staff/login", data={**hidden_fields(page.text), "username": "clerk", "password": PASSWORD}
    )
    pages["staff-enrol-code"] = client.get("/staff/enrol")
    fields = hidden_fields(pages["staff-enrol-code"].text)
    pages["staff-enrol-code-error"] = client.post(
        "/staff/enrol", data={**fields, "enrol_code": "x"}
    )
    client.post("/staff/enrol", data={**fields, "enrol_code": enrol_code})
    pages["staff-enrol"] = client.get("/staff/enrol")
    fields = hidden_fields(pages["staff-enrol"].text)
    pages["staff-enrol-error"] = client.post("/staff/enrol", data={**fields, "code": "12"})
    secret = re.search(r'id="setup-key">([A-Z2-7 ]+)<', pages["staff-enrol"].text).group(1)
    code = pyotp.TOTP(secret.replace(" ", "")).now()
    pages["staff-recovery-codes"] = client.post("/staff/enrol", data={**fields, "code": code})
    fresh = app.test_client()
    page = fresh.get("/staff/login")
    fresh.post(
        "/staff/login", data={**hidden_fields(page.text), "username": "clerk", "password": PASSWORD}
    )
    pages["staff-second-factor"] = fresh.get("/staff/second-factor")
    fields = hidden_fields(pages["staff-second-factor"].text)
    pages["staff-second-factor-error"] = fresh.post(
        "/staff/second-factor", data={**fields, "recovery_code": "nope"}
    )
    # Changing the password, with an error, and the sign-in page saying why it waits.
    enter = fresh.post("/staff/second-factor", data={**fields, "code": next_code(app, "clerk")})
    assert enter.status_code == 303
    pages["staff-password"] = fresh.get("/staff/password")
    fields = hidden_fields(pages["staff-password"].text)
    pages["staff-password-error"] = fresh.post(
        "/staff/password",
        data={**fields, "current": PASSWORD, "new": "password1234", "again": "password1234"},
    )
    waiting = app.test_client()
    for n in range(11):
        page = waiting.get("/staff/login")
        pages["staff-login-waiting"] = waiting.post(
            "/staff/login",
            data={**hidden_fields(page.text), "username": "nobody", "password": f"guess {n}"},
        )
    assert pages["staff-login-waiting"].status_code == 429
    return pages


def test_the_portal_pages_in_spanish_are_valid_html(client, tmp_path):
    pages = {"es-report-form": client.get("/report/?lang=es")}
    pages["es-report-errors"] = client.post(
        "/report/", data={**open_form(client), "latitude": "200"}
    )
    sent = client.post("/report/", data={**open_form(client), **report_data()})
    pages["es-report-sent"] = client.get(sent.headers["Location"])
    status_url = re.search(r'href="(/status/[\w-]+/)"', pages["es-report-sent"].text).group(1)
    pages["es-status"] = client.get(status_url)
    pages["es-my-reports"] = client.get("/report/mine/")
    pages["es-not-found"] = client.get("/status/nothing/")
    pages["es-notify-note"] = client.get("/notify/")
    for name, response in pages.items():
        assert '<html lang="es">' in response.text or name == "es-notify-note", name
    assert_valid_pages(pages, tmp_path)
