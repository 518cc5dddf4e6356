"""The one table of case statuses: every page, filter, count and map reads it."""

from __future__ import annotations

import re

import pytest

from portal.core import kinds
from portal.core.kinds import UnknownKind, statuses_for
from portal.core.statuses import CLOSED, COLORS, INVESTIGATED, STATUSES, Status


def test_every_status_is_used_by_a_kind_and_says_something_to_the_public():
    used = {status for kind in kinds.all_kinds() for status in kind.statuses}
    for key, status in STATUSES.items():
        assert isinstance(status, Status)
        assert key in used, key
        assert status.label and status.public.endswith("."), key
        assert re.fullmatch(r"#[0-9a-f]{6}", status.color), key


def test_each_kind_starts_received_and_can_be_closed():
    for kind in ("report", "notification"):
        keys = statuses_for(kind)
        assert keys[0] == "received"
        assert set(keys) & CLOSED, kind
        assert set(keys) - CLOSED, kind


def test_the_kinds_split_the_statuses_as_staff_see_them():
    assert statuses_for("report") == (
        "received",
        "investigating",
        "referred",
        "resolved",
        "no-violation",
        "exempt",
        "duplicate",
    )
    assert statuses_for("notification") == ("received", "confirmed", "follow-up", "closed")
    with pytest.raises(UnknownKind):
        statuses_for("something else")


def test_derived_sets_follow_the_table():
    assert {"resolved", "no-violation", "exempt", "duplicate", "closed"} == CLOSED
    assert set(INVESTIGATED) == {"investigating", "referred", "resolved", "no-violation", "exempt"}
    assert all(STATUSES[key].investigated for key in INVESTIGATED)
    assert {key: status.color for key, status in STATUSES.items()} == COLORS
    assert len(set(COLORS.values())) == len(COLORS)


@pytest.mark.parametrize("key", list(STATUSES))
def test_templates_read_a_status_as_label_then_public_wording(key):
    # Templates index the tuple (statuses.get(code, (code, ""))[0] and [1]).
    label, public, *_ = STATUSES[key]
    assert (label, public) == (STATUSES[key].label, STATUSES[key].public)


def test_a_duplicate_is_closed_but_not_counted_as_investigated():
    assert "duplicate" in CLOSED and "duplicate" not in INVESTIGATED
    assert not STATUSES["received"].closed and not STATUSES["received"].investigated
