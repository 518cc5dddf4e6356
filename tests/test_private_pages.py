"""Pages that show personal data are never kept by a cache: a shared computer's back
button and disk keep nothing after sign-out. Public pages stay cacheable."""

from __future__ import annotations

import io

from helpers import (
    file_notification,
    jpeg,
    notification_data,
    open_form,
    report_data,
    sign_in,
    start_notification,
)


def test_every_page_with_personal_data_is_sent_no_store(app, client):
    sent = client.post(
        "/report/",
        data={**open_form(client), **report_data(), "photos": [(io.BytesIO(jpeg()), "a.jpg")]},
        content_type="multipart/form-data",
    )
    report_page = sent.headers["Location"]
    token = report_page.rstrip("/").rsplit("/", 1)[1]
    _, filed = file_notification(client, notification_data())
    receipt = filed.headers["Location"]
    # Signed out: the sign-in page answers /staff/ itself.
    anonymous = {url: client.get(url) for url in ("/staff/", "/staff/login")}
    # A form shown again with what was typed.
    anonymous["POST /report/ with an error"] = client.post(
        "/report/", data={**open_form(client), **report_data(description="")}
    )
    sign_in(client, app)
    staff = [
        "/staff/",
        "/staff/cases/1/",
        "/staff/cases/2/",
        "/staff/photos/1",
        "/staff/map/",
        "/staff/map/frame",
        "/staff/cases/1/map",
        "/staff/exports/",
        "/staff/exports/cases.csv",
        "/staff/exports/cases.geojson",
        "/staff/annual-report/",
        "/staff/outbox/",
        "/staff/annual-report/records/reports.received",
        "/staff/annual-report.csv",
        "/staff/phone-notices/new",
        "/staff/training/",
        report_page,
        f"/status/{token}/",
        receipt,
    ]
    pages = {**anonymous, **{url: client.get(url) for url in staff}}
    for url, response in pages.items():
        assert response.status_code in (200, 401, 422), (url, response.status_code)
        assert response.headers.get("Cache-Control") == "no-store", url
    assert "Pat Doe" in pages["/staff/cases/1/"].text, "the pages checked hold personal data"


def test_public_pages_are_not_marked_private(client):
    for url in ("/report/", "/notify/", "/", "/learn/"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert "no-store" not in response.headers.get("Cache-Control", ""), url


def test_the_notification_steps_may_be_kept_by_this_browser_for_back(client):
    """Back from the review shows step 2 again (no "Confirm Form Resubmission"): the steps'
    answers to a POST may stay in this browser's cache, never a shared one; the receipt,
    like every other page with personal data, is kept by none."""
    triage = {"danger": "no", "hazardous": "no", "petroleum": "no"}
    details = start_notification(client, triage)
    review, filed = file_notification(client, notification_data(**triage))
    for response in (details, review):
        assert response.status_code == 200
        assert response.headers["Cache-Control"] == "private, no-cache"
    assert client.get(filed.headers["Location"]).headers["Cache-Control"] == "no-store"
    refused = client.post("/report/", data={**open_form(client), **report_data(description="")})
    assert refused.headers["Cache-Control"] == "no-store"


def test_an_id_past_sqlites_integers_is_a_404_everywhere(app, client):
    sign_in(client, app)
    huge = "99999999999999999999"
    for url in (
        f"/staff/cases/{huge}/",
        f"/staff/cases/{huge}/print",
        f"/staff/photos/{huge}",
        f"/staff/outfalls/{huge}/",
        f"/staff/screenings/{huge}/",
        f"/staff/notices/{huge}/",
        f"/staff/phone-notices/{huge}/",
    ):
        assert client.get(url).status_code == 404, url
