"""JSON is read with exact integers, and hostile documents fail as JsonError."""

from __future__ import annotations

import pytest
from csi_conformance.groundwork.errors import JsonError
from csi_conformance.groundwork.jsonio import dumps, loads


def test_big_integers_round_trip_exactly() -> None:
    big = 2**254 + 1
    assert loads(dumps({"v": big}))["v"] == big
    assert type(loads("18446744073709551617")) is int


def test_floats_stay_floats() -> None:
    assert type(loads("1.0")) is float


@pytest.mark.parametrize(
    "text",
    ["[" * 100_000 + "]" * 100_000, "1" * 10_000, "NaN", "{\"a\": Infinity}", "{", b"\xff\xfe{}", ""],
    ids=["deep", "10k digits", "NaN", "Infinity", "truncated", "not utf-8", "empty"],
)
def test_hostile_documents_raise_json_error(text) -> None:
    with pytest.raises(JsonError):
        loads(text)


def test_depth_cap_is_exact() -> None:
    from csi_conformance.groundwork.jsonio import MAX_DEPTH

    assert loads("[" * MAX_DEPTH + "]" * MAX_DEPTH) == loads("[" * MAX_DEPTH + "]" * MAX_DEPTH)
    with pytest.raises(JsonError, match="deeper"):
        loads("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    assert loads('["' + "[" * 500 + '"]') == ["[" * 500], "brackets inside strings do not count"
