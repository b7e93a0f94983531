"""The v2 circuits as data, their one public input, and the prover request built from plain values."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from csi_conformance.ledger_crypto import poseidon
from csi_conformance.ledger_proofs.circuits_v2 import (
    JUNE_2025,
    OCTOBER_2025,
    PROVABLE,
    public_input_hash,
    two_inputs_hash_chain,
    v2_circuit_for,
)
from csi_conformance.ledger_proofs.request_v2 import V2Account, V2Address, v2_request

GENERATED = Path(__file__).parent / "fixtures" / "v2-gen-test-params.json"
"""Requests with the publicInputHash the 0.27.0 prover computed itself (its `gen-test-params`; source in the file)."""


def _generated() -> list[dict]:
    return json.loads(GENERATED.read_text(encoding="utf-8"))["requests"]


def test_the_setups_circuits() -> None:
    assert len(JUNE_2025) == 26 and len(OCTOBER_2025) == 68
    assert set(JUNE_2025) <= set(OCTOBER_2025) and set(PROVABLE) <= set(JUNE_2025) and len(PROVABLE) == 9
    assert {c.name for c in PROVABLE.values()} == {
        "inclusion_32_1", "inclusion_32_2", "inclusion_32_3", "inclusion_32_4", "non-inclusion_40_1",
        "non-inclusion_40_2", "combined_32_40_1_1", "combined_32_40_1_2", "combined_32_40_2_1"}
    assert v2_circuit_for(20, 0).name == "inclusion_32_20" and v2_circuit_for(0, 32).family == "non-inclusion"
    assert v2_circuit_for(5, 1) is None and v2_circuit_for(0, 0) is None
    assert all(c.public_inputs == 1 for c in OCTOBER_2025.values())


@pytest.mark.parametrize("request_body", _generated(), ids=lambda r: f"{len(r['inputCompressedAccounts'])}-accounts")
def test_the_public_input_is_the_provers_own(request_body: dict) -> None:
    accounts = request_body["inputCompressedAccounts"]
    roots, leaves = [int(a["root"], 16) for a in accounts], [int(a["leaf"], 16) for a in accounts]
    assert public_input_hash(roots, leaves, [], []) == int(request_body["publicInputHash"], 16)
    assert public_input_hash(leaves, roots, [], []) != int(request_body["publicInputHash"], 16)  # order matters


def test_the_chain_and_the_combined_rule() -> None:
    word = [(i + 1).to_bytes(32, "big") for i in range(6)]
    assert two_inputs_hash_chain([1], [2]) == int.from_bytes(poseidon(word[0], word[1]), "big")
    two = int.from_bytes(poseidon(poseidon(word[0], word[2]), word[1], word[3]), "big")
    assert two_inputs_hash_chain([1, 2], [3, 4]) == two
    combined = poseidon(two.to_bytes(32, "big"), poseidon(word[4], word[5]))
    assert public_input_hash([1, 2], [3, 4], [5], [6]) == int.from_bytes(combined, "big")
    assert public_input_hash([], [], [5], [6]) == two_inputs_hash_chain([5], [6])
    for bad in (([1], [2, 3]), ([], [])):
        with pytest.raises(ValueError):
            two_inputs_hash_chain(*bad)


def _account(**changes: object) -> V2Account:
    values: dict = {"root": 7, "leaf": 9, "leaf_index": 3, "path": tuple(range(32))} | changes
    return V2Account(**values)


def _address(**changes: object) -> V2Address:
    values: dict = {"root": 8, "address": 5, "low_value": 1, "next_value": 10, "low_index": 0,
                    "path": tuple(range(40))} | changes
    return V2Address(**values)


def test_the_request_names_what_the_prover_reads() -> None:
    circuit, body = v2_request([_account()], [_address()])
    assert circuit.name == "combined_32_40_1_1"
    assert body["circuitType"] == "combined" and (body["stateTreeHeight"], body["addressTreeHeight"]) == (32, 40)
    assert int(body["publicInputHash"], 16) == public_input_hash([7], [9], [8], [5])
    assert body["inputCompressedAccounts"][0]["pathIndex"] == 3 and body["inputCompressedAccounts"][0]["leaf"] == \
        "0x" + "9".rjust(64, "0")
    address = body["newAddresses"][0]
    assert set(address) == {"root", "value", "pathIndex", "pathElements", "leafLowerRangeValue",
                            "leafHigherRangeValue"} and len(address["pathElements"]) == 40
    circuit, body = v2_request([_account(), _account()], [])
    assert circuit.name == "inclusion_32_2" and "newAddresses" not in body and "addressTreeHeight" not in body


@pytest.mark.parametrize("bad", [
    lambda: _account(path=tuple(range(26))),  # a v1 path
    lambda: _account(leaf=9.0),  # never through a float
    lambda: _account(leaf_index=1 << 32),
    lambda: _address(address=1 << 248),  # above what the circuit compares
    lambda: _address(root=-1),
    lambda: v2_request([_account()] * 5, [_address()]),  # no such circuit
    lambda: v2_request([], []),
])
def test_the_request_refuses_what_no_circuit_takes(bad) -> None:
    with pytest.raises(ValueError):
        bad()
