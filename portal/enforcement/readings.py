"""The readings the enforcement rules take where the ordinance is silent, in words: each
page's footnotes (rules.py and costs.py implement them)."""

from __future__ import annotations

from content_model.enforcement import Terms

# What the offense number counts, by reading `offense_counts` (rules.counts decides it).
COUNTING = {
    "conviction": "Counting only recorded convictions",
    "final": "Counting recorded convictions and final notices of violation (our reading)",
    "issued": "Counting recorded convictions and issued notices of violation the Board did not"
    " overturn (our reading)",
}


def readings(terms: Terms) -> dict[str, str]:
    """Each reading this module takes where the ordinance is silent, as a page footnote."""
    days = "business days" if terms.day_kind == "business" else "calendar days"
    roll = (
        " A period that ends on a Saturday, Sunday or holiday runs to the next business day"
        " (New York General Construction Law § 25-a)."
        if terms.roll_to_business_day and terms.day_kind != "business"
        else ""
    )
    weeks = "whole weeks" if terms.week_counting == "completed" else "every week once it begins"
    applies = (
        "first to the interest posted, then to the charge"
        if terms.payments_apply_to == "interest-first"
        else "first to the charge, then to the interest"
    )
    year = (
        "a day's interest is the yearly rate over the days of its own year (365, or 366 in a"
        " leap year), so a whole year's interest is the yearly rate"
        if terms.interest_days_in_year is None
        else f"a day's interest is the yearly rate over a year of {terms.interest_days_in_year}"
        " days"
    )
    filed = (
        "An appeal counts as filed on the day it reaches the clerk: one mailed must arrive by"
        " the last day."
        if terms.appeal_filed_when == "received"
        else "An appeal counts as filed on the day it is delivered to the clerk or, if mailed,"
        " on its postmark."
    )
    after_appeal = (
        f"After an appeal the Board upholds, the correction is due on the later of the notice's"
        f" own deadline and {terms.correction_business_days} business days after the decision:"
        f" an appeal never shortens the time the notice gave."
        if terms.correction_after_appeal == "later"
        else f"After an appeal the Board upholds, the correction is due"
        f" {terms.correction_business_days} business days after the decision."
    )
    return {
        "days": f"The text does not say which days it counts: these are {days}.{roll}",
        "issuance": "The appeal period runs from the notice's issuance: the day it is served or"
        " mailed, as the officer records it when issuing the notice (not the day of receipt)."
        f" {filed}",
        "suspend": (
            "An appeal filed in time holds the notice's deadline until the Board decides."
            if terms.appeal_suspends_deadline
            else "An appeal does not hold the notice's deadline."
        )
        + " An appeal filed after the period holds nothing, unless the Board accepted it."
        f" {after_appeal}",
        "protest": f"The text says {terms.protest_days} days \u201cof receiving\u201d the cost"
        f" notice: counted from the owner's receipt of the cost notice; until receipt is"
        f" recorded, it is presumed {terms.presumed_mail_days} days after mailing. The period"
        " never ends before the date the cost notice printed as mailed: a receipt recorded"
        " earlier than presumed does not shorten it."
        if terms.protest_runs_from == "receipt"
        else "The protest period is counted from mailing.",
        "weeks": f"A week of continued violation starts the day after the correction date;"
        f" the count is of {weeks}.",
        "counting": COUNTING[terms.offense_counts],
        "offenses": f"An earlier offense counts when this one was committed before its"
        f" {terms.offense_years}th anniversary, "
        + (
            "and only when a conviction of it is recorded (on its notice's page, or in the paper"
            " files): the law sets the higher ranges for conviction of a second or later"
            " offense. A notice of violation is listed but not counted, even when final (not"
            " appealed in time, or upheld by the Board)."
            if terms.offense_counts == "conviction"
            else "when a conviction of it is recorded, and also (our reading, though the law"
            " sets the higher ranges for conviction of a second or later offense) when "
            + (
                "its notice of violation is final (not appealed in time, its appeal period"
                " closed, or upheld by the Board) or the paper files show a final notice; a"
                " notice whose appeal period is running or whose appeal awaits the Board is"
                " shown apart as pending."
                if terms.offense_counts == "final"
                else "its notice of violation is issued and the Board did not overturn it, or"
                " the paper files show a final notice."
            )
            + " The court decides which are convictions."
        )
        + " A violation recorded with no notice, or whose notice the Board did not uphold,"
        " does not count."
        # The leap-day reading (core.dates.EARLIER in offense_number), named beside the
        # retention's opposite one (LATER) so neither reads as an accident.
        f" An offense of 29 February has its anniversary on 28 February: the {terms.offense_years}"
        " years never run past the calendar's own date, the side that counts fewer earlier"
        " offenses (a release's record, kept at least three years, runs the other way, to"
        " 1 March).",
        "conditions": (
            "All five conditions must hold."
            if terms.conditions_required == "all"
            else "Any one of the five conditions is enough."
        )
        + " The condition of no history is checked against the established offenses.",
        "interest": f"Simple interest, per day, on the unpaid charge (never on unpaid interest):"
        f" {year}; rounded to the cent"
        f" when posted; a payment applies {applies}. When the Board reduces the charge on a"
        " protest, interest runs on the amount it decided, from the start.",
        "installments": "Installments fall due "
        + (
            "monthly"
            if terms.installment_months == 1
            else f"every {terms.installment_months} months"
        )
        + ", the first when the protest period closes (a due date on a weekend or holiday runs to"
        " the next business day); odd cents go on the first. When a protest is filed in time,"
        " nothing is due, and nothing becomes a special assessment, until the Board decides it;"
        " the first payment then falls due on the day the decision sets. Each payment is of the"
        " cost; the interest is owed besides and falls due with the last payment. The money paid"
        " covers the payments in order, whatever part of it went to interest, and"
        " the dates printed on the cost notice as mailed never move earlier when its receipt is"
        " recorded. When any installment is unpaid after its due date, the charges become a"
        " special assessment and lien.",
    }
