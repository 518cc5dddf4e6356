"""The two deadlines of the release notification section as the filer's review step and
receipt show them, and as the case page shows the notice and its letter: from the filer's
answer, from what staff logged, and where the content accepts the filing as the notice or
as the written confirmation. Discovered Monday 1 March 2027 at 9:00 unless said otherwise."""

from __future__ import annotations

import re

import pytest
from helpers import content_with_fax, database, file_notification, notification_data, sign_in
from test_release_notices import at, log_notice, record_letter
from throwaway_pack import text, throwaway_pack

NOTICE = (
    "Notice to the Village , in person, by telephone or by fax (no fax number is published,"
    " so call or come in): due by the end of Tuesday, March 2, 2027 , the next business day"
    " after the release was discovered. The office closes at 4:00 p.m. that day: call or come"
    " in before then. "
)
LETTER = (
    "Written confirmation of a notice given in person or by telephone: a written notice"
    " addressed and mailed to the Village by the end of {day} , the third business day after"
    " it. "
)
CASE = (
    "Notice due by the end of Tuesday, March 2, 2027 in person or by telephone or by fax (our"
    " reading: the law says “no later than the next business day”; the office closes at 4:00"
    " p.m.). The filer's answer, not a record of the notice: "
)
NOT_YET = "Still to do : this filing is not the notice."
PASSED = "Not done yet, and that time has passed : this filing is not the notice."
NO_LETTER_YET = "Still to do : this filing is not the written confirmation."


def deadlines_on(page: str) -> list[str]:
    """Each deadline the page lists, as its words."""
    [listed] = re.findall(r'<ul class="deadlines">(.*?)</ul>', page, re.S)
    return [text(item).strip() for item in listed.split("<li>")[1:]]


def case_notice(client, opening: str = CASE) -> str:
    """The case page's words on the notice and its letter after `opening` (its forms left
    out)."""
    page = client.get("/staff/cases/1/").text
    part = page.split('<h2 id="release-notice">Notice and written confirmation</h2>')[1]
    part = part.split('<section class="record-section">')[0]
    words = text(re.sub(r"<form.*?</form>", " ", part, flags=re.S)).strip()
    last = "Log a call, visit or fax about this release (it is linked to this filing)."
    assert words.startswith(opening) and words.endswith(last), words
    return words.removeprefix(opening).removesuffix(last).strip()


def file_at(client, app, moment: str, **answers):
    """File, at `moment`, the release discovered Monday 1 March 2027 at 9:00; returns the
    review page and the receipt's address."""
    at(app, moment)
    day = "2027-03-01T"
    data = notification_data(
        **{
            "began_at": day + "08:30",
            "discovered_at": day + "09:00",
            "emergency_called_at": day + "09:10",
            "dec_called_at": day + "09:20",
            "ended_at": day + "09:45",
            "prior_notice": "none",
            "prior_notice_at": "",
            "prior_notice_to": "",
        }
        | answers
    )
    if data["prior_notice"] != "none":
        data["prior_notice_to"] = "Village Clerk"
    review, final = file_notification(client, data)
    assert final is not None and final.status_code == 303, review.text[:400]
    return review.text, final.headers["Location"]


# ---------------------------------------------------------------- the filer's answer


def test_never_told_the_notice_is_still_to_do_until_its_day_is_over(app, client):
    review, receipt = file_at(client, app, "2027-03-01T10:00")
    assert deadlines_on(review) == [NOTICE + NOT_YET]
    assert deadlines_on(client.get(receipt).text) == [NOTICE + NOT_YET]
    sign_in(client, app)
    assert case_notice(client) == "No, not yet. No notice logged yet."
    # The due day's last minute, hours after closing time: not yet late, nor overdue.
    at(app, "2027-03-02T23:59")
    assert deadlines_on(client.get(receipt).text) == [NOTICE + NOT_YET]
    assert case_notice(client) == "No, not yet. No notice logged yet."
    at(app, "2027-03-03T00:01")
    assert deadlines_on(client.get(receipt).text) == [NOTICE + PASSED]
    assert case_notice(client) == (
        "No, not yet. No notice logged by the deadline : counted as given late, or never,"
        " unless a notice given in time is logged and linked."
    )


