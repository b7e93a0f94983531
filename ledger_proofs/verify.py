"""Groth16 verification of a `compressedProof` against the verifying keys of Light's v1 and v2 circuits.

e(A, B) = e(α, β) · e(vk_x, γ) · e(C, δ), with vk_x = K₀ + Σ pubᵢ·Kᵢ₊₁ (real-proofs.md). The wire's
`a` is −A already (ledger-facts.md, "Validity proofs"), so the check is that the product
e(a, B) · e(α, β) · e(vk_x, γ) · e(C, δ) is one: four Miller loops, one final exponentiation, with
the key's side (γ and δ lines, the α·β loop) computed once per circuit and cached.

Two trusted setups are live: Light's June-2025 one, named "0.18.0" after the light prover whose v1
keys the kit has long shipped (`vkeys/`; its v2 keys, those of the 0.27.0 prover, in
`vkeys-2025-06-v2/`), and the one Light's programs verify with since October 2025
(`vkeys-2025-10/`: v1, v2 and batch). A proof verifies when it verifies under either; the verdict
names which. The setup that verified last is tried first, so a target that proves with one setup
pays one verification per proof. A v2 circuit takes one public input (`circuits_v2`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from csi_conformance.ledger_crypto.bn254 import CURVE_ORDER, decompress_g1, decompress_g2
from csi_conformance.ledger_crypto.groth16 import is_valid_compressed_proof
from csi_conformance.ledger_proofs import pairing, tower
from csi_conformance.ledger_proofs.circuits import Circuit
from csi_conformance.ledger_proofs.circuits_v2 import V2Circuit

__all__ = ["ALIASES", "SETUPS", "Setup", "Verdict", "VerifyingKey", "has_key", "parse_vkey", "verify_compressed",
           "verify_v2", "verifying_key"]


@dataclass(frozen=True)
class Setup:
    """A trusted setup of Light's circuits: its name, the folder of its keys (and any further folders, searched
    in order), and what to call it in a report."""

    name: str
    folder: str
    description: str
    more_folders: tuple[str, ...] = ()

    @property
    def folders(self) -> tuple[str, ...]:
        return (self.folder, *self.more_folders)


SETUPS: dict[str, Setup] = {setup.name: setup for setup in (
    Setup("0.18.0", "vkeys", "0.18.0's setup (Light's June-2025 setup: the light prover of "
                             "@lightprotocol/zk-compression-cli 0.18.0, for v2 that of 0.27.0)",
          ("vkeys-2025-06-v2",)),
    Setup("2025-10", "vkeys-2025-10", "today's setup (Light's programs since October 2025, light-protocol "
                                      "1bbc3ee6d)"),
)}
"""The setups a proof may verify under; where each key set comes from is written beside it
(`ledger_proofs/vkeys/SOURCE.md`, `vkeys-2025-06-v2/SOURCE.md`, `vkeys-2025-10/SOURCE.md`). The name
"0.18.0" stays the June-2025 setup's name in reports: its v1 keys are the ones 0.18.0 ships."""
ALIASES = {"2025-06": "0.18.0"}
"""Other names a caller may give a setup by."""
_order = list(SETUPS)
"""Names of the setups in the order they are tried: the last to verify a proof first."""


@dataclass(frozen=True)
class VerifyingKey:
    """A gnark BN254 Groth16 verifying key: α (G1), β, γ, δ (G2) and K₀…Kₙ (G1, n public inputs)."""

    name: str
    alpha: pairing.G1Affine
    beta: pairing.G2Affine
    gamma: pairing.G2Affine
    delta: pairing.G2Affine
    k: tuple[pairing.G1Affine, ...]

    @property
    def public_inputs(self) -> int:
        return len(self.k) - 1


def parse_vkey(name: str, text: str) -> VerifyingKey:
    """A `*.vkey` file: `[b0 b1 …]`, the raw big-endian key as gnark writes it (real-proofs.md):
    α (G1), β (G1), β (G2), γ (G2), δ (G1), δ (G2), a 4-byte count n, then n G1 points.
    G1 is x‖y, G2 is x.c1‖x.c0‖y.c1‖y.c0. ValueError when the bytes do not have that form."""
    numbers = [int(t) for t in re.findall(r"\d+", text)]
    if not numbers or any(n > 255 for n in numbers):
        raise ValueError(f"{name}: not a list of bytes")
    data = bytes(numbers)
    offset = 0

    def take(size: int) -> int:
        nonlocal offset
        if offset + size > len(data):
            raise ValueError(f"{name}: ends after {len(data)} bytes, in the middle of a field")
        value = int.from_bytes(data[offset:offset + size], "big")
        offset += size
        return value

    def g1() -> pairing.G1Affine:
        return take(32), take(32)

    def g2() -> pairing.G2Affine:
        x1, x0, y1, y0 = take(32), take(32), take(32), take(32)
        return (x0, x1), (y0, y1)

    alpha, _, beta, gamma, _, delta = g1(), g1(), g2(), g2(), g1(), g2()
    k = tuple(g1() for _ in range(take(4)))
    if offset != len(data):
        raise ValueError(f"{name}: {len(data) - offset} bytes left after the key")
    return VerifyingKey(name, alpha, beta, gamma, delta, k)


