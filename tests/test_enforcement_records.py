"""Enforcement records that stay true, and the legal review's scenarios on the pages: each
violation's own place, respondents edited and merged, earlier offenses from paper files, the
day a notice is served, corrected payments, the letters and the statement (issues 19 and 21)."""

from __future__ import annotations

import html
import re

from enforcement_helpers import ISSUE, issue, ok, post, post_prefixed, times, violation

pytest_plugins = ["enforcement_fixtures"]  # the clock and the signed-in officer

N = "/staff/notices/1/"


def text(page: str) -> str:
    """A page's words, tags and spacing dropped (dates stay as written)."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)).replace("\xa0", " "))


def draft(client, violation_id: int = 1, deadline: str = "2027-03-31") -> None:
    ok(
        post(
            client,
            f"/staff/violations/{violation_id}/notice",
            order_1="y",
            order_2="y",
            specifics_2="Clean the catch basin.",
            deadline=deadline,
        )
    )


def issued(client, deadline: str = "2027-03-31") -> None:
    """A violation, its notice drafted and issued on Monday 1 March 2027."""
    violation(client)
    draft(client, deadline=deadline)
    issue(client)


def step(client, name: str, notice: int = 1, **data):
    url = f"/staff/notices/{notice}/"
    return post(client, f"{url}steps/{name}", url, **data)


def test_each_violation_prints_its_own_place(officer, clock):
    # Finding 1: the second violation of a respondent, somewhere else, prints its own place.
    violation(officer, place="412 Grand Central Avenue")
    violation(officer, respondent="1", place="Catch basin at Orchard and Broad")
    draft(officer, 2)
    issue(officer)
    letter = text(officer.get(f"{N}letter").text)
    assert "Place of the violation: Catch basin at Orchard and Broad." in letter
    assert "Grand Central" not in letter
    # Finding 14: the day found and the day committed are two dates.
    assert (
        "On Saturday, February 27, 2027 , the Stormwater Management Officer found that on"
        " Friday, February 26, 2027 you violated § 216-6 A" in letter
    )
    # Finding 18: the penalties, the signer, a signature line, how it was served.
    assert "a first offense, a fine of $50.00 to $350.00" in letter
    assert "Each week's continued violation is a separate additional violation." in letter
    assert "Signature Dana Reyes Stormwater Management Officer Village of Horseheads" in letter
    assert (
        "Sent or served: Certified mail, return receipt requested, Monday, March 1, 2027" in letter
    )


def test_the_place_is_asked_for_and_the_section_list_holds_only_violable_sections(officer, clock):
    page = officer.get("/staff/cases/1/enforcement").text
    sections = re.findall(r'<option value="(216-[^"]+)"', page)
    assert sections == [
        "216-6 A",
        "216-6 B",
        "216-7 B",
        "216-8 B",
        "216-9",
        "216-10 B",
        "216-11 A",
        "216-12",
    ]
    assert '<option value="216-10 B">§ 216-10 B Access to facilities</option>' in page
    assert '<option value="216-9">§ 216-9 Industrial or construction activity discharges' in page
    refused = post(
        officer,
        "/staff/cases/1/enforcement",
        name="X",
        mailing_address="Y",
        committed_on="2027-02-26",
        found_on="2027-02-25",
        section="216-4",
        description="Z",
        place="",
    )
    assert refused.status_code == 422
    assert "Enter where the violation is" in refused.text
    assert "It cannot be found before it was committed." in refused.text
    assert "Choose from the list." in refused.text
    assert 'value="X"' in refused.text, "what was typed is kept"


def test_a_violation_is_corrected_and_an_issued_notice_keeps_what_it_printed(officer, clock):
    issued(officer)
    ok(
        post(
            officer,
            "/staff/violations/1/edit",
            place="14 Elm Street",
            committed_on="2027-02-26",
            found_on="2027-02-27",
            section="216-6 A",
            description="Wash water.",
        )
    )
    assert "Violation changed" in officer.get("/staff/cases/1/").text
    assert "place 12 Elm Street → 14 Elm Street" in officer.get("/staff/cases/1/").text
    page = text(officer.get(N).text)
    assert "has changed since this notice was issued (place, description)" in page
    assert "Place of the violation: 12 Elm Street." in text(officer.get(f"{N}letter").text)


def test_respondents_are_edited_and_merged_and_both_logs_kept(officer, clock):
    violation(officer)
    violation(officer, name="Elm St Auto", place="Behind 12 Elm Street")
    person = "/staff/respondents/1/"
    refused = post(
        officer,
        f"{person}edit",
        person,
        name="Elm Street Auto LLC",
        mailing_address="PO Box 12",
        email="not-an-address",
    )
    assert refused.status_code == 422 and "Enter an e-mail address like" in refused.text
    assert 'value="not-an-address"' in refused.text
    ok(
        post(
            officer,
            f"{person}edit",
            person,
            name="Elm Street Auto LLC",
            mailing_address="PO Box 12\nHorseheads NY 14845",
            phone="(607) 555-0142",
            email="office@elmauto.test",
            role="operator",
        )
    )
    page = officer.get(person).text
    assert "(607) 555-0142" in page and "office@elmauto.test" in page
    assert "Operator (runs the business or activity)" in page
    assert "Contact details changed: changes phone none → (607) 555-0142" in text(page)
    refused = post(officer, f"{person}merge", person, other="2")
    assert refused.status_code == 422 and "Tick this once you have checked" in refused.text
    ok(post(officer, f"{person}merge", person, other="2", same="y"))
    page = text(officer.get(person).text)
    assert "Behind 12 Elm Street" in page, "the duplicate's violation moved here"
    assert "Another record merged into this one: violations 1, record name Elm St Auto" in page
    assert "(on the record of Elm St Auto): Respondent added: name Elm St Auto" in page
    merged = text(officer.get("/staff/respondents/2/").text)
    assert "This record was merged into Elm Street Auto LLC" in merged
    listing = officer.get("/staff/respondents/").text
    assert "Elm St Auto<" not in listing and "Elm Street Auto LLC" in listing
    choices = officer.get("/staff/cases/1/enforcement").text
    assert "Elm St Auto," not in choices
    assert "Violation moved by a merge of respondents" in officer.get("/staff/cases/1/").text
    # The merged record cannot be merged again, nor take a violation.
    refused = post(
        officer,
        "/staff/cases/1/enforcement",
        respondent="2",
        place="x",
        committed_on="2027-02-26",
        found_on="2027-02-26",
        section="216-6 A",
        description="x",
    )
    assert refused.status_code == 422 and "Choose a respondent from the list." in refused.text


def test_earlier_offenses_from_the_paper_files_count_with_their_outcome(officer, clock):
    violation(officer)
    person = "/staff/respondents/1/"
    for day, reference, outcome in [
        ("2023-04-15", "NOV-2023-0003", "notice"),
        ("2025-08-20", "Town Court 25-117", "conviction"),
        ("2024-01-10", "NOV-2024-0001", "overturned"),
    ]:
        ok(
            post(
                officer,
                f"{person}prior",
                person,
                committed_on=day,
                section="216-6 A",
                reference=reference,
                outcome=outcome,
            )
        )
    draft(officer)
    issue(officer)
    page = text(officer.get(N).text)
    # Two established within five years of 26 February 2027, one of them a conviction: only
    # the conviction counts (the final notice is listed), so a second offense.
    assert "offense number 2 " in page and "$350.00 to $700.00" in page
    assert (
        "paper file: NOV-2023-0003, Saturday, April 15, 2023 : not counted (notice of violation"
        " final (not appealed in time, or upheld); no conviction recorded)" in page
    )
    assert (
        "paper file: NOV-2024-0001, Wednesday, January 10, 2024 : not counted"
        " (notice overturned, or the charge dismissed)" in page
    )
    token = re.search(r'action="/staff/respondents/1/prior/(\d+)/remove"', officer.get(person).text)
    prior = token.group(1)
    refused = post_prefixed(officer, f"{person}prior/{prior}/remove", person, f"remove-{prior}")
    assert refused.status_code == 422 and "Say why." in refused.text
    ok(
        post_prefixed(
            officer,
            f"{person}prior/{prior}/remove",
            person,
            f"remove-{prior}",
            reason="The 2025 file belongs to another business.",
        )
    )
    # The first listed (newest first) is the 2025 conviction: without it, a first offense.
    assert "offense number 1 " in text(officer.get(N).text)
    log = text(officer.get(person).text)
    assert "Earlier offense removed from the count: reason The 2025 file belongs" in log
    assert "Earlier offense added from the paper files: committed on 2025-08-20" in log


def test_issuance_is_the_day_served_or_mailed(officer, clock):
    violation(officer)
    draft(officer)
    page = officer.get(N).text
    assert 'value="2027-03-01"' in page, "served today, unless said otherwise"
    refused = post(officer, f"{N}issue", N, served_on="2027-03-20", **ISSUE)
    assert refused.status_code == 422 and "at most 14 days ahead" in refused.text
    # Drafted 1 March, mailed Wednesday 3 March: the appeal window runs from 3 March (18 March).
    issue(officer, served_on="2027-03-03", method="First-class mail")
    page = text(officer.get(N).text)
    assert "Served or mailed Wednesday, March 3, 2027 (First-class mail)" in page
    assert "2027-03-18" in times(officer.get(N).text)
    letter = officer.get(f"{N}letter").text
    assert times(letter)[0] == "2027-03-03", "the letter is dated the day it is served"
    assert "Your appeal must reach the Village Clerk by" in text(letter)
    assert "2027-03-18" in times(letter)
    events = text(officer.get("/staff/cases/1/").text)
    assert "Notice of violation issued (NOV-2027-0001): served on 2027-03-03" in events
    # A respondent's later edit does not change the issued letter.
    ok(
        post(
            officer,
            "/staff/respondents/1/edit",
            "/staff/respondents/1/",
            name="Renamed Inc.",
            mailing_address="PO Box 99",
        )
    )
    assert "Elm Street Auto LLC" in officer.get(f"{N}letter").text


def test_deadline_warnings_on_the_notice(officer, clock):
    violation(officer)
    # Issued Monday 1 March 2027: the appeal window closes Tuesday 16 March; 14 March is a Sunday.
    draft(officer, deadline="2027-03-14")
    page = text(officer.get(N).text)
    assert "falls on a day the office is closed (Sunday)" in page
    assert "falls on or before the last day to appeal, Tuesday, March 16, 2027" in page


def test_f4_an_upheld_appeal_keeps_the_deadline_of_the_notice(officer, clock):
    issued(officer)
    clock.set("2027-03-05")
    ok(step(officer, "appeal", appeal_filed_on="2027-03-05"))
    clock.set("2027-03-15")
    # Upheld Monday 15 March: five business days is 22 March; the notice gave until 31 March.
    ok(step(officer, "decision", decided_on="2027-03-15", upheld="yes"))
    page = text(officer.get(N).text)
    assert (
        "Correction due by Wednesday, March 31, 2027 : the later of the notice's deadline" in page
    )
    assert "an appeal never shortens the time the notice gave" in page


def test_f10_a_late_appeal_is_flagged_and_holds_nothing(officer, clock):
    issued(officer)
    clock.set("2027-03-20")
    ok(step(officer, "appeal", appeal_filed_on="2027-03-19"))
    page = text(officer.get(N).text)
    assert "after the period, so it does not hold the notice's deadline" in page
    assert "Hearing due" not in page and "Correction due by Wednesday, March 31, 2027" in page
    assert "Done late" in page
    ok(step(officer, "appeal", appeal_filed_on="2027-03-19", late_appeal_accepted="y"))
    page = text(officer.get(N).text)
    assert "after the period, accepted by the Board" in page and "Hearing due" in page


def finish_and_bill(officer, clock, on: str = "2027-04-12", **costs) -> None:
    issued(officer)
    clock.set("2027-04-05")
    ok(step(officer, "completion", completed_on="2027-04-05", work="1,000", admin="100"))
    clock.set(on)
    ok(
        step(
            officer,
            "costs",
            **{
                "cost_notice_mailed_on": "2027-04-07",
                "cost_notice_received_on": "2027-04-09",
                "payment_count": "3",
                **costs,
            },
        )
    )


def test_f5_nothing_is_due_while_a_protest_awaits_the_board(officer, clock):
    finish_and_bill(officer, clock, protest_filed_on="2027-04-12")
    clock.set("2027-06-30")
    page = text(officer.get(N).text)
    assert "nothing is due, and nothing becomes a special assessment" in page
    assert "Next payment" not in page
    assert 'overdue">Unpaid after its due date' not in officer.get(N).text
    statement = officer.get(f"{N}statement")
    words = text(statement.text)
    assert "No payment is due until the Board of Trustees decides it" in words
    assert "past due" not in words and "Where the law is silent" not in words
    assert "This does not happen while your protest awaits the decision of the Board" in words
    # The Board decides on 1 July: payment from 15 July, then monthly.
    clock.set("2027-07-01")
    ok(
        step(
            officer,
            "protest",
            protest_outcome="upheld",
            protest_decided_on="2027-07-01",
            protest_payment_due_on="2027-07-15",
        )
    )
    clock.set("2027-07-16")
    statement = officer.get(f"{N}statement").text
    assert times(statement).count("2027-07-15") >= 1 and "2027-08-16" in times(statement)
    assert "past due" in text(statement)


def test_the_statement_shows_the_schedule_the_protest_date_and_the_lien(officer, clock):
    finish_and_bill(officer, clock)
    statement = officer.get(f"{N}statement")
    words = text(statement.text)
    # Received 9 April: 30 days from it would end on Monday 10 May (9 May is a Sunday), but
    # the period never ends before the date the cost notice printed from the presumed receipt
    # (12 April): Wednesday 12 May (legal review A2); the payments keep its dates too.
    assert "by Wednesday, May 12, 2027 (the date the cost notice gave you)" in words
    assert "May 10, 2027" not in words
    assert re.search(r"1 Wednesday, May 12, 2027 \$366\.68 \$0\.00 \$366\.68", words)
    assert re.search(r"3 Monday, July 12, 2027 \$366\.66", words)
    assert "become a special assessment against the property and a lien on it" in words
    assert "Where the law is silent" not in words and "(reading)" not in words


def test_a_payment_is_voided_or_corrected_with_a_reason(officer, clock):
    finish_and_bill(officer, clock)
    ok(post(officer, f"{N}payments", N, paid_on="2027-04-12", amount="2,125.00"))
    ok(post(officer, f"{N}payments", N, paid_on="2027-04-12", amount="50"))
    refused = post_prefixed(
        officer, f"{N}payments/1/correct", N, "fix-1", paid_on="2027-04-12", amount="212.50"
    )
    assert refused.status_code == 422 and "Say why it is corrected." in refused.text
    ok(
        post_prefixed(
            officer,
            f"{N}payments/1/correct",
            N,
            "fix-1",
            paid_on="2027-04-12",
            amount="212.50",
            reason="Typed $2,125.00 for $212.50.",
        )
    )
    ok(post_prefixed(officer, f"{N}payments/2/void", N, "void-2", reason="Recorded twice."))
    page = officer.get(N).text
    # $1,100 less $212.50, before interest starts (6 May).
    assert re.search(r'id="balance">\$887\.50<', page)
    assert "<s>" in page and "voided by smo (Recorded twice.)" in page
    events = text(officer.get("/staff/cases/1/").text)
    assert (
        "Payment corrected (NOV-2027-0001): was paid on 2027-04-12, was cents $2,125.00,"
        " paid on 2027-04-12, cents $212.50, reason Typed $2,125.00 for $212.50." in events
    )
    assert (
        "Payment voided (NOV-2027-0001): paid on 2027-04-12, cents $50.00, reason Recorded"
        " twice." in events
    )
    assert (
        post_prefixed(officer, f"{N}payments/2/void", N, "void-2", reason="Again.").status_code
        == 404
    )


def test_an_alternative_remedy_needs_recommendation_concurrence_and_conditions(officer, clock):
    issued(officer)
    remedy = {"kind": "Attendance at compliance workshops", "due_on": "2027-04-30"}
    refused = post(officer, f"{N}remedies", N, **remedy)
    assert refused.status_code == 422
    assert "no recommendation is recorded; the officer's concurrence is not recorded" in text(
        refused.text
    )
    ok(
        step(
            officer,
            "attorney",
            attorney_recommendation="A workshop.",
            attorney_recommended_on="2027-03-01",
            smo_concurs="yes",
        )
    )
    ok(step(officer, "conditions", **{f"holds_{i}": "y" for i in range(5)}))
    ok(post(officer, f"{N}remedies", N, **remedy))
    assert "Attendance at compliance workshops, complete by" in text(officer.get(N).text)


def test_no_history_cannot_hold_against_an_established_earlier_violation(officer, clock):
    violation(officer)
    person = "/staff/respondents/1/"
    ok(
        post(
            officer,
            f"{person}prior",
            person,
            committed_on="2024-05-01",
            section="216-6 A",
            reference="NOV-2024-0002",
            outcome="notice",
        )
    )
    draft(officer)
    issue(officer)
    ok(
        step(
            officer,
            "attorney",
            attorney_recommendation="A workshop.",
            attorney_recommended_on="2027-03-01",
            smo_concurs="yes",
        )
    )
    ok(step(officer, "conditions", **{f"holds_{i}": "y" for i in range(5)}))
    page = text(officer.get(N).text)
    assert "Condition (2) (no history of previous violations) cannot hold" in page
    refused = post(
        officer, f"{N}remedies", N, kind="Attendance at compliance workshops", due_on="2027-04-30"
    )
    assert refused.status_code == 422 and "1 earlier established violation" in refused.text


def test_the_cost_notice_and_the_access_letters(officer, clock):
    finish_and_bill(officer, clock)
    cost = text(officer.get(f"{N}cost-letter").text)
    assert "Notice of the cost of abatement" in cost and "Total $1,100.00" in cost
    # The letter prints what was mailed on 7 April: the presumed receipt, 12 April, and its
    # dates, even though receipt on 9 April is recorded since.
    assert (
        "You may file a written protest objecting to the amount by Wednesday, May 12, 2027 (30"
        " days from the day we presume this notice reaches you, 5 days after mailing). If it"
        " reaches you later than that, you have 30 days from the day it does." in cost
    )
    # The last payment has an amount. By hand, 9% a year over 365 days, interest
    # first: May 6-11 on $1,100.00: $1.63; May 12-June 13 on $734.95: $5.98; June 14-July 11
    # on $374.27: $2.58; $10.19 in all.
    assert "3 Monday, July 12, 2027 $366.66 of the cost, plus $10.19 interest: $376.85" in cost
    assert (
        "payable in 3 equal payments of the cost, listed below; the interest is added to"
        " the last one." in cost
    )
    assert (
        "Interest at 9% a year is charged on the unpaid cost from Thursday, May 6, 2027 , the"
        " 31st day after the work was completed: simple interest, day by day, on the cost still"
        " unpaid, never on unpaid interest (our reading of “on the balance”, § 216-16)." in cost
    )
    assert "special assessment against the property and a lien on it" in cost
    assert "Signature Dana Reyes Stormwater Management Officer" in cost
    assert "Sent or served: First-class mail, Wednesday, April 7, 2027" in cost
    assert "No owner is recorded on the violation" in cost
    access = text(officer.get(f"{N}access-letter?method=Delivered+in+person").text)
    assert "Request for access to abate a violation" in access
    assert "requests your permission, as the owner of the property, for access" in access
    assert "may seek a warrant" in access and "Sent or served: Delivered in person" in access
    inspect = text(officer.get("/staff/violations/1/inspection-letter?method=bogus").text)
    assert "Request for access to inspect" in inspect and "§ 216-10 B (6)" in inspect
    assert "Sent or served: Delivered in person" in inspect, "an unknown method: the first"


def test_the_signature_is_set_once_and_printed(officer, clock):
    violation(officer)
    page = "/staff/enforcement/signature"
    refused = post(officer, page, letter_name="", letter_title="Deputy Officer")
    assert refused.status_code == 422 and "Enter your name." in refused.text
    ok(post(officer, page, letter_name="Sam Ortiz", letter_title="Deputy Officer"))
    letter = text(officer.get("/staff/violations/1/inspection-letter").text)
    assert "Signature Sam Ortiz Deputy Officer" in letter


def test_n2_paying_the_statements_figure_on_the_last_due_date_settles_it(officer, clock):
    # Payments due May 12, June 14 and July 12, 2027 (the cost notice's test above).
    finish_and_bill(officer, clock)
    clock.set("2027-05-12")
    ok(post(officer, f"{N}payments", N, paid_on="2027-05-12", amount="366.68"))
    clock.set("2027-06-14")
    ok(post(officer, f"{N}payments", N, paid_on="2027-06-14", amount="366.66"))
    clock.set("2027-06-20")
    statement = text(officer.get(f"{N}statement").text)
    # The charge left after June 14 is $374.27; July's payment carries its interest from
    # June 14 to July 11 ($2.58) besides the $7.61 already paid: $10.19 in all.
    assert "3 Monday, July 12, 2027 $366.66 + $10.19 interest*" in statement
    assert (
        "* The interest the last payment carries if it is paid on Monday, July 12, 2027"
        " and each payment before it is paid on its date: $376.85 in all." in statement
    )
    clock.set("2027-07-12")
    ok(post(officer, f"{N}payments", N, paid_on="2027-07-12", amount="376.85"))
    clock.set("2027-07-13")
    after = text(officer.get(f"{N}statement").text)
    assert "past due" not in after
    assert "Balance due $0.00 ($0.00 charge, $0.00 interest)" in after


def test_n6_a_receipt_recorded_later_leaves_the_letter_as_mailed(officer, clock):
    # Mailed April 7; receipt presumed April 12, but recorded as April 20: the protest and
    # the payments move later on the statement (in the owner's favour), never on the letter.
    finish_and_bill(officer, clock, on="2027-04-21", cost_notice_received_on="2027-04-20")
    cost = text(officer.get(f"{N}cost-letter").text)
    assert "by Wednesday, May 12, 2027" in cost
    assert "1 Wednesday, May 12, 2027 $366.68" in cost
    assert "3 Monday, July 12, 2027 $366.66 of the cost" in cost
    statement = text(officer.get(f"{N}statement").text)
    assert "1 Thursday, May 20, 2027 $366.68" in statement
