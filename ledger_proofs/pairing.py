"""A product of BN254 pairings with one final exponentiation, fast enough to verify a proof in a run.

py_ecc (`optimized_bn128`) has a correct pairing, but too slow for a run: its Miller loop
works in its generic FQ12 polynomial class, and so does its final exponentiation, a plain power.
A Groth16 check needs four pairings. Written here, on plain integers and the Fp2 → Fp6 → Fp12
tower of `ledger_proofs.tower` (whose products cost a fraction of py_ecc's FQ12 ones):

- one Miller loop for several pairs, sharing the squares of the accumulator: the NAF of 6u + 2,
  then the two Frobenius lines of the optimal ate pairing;
- the G2 side of the loop (point steps and line coefficients) done once per G2 point on the
  twist, in homogeneous projective Fp2 coordinates (the doubling and mixed addition of
  Costello–Lange–Naehrig, in arkworks' form for a D-type twist), and cached for a fixed point (a
  verifying key's β, γ and δ). A line c0·y + (c3·x + c4·v)·w is stored divided by c0, so at a
  G1 point it is 1 + (q·x/y + r·v/y)·w: a pair costs scaling q and r, and one sparse product;
- line denominators and constant factors dropped (each lies in a proper subfield that the final
  exponentiation sends to 1), so Miller loop values differ from py_ecc's but not the pairing;
- the final exponentiation as its easy part (p⁶ − 1)(p² + 1) by a conjugation, one inverse and a
  Frobenius map, then the hard part (p⁴ − p² + 1)/r as three powers of u with cyclotomic squares
  and Frobenius maps (the chain of go-ethereum's bn256).

`pairing_product([(Q, P)])` equals `py_ecc.optimized_bn128.pairing(Q, P)` under `tower.to_py_ecc`
(tests/ledger_proofs/test_pairing.py checks it); what a pairing and a Groth16 verification (lines
of the proof's B, a Miller loop of three pairs, the final exponentiation) cost here and on py_ecc's
field types is in benchmarks/README.md.
"""

from __future__ import annotations

from collections.abc import Sequence

from csi_conformance.ledger_crypto.bn254 import CURVE_ORDER as R
from csi_conformance.ledger_crypto.bn254 import twist_frobenius
from csi_conformance.ledger_proofs.tower import (
    ONE,
    P,
    conjugate,
    cyclotomic_square,
    frobenius,
    inverse,
    mul,
    mul_by_line,
    power,
    square,
)

__all__ = ["BN_U", "G1Affine", "G2Affine", "Lines", "final_exponentiation", "g1_combination", "hard_part_by_power",
           "is_one", "lines", "miller_loop", "pairing_product"]

BN_U = 4965661367192848881
"""The BN curve parameter u: p and r are polynomials in it, and so is the hard part of the exponent."""
G1Affine = tuple[int, int]
G2Affine = tuple[tuple[int, int], tuple[int, int]]
"""((x.c0, x.c1), (y.c0, y.c1)) over Fp2 = Fp[u]/(u² + 1), as ledger_crypto.bn254 writes G2 points."""
Fp12 = tuple[int, ...]
Line = tuple[int, int, int, int]
"""(q, r) as two Fp2 pairs: at the G1 point (x, y) the line is 1 + (q·x/y + r·v/y)·w."""
Lines = tuple[Line, ...]
_Step = tuple[int, int, int, int, int, int]
"""A line before `lines` divides it by c0·y: (c0, c3, c4), for c0·y + (c3·x + c4·v)·w."""


def _wnaf(k: int, width: int) -> tuple[int, ...]:
    """The width-`width` NAF of k > 0 (odd digits below 2^(width−1) in absolute value, at least width − 1
    zeros after each non-zero one), most significant digit first; width 2 is the plain NAF."""
    digits = []
    while k:
        digit = (k + (1 << width - 1)) % (1 << width) - (1 << width - 1) if k & 1 else 0
        digits.append(digit)
        k = (k - digit) >> 1
    return tuple(reversed(digits))