@cache
def verifying_key(circuit_name: str, setup: str = "0.18.0") -> VerifyingKey:
    """The published key of a circuit in a setup of `SETUPS`, shipped in `ledger_proofs/<folder>/` (its source
    named in the folder)."""
    paths = _key_paths(circuit_name, setup)
    path = next((p for p in paths if p.is_file()), paths[0])  # FileNotFoundError names the first folder
    return parse_vkey(circuit_name, path.read_text(encoding="ascii"))


def _key_paths(circuit_name: str, setup: str) -> list[Any]:
    package = resources.files(__package__)
    return [package / folder / f"{circuit_name}.vkey" for folder in SETUPS[ALIASES.get(setup, setup)].folders]


@cache
def has_key(circuit_name: str, setup: str) -> bool:
    """Whether a setup has a key for the circuit (October 2025 has v2 sizes June 2025 has not)."""
    return any(path.is_file() for path in _key_paths(circuit_name, setup))


@dataclass(frozen=True)
class _Prepared:
    key: VerifyingKey
    gamma_lines: pairing.Lines
    delta_lines: pairing.Lines
    alpha_beta: tuple[int, ...]  # the Miller loop of (β, α), an Fp12 element of `ledger_proofs.tower`


@cache
def _prepared(circuit_name: str, setup: str) -> _Prepared:
    key = verifying_key(circuit_name, setup)
    return _Prepared(key, pairing.lines(key.gamma), pairing.lines(key.delta),
                     pairing.miller_loop([(pairing.lines(key.beta), key.alpha)]))


@dataclass(frozen=True)
class Verdict:
    """Whether a proof verified, and under which setup; if not, why (a malformed point, a bad input, or
    the equation under every setup)."""

    verified: bool
    reason: str = ""
    setup: Setup | None = None


def verify_compressed(circuit: Circuit | V2Circuit, proof: Any, public_inputs: Sequence[int]) -> Verdict:
    """Verify a wire `compressedProof` {a, b, c} for `circuit` (v1 or v2) with its public inputs in circuit
    order, under each setup of `SETUPS` that has a key for it, until one holds.

    Never raises for anything a server could send: a malformed proof or an input that is not a
    field element is a Verdict that did not verify, with the reason.
    """
    problems = is_valid_compressed_proof(proof)
    if problems:
        return Verdict(False, "not a proof: " + "; ".join(problems[:3]))
    tried = [name for name in _order if has_key(circuit.name, name)]
    if not tried:
        return Verdict(False, f"no setup the kit knows has a key for {circuit.name}")
    expected = verifying_key(circuit.name, tried[0]).public_inputs  # every setup's key of a circuit takes as many
    if len(public_inputs) != expected:
        return Verdict(False, f"{len(public_inputs)} public inputs, {circuit.name} takes {expected}")
    for index, value in enumerate(public_inputs):
        if type(value) is not int or not 0 <= value < CURVE_ORDER:
            return Verdict(False, f"public input {index} is not a field element (an integer below r)")
    a = decompress_g1(bytes(proof["a"]))
    b_lines = pairing.lines(decompress_g2(bytes(proof["b"])))
    c = decompress_g1(bytes(proof["c"]))
    for name in tried:
        prepared = _prepared(circuit.name, name)
        vk_x = pairing.g1_combination(prepared.key.k[0], prepared.key.k[1:], public_inputs)
        f = pairing.miller_loop([(b_lines, a), (prepared.gamma_lines, vk_x), (prepared.delta_lines, c)])
        if pairing.is_one(pairing.final_exponentiation(tower.mul(f, prepared.alpha_beta))):
            if _order[0] != name:
                _order[:] = [name, *(n for n in _order if n != name)]
            return Verdict(True, setup=SETUPS[name])
    return Verdict(False, "the Groth16 equation e(A, B) = e(α, β)·e(vk_x, γ)·e(C, δ) does not hold under "
                          f"{' nor '.join(SETUPS[n].description for n in tried)}")


def verify_v2(circuit: V2Circuit, proof: Any, public_input_hash: int) -> Verdict:
    """Verify a v2 proof given its one public input (`circuits_v2.public_input_hash`): under Light's June-2025
    keys, then its October-2025 ones (or the last that held first), the verdict naming the setup."""
    return verify_compressed(circuit, proof, [public_input_hash])
