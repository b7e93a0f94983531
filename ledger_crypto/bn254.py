"""BN254 (alt_bn128) points in the compressed form of a Groth16 validity proof.

`compressedProof` is `{a: 32 bytes, b: 64 bytes, c: 32 bytes}` (ledger-facts.md, "Validity
proofs"): the x coordinate big-endian, G2's x as c1 ‖ c0, 0x80 on byte 0 when y is the larger of
its two roots, 0x40 alone for the point at infinity, and A already negated. This is what Solana's
`alt_bn128` decompression (arkworks flags, bytes reversed to big-endian) reads, and "larger" is
arkworks' order: an Fp element compared as an integer, an Fp2 element by c1 first, then c0.

Points are plain affine integers: G1 `(x, y)`, G2 `((x_c0, x_c1), (y_c0, y_c1))` over
Fp2 = Fp[u]/(u² + 1), and `None` for infinity. Constants and generators come from py_ecc. Written
here is what it lacks: the flag conventions, the Fp2 square root, and a fixed-base table that
makes a scalar multiplication cheap enough to run on every getValidityProof request (figures
against py_ecc's own in benchmarks/README.md).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

_RECURSION_LIMIT = sys.getrecursionlimit()
from py_ecc import optimized_bn128 as _ecc  # noqa: E402  (py_ecc raises the limit on import)

sys.setrecursionlimit(_RECURSION_LIMIT)  # keep the interpreter's stack-overflow guard: nothing here recurses

__all__ = [
    "BASE_MODULUS",
    "CURVE_ORDER",
    "G1_GENERATOR",
    "G2_GENERATOR",
    "G1Point",
    "G2Point",
    "compress_g1",
    "compress_g2",
    "decompress_g1",
    "decompress_g2",
    "fp2_inverse",
    "fp2_mul",
    "fp2_power",
    "in_g2_subgroup",
    "multiply_g1_generator",
    "multiply_g2_generator",
    "twist_frobenius",
]

Fp2 = tuple[int, int]
G1Point = tuple[int, int] | None
G2Point = tuple[Fp2, Fp2] | None

BASE_MODULUS: int = _ecc.field_modulus
"""p, the base field of the curve (not r, the scalar field Poseidon works in)."""
CURVE_ORDER: int = _ecc.curve_order
"""r, the order of G1 and G2."""
G1_GENERATOR: tuple[int, int] = (int(_ecc.G1[0]), int(_ecc.G1[1]))
G2_GENERATOR: tuple[Fp2, Fp2] = (
    (_ecc.G2[0].coeffs[0], _ecc.G2[0].coeffs[1]),
    (_ecc.G2[1].coeffs[0], _ecc.G2[1].coeffs[1]),
)

P = BASE_MODULUS
_B1 = int(_ecc.b)
_B2: Fp2 = (_ecc.b2.coeffs[0], _ecc.b2.coeffs[1])  # 3 / (9 + u)
_LARGER = 0x80
_INFINITY = 0x40
_FLAGS = _LARGER | _INFINITY


# --------------------------------------------------------------------------- fields


def fp2_mul(a: Fp2, b: Fp2) -> Fp2:
    t0, t1 = a[0] * b[0], a[1] * b[1]
    return (t0 - t1) % P, ((a[0] + a[1]) * (b[0] + b[1]) - t0 - t1) % P


def fp2_inverse(a: Fp2) -> Fp2:
    n = pow((a[0] * a[0] + a[1] * a[1]) % P, -1, P)
    return a[0] * n % P, -a[1] * n % P


def _fp_sqrt(a: int) -> int | None:
    """A square root in Fp, or None; p ≡ 3 (mod 4), so it is a^((p+1)/4) when one exists."""
    s = pow(a, (P + 1) // 4, P)
    return s if s * s % P == a % P else None


def _fp2_sqrt(a: Fp2) -> Fp2 | None:
    """A square root in Fp2 (u² = −1) through the norm, or None when `a` is not a square."""
    a0, a1 = a[0] % P, a[1] % P
    if a1 == 0:
        s = _fp_sqrt(a0)
        if s is not None:
            return s, 0
        s = _fp_sqrt(-a0 % P)  # −1 is not a square, so −a0 is: (s·u)² = a0
        return (0, s) if s is not None else None
    t = _fp_sqrt((a0 * a0 + a1 * a1) % P)
    if t is None:
        return None
    half = pow(2, -1, P)
    x0 = _fp_sqrt((a0 + t) * half % P)
    if x0 is None:
        x0 = _fp_sqrt((a0 - t) * half % P)
    if x0 is None:
        return None
    root = (x0, a1 * pow(2 * x0, -1, P) % P)
    return root if fp2_mul(root, root) == (a0, a1) else None


@dataclass(frozen=True)
class _Field:
    """The operations the curve formulas need, so one set of formulas serves G1 and G2."""

    zero: Any
    one: Any
    add: Callable[[Any, Any], Any]
    sub: Callable[[Any, Any], Any]
    mul: Callable[[Any, Any], Any]
    inv: Callable[[Any], Any]


_FP = _Field(0, 1, lambda a, b: (a + b) % P, lambda a, b: (a - b) % P, lambda a, b: a * b % P, lambda a: pow(a, -1, P))
_FP2 = _Field(
    (0, 0),
    (1, 0),
    lambda a, b: ((a[0] + b[0]) % P, (a[1] + b[1]) % P),
    lambda a, b: ((a[0] - b[0]) % P, (a[1] - b[1]) % P),
    fp2_mul,
    fp2_inverse,
)


# --------------------------------------------------------------------------- curve arithmetic
# Jacobian (X, Y, Z) for y² = x³ + b, a = 0; None is infinity.


def _double(f: _Field, pt: tuple | None) -> tuple | None:
    if pt is None:
        return None
    x, y, z = pt
    a, b = f.mul(x, x), f.mul(y, y)
    c = f.mul(b, b)
    d = f.sub(f.sub(f.mul(f.add(x, b), f.add(x, b)), a), c)
    d = f.add(d, d)
    e = f.add(f.add(a, a), a)
    x3 = f.sub(f.mul(e, e), f.add(d, d))
    c8 = f.add(c, c)
    c8 = f.add(c8, c8)
    y3 = f.sub(f.mul(e, f.sub(d, x3)), f.add(c8, c8))
    yz = f.mul(y, z)
    return x3, y3, f.add(yz, yz)


def _add_affine(f: _Field, pt: tuple | None, q: tuple) -> tuple | None:
    """Jacobian `pt` plus affine `q` (mixed addition, 8M + 3S)."""
    if pt is None:
        return q[0], q[1], f.one
    x1, y1, z1 = pt
    zz = f.mul(z1, z1)
    h = f.sub(f.mul(q[0], zz), x1)
    rr = f.sub(f.mul(q[1], f.mul(z1, zz)), y1)
    if h == f.zero:
        return _double(f, pt) if rr == f.zero else None
    hh = f.mul(h, h)
    hhh, v = f.mul(h, hh), f.mul(x1, hh)
    x3 = f.sub(f.sub(f.mul(rr, rr), hhh), f.add(v, v))
    y3 = f.sub(f.mul(rr, f.sub(v, x3)), f.mul(y1, hhh))
    return x3, y3, f.mul(z1, h)


def _to_affine(f: _Field, pt: tuple | None) -> tuple | None:
    if pt is None:
        return None
    zi = f.inv(pt[2])
    zi2 = f.mul(zi, zi)
    return f.mul(pt[0], zi2), f.mul(pt[1], f.mul(zi2, zi))


_WINDOW = 8
_ROWS = -(-256 // _WINDOW)
_DIGITS = (1 << _WINDOW) - 1


@cache
def _table(f: _Field, base: tuple) -> tuple[tuple[tuple, ...], ...]:
    """Row w holds j·2^(8w)·base for j = 1..255, affine: 32 rows cover every scalar below 2^256.

    Built once, one field inversion per row; a multiplication then takes at most 32 mixed
    additions.
    """
    rows = []
    for _ in range(_ROWS):
        acc, jacobian = _add_affine(f, None, base), []
        for _ in range(_DIGITS):
            jacobian.append(acc)
            acc = _add_affine(f, acc, base)
        rows.append(_batch_affine(f, jacobian))
        base = _to_affine(f, acc)
    return tuple(rows)


def _batch_affine(f: _Field, points: list[tuple]) -> tuple[tuple, ...]:
    """Jacobian points (none at infinity) to affine with one inversion (Montgomery's trick)."""
    prefix = [f.one]
    for point in points:
        prefix.append(f.mul(prefix[-1], point[2]))
    inverse = f.inv(prefix[-1])
    out: list[tuple] = [()] * len(points)
    for i in range(len(points) - 1, -1, -1):
        zi = f.mul(inverse, prefix[i])  # 1 / z_i
        inverse = f.mul(inverse, points[i][2])
        zi2 = f.mul(zi, zi)
        out[i] = (f.mul(points[i][0], zi2), f.mul(points[i][1], f.mul(zi2, zi)))
    return tuple(out)


def _fixed_multiply(f: _Field, base: tuple, k: int) -> tuple | None:
    """k·base with at most 32 additions from the cached table of `base`."""
    acc, table = None, _table(f, base)
    for w in range(_ROWS):
        digit = (k >> (_WINDOW * w)) & _DIGITS
        if digit:
            acc = _add_affine(f, acc, table[w][digit - 1])
    return _to_affine(f, acc)


def multiply_g1_generator(k: int) -> G1Point:
    """k·G1, from the generator's table (built on the first call): cheap enough for every request."""
    return _fixed_multiply(_FP, G1_GENERATOR, k)


def multiply_g2_generator(k: int) -> G2Point:
    """k·G2, from the generator's table (built on the first call): cheap enough for every request."""
    return _fixed_multiply(_FP2, G2_GENERATOR, k)


def fp2_power(a: Fp2, e: int) -> Fp2:
    out = (1, 0)
    while e:
        if e & 1:
            out = fp2_mul(out, a)
        a, e = fp2_mul(a, a), e >> 1
    return out


_BN_X = 4965661367192848881
"""The BN parameter of the curve: p and r are polynomials in it, and p − r = 6x²."""
_PSI_X = fp2_power((9, 1), (P - 1) // 3)
_PSI_Y = fp2_power((9, 1), (P - 1) // 2)


def _naf(k: int) -> tuple[int, ...]:
    """Digits of k in {−1, 0, 1}, most significant first, no two adjacent non-zero."""
    digits = []
    while k:
        digit = 2 - (k % 4) if k % 2 else 0
        digits.append(digit)
        k = (k - digit) // 2
    return tuple(reversed(digits))


_SIX_X_SQUARED = _naf(6 * _BN_X * _BN_X)


def _g2_double(pt: tuple[Fp2, Fp2, Fp2] | None) -> tuple[Fp2, Fp2, Fp2] | None:
    """`_double` over Fp2 with the field operations written out: the membership test's hot loop."""
    if pt is None:
        return None
    (x0, x1), (y0, y1), (z0, z1) = pt
    a0, a1 = (x0 + x1) * (x0 - x1) % P, 2 * x0 * x1 % P
    b0, b1 = (y0 + y1) * (y0 - y1) % P, 2 * y0 * y1 % P
    c0, c1 = (b0 + b1) * (b0 - b1) % P, 2 * b0 * b1 % P
    s0, s1 = x0 + b0, x1 + b1
    d0, d1 = 2 * ((s0 + s1) * (s0 - s1) - a0 - c0) % P, 2 * (2 * s0 * s1 - a1 - c1) % P
    e0, e1 = 3 * a0, 3 * a1
    x3 = ((e0 + e1) * (e0 - e1) - 2 * d0) % P, (2 * e0 * e1 - 2 * d1) % P
    u0, u1 = d0 - x3[0], d1 - x3[1]
    t0, t1 = e0 * u0, e1 * u1
    y3 = (t0 - t1 - 8 * c0) % P, ((e0 + e1) * (u0 + u1) - t0 - t1 - 8 * c1) % P
    t0, t1 = y0 * z0, y1 * z1
    return x3, y3, (2 * (t0 - t1) % P, 2 * ((y0 + y1) * (z0 + z1) - t0 - t1) % P)


def twist_frobenius(point: tuple[Fp2, Fp2]) -> tuple[Fp2, Fp2]:
    """ψ(Q): the p-power Frobenius of a twist point's untwisted image, twisted back, (x̄·ξ^((p−1)/3),
    ȳ·ξ^((p−1)/2)) with ξ = 9 + u. On G2 it is multiplication by p; the Miller loop's last lines use it."""
    (x0, x1), (y0, y1) = point
    return fp2_mul((x0, -x1 % P), _PSI_X), fp2_mul((y0, -y1 % P), _PSI_Y)


def in_g2_subgroup(point: tuple[Fp2, Fp2]) -> bool:
    """Whether a point of the twist is in G2, the subgroup of order r: ψ(Q) = [6x²]Q.

    ψ is the twist's Frobenius endomorphism, (x̄·ξ^((p−1)/3), ȳ·ξ^((p−1)/2)) with ξ = 9 + u; on
    G2 it multiplies by p ≡ 6x² (mod r), and on the rest of the twist it does not (the test
    gnark-crypto uses for this curve). A 127-bit multiplication instead of [r]Q = O's 254 bits.
    """
    negated = (point[0], (-point[1][0] % P, -point[1][1] % P))
    acc = None
    for digit in _SIX_X_SQUARED:
        acc = _g2_double(acc)
        if digit:
            acc = _add_affine(_FP2, acc, point if digit > 0 else negated)
    return _to_affine(_FP2, acc) == twist_frobenius(point)


def _on_g1(x: int, y: int) -> bool:
    return (y * y - x * x * x - _B1) % P == 0


def _on_g2(x: Fp2, y: Fp2) -> bool:
    return fp2_mul(y, y) == _FP2.add(fp2_mul(fp2_mul(x, x), x), _B2)


def _fp2_larger(y: Fp2) -> bool:
    """y > −y in arkworks' order (c1, then c0).

    The ledger's clients (Photon's `y_element_is_positive_g2`, the JS `yElementIsPositiveG2`)
    test c1 against the midpoint and fall back to c0 only on a tie: the same answer for every
    y with c1 ≠ 0, which is every y a prover will ever produce.
    """
    neg = (-y[0] % P, -y[1] % P)
    return (y[1], y[0]) > (neg[1], neg[0])


# --------------------------------------------------------------------------- compression


def compress_g1(point: G1Point) -> bytes:
    """32 bytes: x big-endian, 0x80 when y > p − y, or 0x40 and zeros for infinity."""
    if point is None:
        return bytes([_INFINITY]) + bytes(31)
    x, y = point
    if not (0 <= x < P and 0 <= y < P and _on_g1(x, y)):
        raise ValueError(f"not a G1 point: ({x}, {y})")
    out = bytearray(x.to_bytes(32, "big"))
    if y > P - y:
        out[0] |= _LARGER
    return bytes(out)


def compress_g2(point: G2Point) -> bytes:
    """64 bytes: x as c1 ‖ c0 big-endian, 0x80 when y is the larger root, 0x40 for infinity."""
    if point is None:
        return bytes([_INFINITY]) + bytes(63)
    x, y = point
    if not (all(0 <= v < P for v in (*x, *y)) and _on_g2(x, y)):
        raise ValueError(f"not a G2 point: ({x}, {y})")
    out = bytearray(x[1].to_bytes(32, "big") + x[0].to_bytes(32, "big"))
    if _fp2_larger(y):
        out[0] |= _LARGER
    return bytes(out)


def _read_flags(name: str, data: Any, size: int) -> tuple[bool, bool, bytes]:
    """(infinity, larger, bytes with the flag bits cleared), or ValueError."""
    if not isinstance(data, bytes | bytearray | memoryview):
        raise ValueError(f"{name}: expected bytes, got {type(data).__name__}")
    raw = bytearray(data)
    if len(raw) != size:
        raise ValueError(f"{name}: expected {size} bytes, got {len(raw)}")
    flags, raw[0] = raw[0] & _FLAGS, raw[0] & ~_FLAGS & 0xFF
    if flags == _FLAGS:
        raise ValueError(f"{name}: both the infinity (0x40) and the larger-root (0x80) flag are set")
    if flags == _INFINITY and any(raw):
        raise ValueError(f"{name}: infinity flag (0x40) with a non-zero x")
    return flags == _INFINITY, flags == _LARGER, bytes(raw)


def decompress_g1(data: bytes) -> G1Point:
    """The G1 point of 32 compressed bytes; ValueError for a wrong length, x ≥ p, bad flags or no point."""
    infinity, larger, raw = _read_flags("G1 point", data, 32)
    if infinity:
        return None
    x = int.from_bytes(raw, "big")
    if x >= P:
        raise ValueError(f"G1 point: x = {x} is not below the field modulus p")
    y = _fp_sqrt((x * x * x + _B1) % P)
    if y is None:
        raise ValueError(f"G1 point: no point with x = {x} (x³ + 3 is not a square)")
    return x, (P - y if (y > P - y) != larger else y) % P


def decompress_g2(data: bytes) -> G2Point:
    """The G2 point of 64 compressed bytes (x as c1 ‖ c0); ValueError like `decompress_g1`.

    Checks the twist equation only; `is_valid_compressed_proof` also checks the subgroup.
    """
    infinity, larger, raw = _read_flags("G2 point", data, 64)
    if infinity:
        return None
    x = (int.from_bytes(raw[32:], "big"), int.from_bytes(raw[:32], "big"))
    if x[0] >= P or x[1] >= P:
        raise ValueError(f"G2 point: x = {x[0]} + {x[1]}·u has a part not below the field modulus p")
    y = _fp2_sqrt(_FP2.add(fp2_mul(fp2_mul(x, x), x), _B2))
    if y is None:
        raise ValueError(f"G2 point: no point with x = {x[0]} + {x[1]}·u (x³ + b is not a square)")
    return x, (y if _fp2_larger(y) == larger else (-y[0] % P, -y[1] % P))