_LOOP = _wnaf(6 * BN_U + 2, 2)
_U_DIGITS = _wnaf(BN_U, 4)
_SCHEDULE = (*[s for digit in _LOOP[1:] for s in ((True, False) if digit else (True,))], False, False)
"""For each line of the loop, whether the accumulator is squared before it is multiplied in."""
_HARD = (P**4 - P**2 + 1) // R
_B0, _B1 = (27 * pow(82, -1, P) % P, -3 * pow(82, -1, P) % P)  # b′ = 3/ξ = 3(9 − u)/82: y² = x³ + b′


def _double(t: tuple[int, ...]) -> tuple[tuple[int, ...], _Step]:
    """2T and the tangent at T, for T = (X, Y, Z) homogeneous on the twist. 2T comes out with its
    coordinates times 4, which keeps halves out: 2XY(b − 9b′Z²), (b + 9b′Z²)² − 12(3b′Z²)², 8Y³Z, b = Y²."""
    x0, x1, y0, y1, z0, z1 = t
    b0, b1 = (y0 + y1) * (y0 - y1) % P, 2 * y0 * y1 % P  # Y²
    c0, c1 = (z0 + z1) * (z0 - z1), 2 * z0 * z1  # Z²
    m, n = _B0 * c0, _B1 * c1
    e0, e1 = 3 * (m - n) % P, 3 * ((_B0 + _B1) * (c0 + c1) - m - n) % P  # 3b′Z²
    h0, h1 = 2 * (y0 * z0 - y1 * z1) % P, 2 * (y0 * z1 + y1 * z0) % P  # 2YZ
    m, n = x0 * y0, x1 * y1
    a0, a1 = 2 * (m - n), 2 * ((x0 + x1) * (y0 + y1) - m - n)  # 2XY
    s0, s1 = b0 - 3 * e0, b1 - 3 * e1
    m, n = a0 * s0, a1 * s1
    nx0, nx1 = (m - n) % P, ((a0 + a1) * (s0 + s1) - m - n) % P
    g0, g1 = b0 + 3 * e0, b1 + 3 * e1
    ny0 = ((g0 + g1) * (g0 - g1) - 12 * (e0 + e1) * (e0 - e1)) % P
    ny1 = (2 * g0 * g1 - 24 * e0 * e1) % P
    m, n = b0 * h0, b1 * h1
    nz0, nz1 = 4 * (m - n) % P, 4 * ((b0 + b1) * (h0 + h1) - m - n) % P
    line = (-h0 % P, -h1 % P, 3 * (x0 + x1) * (x0 - x1) % P, 6 * x0 * x1 % P, (e0 - b0) % P, (e1 - b1) % P)
    return (nx0, nx1, ny0, ny1, nz0, nz1), line  # the tangent: −2YZ·y + (3X²·x + (3b′Z² − Y²)·v)·w


