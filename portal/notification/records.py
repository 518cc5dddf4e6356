"""Release notifications: the record a facility keeps (who keeps one, the calls to the
state it must show) and the record the portal shows of a filing."""

from __future__ import annotations

from typing import Any

from babel.numbers import format_decimal
from flask_babel import gettext as _

from content_model.language import current_language
from portal.core import display
from portal.notification.choices import LABELS

# Who keeps that record: "If the discharge of prohibited materials emanates from a commercial
# or industrial establishment, the owner or operator ... shall also retain an on-site written
# record". The filer's answer decides: these kinds do; an institution (a private hospital or
# college is run as a business), a rental (a landlord runs one) or "something else" may; only
# a home the filer lives in does not.
RECORD_KEEPING_KINDS = {"commercial", "industrial"}
RECORD_KEEPING_UNSURE = {"institutional", "rental", "other"}


def record_duty(facility_kind: str) -> str:
    """Whether the filer must keep the on-site written record: "yes", "maybe" (the kind
    does not tell) or "no" (a home the filer lives in)."""
    if facility_kind in RECORD_KEEPING_KINDS:
        return "yes"
    return "maybe" if facility_kind in RECORD_KEEPING_UNSURE else "no"


def state_call_missing(answers: Any) -> dict[str, bool] | None:
    """Which parts of the State's two-hour rule may apply to a release whose filer says the
    Spill Hotline was not called ({"petroleum": ..., "hazardous": ...}), or None. "Not
    sure" counts: the call is the safe side. `answers`: the form's data or the stored row."""
    maybe = ("yes", "unsure")
    petroleum, hazardous = answers["petroleum"] in maybe, answers["hazardous"] in maybe
    if answers["dec_called"] != "no" or not (petroleum or hazardous):
        return None
    return {"petroleum": petroleum, "hazardous": hazardous}


def safety_calls_asked(danger: str | None, hazardous: str | None, petroleum: str | None) -> bool:
    """Whether the form asked about calling 911 and the State's hotline: danger, or a
    material that is or may be hazardous or petroleum (as NotificationForm shows them)."""
    return danger == "yes" or hazardous in ("yes", "unsure") or petroleum in ("yes", "unsure")


def record(case: dict[str, Any], n: dict[str, Any]) -> list[tuple[str, list[tuple[str, str]]]]:
    """Every answer, grouped and labelled as on the form: for the review step, the receipt
    and the mail. `case` and `n` are stored rows (or the same shape built from a form).
    Questions the form did not ask are left out, never shown as "Not given"."""
    yes_no = LABELS["yes_no"]
    language = current_language()
    not_given = _("Not given")

    def pick(labels: dict, value) -> str:
        return _(labels[value]) if value in labels else (value or not_given)

    def when(value: str) -> str:
        return display.when(value, language)

    amount = not_given
    if n["quantity"] is not None:
        unit = _(LABELS["unit"][n["unit"]]) if n["unit"] in LABELS["unit"] else n["unit"] or ""
        # As the language writes numbers ("2,5" in Spanish), never grouped: "1.500" would
        # read as one and a half to some and fifteen hundred to others.
        number = format_decimal(n["quantity"], locale=language, group_separator=False)
        amount = f"{number} {unit}".strip()
    sections = [
        (
            _("Safety"),
            [
                (_("Anyone hurt or in danger, or a fire"), pick(yes_no, n["danger"])),
                (_("Hazardous material"), pick(yes_no, n["hazardous"])),
                (_("Petroleum product"), pick(yes_no, n["petroleum"])),
                *(
                    [
                        (
                            _("Called 911"),
                            pick(yes_no, n["emergency_called"])
                            + (
                                f", {when(n['emergency_called_at'])}"
                                if n["emergency_called_at"]
                                else ""
                            ),
                        ),
                        (
                            _("Called the NYSDEC Spill Hotline"),
                            pick(LABELS["dec_called"], n["dec_called"])
                            + (f", {when(n['dec_called_at'])}" if n["dec_called_at"] else ""),
                        ),
                        (_("NYSDEC spill number"), n["dec_spill_number"] or not_given),
                    ]
                    if safety_calls_asked(n["danger"], n["hazardous"], n["petroleum"])
                    else []
                ),
            ],
        ),
        (
            _("Facility"),
            [
                (_("Name"), n["facility_name"]),
                (_("Street address"), n["facility_address"]),
                (_("Kind"), pick(LABELS["facility_kind"], n["facility_kind"])),
                (
                    _("SPDES stormwater permit"),
                    pick(LABELS["permit"], n["permit"])
                    + (
                        _(", number %(number)s", number=n["permit_number"])
                        if n["permit_number"]
                        else ""
                    ),
                ),
            ],
        ),
        (
            _("Responsible person"),
            [
                (_("Name"), case["contact_name"]),
                (_("Job title"), n["responsible_title"] or not_given),
                (_("Phone"), case["contact_phone"]),
                (_("E-mail"), case["contact_email"]),
            ],
        ),
        (
            _("The release"),
            [
                (_("Discovered"), when(n["discovered_at"])),
                (_("Began"), when(n["began_at"]) if n["began_at"] else _("Not known")),
                (
                    _("Stopped"),
                    (when(n["ended_at"]) if n["ended_at"] else _("Yes"))
                    if n["is_over"] == "yes"
                    else _("No, not yet"),
                ),
                (_("Material released"), n["materials"]),
                (_("Estimated amount"), amount),
                (
                    _("Where"),
                    case["address"]
                    + (
                        f" ({case['latitude']}, {case['longitude']})"
                        if case["latitude"] is not None
                        else ""
                    ),
                ),
                (
                    _("Entered or may enter a storm drain, ditch or stream"),
                    pick(LABELS["reached_drain"], n["reached_drain"]),
                ),
                # The filer's own words ("about 5 gallons"), with nothing added to them.
                *(
                    [(_("Roughly how much went in"), n["amount_reached"])]
                    if n["amount_reached"]
                    else []
                ),
                (_("Cause"), n["cause"]),
                (_("Containment and cleanup so far"), n["cleanup"]),
                (_("To prevent it happening again"), n["prevention"]),
            ],
        ),
        (
            _("Earlier notice"),
            [
                (_("Already told"), pick(LABELS["prior_notice"], n["prior_notice"])),
                *(
                    [(_("When"), when(n["prior_notice_at"])), (_("Told to"), n["prior_notice_to"])]
                    if n["prior_notice"] not in (None, "none")
                    else []
                ),
            ],
        ),
    ]
    return sections
