"""Each invariant holds on the bodies it names and fails, with a reason, on the others."""

from __future__ import annotations

from typing import Any

import pytest
from csi_conformance.cases.invariants import INVARIANTS, check_invariant
from csi_conformance.groundwork.errors import ConfigError


def _ok(result: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": 1, "result": result}


def _state(value: Any) -> dict[str, Any]:
    return _ok({"context": {"slot": 5}, "value": value})


ERROR = {"jsonrpc": "2.0", "id": 1, "error": {"code": -32000, "message": "Record Not Found"}}
ODD_ERROR = {"jsonrpc": "2.0", "id": None, "error": {"code": 42, "message": "", "data": [1]}}

HOLDS = {
    "error": [ERROR, ODD_ERROR],
    "null-value": [_state(None)],
    "null-answer": [_ok(None), _state(None)],
    "empty-items": [_state({"items": [], "cursor": None}), _state({"token_balances": [], "cursor": "x"}),
                    _state({"items": []})],
}

FAILS = {
    "error": [_ok(1), {"jsonrpc": "2.0", "id": 1, "error": {"code": "-32000", "message": "x"}},
              {"jsonrpc": "2.0", "id": 1, "error": {"code": -32000}}, {**ERROR, "result": None}, {"error": "x"},
              [ERROR], None],
    "null-value": [_ok(None), _state(0), _state({}), ERROR, {"jsonrpc": "2.0", "id": 1}, _ok({"value": None})],
    "null-answer": [_state({"items": []}), _ok(0), _ok({"value": None}), ERROR, "null"],
    "empty-items": [_state({"items": [{}], "cursor": None}), _state({"items": None}), _state([]),
                    _state({"cursor": None}), _state({"items": [], "token_balances": []}), _ok(None), ERROR],
}


def test_every_invariant_has_hand_made_bodies() -> None:
    assert set(HOLDS) == set(FAILS) == set(INVARIANTS)


@pytest.mark.parametrize(("name", "body"), [(n, b) for n, bodies in HOLDS.items() for b in bodies])
def test_invariant_holds(name: str, body: Any) -> None:
    assert check_invariant(name, body) is None


@pytest.mark.parametrize(("name", "body"), [(n, b) for n, bodies in FAILS.items() for b in bodies])
def test_invariant_fails_with_a_reason(name: str, body: Any) -> None:
    reason = check_invariant(name, body)
    assert isinstance(reason, str) and reason


def test_reasons_say_what_was_seen() -> None:
    assert "an error" in check_invariant("null-value", ERROR)
    assert "of 1" in check_invariant("empty-items", _state({"items": [{}], "cursor": None}))
    assert "carries a result" in check_invariant("error", {**ERROR, "result": 1})


def test_an_unknown_invariant_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="unknown invariant 'nope'"):
        check_invariant("nope", ERROR)