def _add(t: tuple[int, ...], q: G2Affine) -> tuple[tuple[int, ...], _Step]:
    """T + Q and the line through them, for T homogeneous and Q affine on the twist, T ≠ ±Q."""
    x0, x1, y0, y1, z0, z1 = t
    (p0, p1), (q0, q1) = q
    m, n = q0 * z0, q1 * z1
    th0, th1 = (y0 - m + n) % P, (y1 - (q0 + q1) * (z0 + z1) + m + n) % P  # θ = Y − y_Q·Z
    m, n = p0 * z0, p1 * z1
    la0, la1 = (x0 - m + n) % P, (x1 - (p0 + p1) * (z0 + z1) + m + n) % P  # λ = X − x_Q·Z
    if la0 == la1 == 0:
        raise ValueError("a Miller loop step met T = ±Q: the G2 point is not of order r")
    d0, d1 = (la0 + la1) * (la0 - la1) % P, 2 * la0 * la1 % P  # λ²
    m, n = la0 * d0, la1 * d1
    e0, e1 = (m - n) % P, ((la0 + la1) * (d0 + d1) - m - n) % P  # λ³
    m, n = x0 * d0, x1 * d1
    g0, g1 = (m - n) % P, ((x0 + x1) * (d0 + d1) - m - n) % P  # X·λ²
    c0, c1 = (th0 + th1) * (th0 - th1) % P, 2 * th0 * th1 % P  # θ²
    m, n = z0 * c0, z1 * c1
    h0, h1 = (e0 + m - n - 2 * g0) % P, (e1 + (z0 + z1) * (c0 + c1) - m - n - 2 * g1) % P  # λ³ + Zθ² − 2Xλ²
    m, n = la0 * h0, la1 * h1
    nx0, nx1 = (m - n) % P, ((la0 + la1) * (h0 + h1) - m - n) % P
    s0, s1 = g0 - h0, g1 - h1
    m, n, k, o = th0 * s0, th1 * s1, e0 * y0, e1 * y1
    ny0 = (m - n - k + o) % P
    ny1 = ((th0 + th1) * (s0 + s1) - m - n - (e0 + e1) * (y0 + y1) + k + o) % P
    m, n = z0 * e0, z1 * e1
    nz0, nz1 = (m - n) % P, ((z0 + z1) * (e0 + e1) - m - n) % P
    m, n, k, o = th0 * p0, th1 * p1, la0 * q0, la1 * q1
    j0 = (m - n - k + o) % P  # θ·x_Q − λ·y_Q
    j1 = ((th0 + th1) * (p0 + p1) - m - n - (la0 + la1) * (q0 + q1) + k + o) % P
    return (nx0, nx1, ny0, ny1, nz0, nz1), (la0, la1, -th0 % P, -th1 % P, j0, j1)  # λ·y − (θ·x − j·v)·w


def _batch_inverse(values: Sequence[int]) -> list[int]:
    """1/v mod p for each v (Montgomery's trick: one inversion; ValueError when one is 0)."""
    prefix, acc = [], 1
    for v in values:
        prefix.append(acc)
        acc = acc * v % P
    inverse_acc = pow(acc, -1, P)
    out = [0] * len(values)
    for i in range(len(values) - 1, -1, -1):
        out[i] = prefix[i] * inverse_acc % P
        inverse_acc = inverse_acc * values[i] % P
    return out


def lines(q: G2Affine) -> Lines:
    """Every line of the Miller loop for the G2 point `q`, in loop order: cache them for a fixed point.

    Each is divided by its c0 (an Fp2 constant, gone after the final exponentiation), so that
    `miller_loop` multiplies by 1 + (…)·w. ValueError when a step meets T = ±Q, which a point of G2
    (order r) never does.
    """
    negated = (q[0], (-q[1][0] % P, -q[1][1] % P))
    t: tuple[int, ...] = (*q[0], *q[1], 1, 0)
    steps: list[_Step] = []
    for digit in _LOOP[1:]:
        t, step = _double(t)
        steps.append(step)
        if digit:
            t, step = _add(t, q if digit == 1 else negated)
            steps.append(step)
    q1 = twist_frobenius(q)
    x2, y2 = twist_frobenius(q1)
    t, step = _add(t, q1)
    steps.append(step)
    steps.append(_add(t, (x2, (-y2[0] % P, -y2[1] % P)))[1])
    norms = _batch_inverse([(c0 * c0 + c1 * c1) % P for c0, c1, *_ in steps])  # 1/(c0·c̄0)
    out: list[Line] = []
    for (c0, c1, q0, q1, r0, r1), n in zip(steps, norms, strict=True):
        i0, i1 = c0 * n % P, -c1 * n % P  # 1/c0
        m, k, o, h = q0 * i0, q1 * i1, r0 * i0, r1 * i1
        out.append(((m - k) % P, ((q0 + q1) * (i0 + i1) - m - k) % P, (o - h) % P, ((r0 + r1) * (i0 + i1) - o - h) % P))
    return tuple(out)


