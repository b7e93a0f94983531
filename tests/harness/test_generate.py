"""Generated params: every invalid case carries the basis of the rule it breaks; valid params are
drawn only from keys that exist, and a method without them says so instead of crashing. Draws
are seeded, distinct, and as many as hypothesis's test engine would give."""

from __future__ import annotations

import pytest
from csi_conformance.groundwork.jsonio import dumps
from csi_conformance.harness import generate
from csi_conformance.harness.core.model import Basis
from csi_conformance.harness.generate import NoValidParams, drawn, invalid_params, valid_params
from csi_conformance.schema import Contract
from hypothesis import strategies as st

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


# -- drawing: seeded, each example once, as many as the strategy has -------------------------------

def test_draws_directly_with_the_installed_hypothesis() -> None:
    """Protection: `drawn` falls back to hypothesis's slower test engine when the conjecture
    internals it uses move; that must be a failing test, not a silently slower run."""
    assert generate.DIRECT


def test_the_same_seed_draws_the_same_examples() -> None:
    strategy = invalid_params(CONTRACT, CONTRACT.method("getCompressedAccountsByOwner"), {"owner": KEY})
    first = [case.params for case in drawn(strategy, count=24, seed=3)]
    assert first == [case.params for case in drawn(strategy, count=24, seed=3)]
    assert first != [case.params for case in drawn(strategy, count=24, seed=4)]


def test_no_example_twice_and_a_small_strategy_gives_all_it_has() -> None:
    """A strategy with 28 possible params gives those 28 for 100 asked, each once, as the engine does:
    the number of requests a run sends depends on it."""
    keys = {"hashes": [f"h{i}" for i in range(14)], "addresses": [f"a{i}" for i in range(14)]}
    strategy = valid_params(CONTRACT.method("getCompressedAccount"), keys)
    examples = drawn(strategy, count=100, seed=0)
    assert len(examples) == 28 and {dumps(p) for p in examples} == (
        {dumps({"hash": k}) for k in keys["hashes"]} | {dumps({"address": k}) for k in keys["addresses"]})
    assert len(generate._drawn_by_engine(strategy, count=100, seed=0)) == 28


@pytest.mark.parametrize("method", sorted(CONTRACT.methods))
def test_as_many_examples_as_the_engine_draws(method: str) -> None:
    """Per method, valid and invalid params: the number of requests the harness sends is the engine's."""
    keys = {kind: [f"{kind}{i}" for i in range(3)] for kind in
            ("hashes", "addresses", "owners", "token_owners", "delegates", "mints", "signatures")}
    valid = valid_params(CONTRACT.method(method), keys)
    sample = drawn(valid, count=1, seed=0)[0]
    strategies = [valid, invalid_params(CONTRACT, CONTRACT.method(method), None),
                  invalid_params(CONTRACT, CONTRACT.method(method), sample)]
    for strategy in strategies:
        assert len(drawn(strategy, count=30, seed=0)) == len(generate._drawn_by_engine(strategy, count=30, seed=0))


def test_first_example_is_the_simplest_and_filtered_ones_do_not_count() -> None:
    assert drawn(st.integers(0, 1000), count=5, seed=9)[0] == 0
    even = drawn(st.integers(0, 1000).filter(lambda n: n % 2 == 0), count=20, seed=0)
    assert len(even) == 20 and all(n % 2 == 0 for n in even)
    assert drawn(st.integers().filter(lambda n: False), count=5, seed=0) == []  # ends, with nothing
