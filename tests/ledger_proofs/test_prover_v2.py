"""End to end: the 0.27.0 prover proves v2 inclusion, non-inclusion and combined statements over the kit's own
trees (height 32 and 40), and the kit verifies each under Light's June-2025 keys, and nothing false.

The process-wide prover of the v2 circuits serves the module (one start, about 30 s: it loads all 18 keys,
shared with every other test of the session). Installed when missing, so on a machine without npm these tests
fail, never skip.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest
from csi_conformance.ledger_crypto import BatchedAddressTree, StateTree, poseidon
from csi_conformance.ledger_crypto.groth16 import proof_from_gnark
from csi_conformance.ledger_proofs import verify
from csi_conformance.ledger_proofs.circuits_v2 import JUNE_2025
from csi_conformance.ledger_proofs.process import ProverProcess, shared_v2_prover
from csi_conformance.ledger_proofs.request_v2 import V2Account, V2Address, v2_request

from tests.ledger_proofs.support import installed_v2_prover
from tests.ledger_proofs.test_circuits_v2 import _generated

pytestmark = pytest.mark.prover


@pytest.fixture(scope="module")
def prover_v2() -> ProverProcess:
    installed_v2_prover()
    prover = shared_v2_prover()
    assert prover is not None  # waited for
    return prover


def _prove(prover: ProverProcess, body: dict[str, Any]) -> dict[str, list[int]]:
    request = urllib.request.Request(f"{prover.url}/prove", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as answer:
        return proof_from_gnark(json.loads(answer.read()))


def _int(value: bytes) -> int:
    return int.from_bytes(value, "big")


@pytest.fixture(scope="module")
def account() -> V2Account:
    """Leaf 5 of a height-32 state tree of 8 leaves."""
    tree = StateTree(height=32)
    tree.append_many(poseidon(i.to_bytes(32, "big")) for i in range(8))
    return V2Account(_int(tree.root), _int(tree.leaf(5)), 5, tuple(_int(p) for p in tree.proof(5)))


@pytest.fixture(scope="module")
def address() -> V2Address:
    """A new address of a height-40 batched address tree holding 3 others."""
    tree = BatchedAddressTree()
    tree.insert_many([1 << 200, 1 << 201, 1 << 240])
    proof = tree.non_inclusion_proof(3 << 200)
    assert proof.low_value == 1 << 201
    return V2Address(_int(proof.root), proof.value, proof.low_value, proof.low_next_value, proof.low_leaf_index,
                     tuple(_int(p) for p in proof.path))


def _check(prover: ProverProcess, accounts: list[V2Account], addresses: list[V2Address], monkeypatch) -> None:
    circuit, body = v2_request(accounts, addresses)
    proof = _prove(prover, body)
    digest = int(body["publicInputHash"], 16)
    verdict = verify.verify_v2(circuit, proof, digest)
    assert verdict.verified and verdict.setup == verify.SETUPS["0.18.0"], verdict.reason
    assert not verify.verify_v2(circuit, proof, digest + 1).verified  # a tampered input
    other = next(c for c in JUNE_2025.values() if c != circuit and c.family == circuit.family)
    assert not verify.verify_v2(other, proof, digest).verified  # the key of another circuit
    monkeypatch.setattr(verify, "_order", ["2025-10"])
    today = verify.verify_v2(circuit, proof, digest)
    assert not today.verified and "does not hold" in today.reason  # a June proof is no October one


def test_inclusion_of_one_leaf_in_a_height_32_tree(prover_v2, account, monkeypatch) -> None:
    _check(prover_v2, [account], [], monkeypatch)


def test_non_inclusion_in_a_height_40_tree(prover_v2, address, monkeypatch) -> None:
    _check(prover_v2, [], [address], monkeypatch)


def test_combined(prover_v2, account, address, monkeypatch) -> None:
    _check(prover_v2, [account], [address], monkeypatch)


def test_a_wrong_public_input_gets_no_proof(prover_v2, account) -> None:
    """The prover checks the hash itself: a request built with another rule is refused, not proven."""
    _, body = v2_request([account], [])
    body["publicInputHash"] = "0x" + format(int(body["publicInputHash"], 16) ^ 1, "064x")
    with pytest.raises(urllib.error.HTTPError):
        _prove(prover_v2, body)


def test_the_provers_own_requests_verify(prover_v2) -> None:
    request = _generated()[1]  # two accounts: the chain's second step
    proof = _prove(prover_v2, request)
    assert verify.verify_v2(JUNE_2025[(2, 0)], proof, int(request["publicInputHash"], 16)).verified
