"""BN254's Fp12 as the tower Fp2 → Fp6 → Fp12 on plain integers: the field arithmetic of `ledger_proofs.pairing`.

Fp2 = Fp[u]/(u² + 1), Fp6 = Fp2[v]/(v³ − ξ) with ξ = 9 + u, Fp12 = Fp6[w]/(w² − v): the tower of
go-ethereum's bn256, gnark and arkworks. py_ecc's FQ12 is one polynomial of degree 11 over Fp,
multiplied as such and reduced by w¹² − 18w⁶ + 82 in generic Python; here an element is a flat
tuple of 12 integers below p, its six Fp2 coefficients (re, im) in the order

    c0.b0, c0.b1, c0.b2, c1.b0, c1.b1, c1.b2    for  (c0.b0 + c0.b1·v + c0.b2·v²) + (c1.b0 + …)·w,

and products are Karatsuba at every level (3 Fp products for Fp2, 6 Fp2 ones for Fp6, 3 Fp6 ones
for Fp12), with the sums left unreduced and one reduction mod p per output coefficient: about
21 µs for a product where py_ecc's FQ12 takes 50. A Miller loop line is multiplied in by a sparse
product (13 µs), and squares in the cyclotomic subgroup, where the final exponentiation works, take
six Fp2 squares and three Fp2 products (Granger–Scott, 10 µs).

The same field as py_ecc's: w is py_ecc's w, v = w² and u = w⁶ − 9 (so ξ = w⁶); `to_py_ecc` and
`from_py_ecc` convert coefficient vectors (tests/ledger_proofs/test_pairing.py checks products,
squares and inverses against py_ecc's FQ12).
"""

from __future__ import annotations

from collections.abc import Sequence

from csi_conformance.ledger_crypto.bn254 import BASE_MODULUS as P
from csi_conformance.ledger_crypto.bn254 import fp2_inverse, fp2_mul, fp2_power

__all__ = ["ONE", "P", "conjugate", "cyclotomic_square", "fp2_square", "frobenius", "from_py_ecc", "inverse", "mul",
           "mul_by_line", "power", "square", "to_py_ecc"]

Fp2 = tuple[int, int]
Fp12 = tuple[int, ...]
ONE: Fp12 = (1, *[0] * 11)
_SLOT_POWER = (0, 2, 4, 1, 3, 5)
"""The power of w that each Fp2 coefficient of the flat tuple multiplies."""


def fp2_square(a: Fp2) -> Fp2:
    """a² = (a₀ + a₁)(a₀ − a₁) + 2a₀a₁·u."""
    return (a[0] + a[1]) * (a[0] - a[1]) % P, 2 * a[0] * a[1] % P


def _xi(a0: int, a1: int) -> tuple[int, int]:
    """ξ·a, unreduced: (9 + u)(a₀ + a₁u)."""
    return 9 * a0 - a1, a0 + 9 * a1


def _mul6(a: Sequence[int], b: Sequence[int]) -> tuple[int, int, int, int, int, int]:
    """The Fp6 product of (x + y·v + z·v²) and (p + q·v + r·v²), unreduced (Karatsuba: 6 Fp2 products)."""
    x0, x1, y0, y1, z0, z1 = a
    p0, p1, q0, q1, r0, r1 = b
    m, n = x0 * p0, x1 * p1
    xp0, xp1 = m - n, (x0 + x1) * (p0 + p1) - m - n
    m, n = y0 * q0, y1 * q1
    yq0, yq1 = m - n, (y0 + y1) * (q0 + q1) - m - n
    m, n = z0 * r0, z1 * r1
    zr0, zr1 = m - n, (z0 + z1) * (r0 + r1) - m - n
    s0, s1, t0, t1 = y0 + z0, y1 + z1, q0 + r0, q1 + r1  # (y + z)(q + r) − yq − zr = yr + zq
    m, n = s0 * t0, s1 * t1
    e0, e1 = m - n - yq0 - zr0, (s0 + s1) * (t0 + t1) - m - n - yq1 - zr1
    s0, s1, t0, t1 = x0 + y0, x1 + y1, p0 + q0, p1 + q1  # xq + yp
    m, n = s0 * t0, s1 * t1
    f0, f1 = m - n - xp0 - yq0, (s0 + s1) * (t0 + t1) - m - n - xp1 - yq1
    s0, s1, t0, t1 = x0 + z0, x1 + z1, p0 + r0, p1 + r1  # xr + zp
    m, n = s0 * t0, s1 * t1
    g0, g1 = m - n - xp0 - zr0, (s0 + s1) * (t0 + t1) - m - n - xp1 - zr1
    return (xp0 + 9 * e0 - e1, xp1 + e0 + 9 * e1,  # xp + ξ(yr + zq)
            f0 + 9 * zr0 - zr1, f1 + zr0 + 9 * zr1,  # xq + yp + ξ·zr
            g0 + yq0, g1 + yq1)  # xr + zp + yq


