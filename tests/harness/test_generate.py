"""Generated params: every invalid case carries the basis of the rule it breaks; valid params are
drawn only from keys that exist, and a method without them says so instead of crashing."""

from __future__ import annotations

import pytest
from csi_conformance.harness.checks.params.drawing import drawn
from csi_conformance.harness.core.model import Basis
from csi_conformance.harness.generate import NoValidParams, invalid_params, valid_params
from csi_conformance.schema import Contract

CONTRACT = Contract.default()
KEY = "1" * 32


@pytest.mark.parametrize("method", ["getIndexerHealth", "getIndexerSlot"])
def test_params_to_a_method_without_params_break_a_json_rpc_rule(method: str) -> None:
    """The spec says only that these methods send none: refusing `"params": "params"` is JSON-RPC 2.0's rule."""
    cases = drawn(invalid_params(CONTRACT, CONTRACT.method(method), None), count=12, seed=0)
    assert {case.params for case in cases} == {"params", 7, True}
    assert {case.basis for case in cases} == {Basis.JSON_RPC}
    assert all("JSON-RPC 2.0" in case.breaks and case.clause == "4.1-R5" for case in cases)


def test_params_to_a_method_with_params_break_the_spec() -> None:
    method = CONTRACT.method("getCompressedAccountsByOwner")
    cases = drawn(invalid_params(CONTRACT, method, {"owner": KEY}), count=24, seed=0)
    assert len(cases) == 24 and {case.basis for case in cases} == {Basis.SPEC}
    validator = CONTRACT.params_validator(method.name)
    assert not any(validator.is_valid(case.params) for case in cases)
    dropped = [case for case in cases if case.params == {}]
    assert dropped and all("`owner` left out" in case.breaks and case.clause == "4.2-M5" for case in dropped)
    assert any(case.params in ("params", 7, True) and case.clause == "4.1-R5" for case in cases)


def test_breaks_names_values_as_json() -> None:
    method = CONTRACT.method("getCompressedAccountsByOwner")
    texts = [case.breaks for case in drawn(invalid_params(CONTRACT, method, {"owner": KEY}), count=24, seed=0)]
    assert any('params is "params"' in text for text in texts)
    assert not any("'" in text for text in texts), texts  # no Python repr


@pytest.mark.parametrize(("method", "missing"), [
    ("getCompressedTokenAccountsByDelegate", "no delegates discovered"),
    ("getCompressedBalanceByOwner", "no owners discovered"),
    ("getCompressedTokenBalancesByOwner", "no token_owners discovered"),
    ("getCompressedAccount", "no addresses or hashes discovered"),
    ("getValidityProof", "no hashes discovered"),
])
def test_missing_keys_are_named_not_drawn_from_nothing(method: str, missing: str) -> None:
    with pytest.raises(NoValidParams, match=missing):
        valid_params(CONTRACT.method(method), {})


def test_only_the_kinds_of_keys_that_exist_are_used() -> None:
    """getCompressedAccount with hashes but no addresses: every draw is by hash."""
    strategy = valid_params(CONTRACT.method("getCompressedAccount"), {"hashes": [KEY], "addresses": []})
    assert drawn(strategy, count=10, seed=0) and all(p == {"hash": KEY} for p in drawn(strategy, count=10, seed=0))
