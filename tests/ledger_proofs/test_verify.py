"""Groth16 verification over the committed real proofs: each verifies, each alteration does not."""

from __future__ import annotations

import copy
import hashlib
from importlib import resources

import pytest
from csi_conformance.groundwork.base58 import b58decode
from csi_conformance.ledger_crypto.bn254 import CURVE_ORDER
from csi_conformance.ledger_crypto.groth16 import deterministic_proof
from csi_conformance.ledger_proofs.circuits import CIRCUITS
from csi_conformance.ledger_proofs.install import manifest
from csi_conformance.ledger_proofs.verify import SETUPS, parse_vkey, verify_compressed, verifying_key

from tests.ledger_proofs.support import circuit_named, fixture_proofs

ENTRIES = fixture_proofs()


def _inputs(entry) -> list[int]:
    return [int.from_bytes(b58decode(v, length=32), "big") for v in entry["publicInputs"]]


def test_fixture_holds_one_proof_per_circuit() -> None:
    assert sorted(e["circuit"] for e in ENTRIES) == sorted(c.name for c in CIRCUITS.values())


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e["circuit"])
def test_real_proof_verifies(entry) -> None:
    verdict = verify_compressed(circuit_named(entry["circuit"]), entry["value"]["compressedProof"], _inputs(entry))
    assert verdict.verified, verdict.reason
    assert verdict.setup == SETUPS["0.18.0"]  # made by the light prover 0.18.0


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e["circuit"])
def test_any_changed_input_fails(entry) -> None:
    circuit, proof, inputs = circuit_named(entry["circuit"]), entry["value"]["compressedProof"], _inputs(entry)
    for index in sorted({0, len(inputs) // 2 - 1, len(inputs) // 2, len(inputs) - 1}):  # a root and a leaf of each kind
        changed = list(inputs)
        changed[index] = (changed[index] + 1) % CURVE_ORDER
        assert not verify_compressed(circuit, proof, changed).verified, index


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e["circuit"])
def test_reordered_inputs_fail(entry) -> None:
    circuit, proof, inputs = circuit_named(entry["circuit"]), entry["value"]["compressedProof"], _inputs(entry)
    half = len(inputs) // 2
    interleaved = [v for pair in zip(inputs[:half], inputs[half:], strict=True) for v in pair]
    swapped = inputs[half:] + inputs[:half]
    for order in (interleaved, swapped):
        if order != inputs:
            assert not verify_compressed(circuit, proof, order).verified


def test_altered_points_fail() -> None:
    entry = ENTRIES[0]
    circuit, proof, inputs = circuit_named(entry["circuit"]), entry["value"]["compressedProof"], _inputs(entry)
    not_negated = copy.deepcopy(proof)
    not_negated["a"][0] ^= 0x80  # A instead of −A: the other root of the same x
    assert not verify_compressed(circuit, not_negated, inputs).verified
    swapped = {"a": proof["c"], "b": proof["b"], "c": proof["a"]}
    assert not verify_compressed(circuit, swapped, inputs).verified


def test_placeholder_and_malformed_proofs_fail_with_a_reason() -> None:
    entry = ENTRIES[0]
    circuit, inputs = circuit_named(entry["circuit"]), _inputs(entry)
    verdict = verify_compressed(circuit, deterministic_proof(b"seed"), inputs)
    assert not verdict.verified and "does not hold" in verdict.reason and verdict.setup is None
    assert all(setup.description in verdict.reason for setup in SETUPS.values())  # tried under each setup
    broken = verify_compressed(circuit, {"a": [0] * 31, "b": [0] * 64, "c": [0] * 32}, inputs)
    assert not broken.verified and broken.reason.startswith("not a proof")
    assert "public inputs" in verify_compressed(circuit, entry["value"]["compressedProof"], inputs[:1]).reason
    assert "field element" in verify_compressed(circuit, entry["value"]["compressedProof"],
                                                [CURVE_ORDER, *inputs[1:]]).reason


def test_shipped_verifying_keys_are_the_published_ones() -> None:
    folder = resources.files("csi_conformance.ledger_proofs") / "vkeys"
    names = sorted(p.name for p in folder.iterdir() if p.name.endswith(".vkey"))
    assert len(names) == 15
    for name in names:
        data = (folder / name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == manifest()["keys"][name]["sha256"], name
    assert "SOURCE" in (folder / "SOURCE.md").read_text(encoding="utf-8")


def test_vkey_layout() -> None:
    key = verifying_key("inclusion_26_1")
    assert key.public_inputs == 2
    with pytest.raises(ValueError, match="left after"):
        text = (resources.files("csi_conformance.ledger_proofs") / "vkeys" / "inclusion_26_1.vkey").read_text()
        parse_vkey("x", text + " 0")
    with pytest.raises(ValueError, match="ends after"):
        parse_vkey("x", "[1 2 3]")