def _mul6_by_01(a: Sequence[int], p0: int, p1: int, q0: int, q1: int) -> tuple[int, int, int, int, int, int]:
    """(x + y·v + z·v²)(p + q·v), unreduced: 5 Fp2 products."""
    x0, x1, y0, y1, z0, z1 = a
    m, n = x0 * p0, x1 * p1
    xp0, xp1 = m - n, (x0 + x1) * (p0 + p1) - m - n
    m, n = y0 * q0, y1 * q1
    yq0, yq1 = m - n, (y0 + y1) * (q0 + q1) - m - n
    s0, s1, t0, t1 = x0 + y0, x1 + y1, p0 + q0, p1 + q1  # xq + yp
    m, n = s0 * t0, s1 * t1
    f0, f1 = m - n - xp0 - yq0, (s0 + s1) * (t0 + t1) - m - n - xp1 - yq1
    m, n = z0 * p0, z1 * p1
    zp0, zp1 = m - n, (z0 + z1) * (p0 + p1) - m - n
    m, n = z0 * q0, z1 * q1
    zq0, zq1 = m - n, (z0 + z1) * (q0 + q1) - m - n
    return xp0 + 9 * zq0 - zq1, xp1 + zq0 + 9 * zq1, f0, f1, yq0 + zp0, yq1 + zp1


def _sum6(f: Fp12) -> tuple[int, int, int, int, int, int]:
    """a + b for f = a + b·w."""
    return f[0] + f[6], f[1] + f[7], f[2] + f[8], f[3] + f[9], f[4] + f[10], f[5] + f[11]


def _combine(a: Sequence[int], b: Sequence[int], s: Sequence[int]) -> Fp12:
    """(a + b·v) + (s − a − b)·w, reduced: the last step of a Karatsuba product over Fp6."""
    return ((a[0] + 9 * b[4] - b[5]) % P, (a[1] + b[4] + 9 * b[5]) % P,
            (a[2] + b[0]) % P, (a[3] + b[1]) % P, (a[4] + b[2]) % P, (a[5] + b[3]) % P,
            (s[0] - a[0] - b[0]) % P, (s[1] - a[1] - b[1]) % P, (s[2] - a[2] - b[2]) % P,
            (s[3] - a[3] - b[3]) % P, (s[4] - a[4] - b[4]) % P, (s[5] - a[5] - b[5]) % P)


def mul(f: Fp12, g: Fp12) -> Fp12:
    """f·g: (a + b·w)(c + d·w) = (ac + bd·v) + ((a + b)(c + d) − ac − bd)·w, three Fp6 products."""
    return _combine(_mul6(f[:6], g[:6]), _mul6(f[6:], g[6:]), _mul6(_sum6(f), _sum6(g)))


