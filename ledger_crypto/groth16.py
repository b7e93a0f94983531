"""Groth16 proofs as `compressedProof` carries them: {a, b, c}, compressed BN254 points.

Three uses: judge a proof a server sent (`is_valid_compressed_proof`, for the harness), convert
a prover's gnark JSON (`proof_from_gnark`), and make well-formed points without a prover
(`deterministic_proof`, for the reference server). The curve arithmetic is in `bn254`.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from typing import Any

from csi_conformance.ledger_crypto.bn254 import (
    CURVE_ORDER,
    G1Point,
    G2Point,
    P,
    compress_g1,
    compress_g2,
    decompress_g1,
    decompress_g2,
    in_g2_subgroup,
    multiply_g1_generator,
    multiply_g2_generator,
)

__all__ = ["deterministic_proof", "is_valid_compressed_proof", "proof_from_gnark"]

_SIZES = {"a": 32, "b": 64, "c": 32}
_HEX = re.compile(r"(0x)?[0-9a-fA-F]{1,64}")


def _point_problem(name: str, value: Any) -> str | None:
    """Why `value` is not a compressed proof point `name`, or None; never raises."""
    size = _SIZES[name]
    if not isinstance(value, list):
        return f"{name}: expected a JSON array of {size} bytes, got {type(value).__name__}"
    if len(value) != size:
        return f"{name}: expected {size} bytes, got {len(value)}"
    for i, v in enumerate(value):
        if type(v) is not int:
            return f"{name}[{i}]: a {type(v).__name__} is not a byte (an integer 0..255)"
        if not 0 <= v <= 255:
            shown = str(v) if v.bit_length() <= 64 else f"an integer of {v.bit_length()} bits"
            return f"{name}[{i}]: {shown} is not a byte (an integer 0..255)"
    return _curve_problem(name, bytes(value))


@lru_cache(maxsize=1024)
def _curve_problem(name: str, data: bytes) -> str | None:
    """Why `data` is not a point of its group other than infinity, or None. Cached: one proof is
    judged by several checks, and the G2 membership test is a scalar multiplication on the twist."""
    try:
        if name != "b":
            point = decompress_g1(data)
        else:
            point = decompress_g2(data)
            if point is not None and not in_g2_subgroup(point):
                return "b: point on the twist but not in the G2 subgroup of order r"
    except ValueError as exc:
        return f"{name}: {exc}"
    if point is None:
        return f"{name}: the point at infinity (a Groth16 proof never holds one)"
    return None


def is_valid_compressed_proof(proof: Any) -> list[str]:
    """Problems of a `compressedProof` {a, b, c} as the wire carries it; empty when well-formed.

    Well-formed means each part has its length, byte values 0..255 and decompresses to a
    point of its group other than infinity. That is all the harness can check without the
    verifying keys: it says nothing about whether the proof verifies. Never raises.
    """
    if not isinstance(proof, dict):
        return [f"compressedProof: expected an object with a, b and c, got {type(proof).__name__}"]
    problems = []
    for name in _SIZES:
        if name not in proof:
            problems.append(f"{name}: missing")
            continue
        problem = _point_problem(name, proof[name])
        if problem:
            problems.append(problem)
    return problems


def _scalar(seed: bytes, label: bytes) -> int:
    k = int.from_bytes(hashlib.sha256(seed + label).digest(), "big") % CURVE_ORDER
    return k or 1


def _proof_dict(a: G1Point, b: G2Point, c: G1Point) -> dict[str, list[int]]:
    return {"a": list(compress_g1(a)), "b": list(compress_g2(b)), "c": list(compress_g1(c))}


def _neg_g1(point: G1Point) -> G1Point:
    return None if point is None else (point[0], -point[1] % P)


def deterministic_proof(seed: bytes) -> dict[str, list[int]]:
    """Three well-formed compressed points that depend only on `seed`: NOT a proof.

    For serving `compressedProof` without a prover (the real proving keys are not available
    offline). Scalars k = sha256(seed ‖ label) mod r, then A = −(k_a·G1), B = k_b·G2,
    C = k_c·G1, so the points are in their groups, A is "already negated" like a real one,
    and different seeds give different points. Cheap once the generators' tables are built.
    """
    a = _neg_g1(multiply_g1_generator(_scalar(seed, b"A")))
    b = multiply_g2_generator(_scalar(seed, b"B"))
    c = multiply_g1_generator(_scalar(seed, b"C"))
    return _proof_dict(a, b, c)


def _field_element(where: str, value: Any) -> int:
    if not isinstance(value, str) or not _HEX.fullmatch(value):
        raise ValueError(f"{where}: expected a hex string, got {str(value)[:80]!r}")
    n = int(value, 16)
    if n >= P:
        raise ValueError(f"{where}: {value} is not below the field modulus p")
    return n


def _pair(where: str, value: Any) -> list[Any]:
    if not isinstance(value, list) or len(value) != 2:
        raise ValueError(f"{where}: expected an array of 2 elements")
    return value


def proof_from_gnark(gnark: Any) -> dict[str, list[int]]:
    """The compressed {a, b, c} of the prover's gnark proof JSON, with A negated.

    Layout, as the light prover writes it (`prover/marshal.go`, gnark's raw point order):
    `ar` = [x, y], `bs` = [[x.c1, x.c0], [y.c1, y.c0]], `krs` = [x, y], each a 0x-hex
    string without zero padding. Photon and the JS client read the same layout. ValueError
    for anything else, including a coordinate pair that is not a point of its group's curve.
    """
    if not isinstance(gnark, dict):
        raise ValueError(f"gnark proof: expected an object with ar, bs and krs, got {type(gnark).__name__}")
    for key in ("ar", "bs", "krs"):
        if key not in gnark:
            raise ValueError(f"gnark proof: missing {key}")
    ax, ay = (_field_element(f"ar[{i}]", v) for i, v in enumerate(_pair("ar", gnark["ar"])))
    cx, cy = (_field_element(f"krs[{i}]", v) for i, v in enumerate(_pair("krs", gnark["krs"])))
    bs = [_pair(f"bs[{i}]", row) for i, row in enumerate(_pair("bs", gnark["bs"]))]
    (bx1, bx0), (by1, by0) = (
        (_field_element(f"bs[{i}][{j}]", v) for j, v in enumerate(row)) for i, row in enumerate(bs)
    )
    return _proof_dict(_neg_g1((ax, ay)), ((bx0, bx1), (by0, by1)), (cx, cy))