def test_a_call_the_filer_says_they_made_is_their_answer_and_owes_a_letter(app, client):
    answers = {"prior_notice": "phone", "prior_notice_at": "2027-03-01T09:30"}
    review, receipt = file_at(client, app, "2027-03-01T10:00", **answers)
    told = "Given by telephone, March 1, 2027 at 9:30 a.m., as this filing says: within that time ."
    letter = LETTER.format(day="Thursday, March 4, 2027")
    assert deadlines_on(review) == [NOTICE + told, letter + NO_LETTER_YET]
    assert deadlines_on(client.get(receipt).text) == [NOTICE + told, letter + NO_LETTER_YET]
    sign_in(client, app)
    answer = "Yes, by telephone, March 1, 2027 at 9:30 a.m., to Village Clerk."
    assert case_notice(client) == (
        f"{answer} No notice logged yet. The filer says they told the Village by telephone: a"
        " letter confirming it is due by the end of Thursday, March 4, 2027 . Log the call and"
        " link it to record the letter."
    )
    at(app, "2027-03-04T23:59:59")
    assert "that day has passed" not in case_notice(client)
    assert deadlines_on(client.get(receipt).text) == [NOTICE + told, letter + NO_LETTER_YET]
    at(app, "2027-03-05T00:00")
    passed = "Not done yet, and that time has passed : this filing is not the written confirmation."
    assert deadlines_on(client.get(receipt).text) == [NOTICE + told, letter + passed]
    assert case_notice(client) == (
        f"{answer} No notice logged by the deadline : counted as given late, or never, unless a"
        " notice given in time is logged and linked. The filer says they told the Village by"
        " telephone: a letter confirming it is due by the end of Thursday, March 4, 2027 , and"
        " that day has passed . Log the call and link it to record the letter."
    )


@pytest.mark.parametrize(
    ("told_at", "words"),
    [
        # After closing time on the due day: the law's deadline is the day.
        ("2027-03-02T17:00", "March 2, 2027 at 5:00 p.m., as this filing says: within that time ."),
        ("2027-03-03T09:00", "March 3, 2027 at 9:00 a.m., as this filing says: after that time"),
    ],
)
def test_a_visit_the_filer_says_they_made_is_in_time_until_the_due_day_is_over(
    app, client, told_at, words
):
    answers = {"prior_notice": "in-person", "prior_notice_at": told_at}
    review, receipt = file_at(client, app, "2027-03-03T10:00", **answers)
    for page in (review, client.get(receipt).text):
        notice, _ = deadlines_on(page)
        assert notice.startswith(NOTICE + "Given in person, " + words)


class TestWhereAFaxNumberIsPublished:
    @pytest.fixture
    def content_dir(self, tmp_path):
        return content_with_fax(tmp_path / "content")

    def test_a_fax_the_filer_says_they_sent_needs_no_letter(self, app, client):
        answers = {"prior_notice": "fax", "prior_notice_at": "2027-03-01T09:30"}
        review, receipt = file_at(client, app, "2027-03-01T10:00", **answers)
        told = "Given by fax, March 1, 2027 at 9:30 a.m., as this filing says: within that time ."
        means = "in person, by telephone or by fax (no fax number is published, so call or come in)"
        notice = NOTICE.replace(means, "in person, by telephone or by fax")
        assert deadlines_on(review) == [notice + told]
        assert deadlines_on(client.get(receipt).text) == [notice + told]


# ---------------------------------------------------------------- what staff logged


def test_a_call_logged_after_closing_time_is_in_time_and_its_late_letter_is_late(app, client):
    _, receipt = file_at(client, app, "2027-03-01T10:00")
    sign_in(client, app)
    at(app, "2027-03-02T17:30")
    log_notice(client, "phone", "2027-03-02T17:00")
    told = (
        "Given by telephone, March 2, 2027 at 5:00 p.m., as recorded by staff: within that time ."
    )
    letter = LETTER.format(day="Friday, March 5, 2027")
    assert deadlines_on(client.get(receipt).text) == [NOTICE + told, letter + NO_LETTER_YET]
    call = (
        "No, not yet. Notice by telephone , March 2, 2027 at 5:00 p.m. , Sam Lee; logged by smo"
        " (after this filing was made): in time . Written confirmation, a letter mailed by the"
        " end of Friday, March 5, 2027 : "
    )
    assert case_notice(client) == call + "no letter recorded yet . This filing is not the letter."
    # Its last second is still the letter's day.
    at(app, "2027-03-05T23:59:59")
    assert case_notice(client) == call + "no letter recorded yet . This filing is not the letter."
    at(app, "2027-03-06T00:00")
    assert case_notice(client) == (
        call + "no letter recorded, and that day has passed . This filing is not the letter."
    )
    at(app, "2027-03-09T10:00")
    record_letter(client, 1, "2027-03-08")
    mailed = (
        "A letter mailed on Monday, March 8, 2027 , as recorded by staff: after that time (late) ."
    )
    assert deadlines_on(client.get(receipt).text) == [NOTICE + told, letter + mailed]
    assert case_notice(client) == call + "mailed Monday, March 8, 2027 , late ."