def square(f: Fp12) -> Fp12:
    """f² for any f: (a + b·w)² = ((a + b)(a + b·v) − ab − ab·v) + 2ab·w, two Fp6 products."""
    a0, a1, a2, a3, a4, a5, b0, b1, b2, b3, b4, b5 = f
    ab = _mul6(f[:6], f[6:])
    s = _mul6(_sum6(f), (a0 + 9 * b4 - b5, a1 + b4 + 9 * b5, a2 + b0, a3 + b1, a4 + b2, a5 + b3))
    return ((s[0] - ab[0] - 9 * ab[4] + ab[5]) % P, (s[1] - ab[1] - ab[4] - 9 * ab[5]) % P,
            (s[2] - ab[2] - ab[0]) % P, (s[3] - ab[3] - ab[1]) % P, (s[4] - ab[4] - ab[2]) % P,
            (s[5] - ab[5] - ab[3]) % P, 2 * ab[0] % P, 2 * ab[1] % P, 2 * ab[2] % P, 2 * ab[3] % P,
            2 * ab[4] % P, 2 * ab[5] % P)


def mul_by_line(f: Fp12, q0: int, q1: int, r0: int, r1: int) -> Fp12:
    """f times the sparse 1 + (q + r·v)·w (q, r in Fp2) that a Miller loop line is: 10 Fp2 products, not 18."""
    return _combine(f[:6], _mul6_by_01(f[6:], q0, q1, r0, r1), _mul6_by_01(_sum6(f), q0 + 1, q1, r0, r1))


def cyclotomic_square(f: Fp12) -> Fp12:
    """f² for f in the cyclotomic subgroup (any power of p⁶ − 1 times p² + 1, so after the easy part of
    the final exponentiation): Granger–Scott, over Fp12 as Fp4³ with Fp4 = Fp2[w³], six Fp2 squares
    and three Fp2 products instead of two Fp6 products."""
    a0, a1, b0, b1, c0, c1, d0, d1, e0, e1, g0, g1 = f  # c0 = a + b·v + c·v², c1 = d + e·v + g·v²
    s0, s1 = (e0 + e1) * (e0 - e1), 2 * e0 * e1
    ae0, ae1 = (a0 + a1) * (a0 - a1) + 9 * s0 - s1, 2 * a0 * a1 + s0 + 9 * s1  # a² + ξe²
    m, n = a0 * e0, a1 * e1
    ea0, ea1 = m - n, (a0 + a1) * (e0 + e1) - m - n  # ae
    s0, s1 = (c0 + c1) * (c0 - c1), 2 * c0 * c1
    dc0, dc1 = (d0 + d1) * (d0 - d1) + 9 * s0 - s1, 2 * d0 * d1 + s0 + 9 * s1  # d² + ξc²
    m, n = c0 * d0, c1 * d1
    cd0, cd1 = m - n, (c0 + c1) * (d0 + d1) - m - n  # cd
    s0, s1 = (g0 + g1) * (g0 - g1), 2 * g0 * g1
    bg0, bg1 = (b0 + b1) * (b0 - b1) + 9 * s0 - s1, 2 * b0 * b1 + s0 + 9 * s1  # b² + ξg²
    m, n = b0 * g0, b1 * g1
    m, n = m - n, (b0 + b1) * (g0 + g1) - m - n
    gb0, gb1 = 9 * m - n, m + 9 * n  # ξbg
    return ((3 * ae0 - 2 * a0) % P, (3 * ae1 - 2 * a1) % P, (3 * dc0 - 2 * b0) % P, (3 * dc1 - 2 * b1) % P,
            (3 * bg0 - 2 * c0) % P, (3 * bg1 - 2 * c1) % P, (6 * gb0 + 2 * d0) % P, (6 * gb1 + 2 * d1) % P,
            (6 * ea0 + 2 * e0) % P, (6 * ea1 + 2 * e1) % P, (6 * cd0 + 2 * g0) % P, (6 * cd1 + 2 * g1) % P)


def conjugate(f: Fp12) -> Fp12:
    """f^(p⁶): a + b·w ↦ a − b·w; the inverse in the cyclotomic subgroup."""
    return (*f[:6], *[-x % P for x in f[6:]])


