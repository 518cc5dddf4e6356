"""content/enforcement.yaml: the bodies the law names, its amounts and periods, and the
readings taken where its text is silent; the sections the enforcement steps cite are the
ordinance's roles (ordinance.yaml).

Every field has the model law's value as its default in `Terms`, so the rules module can
be used without a file; the file, when read, is validated here and every error names the
file and the field.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from content_model.fields import CONTENT_DIR, ContentError, Fields, read_yaml
from content_model.ordinance import Ordinance, Provision

FILE = "enforcement.yaml"
# What the pages call each section they cite -> its role in ordinance.yaml's `roles`.
ROLES = {
    "notice": "notice_of_violation",
    "appeal": "appeals",
    "corrective": "corrective_measures",
    "costs": "cost_of_abatement",
    "access": "access_and_monitoring",
}
# Parts of the notice section, and how many items each must have (0: any number).
PARTS = {"orders": 1, "abatement_statement": 0, "penalties": 0, "conditions": 1, "remedies": 1}


@dataclass(frozen=True)
class Tier:
    """A penalty range of the penalties section (its subdivision B) for an offense count
    (cents; jail_days 0: none)."""

    offense: int
    minimum_cents: int
    maximum_cents: int
    jail_days: int


DEFAULT_TIERS = (
    Tier(1, 5_000, 35_000, 0),
    Tier(2, 35_000, 70_000, 15),
    Tier(3, 70_000, 100_000, 15),
)


@dataclass(frozen=True)
class Terms:
    """The numbers and readings the rules compute with. Defaults: the model law as adopted,
    and the readings named in content/enforcement.yaml."""

    appeal_days: int = 15
    hearing_days: int = 30
    decision_filing_days: int = 5
    correction_business_days: int = 5
    cost_notice_days: int = 30
    protest_days: int = 30
    max_payments: int = 12
    interest_percent: float = 9
    interest_from_day: int = 31
    offense_years: int = 5
    tiers: tuple[Tier, ...] = DEFAULT_TIERS
    # Readings (see content/enforcement.yaml for what each means).
    day_kind: str = "calendar"
    roll_to_business_day: bool = True
    protest_runs_from: str = "receipt"
    presumed_mail_days: int = 5
    week_counting: str = "completed"
    conditions_required: str = "all"
    # None: the actual days of each year (365, or 366 in a leap year); else a fixed year.
    interest_days_in_year: int | None = None
    payments_apply_to: str = "interest-first"
    appeal_suspends_deadline: bool = True
    installment_months: int = 1
    appeal_filed_when: str = "received"
    correction_after_appeal: str = "later"
    offense_counts: str = "conviction"


@dataclass(frozen=True)
class Enforcement:
    sections: dict[str, str]
    # The parts of the notice section the pages quote: each a Provision of the ordinance.
    provisions: dict[str, Provision]
    # The orders that require abatement or restoration: the notice then needs a deadline and
    # the abatement statement (A. (2)).
    abatement_orders: tuple[str, ...]
    board: str
    clerk: str
    attorney: str
    appeal_how: str
    protest_how: str
    # The provisions a person can violate (the "Section violated" choices, "N-M" or "N-M A"),
    # in the ordinance's order: each forbids or requires something (DUTY_WORDS).
    violable: tuple[str, ...]
    # The label of the condition "no history of previous violations" (checked against the
    # offense history), and the ways a notice can be served.
    history_condition: str
    service_methods: tuple[str, ...]
    # The order "Payment of a fine": it states no amount, only the range the penalties set.
    fine_order: str = "(e)"
    terms: Terms = field(default_factory=Terms)


CHOICES = {
    "day_kind": ("calendar", "business"),
    "protest_runs_from": ("receipt", "mailing"),
    "week_counting": ("completed", "begun"),
    "conditions_required": ("all", "any"),
    "payments_apply_to": ("interest-first", "charge-first"),
    "appeal_filed_when": ("received", "postmarked"),
    "correction_after_appeal": ("later", "decision"),
    "offense_counts": ("conviction", "final", "issued"),
}
PERIODS = {
    "appeal_days": (1, 365),
    "hearing_days": (1, 365),
    "decision_filing_days": (1, 365),
    "correction_business_days": (1, 60),
    "cost_notice_days": (1, 365),
    "protest_days": (1, 365),
    "max_payments": (1, 120),
    "interest_from_day": (1, 365),
    "offense_years": (1, 50),
}


def _whole(fields: Fields, key: str, low: int, high: int) -> int:
    value = fields.integer(key)
    if not low <= value <= high:
        raise fields.fail(key, f"must be a whole number from {low} to {high}")
    return value


def _tiers(fields: Fields) -> tuple[Tier, ...]:
    tiers = []
    for i, item in enumerate(fields.records("penalties")):
        if item.integer("offense") != i + 1:
            raise item.fail("offense", f"must be {i + 1} (list the offenses in order)")
        low, high = item.number("minimum", 0, 10**7), item.number("maximum", 0, 10**7)
        if low > high:
            raise item.fail("minimum", "must not be more than the maximum")
        tiers.append(
            Tier(i + 1, round(low * 100), round(high * 100), _whole(item, "jail_days", 0, 3650))
        )
    if not tiers:
        raise fields.fail("penalties", "must list at least the first offense")
    return tuple(tiers)


def _terms(fields: Fields) -> Terms:
    periods, readings = fields.mapping("periods"), fields.mapping("readings")
    values: dict = {key: _whole(periods, key, *bounds) for key, bounds in PERIODS.items()}
    values["interest_percent"] = periods.number("interest_percent", 0, 100)
    for key, allowed in CHOICES.items():
        text = readings.text(key)
        if text not in allowed:
            raise readings.fail(key, f"must be one of {', '.join(allowed)}, not {text!r}")
        values[key] = text
    values["roll_to_business_day"] = readings.flag("roll_to_business_day", True)
    values["appeal_suspends_deadline"] = readings.flag("appeal_suspends_deadline", True)
    values["presumed_mail_days"] = _whole(readings, "presumed_mail_days", 0, 60)
    readings.known("interest_days_in_year")
    year = readings.data.get("interest_days_in_year")
    if year != "actual" and (
        not isinstance(year, int) or isinstance(year, bool) or not 360 <= year <= 366
    ):
        raise readings.fail(
            "interest_days_in_year", "must be actual, or a whole number from 360 to 366"
        )
    values["interest_days_in_year"] = None if year == "actual" else year
    values["installment_months"] = _whole(readings, "installment_months", 1, 12)
    return Terms(tiers=_tiers(fields), **values)


def _parts(fields: Fields, ordinance: Ordinance, section: str) -> dict[str, Provision]:
    """Each part named by its labels ("A. (1)") within the notice section."""
    found = {}
    for key, needs_items in PARTS.items():
        labels = fields.text(key).split()
        provisions, provision = ordinance.by_number[section].body, None
        for label in labels:
            provision = next((p for p in provisions if p.label == label), None)
            if provision is None:
                raise fields.fail(key, f"§ {section} has no {' '.join(labels)}")
            provisions = provision.items
        if needs_items and not provision.items:
            raise fields.fail(key, f"§ {section} {' '.join(labels)} lists no items")
        found[key] = provision
    return found


def load_enforcement(ordinance: Ordinance, directory: Path | str | None = None) -> Enforcement:
    """Read and check content/enforcement.yaml against the ordinance it cites."""
    result, fields = _enforcement(ordinance, directory)
    fields.refuse_unknown()
    return result


def unknown_enforcement(ordinance: Ordinance, directory: Path | str) -> list[ContentError]:
    """Every field of enforcement.yaml that nothing reads (a misspelt reading would
    otherwise leave its default in force, and move a legal deadline)."""
    return _enforcement(ordinance, directory)[1].unknown()


# Words by which a provision forbids or requires something of a person (seed 99, 111, 115,
# 123, 127, 128, 136, 142, 148, 153). A provision without one only sets a scope, defines, or
# gives the officer a power (seed 117 "Activities that are subject to ...", 125 "The SMO may
# ... suspend", 130 "Applicability"): a notice cannot say someone violated it.
DUTY_WORDS = (
    "no person shall",
    "is prohibited",
    "in violation of this article if",
    "is a violation of this article",
    "commits an offense",
    "shall comply",
    "shall take all",
    "shall allow",
    "shall provide",
    "person shall notify",
    "unlawful",
)


def _words(part: Provision) -> str:
    return " ".join([part.text, *(_words(item) for item in part.items)]).lower()


def _check_violable(fields: Fields, ordinance: Ordinance, entry: str) -> None:
    """Refuse a `violable` entry ("N-M", or "N-M A" for a lettered subdivision) that is not
    in the ordinance, names a section whose subdivisions should be chosen, or forbids and
    requires nothing."""
    number, _, label = entry.partition(" ")
    section = ordinance.by_number.get(number)
    if section is None:
        raise fields.fail("violable", f"§ {number} is not in the ordinance")
    lettered = {p.label.rstrip("."): p for p in section.body if p.label and p.label.endswith(".")}
    if label:
        part = lettered.get(label)
        if part is None:
            raise fields.fail("violable", f"§ {entry}: § {number} has no subdivision {label}")
        text = _words(part)
    elif lettered:
        names = ", ".join(f"{number} {x}" for x in lettered)
        need = f"name the subdivision that forbids or requires something ({names})"
        raise fields.fail("violable", f"§ {entry}: {need}")
    else:
        text = " ".join(_words(part) for part in section.body)
    if not any(word in text for word in DUTY_WORDS):
        raise fields.fail(
            "violable",
            f"§ {entry} forbids and requires nothing of a person "
            "(a scope, a definition or a power of the officer): a notice "
            "cannot cite it as violated",
        )


def _enforcement(ordinance: Ordinance, directory: Path | str | None) -> tuple[Enforcement, Fields]:
    path = Path(directory or CONTENT_DIR) / FILE
    fields = Fields(read_yaml(path), FILE)
    roles = {}
    for short, role in ROLES.items():
        if role not in ordinance.roles:
            raise ContentError(f"ordinance.yaml: roles.{role}: is missing (enforcement cites it)")
        roles[short] = ordinance.roles[role]
    bodies = fields.mapping("bodies")
    parts = _parts(fields.mapping("provisions"), ordinance, roles["notice"])
    raw = (
        fields.values("abatement_order")
        if isinstance(fields.data.get("abatement_order"), list)
        else [fields.text("abatement_order")]
    )
    abatement = tuple(str(label).strip() for label in raw)
    for label in abatement or ("",):
        if label not in [item.label for item in parts["orders"].items]:
            raise fields.fail("abatement_order", f"{label!r} is not one of the orders")
    fine = fields.text("fine_order")
    if fine not in [item.label for item in parts["orders"].items]:
        raise fields.fail("fine_order", f"{fine!r} is not one of the orders")
    history = fields.text("history_condition")
    if history not in [item.label for item in parts["conditions"].items]:
        raise fields.fail("history_condition", f"{history!r} is not one of the conditions")
    violable = tuple(str(number).strip() for number in fields.values("violable"))
    for entry in violable:
        _check_violable(fields, ordinance, entry)
    if not violable:
        raise fields.fail("violable", "must list at least one section")
    methods = tuple(str(method).strip() for method in fields.values("service_methods"))
    if not methods or not all(methods):
        raise fields.fail("service_methods", "must list the ways a notice is served")
    result = Enforcement(
        sections=roles,
        provisions=parts,
        abatement_orders=abatement,
        board=bodies.text("board"),
        clerk=bodies.text("clerk"),
        attorney=bodies.text("attorney"),
        appeal_how=fields.text("appeal_how"),
        protest_how=fields.text("protest_how"),
        violable=violable,
        history_condition=history,
        fine_order=fine,
        service_methods=methods,
        terms=_terms(fields),
    )
    return result, fields