def test_the_holidays_after_a_logged_call_are_named_with_its_letter_s_day(app, client):
    """Discovered Wednesday 10 February 2027, told by telephone the next day: the letter is due
    Thursday the 18th, Lincoln's Birthday (Friday the 12th) and Washington's Birthday (Monday
    the 15th) passed over."""
    at(app, "2027-02-10T10:00")
    day = "2027-02-10T"
    data = notification_data(
        began_at=day + "08:30",
        discovered_at=day + "09:00",
        emergency_called_at=day + "09:10",
        dec_called_at=day + "09:20",
        ended_at=day + "09:45",
        prior_notice="none",
        prior_notice_at="",
        prior_notice_to="",
    )
    _, final = file_notification(client, data)
    sign_in(client, app)
    at(app, "2027-02-11T10:00")
    log_notice(client, "phone", "2027-02-11T09:00")
    page = client.get(final.headers["Location"]).text
    [_, letter] = deadlines_on(page)
    assert letter.startswith(LETTER.format(day="Thursday, February 18, 2027"))
    [held] = re.findall(r'<p class="holidays-counted">(.*?)</p>', page, re.S)
    assert (
        text(held)
        .strip()
        .startswith(
            "Counted as holidays, not business days (our reading): Friday, February 12, 2027 and"
            " Monday, February 15, 2027."
        )
    )


class TestWhereFaxesAreHeldToOfficeHours:
    @pytest.fixture
    def content_dir(self, tmp_path):
        root = content_with_fax(tmp_path / "content")
        site = root / "site.yaml"
        words = site.read_text(encoding="utf-8")
        line = "office_hours_apply_to_fax: false"
        site.write_text(words.replace(line, "office_hours_apply_to_fax: true"), encoding="utf-8")
        return root

    def test_the_first_notice_in_time_counts_not_the_first_given(self, app, client):
        _, receipt = file_at(client, app, "2027-03-01T10:00")
        sign_in(client, app)
        at(app, "2027-03-02T18:30")
        log_notice(client, "fax", "2027-03-02T17:00")
        log_notice(client, "phone", "2027-03-02T18:00")
        [notice, _] = deadlines_on(client.get(receipt).text)
        assert notice == (
            "Notice to the Village , in person, by telephone or by fax: due by the end of"
            " Tuesday, March 2, 2027 , the next business day after the release was discovered"
            " (a fax, by 4:00 p.m.). The office closes at 4:00 p.m. that day: call or come in"
            " before then. Given by telephone, March 2, 2027 at 6:00 p.m., as recorded by staff:"
            " within that time ."
        )

    def test_a_fax_the_filer_sent_after_closing_time_is_late(self, app, client):
        answers = {"prior_notice": "fax", "prior_notice_at": "2027-03-02T17:00"}
        review, receipt = file_at(client, app, "2027-03-03T10:00", **answers)
        late = "Given by fax, March 2, 2027 at 5:00 p.m., as this filing says: after that time (late) ."
        for page in (review, client.get(receipt).text):
            [notice] = deadlines_on(page)
            assert notice.endswith(" before then. " + late)

    def test_a_fax_at_closing_time_is_the_notice_before_a_later_call(self, app, client):
        _, receipt = file_at(client, app, "2027-03-01T10:00")
        sign_in(client, app)
        at(app, "2027-03-02T18:30")
        log_notice(client, "fax", "2027-03-02T16:00")
        log_notice(client, "phone", "2027-03-02T17:00")
        [notice, _] = deadlines_on(client.get(receipt).text)
        assert notice.endswith(
            " before then. Given by fax, March 2, 2027 at 4:00 p.m., as recorded by staff: within"
            " that time ."
        )


