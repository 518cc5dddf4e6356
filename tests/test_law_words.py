"""The law's words on every page, form and mail: nothing calls a filing the notice or its
mailed confirmation, the State's two-hour rule goes with every mention of its hotline, and
every text that explains the law says it is a plain-language guide (issue 19, the guard)."""

from __future__ import annotations

import datetime as dt
import re
from zoneinfo import ZoneInfo

import pytest
from helpers import (
    built_pages,
    content_with_fax,
    file_notification,
    notification_data,
    open_form,
    page_url,
    report_data,
    save_case,
    sign_in,
    start_notification,
)
from law_words import overclaims, read
from mailserver import body

HOTLINE = "1-800-457-7362"
TZ = ZoneInfo("America/New_York")
# The State's rule stated whole (facts.md): the two hours, petroleum with its four-condition
# exception, and hazardous substances at or above their reportable quantity.
WHOLE_RULE = (
    "within two hours of discovery",
    "under 5 gallons",
    "contained and under control",
    "will not reach water or any land",
    "cleaned up within two hours",
    "at or above its reportable quantity",
)


def earlier_today(minutes: int) -> str:
    return (dt.datetime.now(TZ) - dt.timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M")


# Filings that between them show every branch of the receipt: told by telephone (a
# confirmation due), not yet told (a harmless release at a home), told by fax.
SCENARIOS = {
    "told by telephone": {},
    "not yet told": dict(
        danger="no",
        hazardous="no",
        petroleum="no",
        emergency_called="",
        emergency_called_at="",
        dec_called="",
        dec_called_at="",
        dec_spill_number="",
        facility_kind="residential",
        permit="none",
        permit_number="",
        prior_notice="none",
        prior_notice_at="",
        prior_notice_to="",
        discovered_at=earlier_today(30),
        began_at="",
        ended_at=earlier_today(20),
    ),
    "told by fax": dict(
        hazardous="unsure", petroleum="no", dec_called="no", dec_called_at="", prior_notice="fax"
    ),
}


@pytest.fixture
def content_dir(tmp_path):
    """A Village that publishes a fax number, so a filing can say it was told by fax (the
    pages without one: test_notify.test_no_fax_is_offered_where_no_fax_number_is_published)."""
    return content_with_fax(tmp_path / "content")


@pytest.fixture
def walked(app, client, mail_server) -> list[tuple[str, str]]:
    """Every public portal page a resident or a facility meets, and every mail they get:
    [(what, HTML or text)]."""
    seen: list[tuple[str, str]] = []

    def get(url: str) -> str:
        response = client.get(url)
        assert response.status_code == 200, url
        seen.append((url, response.text))
        return response.text

    get("/report/")
    sent = client.post("/report/", data={**open_form(client), **report_data()})
    thanks = get(sent.headers["Location"])
    get(re.search(r"/status/[\w-]+/", thanks).group(0))
    get("/notify/")
    for triage in (
        {"danger": "yes", "hazardous": "yes", "petroleum": "yes"},
        {"danger": "no", "hazardous": "yes", "petroleum": "no"},
        {"danger": "no", "hazardous": "no", "petroleum": "no"},
    ):
        seen.append((f"/notify/ step 2 {triage}", start_notification(client, triage).text))
    for name, overrides in SCENARIOS.items():
        review, final = file_notification(client, notification_data(**overrides))
        assert final is not None and final.status_code == 303, (name, review.text[:300])
        seen.append((f"/notify/ review, {name}", review.text))
        get(final.headers["Location"])
        get(final.headers["Location"].split("?")[0])
    sign_in(client, app)
    assert save_case(client, 1, status="investigating").status_code == 303
    for message in mail_server.messages:
        for kind in ("plain", "html"):
            seen.append((f"mail {message['Subject']} ({kind})", body(message, kind)))
    return seen


def test_no_portal_page_or_mail_overclaims(walked):
    mails = [what for what, _ in walked if what.startswith("mail")]
    # The report's two, the notification's receipt and officer's copy (three times), the update.
    assert len(mails) == 2 * (2 + 2 * len(SCENARIOS) + 1), mails
    found = {what: problems for what, text in walked if (problems := overclaims(text, HOTLINE))}
    assert not found, found


def test_no_built_page_overclaims(build):
    found = {
        page_url(build, page): problems
        for page in built_pages(build, "en")
        if (problems := overclaims(page.read_text(encoding="utf-8"), HOTLINE))
    }
    assert not found, found


def test_the_hotline_comes_with_the_whole_state_rule_where_people_are_told_to_call(build, walked):
    general = [read(page.read_text(encoding="utf-8")).text for page in built_pages(build, "en")]
    general = [text for text in general if HOTLINE in text]
    texts = dict(walked)
    general += [
        read(text).text
        for what, text in walked
        if what in ("/report/", "/notify/")
        or what.startswith("/report/sent/")
        or what.startswith("mail We received your report")
    ]
    # Home, the motor-oil page, /report/, its thanks page, /notify/ and both parts of the mail.
    assert len(general) >= 7, len(general)
    for text in general:
        for words in WHOLE_RULE:
            assert words in text, (words, text[:200])
    assert texts, "walked"


@pytest.mark.parametrize(
    ("words", "problem"),
    [
        (
            "Tell the Village about a spill from your facility, as the law requires.",
            "'as the law requires' beside a filing",
        ),
        (
            "This filing confirms the notice: this filing is the written confirmation.",
            "a filing called the written confirmation",
        ),
        ("This form is that notice.", "a filing called the notice"),
        (
            "Your receipt, the facility's written record, is sent here.",
            "the receipt called the facility's written record",
        ),
        (
            "The receipt and written record of a release notification.",
            "the receipt called the facility's written record",
        ),
        ("The law (§ 216-12) asks you to tell the Village.", "a soft verb for a duty"),
        ("The law asks for notice in person, by telephone or by fax.", "a soft verb for a duty"),
        ("The State asks for a call to the hotline.", "a soft verb for a duty"),
        (
            "<main><p>Oil and fuel spills may also need to be reported: 1-800-457-7362.</p></main>",
            "the hotline named without its two-hour rule",
        ),
        (
            "<main><p>Oil and fuel spills may also need to be reported to the New York State DEC"
            " Spill Hotline.</p></main>",
            "the hotline named without its two-hour rule",
        ),
    ],
)
def test_the_guard_catches_the_wordings_the_review_found(words, problem):
    assert problem in overclaims(words, HOTLINE)


def test_the_guard_catches_a_receipt_headed_as_the_notice():
    page = (
        '<main><p class="kicker">Village of Horseheads · Release notification under Village'
        " of Horseheads Code § 216-12</p><h1>Receipt REL-2026-0001</h1></main>"
    )
    assert overclaims(page, HOTLINE) == [
        "a heading that says the filing is made under the law: 'Village of Horseheads · Release"
        " notification under Village of Horseheads Code § 216-12'"
    ]


def test_the_guard_leaves_the_right_words_alone():
    fine = (
        "<main><h2>The deadlines § 216-12 sets</h2><p>This filing is not the notice § 216-12"
        " requires. Nor is it the written confirmation. Call 1-800-457-7362 within two hours"
        " of discovery.</p></main><footer>Spill Hotline: 1-800-457-7362.</footer>"
    )
    assert overclaims(fine, HOTLINE) == []
    record = "<main><dl><dt>Called the NYSDEC Spill Hotline</dt><dd>Yes</dd></dl></main>"
    assert overclaims(record, HOTLINE) == []


def test_every_page_and_mail_that_explains_the_law_says_it_is_a_guide(walked, content, client):
    notice = content.settings.legal_notice
    # Only the officer's copy of a resident's report explains nothing of the law.
    explaining = [what for what, _ in walked if not what.startswith("mail New illicit discharge")]
    assert len(explaining) == len(walked) - 2
    missing = [
        what for what, text in walked if what in explaining and notice not in read(text).text
    ]
    assert not missing, missing
    services = client.get("/open311/v2/services.json").get_json()
    assert all(notice in service["description"] for service in services)
