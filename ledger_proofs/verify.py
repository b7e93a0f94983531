"""Groth16 verification of a `compressedProof` against the light prover's published verifying keys.

e(A, B) = e(α, β) · e(vk_x, γ) · e(C, δ), with vk_x = K₀ + Σ pubᵢ·Kᵢ₊₁ (real-proofs.md). The wire's
`a` is −A already (ledger-facts.md, "Validity proofs"), so the check is that the product
e(a, B) · e(α, β) · e(vk_x, γ) · e(C, δ) is one: four Miller loops, one final exponentiation, with
the key's side (γ and δ lines, the α·β loop) computed once per circuit and cached.
"""

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

__all__ = ["Verdict", "VerifyingKey", "parse_vkey", "verify_compressed", "verifying_key"]


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
def verifying_key(circuit_name: str) -> VerifyingKey:
    """The published key of a circuit, shipped in `ledger_proofs/vkeys/` (see `ledger_proofs/vkeys/SOURCE.md`)."""
    path = resources.files(__package__) / "vkeys" / f"{circuit_name}.vkey"
    return parse_vkey(circuit_name, path.read_text(encoding="ascii"))


@dataclass(frozen=True)
class _Prepared:
    key: VerifyingKey
    gamma_lines: pairing.Lines
    delta_lines: pairing.Lines
    alpha_beta: tuple[int, ...]  # the Miller loop of (β, α), an Fp12 element of `ledger_proofs.tower`


@cache
def _prepared(circuit_name: str) -> _Prepared:
    key = verifying_key(circuit_name)
    return _Prepared(key, pairing.lines(key.gamma), pairing.lines(key.delta),
                     pairing.miller_loop([(pairing.lines(key.beta), key.alpha)]))


@dataclass(frozen=True)
class Verdict:
    """Whether a proof verified, and if not, why (a malformed point, a bad input, or the equation)."""

    verified: bool
    reason: str = ""


def verify_compressed(circuit: Circuit, proof: Any, public_inputs: Sequence[int]) -> Verdict:
    """Verify a wire `compressedProof` {a, b, c} for `circuit` with its public inputs in circuit order.

    Never raises for anything a server could send: a malformed proof or an input that is not a
    field element is a Verdict that did not verify, with the reason.
    """
    problems = is_valid_compressed_proof(proof)
    if problems:
        return Verdict(False, "not a proof: " + "; ".join(problems[:3]))
    prepared = _prepared(circuit.name)
    if len(public_inputs) != prepared.key.public_inputs:
        return Verdict(False, f"{len(public_inputs)} public inputs, {circuit.name} takes {prepared.key.public_inputs}")
    for index, value in enumerate(public_inputs):
        if type(value) is not int or not 0 <= value < CURVE_ORDER:
            return Verdict(False, f"public input {index} is not a field element (an integer below r)")
    a = decompress_g1(bytes(proof["a"]))
    b = decompress_g2(bytes(proof["b"]))
    c = decompress_g1(bytes(proof["c"]))
    vk_x = pairing.g1_combination(prepared.key.k[0], prepared.key.k[1:], public_inputs)
    f = pairing.miller_loop([(pairing.lines(b), a), (prepared.gamma_lines, vk_x), (prepared.delta_lines, c)])
    if pairing.is_one(pairing.final_exponentiation(tower.mul(f, prepared.alpha_beta))):
        return Verdict(True)
    return Verdict(False, "the Groth16 equation e(A, B) = e(α, β)·e(vk_x, γ)·e(C, δ) does not hold")
