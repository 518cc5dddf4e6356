"""The words an inventory record may hold, with the labels staff read and the other
spellings an imported file may use for them (a GIS export says "CB", "Reinforced Concrete").
Every field has an "other" code: a word no list here knows (a material "Asbestos cement") is
stored as "other" with its own words beside it (the field's OTHER column), never lost.

The conveyance, material and shape words are those of the Center for Watershed
Protection's Outfall Reconnaissance Inventory (IDDE Guidance Manual, 2004)."""

from __future__ import annotations

import re

# (code, label, other spellings), each spelling compared after `plain()`.
STRUCTURE_TYPES = (
    ("outfall", "Outfall", ("of", "outfall point", "outlet", "discharge point", "headwall")),
    ("catch-basin", "Catch basin", ("cb", "catchbasin", "catch basin", "basin")),
    ("inlet", "Inlet", ("drop inlet", "curb inlet", "storm inlet", "di")),
    ("manhole", "Manhole", ("mh", "storm manhole", "sewer manhole")),
    ("culvert", "Culvert", ("cv", "crossing")),
    ("other", "Other structure", ("structure",)),
)
CONVEYANCES = (
    ("closed-pipe", "Closed pipe", ("pipe", "closed", "enclosed pipe")),
    (
        "open-drainage",
        "Open drainage (channel or swale)",
        ("open", "channel", "open channel", "swale", "ditch", "open ditch"),
    ),
    ("in-stream", "In-stream", ("instream", "stream")),
    ("other", "Other conveyance", ()),
)
MATERIALS = (
    ("rcp", "Reinforced concrete pipe (RCP)", ("reinforced concrete", "reinforced concrete pipe")),
    ("cmp", "Corrugated metal pipe (CMP)", ("corrugated metal", "corrugated metal pipe")),
    ("pvc", "PVC", ("polyvinyl chloride",)),
    ("hdpe", "HDPE (plastic)", ("polyethylene", "plastic", "cpp", "corrugated plastic")),
    ("vcp", "Vitrified clay (VCP)", ("clay", "vitrified clay", "terra cotta")),
    ("steel", "Steel", ("ductile iron", "iron", "dip", "cast iron", "metal")),
    ("concrete", "Concrete (channel or box)", ("conc", "cip", "cast in place")),
    ("brick", "Brick or stone", ("stone", "masonry", "brick and stone")),
    ("earthen", "Earthen", ("earth", "soil", "grass", "natural")),
    ("riprap", "Rip-rap", ("rip rap", "rip-rap", "rock")),
    ("other", "Other material", ()),
)
SHAPES = (
    ("circular", "Circular", ("round", "circle")),
    ("elliptical", "Elliptical", ("oval", "ellipse", "arch")),
    ("box", "Box", ("rectangular", "square", "rectangle")),
    ("trapezoid", "Trapezoid (channel)", ("trapezoidal",)),
    ("parabolic", "Parabolic (channel)", ("parabola", "v", "v-shaped")),
    ("other", "Other shape", ()),
)
CONDITIONS = (
    ("good", "Good", ("g", "1", "excellent")),
    ("fair", "Fair", ("f", "2")),
    ("poor", "Poor", ("p", "3", "bad")),
    ("failed", "Failed (collapsed or blocked)", ("failing", "collapsed", "blocked", "4")),
    ("other", "Other condition", ()),
)

VOCABULARIES = {
    "structure_type": STRUCTURE_TYPES,
    "conveyance": CONVEYANCES,
    "material": MATERIALS,
    "shape": SHAPES,
    "condition": CONDITIONS,
}


# The column holding, for a field stored as "other", the words it was given in.
OTHER = {name: f"{name}_other" for name in VOCABULARIES}
# What files write for a value nobody recorded: no value, not a word to keep (compared after
# `plain()`; "?" and "-" are empty by then).
NOT_RECORDED = {"", "unknown", "unk", "na", "n a", "none", "tbd", "not recorded"}


def plain(text: str) -> str:
    """Lower case, words separated by one space: "Catch_Basin " -> "catch basin"."""
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text.lower()).split())


def _index() -> dict[str, dict[str, str]]:
    found = {}
    for name, words in VOCABULARIES.items():
        spellings = {}
        for code, label, others in words:
            for spelling in (code, label, *others):
                spellings[plain(spelling)] = code
        found[name] = spellings
    return found


_SPELLINGS = _index()


def code_for(field: str, text: str) -> str | None:
    """The code a file's word stands for in `field` (None: not a word we know)."""
    return _SPELLINGS[field].get(plain(text))


def labels(field: str) -> dict[str, str]:
    """{code: label} for a field, in the order shown on the forms."""
    return {code: label for code, label, _ in VOCABULARIES[field]}