def miller_loop(pairs: Sequence[tuple[Lines, G1Affine | None]]) -> Fp12:
    """The product of the Miller loops of (lines of Q, P) pairs, one shared accumulator; None is infinity.

    P must be on the curve (then y ≠ 0: G1 has no point of order 2).
    """
    live = [(q_lines, p) for q_lines, p in pairs if p is not None]
    inverse_y = _batch_inverse([p[1] for _, p in live])
    scaled = [(q_lines, p[0] * iy % P, iy) for (q_lines, p), iy in zip(live, inverse_y, strict=True)]
    f = ONE
    for index, squared in enumerate(_SCHEDULE):
        if squared and index:
            f = square(f)
        for q_lines, x, y in scaled:
            q0, q1, r0, r1 = q_lines[index]
            f = mul_by_line(f, q0 * x % P, q1 * x % P, r0 * y % P, r1 * y % P)
    return f


def _power_u(f: Fp12) -> Fp12:
    """f^u for f in the cyclotomic subgroup, by the width-4 NAF of u (the conjugate is the inverse there)."""
    f2 = cyclotomic_square(f)
    table = {1: f}
    for digit in (3, 5, 7):
        table[digit] = mul(table[digit - 2], f2)
    table.update({-digit: conjugate(value) for digit, value in table.items()})
    result = table[_U_DIGITS[0]]
    for digit in _U_DIGITS[1:]:
        result = cyclotomic_square(result)
        if digit:
            result = mul(result, table[digit])
    return result


def _easy_part(f: Fp12) -> Fp12:
    """f^((p⁶ − 1)(p² + 1)): into the cyclotomic subgroup."""
    f = mul(conjugate(f), inverse(f))
    return mul(frobenius(f, 2), f)


def final_exponentiation(f: Fp12) -> Fp12:
    """f^((p¹² − 1)/r): the easy part, then the hard part (p⁴ − p² + 1)/r as three powers of u and
    Frobenius maps (the addition chain go-ethereum's bn256 uses; conjugation is the inverse after the
    easy part). It equals `hard_part_by_power` (tests/ledger_proofs/test_pairing.py)."""
    t1 = _easy_part(f)
    fp, fp2 = frobenius(t1, 1), frobenius(t1, 2)
    fp3 = frobenius(fp2, 1)
    fu = _power_u(t1)
    fu2 = _power_u(fu)
    fu3 = _power_u(fu2)
    y0 = mul(mul(fp, fp2), fp3)
    y1 = conjugate(t1)
    y2 = frobenius(fu2, 2)
    y3 = conjugate(frobenius(fu, 1))
    y4 = conjugate(mul(fu, frobenius(fu2, 1)))
    y5 = conjugate(fu2)
    y6 = conjugate(mul(fu3, frobenius(fu3, 1)))
    t0 = mul(mul(cyclotomic_square(y6), y4), y5)
    t1 = mul(mul(y3, y5), t0)
    t0 = mul(t0, y2)
    t1 = cyclotomic_square(mul(cyclotomic_square(t1), t0))
    t0, t1 = mul(t1, y1), mul(t1, y0)
    return mul(cyclotomic_square(t0), t1)


def hard_part_by_power(f: Fp12) -> Fp12:
    """The same exponentiation with the hard part as one plain power by generic squares: the definition
    the chain is tested against."""
    return power(_easy_part(f), _HARD)


def is_one(f: Fp12) -> bool:
    return tuple(f) == ONE


def pairing_product(pairs: Sequence[tuple[G2Affine, G1Affine | None]]) -> Fp12:
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
    integers, rather than py_ecc's `multiply` per input (benchmarks/README.md has both costs).
    """
    pairs = [(scalar % R, point) for scalar, point in zip(scalars, points, strict=True)]
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