def _inverse6(a: Sequence[int]) -> tuple[int, int, int, int, int, int]:
    x, y, z = (a[0], a[1]), (a[2], a[3]), (a[4], a[5])
    yz, xy, xz = fp2_mul(y, z), fp2_mul(x, y), fp2_mul(x, z)
    xi_yz, z2 = _xi(*yz), _xi(*fp2_square(z))
    c0 = fp2_square(x)
    c0 = (c0[0] - xi_yz[0]) % P, (c0[1] - xi_yz[1]) % P  # x² − ξyz
    c1 = (z2[0] - xy[0]) % P, (z2[1] - xy[1]) % P  # ξz² − xy
    c2 = fp2_square(y)
    c2 = (c2[0] - xz[0]) % P, (c2[1] - xz[1]) % P  # y² − xz
    zc1, yc2, xc0 = fp2_mul(z, c1), fp2_mul(y, c2), fp2_mul(x, c0)
    rest = _xi(zc1[0] + yc2[0], zc1[1] + yc2[1])
    n = fp2_inverse(((xc0[0] + rest[0]) % P, (xc0[1] + rest[1]) % P))  # the norm to Fp2
    return (*fp2_mul(c0, n), *fp2_mul(c1, n), *fp2_mul(c2, n))


def inverse(f: Fp12) -> Fp12:
    """1/f = (a − b·w)/(a² − b²·v) (ValueError for 0)."""
    a, b = f[:6], f[6:]
    a2, b2 = _mul6(a, a), _mul6(b, b)
    d = _inverse6([x % P for x in ((a2[0] - 9 * b2[4] + b2[5]), (a2[1] - b2[4] - 9 * b2[5]),
                                   a2[2] - b2[0], a2[3] - b2[1], a2[4] - b2[2], a2[5] - b2[3])])
    a, b = _mul6(a, d), _mul6(b, d)
    return (*[x % P for x in a], *[-x % P for x in b])


def _frobenius_constants(power: int) -> tuple[Fp2, ...]:
    """(w^k)^(p^power) / w^k = ξ^(k(p^power − 1)/6), for each slot's power k of w."""
    return tuple(fp2_power((9, 1), k * (P**power - 1) // 6) for k in _SLOT_POWER)


_FROBENIUS = {power: _frobenius_constants(power) for power in (1, 2, 3)}


def frobenius(f: Fp12, power: int) -> Fp12:
    """f^(p^power) for power 1, 2 or 3: each Fp2 coefficient conjugated power times, times a constant."""
    out: list[int] = []
    for slot, (g0, g1) in enumerate(_FROBENIUS[power]):
        x0, x1 = f[2 * slot], (-1) ** power * f[2 * slot + 1]
        m, n = x0 * g0, x1 * g1
        out += (m - n) % P, ((x0 + x1) * (g0 + g1) - m - n) % P
    return tuple(out)


def power(f: Fp12, e: int) -> Fp12:
    """f^e for e ≥ 0 by generic squares and products (left to right)."""
    result = ONE
    for bit in bin(e)[2:]:
        result = square(result)
        if bit == "1":
            result = mul(result, f)
    return result


def to_py_ecc(f: Fp12) -> tuple[int, ...]:
    """The 12 coefficients of f in py_ecc's FQ12 basis 1, w, …, w¹¹ (u = w⁶ − 9)."""
    out = [0] * 12
    for slot, k in enumerate(_SLOT_POWER):
        re, im = f[2 * slot], f[2 * slot + 1]
        out[k] = (re - 9 * im) % P
        out[k + 6] = im
    return tuple(out)


def from_py_ecc(coeffs: Sequence[int]) -> Fp12:
    """The inverse of `to_py_ecc`: a py_ecc FQ12 coefficient vector as a tower element."""
    out: list[int] = []
    for k in _SLOT_POWER:
        out += (coeffs[k] + 9 * coeffs[k + 6]) % P, coeffs[k + 6] % P
    return tuple(out)