# ---------------------------------------------------------------- where the content accepts it


class TestWhereTheFilingIsTheNotice:
    @pytest.fixture
    def content_dir(self, tmp_path):
        line = "counts_as_notice: false"
        return throwaway_pack(tmp_path / "content", "site.yaml", line, "counts_as_notice: true")

    @pytest.mark.parametrize(
        ("moment", "words", "case"),
        [
            (
                "2027-03-01T10:00",
                "This filing, March 1, 2027 at 10:00 a.m.: within that time .",
                "This filing is the notice, given in time",
            ),
            # After closing time on the due day, still that day.
            (
                "2027-03-02T20:00",
                "This filing, March 2, 2027 at 8:00 p.m.: within that time .",
                "This filing is the notice, given in time",
            ),
            (
                "2027-03-03T09:00",
                "This filing, March 3, 2027 at 9:00 a.m.: after that time (late) .",
                "This filing is the notice, given late",
            ),
        ],
    )
    def test_the_filing_is_the_notice_at_the_moment_it_was_made(
        self, app, client, moment, words, case
    ):
        review, receipt = file_at(client, app, moment)
        assert deadlines_on(review) == [NOTICE + words]
        at(app, "2027-03-10T12:00")
        assert deadlines_on(client.get(receipt).text) == [NOTICE + words]
        sign_in(client, app)
        assert case_notice(client) == (
            f"No, not yet. {case} : the Village accepts an online filing as the notice § 216-12"
            " requires. A call, visit or fax logged and linked is kept beside it."
        )


class TestWhereTheFilingIsTheWrittenConfirmation:
    @pytest.fixture
    def content_dir(self, tmp_path):
        line = "counts_as_written_confirmation: false"
        new = "counts_as_written_confirmation: true"
        return throwaway_pack(tmp_path / "content", "site.yaml", line, new)

    def test_a_filing_after_the_call_the_filer_names_is_its_confirmation(self, app, client):
        answers = {"prior_notice": "phone", "prior_notice_at": "2027-03-01T09:30"}
        review, receipt = file_at(client, app, "2027-03-01T10:00", **answers)
        told = (
            "Given by telephone, March 1, 2027 at 9:30 a.m., as this filing says: within that"
            " time ."
        )
        letter = LETTER.format(day="Thursday, March 4, 2027")
        confirmed = "This filing, March 1, 2027 at 10:00 a.m.: within that time ."
        assert deadlines_on(review) == [NOTICE + told, letter + confirmed]
        at(app, "2027-03-10T12:00")
        assert deadlines_on(client.get(receipt).text) == [NOTICE + told, letter + confirmed]
        # Its letter's day has passed, but the filing was the letter: nothing is overdue.
        sign_in(client, app)
        assert "and that day has passed" not in case_notice(client)


def test_a_row_from_before_not_yet_dropped_the_time_typed_still_has_no_notice(app, client):
    """Rows stored before a time typed for an earlier notice was dropped on "No, not yet"."""
    _, receipt = file_at(client, app, "2027-03-01T10:00")
    with database(app.config["DATABASE"]) as conn:
        conn.execute("UPDATE notifications SET prior_notice_at = '2027-03-01T09:30-05:00'")
    assert deadlines_on(client.get(receipt).text) == [NOTICE + NOT_YET]


def test_the_holidays_before_the_notice_s_day_are_named_on_the_review_and_the_receipt(app, client):
    """Discovered Thursday 11 February 2027, never told: the notice is due Tuesday the 16th,
    Lincoln's Birthday (Friday the 12th) and Washington's Birthday (Monday the 15th) passed
    over."""
    at(app, "2027-02-11T10:00")
    day = "2027-02-11T"
    data = notification_data(
        began_at=day + "08:30",
        discovered_at=day + "09:00",
        emergency_called_at=day + "09:10",
        dec_called_at=day + "09:20",
        ended_at=day + "09:45",
        prior_notice="none",
        prior_notice_at="",
        prior_notice_to="",
    )
    review, final = file_notification(client, data)
    for page in (review.text, client.get(final.headers["Location"]).text):
        [held] = re.findall(r'<p class="holidays-counted">(.*?)</p>', page, re.S)
        assert (
            text(held)
            .strip()
            .startswith(
                "Counted as holidays, not business days (our reading): Friday, February 12, 2027"
                " and Monday, February 15, 2027."
            )
        )
