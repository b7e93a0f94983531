"""The hand-written parts of `ledger_proofs.pairing` against py_ecc's own pairing."""

from __future__ import annotations

import random

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from py_ecc import optimized_bn128 as ecc

from ledger_proofs import pairing


def _g1(point) -> tuple[int, int]:
    x, y = ecc.normalize(point)
    return int(x), int(y)


def _g2(point) -> tuple[tuple[int, int], tuple[int, int]]:
    x, y = ecc.normalize(point)
    return (x.coeffs[0], x.coeffs[1]), (y.coeffs[0], y.coeffs[1])


def test_one_pairing_equals_py_eccs() -> None:
    q, p = ecc.multiply(ecc.G2, 1234567), ecc.multiply(ecc.G1, 7654321)
    assert pairing.pairing_product([(_g2(q), _g1(p))]) == ecc.pairing(q, p)


def test_product_is_bilinear() -> None:
    rng = random.Random(5)
    a, b = rng.randrange(1, ecc.curve_order), rng.randrange(1, ecc.curve_order)
    q, p = ecc.multiply(ecc.G2, a), ecc.multiply(ecc.G1, b)
    # e(a·G2, b·G1) · e(G2, −ab·G1) = 1
    product = pairing.pairing_product([(_g2(q), _g1(p)), (_g2(ecc.G2), _g1(ecc.neg(ecc.multiply(ecc.G1, a * b))))])
    assert pairing.is_one(product)
    off = pairing.pairing_product([(_g2(q), _g1(p)), (_g2(ecc.G2), _g1(ecc.neg(ecc.multiply(ecc.G1, a * b + 1))))])
    assert not pairing.is_one(off)


def test_cached_lines_and_infinity() -> None:
    q, p = ecc.multiply(ecc.G2, 99), ecc.multiply(ecc.G1, 3)
    lines = pairing.lines(_g2(q))
    f = pairing.miller_loop([(lines, _g1(p)), (lines, None)])
    assert pairing.final_exponentiation(f) == ecc.pairing(q, p)


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


@given(st.lists(st.integers(min_value=0, max_value=pairing.P - 1), min_size=12, max_size=12))
@settings(max_examples=8, deadline=None)
def test_final_exponentiation_chain_equals_the_plain_power(coefficients: list[int]) -> None:
    """The u-chain for the hard part gives the very element the plain power of (p⁴ − p² + 1)/r gives."""
    f = pairing.FQ12(coefficients)
    assume(f != pairing.FQ12.zero())
    assert pairing.final_exponentiation(f) == pairing.hard_part_by_power(f)
