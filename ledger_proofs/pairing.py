"""A product of BN254 pairings with one final exponentiation, fast enough to verify a proof in a run.

py_ecc (`optimized_bn128`) gives the fields, the curve formulas and a correct pairing, but one
pairing takes about 0.4 s: its Miller loop doubles the G2 point inside Fp12, and its final
exponentiation is a plain power. A Groth16 check needs four pairings. Written here is only what
py_ecc lacks, on py_ecc's own field and curve types:

- one Miller loop for several pairs, sharing the squarings of the accumulator;
- the G2 side of the loop (point steps and line coefficients) done in Fp2 on the twist, and
  cached for a fixed G2 point (a verifying key's γ and δ), so a pair costs only the line
  evaluations at its G1 point;
- denominators dropped (each lies in a proper subfield that the final exponentiation sends to 1);
- the final exponentiation as its easy part through Frobenius maps (precomputed 12×12 matrices
  over Fp) followed by the hard part (p⁴ − p² + 1)/r.

Same schedule as py_ecc's `miller_loop`, so `pairing_product([(Q, P)])` equals
`py_ecc.optimized_bn128.pairing(Q, P)` (tests/ledger_proofs/test_pairing.py checks it).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from functools import cache

_RECURSION_LIMIT = sys.getrecursionlimit()
from py_ecc.fields import optimized_bn128_FQ2 as FQ2  # noqa: E402  (py_ecc raises the limit on import)
from py_ecc.fields import optimized_bn128_FQ12 as FQ12  # noqa: E402
from py_ecc.optimized_bn128 import add, curve_order, double, field_modulus  # noqa: E402
from py_ecc.optimized_bn128.optimized_pairing import pseudo_binary_encoding  # noqa: E402

sys.setrecursionlimit(_RECURSION_LIMIT)  # as ledger_crypto.bn254 does: nothing here recurses

__all__ = ["G1Affine", "G2Affine", "Lines", "final_exponentiation", "g1_combination", "is_one", "lines",
           "miller_loop", "pairing_product"]

P = field_modulus
G1Affine = tuple[int, int]
G2Affine = tuple[tuple[int, int], tuple[int, int]]
"""((x.c0, x.c1), (y.c0, y.c1)) over Fp2 = Fp[u]/(u² + 1), as ledger_crypto.bn254 writes G2 points."""
Line = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
"""A line as three Fp12 coefficient vectors (Lx, Ly, L0): its value at (x, y) is x·Lx + y·Ly + L0."""
Lines = tuple[Line, ...]

_XI = FQ2([9, 1])
_GAMMA_X = _XI ** ((P - 1) // 3)  # w^(2(p−1)): the Frobenius of a twisted x coordinate
_GAMMA_Y = _XI ** ((P - 1) // 2)  # w^(3(p−1)): same for y


def _schedule() -> tuple[bool, ...]:
    """For each line of the loop, whether the accumulator is squared before it is multiplied in."""
    steps: list[bool] = []
    for digit in pseudo_binary_encoding[63::-1]:
        steps.append(True)
        if digit:
            steps.append(False)
    return (*steps, False, False)


_SCHEDULE = _schedule()


def _embed(out: list[int], value: FQ2, power: int) -> None:
    """Add value·w^power to the Fp12 coefficients `out` (u = w⁶ − 9 and w¹² = 18w⁶ − 82, py_ecc's basis)."""
    a, b = value.coeffs
    if power < 6:
        out[power] += a - 9 * b
        out[power + 6] += b
    else:
        out[power] += a + 9 * b
        out[power - 6] -= 82 * b


def _line(x_part: tuple[FQ2, int], y_part: tuple[FQ2, int], constant: tuple[FQ2, int]) -> Line:
    vectors = []
    for value, power in (x_part, y_part, constant):
        coeffs = [0] * 12
        _embed(coeffs, value, power)
        vectors.append(tuple(c % P for c in coeffs))
    return vectors[0], vectors[1], vectors[2]


def _line_through(r: tuple, q: tuple) -> Line:
    """The line through R and Q (the tangent when they are equal), both on the twist in homogeneous Fp2
    coordinates, mapped into Fp12 and written as a function of the G1 point (py_ecc's `linefunc`
    without its denominator)."""
    x1, y1, z1 = r
    x2, y2, z2 = q
    a = y2 * z1 - y1 * z2
    b = x2 * z1 - x1 * z2
    if b != FQ2.zero():
        return _line((a * z1, 3), (-(b * z1), 2), (b * y1 - a * x1, 5))
    if a == FQ2.zero():
        return _line((3 * x1 * x1 * z1, 4), (-(2 * y1 * z1 * z1), 3), (2 * y1 * y1 * z1 - 3 * x1 * x1 * x1, 6))
    return _line((z1, 0), (FQ2.zero(), 0), (-x1, 2))


def _frobenius_point(q: tuple) -> tuple:
    x, y, z = q
    conj = lambda v: FQ2([v.coeffs[0], -v.coeffs[1]])  # noqa: E731
    return conj(x) * _GAMMA_X, conj(y) * _GAMMA_Y, conj(z)


def lines(q: G2Affine) -> Lines:
    """Every line of the Miller loop for the G2 point `q`, in loop order: cache them for a fixed point."""
    start = (FQ2(list(q[0])), FQ2(list(q[1])), FQ2.one())
    negated = (start[0], -start[1], start[2])
    r = start
    out: list[Line] = []
    for digit in pseudo_binary_encoding[63::-1]:
        out.append(_line_through(r, r))
        r = double(r)
        if digit:
            step = start if digit == 1 else negated
            out.append(_line_through(r, step))
            r = add(r, step)
    q1 = _frobenius_point(start)
    q2 = _frobenius_point(q1)
    out.append(_line_through(r, q1))
    r = add(r, q1)
    out.append(_line_through(r, (q2[0], -q2[1], q2[2])))
    return tuple(out)


def _evaluate(line: Line, x: int, y: int) -> FQ12:
    lx, ly, l0 = line
    return FQ12([x * lx[i] + y * ly[i] + l0[i] for i in range(12)])


def miller_loop(pairs: Sequence[tuple[Lines, G1Affine | None]]) -> FQ12:
    """The product of the Miller loops of (lines of Q, P) pairs, one shared accumulator; None is infinity."""
    live = [(q_lines, p) for q_lines, p in pairs if p is not None]
    f = FQ12.one()
    for index, square in enumerate(_SCHEDULE):
        if square:
            f = f * f
        for q_lines, (x, y) in live:
            f = f * _evaluate(q_lines[index], x, y)
    return f


@cache
def _frobenius_matrix(power: int) -> tuple[tuple[int, ...], ...]:
    """Row i holds (w^i)^(p^power): the Frobenius map is Fp-linear on Fp12's 12 coordinates."""
    if power == 1:
        wp = FQ12([0, 1] + [0] * 10) ** P
        rows, row = [], FQ12.one()
        for _ in range(12):
            rows.append(row.coeffs)
            row = row * wp
        return tuple(rows)
    return tuple(_frobenius(FQ12(list(row)), power - 1).coeffs for row in _frobenius_matrix(1))


def _frobenius(f: FQ12, power: int) -> FQ12:
    matrix = _frobenius_matrix(power)
    coeffs = f.coeffs
    return FQ12([sum(coeffs[i] * matrix[i][j] for i in range(12)) for j in range(12)])


_HARD = (P**4 - P**2 + 1) // curve_order


BN_U = 4965661367192848881
"""The BN curve parameter u: p and r are polynomials in it, and so is the hard part of the exponent."""


def final_exponentiation(f: FQ12) -> FQ12:
    """f^((p¹² − 1)/r): the easy part (p⁶ − 1)(p² + 1) through Frobenius maps, then the hard part
    (p⁴ − p² + 1)/r as three powers of u and Frobenius maps (the addition chain go-ethereum's bn256
    uses; in the cyclotomic subgroup the conjugate, Frobenius 6, is the inverse). It equals
    `hard_part_by_power` (tests/ledger_proofs/test_pairing.py) at a third of its cost."""
    t1 = _frobenius(f, 6) * f.inv()
    t1 = _frobenius(t1, 2) * t1
    fp, fp2 = _frobenius(t1, 1), _frobenius(t1, 2)
    fp3 = _frobenius(fp2, 1)
    fu = t1**BN_U
    fu2 = fu**BN_U
    fu3 = fu2**BN_U
    y0 = fp * fp2 * fp3
    y1 = _frobenius(t1, 6)
    y2 = _frobenius(fu2, 2)
    y3 = _frobenius(_frobenius(fu, 1), 6)
    y4 = _frobenius(fu * _frobenius(fu2, 1), 6)
    y5 = _frobenius(fu2, 6)
    y6 = _frobenius(fu3 * _frobenius(fu3, 1), 6)
    t0 = y6 * y6 * y4 * y5
    t1 = y3 * y5 * t0
    t0 = t0 * y2
    t1 = t1 * t1 * t0
    t1 = t1 * t1
    t0, t1 = t1 * y1, t1 * y0
    return t0 * t0 * t1


def hard_part_by_power(f: FQ12) -> FQ12:
    """The same exponentiation as one plain power of the hard part: the definition the chain is tested against."""
    easy = _frobenius(f, 6) * f.inv()
    easy = _frobenius(easy, 2) * easy
    return easy**_HARD


def is_one(f: FQ12) -> bool:
    return f == FQ12.one()


def pairing_product(pairs: Sequence[tuple[G2Affine, G1Affine | None]]) -> FQ12:
    """Π e(Q, P) over the pairs with one final exponentiation (uncached lines: for tests and one-offs)."""
    return final_exponentiation(miller_loop([(lines(q), p) for q, p in pairs]))


def _jacobian_double(point: tuple[int, int, int] | None) -> tuple[int, int, int] | None:
    if point is None:
        return None
    x, y, z = point
    a, b = x * x % P, y * y % P
    c = b * b % P
    d = 2 * ((x + b) * (x + b) - a - c) % P
    e = 3 * a % P
    x3 = (e * e - 2 * d) % P
    return x3, (e * (d - x3) - 8 * c) % P, 2 * y * z % P


def _jacobian_add(point: tuple[int, int, int] | None, other: G1Affine) -> tuple[int, int, int] | None:
    """A Jacobian point plus an affine one (the mixed addition of y² = x³ + b, a = 0)."""
    if point is None:
        return other[0], other[1], 1
    x1, y1, z1 = point
    zz = z1 * z1 % P
    h = (other[0] * zz - x1) % P
    r = 2 * (other[1] * z1 * zz - y1) % P
    if h == 0:
        return _jacobian_double(point) if r == 0 else None
    hh = h * h % P
    i = 4 * hh % P
    j, v = h * i % P, x1 * i % P
    x3 = (r * r - j - 2 * v) % P
    return x3, (r * (v - x3) - 2 * y1 * j) % P, ((z1 + h) * (z1 + h) - zz - hh) % P


def g1_combination(base: G1Affine, points: Sequence[G1Affine], scalars: Sequence[int]) -> G1Affine | None:
    """base + Σ scalarᵢ·pointᵢ (a verifying key's vk_x), None for infinity.

    One chain of doublings for all the scalars (Straus), in Jacobian coordinates over plain
    integers: about 10 ms for 16 inputs where py_ecc's `multiply` per input takes 150 ms.
    """
    pairs = [(scalar % curve_order, point) for scalar, point in zip(scalars, points, strict=True)]
    total: tuple[int, int, int] | None = None
    for bit in range(max((k.bit_length() for k, _ in pairs), default=0) - 1, -1, -1):
        total = _jacobian_double(total)
        for scalar, point in pairs:
            if scalar >> bit & 1:
                total = _jacobian_add(total, point)
    total = _jacobian_add(total, base)
    if total is None or total[2] == 0:
        return None
    zi = pow(total[2], -1, P)
    return total[0] * zi * zi % P, total[1] * zi * zi * zi % P
