"""`ledger_proofs.pairing` and its field arithmetic `ledger_proofs.tower` against py_ecc's own pairing and FQ12."""

from __future__ import annotations

import random

from csi_conformance.ledger_proofs import pairing, tower
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from py_ecc import optimized_bn128 as ecc

_FP = st.integers(min_value=0, max_value=tower.P - 1)
_FP12 = st.tuples(*[_FP] * 12)


def _g1(point) -> tuple[int, int]:
    x, y = ecc.normalize(point)
    return int(x), int(y)


def _g2(point) -> tuple[tuple[int, int], tuple[int, int]]:
    x, y = ecc.normalize(point)
    return (x.coeffs[0], x.coeffs[1]), (y.coeffs[0], y.coeffs[1])


def _fq12(f: tuple[int, ...]) -> ecc.FQ12:
    return ecc.FQ12(list(tower.to_py_ecc(f)))


def test_constants_are_py_eccs() -> None:
    assert ecc.field_modulus == tower.P
    assert ecc.curve_order == pairing.R
    assert ecc.b2.coeffs == (pairing._B0, pairing._B1)  # the twist y² = x³ + 3/ξ
    assert sum(d << i for i, d in enumerate(reversed(pairing._LOOP))) == 6 * pairing.BN_U + 2
    assert sum(d << i for i, d in enumerate(reversed(pairing._U_DIGITS))) == pairing.BN_U


@given(_FP12, _FP12)
@settings(max_examples=25, deadline=None)
def test_tower_arithmetic_equals_py_eccs_fq12(f: tuple[int, ...], g: tuple[int, ...]) -> None:
    """Products, squares and inverses agree with py_ecc's FQ12 under the basis change (u = w⁶ − 9, v = w²)."""
    assert tower.from_py_ecc(tower.to_py_ecc(f)) == f
    assert tower.to_py_ecc(tower.mul(f, g)) == (_fq12(f) * _fq12(g)).coeffs
    assert tower.to_py_ecc(tower.square(f)) == (_fq12(f) * _fq12(f)).coeffs
    assume(any(f))
    assert tower.to_py_ecc(tower.inverse(f)) == _fq12(f).inv().coeffs


@given(_FP12, st.tuples(*[_FP] * 4))
@settings(max_examples=25, deadline=None)
def test_sparse_line_product_equals_the_full_product(f: tuple[int, ...], line: tuple[int, ...]) -> None:
    q0, q1, r0, r1 = line
    assert tower.mul_by_line(f, q0, q1, r0, r1) == tower.mul(f, (1, 0, 0, 0, 0, 0, q0, q1, r0, r1, 0, 0))


@given(_FP12)
@settings(max_examples=6, deadline=None)
def test_frobenius_and_cyclotomic_square(f: tuple[int, ...]) -> None:
    """The Frobenius maps are powers by p, p², p³; after the easy part the Granger–Scott square is the square."""
    assume(any(f))
    for power in (1, 2, 3):
        assert tower.frobenius(f, power) == tower.power(f, tower.P**power)
    assert tower.conjugate(f) == tower.power(f, tower.P**6)
    cyclotomic = pairing._easy_part(f)
    assert tower.cyclotomic_square(cyclotomic) == tower.square(cyclotomic)
    assert tower.mul(cyclotomic, tower.conjugate(cyclotomic)) == tower.ONE


def test_one_pairing_equals_py_eccs() -> None:
    q, p = ecc.multiply(ecc.G2, 1234567), ecc.multiply(ecc.G1, 7654321)
    assert tower.to_py_ecc(pairing.pairing_product([(_g2(q), _g1(p))])) == ecc.pairing(q, p).coeffs


def test_product_is_bilinear() -> None:
    rng = random.Random(5)
    a, b = rng.randrange(1, ecc.curve_order), rng.randrange(1, ecc.curve_order)
    q, p = ecc.multiply(ecc.G2, a), ecc.multiply(ecc.G1, b)
    base = pairing.pairing_product([(_g2(ecc.G2), _g1(ecc.G1))])
    assert not pairing.is_one(base)
    assert pairing.pairing_product([(_g2(q), _g1(p))]) == tower.power(base, a * b % ecc.curve_order)
    # e(a·G2, b·G1) · e(G2, −ab·G1) = 1
    product = pairing.pairing_product([(_g2(q), _g1(p)), (_g2(ecc.G2), _g1(ecc.neg(ecc.multiply(ecc.G1, a * b))))])
    assert pairing.is_one(product)
    off = pairing.pairing_product([(_g2(q), _g1(p)), (_g2(ecc.G2), _g1(ecc.neg(ecc.multiply(ecc.G1, a * b + 1))))])
    assert not pairing.is_one(off)


def test_cached_lines_and_infinity() -> None:
    q, p = ecc.multiply(ecc.G2, 99), ecc.multiply(ecc.G1, 3)
    lines = pairing.lines(_g2(q))
    assert lines == pairing.lines(_g2(q))
    f = pairing.miller_loop([(lines, _g1(p)), (lines, None)])
    assert f == pairing.miller_loop([(lines, _g1(p))])
    assert tower.to_py_ecc(pairing.final_exponentiation(f)) == ecc.pairing(q, p).coeffs
    assert pairing.miller_loop([(lines, None)]) == tower.ONE
    # the cached lines serve another G1 point as fresh ones would
    other = ecc.multiply(ecc.G1, 12345)
    assert pairing.final_exponentiation(pairing.miller_loop([(lines, _g1(other))])) == pairing.pairing_product(
        [(_g2(q), _g1(other))])


def test_g1_combination() -> None:
    base, k1, k2 = _g1(ecc.G1), _g1(ecc.multiply(ecc.G1, 5)), _g1(ecc.multiply(ecc.G1, 7))
    assert pairing.g1_combination(base, [k1, k2], [2, 3]) == _g1(ecc.multiply(ecc.G1, 1 + 10 + 21))
    assert pairing.g1_combination(base, [k1], [ecc.curve_order - 1 - 4 * 0]) is not None
    minus_one = ecc.curve_order - 1  # base + (r−1)·G1 = infinity
    assert pairing.g1_combination(base, [base], [minus_one]) is None


def test_g1_combination_of_large_scalars_equals_py_eccs() -> None:
    rng = random.Random(11)
    points = [ecc.multiply(ecc.G1, rng.randrange(1, ecc.curve_order)) for _ in range(5)]
    scalars = [rng.randrange(ecc.curve_order) for _ in points]
    expected = ecc.G1
    for scalar, point in zip(scalars, points, strict=True):
        expected = ecc.add(expected, ecc.multiply(point, scalar))
    assert pairing.g1_combination(_g1(ecc.G1), [_g1(p) for p in points], scalars) == _g1(expected)


@given(_FP12)
@settings(max_examples=8, deadline=None)
def test_final_exponentiation_chain_equals_the_plain_power(f: tuple[int, ...]) -> None:
    """The u-chain for the hard part gives the very element the plain power of (p⁴ − p² + 1)/r gives."""
    assume(any(f))
    assert pairing.final_exponentiation(f) == pairing.hard_part_by_power(f)
