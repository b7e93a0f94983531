"""`call`: every contract method is registered, params are checked, every error rule answers.

Each answer is validated against the contract with the readings the reference follows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.reference_server.errors import INVALID_PARAMS, METHOD_NOT_FOUND, SERVER_ERROR, RpcError
from csi_conformance.reference_server.methods import PROOF_FORM_READINGS, call, readings, registered
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.scenario import Scenario, open_scenario
from csi_conformance.reference_server.wiring import SERVED_API
from csi_conformance.schema import Contract

OPTIONS = ServerOptions()


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return open_scenario("default")


def ask(scenario: Scenario, method: str, params: Any, options: ServerOptions = OPTIONS) -> Any:
    result = call(scenario.ledger, method, params, options)
    problems = Contract.default().result_validator(method, readings(Contract.default(), options)).violations(result)
    assert problems == [], f"{method}: {[str(p) for p in problems]}"
    return result


def key(scenario: Scenario, name: str) -> str:
    return b58encode(scenario.keys[name])


def label(scenario: Scenario, name: str) -> str:
    return b58encode(scenario.labels[name])


def address_of(scenario: Scenario, name: str) -> str:
    return b58encode(scenario.ledger.account(scenario.labels[name]).address)


FRESH = b58encode(b"\0" + bytes(30) + b"\x07")
TREE = "amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2"

SAMPLES: dict[str, Callable[[Scenario], Any]] = {
    "getCompressedAccount": lambda s: {"hash": label(s, "c1")},
    "getCompressedAccountBalance": lambda s: {"address": address_of(s, "c8")},
    "getCompressedBalance": lambda s: {"hash": label(s, "v1")},
    "getCompressedBalanceByOwner": lambda s: {"owner": key(s, "counter")},
    "getCompressedAccountsByOwner": lambda s: {"owner": key(s, "counter"), "limit": 3},
    "getCompressedTokenAccountsByOwner": lambda s: {"owner": key(s, "alice")},
    "getCompressedTokenAccountsByDelegate": lambda s: {"delegate": key(s, "dave")},
    "getCompressedTokenBalancesByOwner": lambda s: {"owner": key(s, "bob")},
    "getCompressedTokenAccountBalance": lambda s: {"hash": label(s, "t4")},
    "getTransactionWithCompressionInfo": lambda s: {"signature": b58encode(s.ledger.account(s.labels["t7"]).opened_by)},
    "getCompressionSignaturesForAddress": lambda s: {"address": address_of(s, "r1b")},
    "getCompressionSignaturesForOwner": lambda s: {"owner": key(s, "registry")},
    "getCompressionSignaturesForTokenOwner": lambda s: {"owner": key(s, "alice"), "limit": 1},
    "getLatestCompressionSignatures": lambda s: {},
    "getLatestNonVotingSignatures": lambda s: {"limit": 5},
    "getMultipleNewAddressProofs": lambda s: [FRESH],
    "getValidityProof": lambda s: {"hashes": [label(s, "c1")], "newAddressesWithTrees": [{"address": FRESH,
                                                                                          "tree": TREE}]},
    "getIndexerHealth": lambda s: None,
    "getIndexerSlot": lambda s: [],
}


def test_every_contract_method_is_registered_and_nothing_else(contract) -> None:
    """The reference serves the widest contract the kit ships (the spec's 19 are within it); the samples below
    are the spec's, the others' answers are tested in test_photon_shapes.py."""
    served = Contract.for_api(SERVED_API)
    assert registered() == {m.canonical for m in served.methods.values()}
    assert set(contract.methods) < set(served.methods)
    assert set(SAMPLES) == set(contract.methods)


@pytest.mark.parametrize("method", sorted(SAMPLES))
def test_every_method_answers_in_its_contract_shape(scenario: Scenario, method: str) -> None:
    result = ask(scenario, method, SAMPLES[method](scenario))
    if Contract.default().method(method).state:
        assert result["context"] == {"slot": scenario.ledger.indexed_slot}


def test_the_alias_answers_like_its_method(scenario: Scenario) -> None:
    params = {"hash": label(scenario, "v1")}
    assert ask(scenario, "getCompressedBalance", params) == ask(scenario, "getCompressedAccountBalance", params)
    assert ask(scenario, "getCompressedBalance", params)["value"] == 2**53 + 1


@pytest.mark.parametrize("method", ["getCompressedAccounts", "", "getcompressedaccount", "__init__"])
def test_unknown_methods_are_method_not_found(scenario: Scenario, method: str) -> None:
    with pytest.raises(RpcError) as caught:
        call(scenario.ledger, method, {}, OPTIONS)
    assert caught.value.code == METHOD_NOT_FOUND


@pytest.mark.parametrize("method,params,where", [
    ("getCompressedAccountsByOwner", {}, "owner"),
    ("getCompressedAccountsByOwner", {"owner": "not base58 0OIl"}, "/owner"),
    ("getCompressedAccountsByOwner", {"owner": b58encode(bytes(31))}, "/owner"),
    ("getCompressedAccountsByOwner", {"owner": b58encode(bytes(32)), "limit": 1.0}, "/limit"),
    ("getCompressedAccountsByOwner", {"owner": b58encode(bytes(32)), "filters": [{}]}, "/filters"),
    ("getCompressedAccountBalance", {"hash": b58encode(bytes(32)), "extra": 1}, "extra"),
    ("getMultipleNewAddressProofs", {"address": FRESH}, "/"),
    ("getValidityProof", {"newAddressesWithTrees": [FRESH]}, "/newAddressesWithTrees/0"),
    ("getIndexerHealth", {"verbose": True}, "/"),
    ("getTransactionWithCompressionInfo", {"signature": b58encode(bytes(32))}, "/signature"),
])
def test_params_breaking_the_contract_are_invalid_params(scenario: Scenario, method, params, where) -> None:
    with pytest.raises(RpcError) as caught:
        call(scenario.ledger, method, params, OPTIONS)
    assert caught.value.code == INVALID_PARAMS
    assert where in caught.value.message


@pytest.mark.parametrize("params", [None, [], {}])
def test_methods_without_params_accept_every_empty_form(scenario: Scenario, params) -> None:
    assert ask(scenario, "getIndexerSlot", params) == scenario.ledger.indexed_slot


def test_params_may_come_positionally(scenario: Scenario) -> None:
    """Observed practice: an array in field order reads like the object."""
    by_name = ask(scenario, "getCompressedAccountsByOwner", {"owner": key(scenario, "counter"), "limit": 2})
    names = Contract.default().method("getCompressedAccountsByOwner").param_names
    positional = [key(scenario, "counter")] + [2 if n == "limit" else None for n in names[1:]]
    assert ask(scenario, "getCompressedAccountsByOwner", positional) == by_name


def test_the_reference_follows_observed_practice_but_for_the_proof_form_asked(contract) -> None:
    for form, chosen in PROOF_FORM_READINGS.items():
        followed = readings(contract, ServerOptions(proof_form=form))
        assert set(followed) == set(contract.ambiguities)
        for ambiguity, names in followed.items():
            assert set(names) <= set(contract.ambiguity(ambiguity).readings), ambiguity
            assert names == chosen.get(ambiguity, (contract.ambiguity(ambiguity).observed,))
    wire = PROOF_FORM_READINGS["wire"]
    assert all(names == (contract.ambiguity(ambiguity).observed,) for ambiguity, names in wire.items())


# Every error rule of the contract, with a request that breaks it and the code it answers with.
ERRORS: dict[tuple[str, str], tuple[Callable[[Scenario], Any], int, dict]] = {
    ("getCompressedAccount", "exactly-one-of"): (lambda s: {}, SERVER_ERROR, {}),
    ("getCompressedAccountBalance", "exactly-one-of"): (lambda s: {"address": None, "hash": None}, SERVER_ERROR, {}),
    ("getCompressedBalance", "exactly-one-of"): (
        lambda s: {"address": address_of(s, "c8"), "hash": label(s, "c8")}, SERVER_ERROR, {}),
    ("getCompressedAccountBalance", "unknown-members-rejected"): (lambda s: {"owner": key(s, "alice")},
                                                                  INVALID_PARAMS, {}),
    ("getCompressedBalance", "unknown-members-rejected"): (lambda s: {"hash": label(s, "c8"), "x": 1},
                                                           INVALID_PARAMS, {}),
    ("getCompressedTokenAccountBalance", "exactly-one-of"): (lambda s: {}, SERVER_ERROR, {}),
    ("getIndexerHealth", "stale"): (lambda s: None, SERVER_ERROR, {"max_stale_slots": 3}),
    ("getMultipleNewAddressProofs", "address-exists"): (lambda s: [address_of(s, "r2")], SERVER_ERROR, {}),
    ("getValidityProof", "account-unknown"): (lambda s: {"hashes": [FRESH]}, SERVER_ERROR, {}),
    ("getValidityProof", "account-consumed"): (lambda s: {"hashes": [label(s, "c2")]}, SERVER_ERROR, {}),
    ("getValidityProof", "mutually-exclusive"): (
        lambda s: {"newAddresses": [FRESH], "newAddressesWithTrees": [{"address": FRESH, "tree": TREE}]},
        SERVER_ERROR, {}),
}


def test_the_error_table_covers_every_error_rule(contract) -> None:
    rules = {(m.name, e.kind) for m in contract.methods.values() for e in m.errors}
    assert set(ERRORS) == rules


@pytest.mark.parametrize("method,kind", sorted(ERRORS))
def test_every_error_rule_answers_an_error(scenario: Scenario, method: str, kind: str) -> None:
    make, code, options = ERRORS[(method, kind)]
    with pytest.raises(RpcError) as caught:
        call(scenario.ledger, method, make(scenario), ServerOptions(**options))
    assert caught.value.code == code
    assert caught.value.message
