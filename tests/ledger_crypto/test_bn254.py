"""Compressed BN254 points: round trips against py_ecc, flag rules, rejections, proof helpers."""

import hashlib
import random

import pytest
from csi_conformance.ledger_crypto import bn254
from csi_conformance.ledger_crypto.bn254 import (
    BASE_MODULUS,
    CURVE_ORDER,
    G1_GENERATOR,
    compress_g1,
    compress_g2,
    decompress_g1,
    decompress_g2,
)
from csi_conformance.ledger_crypto.groth16 import deterministic_proof, is_valid_compressed_proof, proof_from_gnark
from py_ecc import optimized_bn128 as ecc

P = BASE_MODULUS


def g1(k: int):
    """k·G1 from py_ecc, the independent oracle, as plain ints."""
    x, y = ecc.normalize(ecc.multiply(ecc.G1, k))
    return int(x), int(y)


def g2(k: int):
    x, y = ecc.normalize(ecc.multiply(ecc.G2, k))
    return tuple(x.coeffs), tuple(y.coeffs)


def neg1(pt):
    return pt[0], -pt[1] % P


def neg2(pt):
    return pt[0], (-pt[1][0] % P, -pt[1][1] % P)


def g1_larger(pt) -> bool:
    return pt[1] > P - pt[1]


def g2_larger(pt) -> bool:
    y = pt[1]
    return (y[1], y[0]) > (-y[1] % P, -y[0] % P)


def test_field_modulus_is_the_base_field_of_bn254():
    assert BASE_MODULUS == 0x30644E72E131A029B85045B68181585D97816A916871CA8D3C208C16D87CFD47
    assert CURVE_ORDER == 21888242871839275222246405745257275088548364400416034343698204186575808495617
    assert G1_GENERATOR == (1, 2)


def test_g1_generator_compresses_by_the_rule():
    # x = 1 big-endian; y = 2 is the smaller root (2 < p - 2), so no flag; -G1 has y = p - 2, the larger.
    assert compress_g1((1, 2)) == (1).to_bytes(32, "big")
    assert compress_g1((1, P - 2)) == bytes([0x80]) + bytes(30) + b"\x01"
    assert decompress_g1(bytes(31) + b"\x01") == (1, 2)
    assert decompress_g1(bytes([0x80]) + bytes(30) + b"\x01") == (1, P - 2)


def test_g1_round_trips_with_both_flags():
    rng = random.Random(7)
    flags = set()
    for k in [1, 2, 3, CURVE_ORDER - 1] + [rng.randrange(1, CURVE_ORDER) for _ in range(8)]:
        for pt in (g1(k), neg1(g1(k))):
            data = compress_g1(pt)
            assert len(data) == 32
            assert bool(data[0] & 0x80) == g1_larger(pt)
            assert int.from_bytes(data, "big") & ((1 << 254) - 1) == pt[0]
            assert decompress_g1(data) == pt
            flags.add(data[0] & 0x80)
    assert flags == {0, 0x80}


def test_g2_round_trips_with_both_flags_and_c1_first():
    rng = random.Random(8)
    flags = set()
    for k in [1, 2, CURVE_ORDER - 1] + [rng.randrange(1, CURVE_ORDER) for _ in range(4)]:
        for pt in (g2(k), neg2(g2(k))):
            data = compress_g2(pt)
            assert len(data) == 64
            assert int.from_bytes(data[:32], "big") & ((1 << 254) - 1) == pt[0][1]  # c1 first
            assert int.from_bytes(data[32:], "big") == pt[0][0]
            assert bool(data[0] & 0x80) == g2_larger(pt)
            assert decompress_g2(data) == pt
            flags.add(data[0] & 0x80)
    assert flags == {0, 0x80}


def test_infinity():
    assert compress_g1(None) == bytes([0x40]) + bytes(31)
    assert compress_g2(None) == bytes([0x40]) + bytes(63)
    assert decompress_g1(compress_g1(None)) is None
    assert decompress_g2(compress_g2(None)) is None


def test_fixed_base_table_agrees_with_py_ecc():
    rng = random.Random(9)
    for k in [1, 15, 16, 17, 255, 256, 257, 2**252 + 5, CURVE_ORDER - 1, rng.randrange(1, CURVE_ORDER)]:
        assert bn254.multiply_g1_generator(k) == g1(k)
        assert bn254.multiply_g2_generator(k) == g2(k)


def test_fp2_square_roots():
    rng = random.Random(10)
    cases = [(rng.randrange(P), rng.randrange(P)) for _ in range(20)] + [(5, 0), (0, 7), (P - 1, 0)]
    for x in cases:
        square = bn254.fp2_mul(x, x)
        root = bn254._fp2_sqrt(square)
        assert root is not None and bn254.fp2_mul(root, root) == square
    non_squares = 0
    for _ in range(40):
        a = (rng.randrange(P), rng.randrange(1, P))
        norm = (a[0] * a[0] + a[1] * a[1]) % P
        if pow(norm, (P - 1) // 2, P) != 1:  # a square in Fp2 has a square norm
            assert bn254._fp2_sqrt(a) is None
            non_squares += 1
    assert non_squares > 5


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (bytes(31), "expected 32 bytes, got 31"),
        (bytes(33), "expected 32 bytes, got 33"),
        (P.to_bytes(32, "big"), "not below the field modulus"),
        ((2**254 - 1).to_bytes(32, "big"), "not below the field modulus"),
        (bytes(32), "no point with x = 0"),  # 3 is not a square mod p
        (bytes([0xC0]) + bytes(30) + b"\x01", "both the infinity"),
        (bytes([0x40]) + bytes(30) + b"\x01", "infinity flag (0x40) with a non-zero x"),
        ("00" * 32, "expected bytes, got str"),
    ],
)
def test_decompress_g1_rejects(data, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        decompress_g1(data)


def off_curve_x(start: int) -> int:
    x = start
    while pow((x**3 + 3) % P, (P - 1) // 2, P) == 1:
        x += 1
    return x


def test_decompress_rejects_off_curve_and_out_of_field_g2():
    with pytest.raises(ValueError, match="expected 64 bytes, got 32"):
        decompress_g2(bytes(32))
    with pytest.raises(ValueError, match="not below the field modulus"):
        decompress_g2(bytes(32) + P.to_bytes(32, "big"))  # c0 = p
    with pytest.raises(ValueError, match="not below the field modulus"):
        decompress_g2(P.to_bytes(32, "big") + bytes(32))  # c1 = p
    misses = 0
    for c0 in range(1, 40):
        data = bytes(32) + c0.to_bytes(32, "big")
        rhs = bn254._FP2.add(bn254.fp2_mul(bn254.fp2_mul((c0, 0), (c0, 0)), (c0, 0)), bn254._B2)
        if bn254._fp2_sqrt(rhs) is None:
            with pytest.raises(ValueError, match="no point with x"):
                decompress_g2(data)
            misses += 1
        else:
            assert decompress_g2(data)[0] == (c0, 0)
    assert misses > 3
    x = off_curve_x(5)
    with pytest.raises(ValueError, match="x³ \\+ 3 is not a square"):
        decompress_g1(x.to_bytes(32, "big"))


def test_compress_refuses_points_off_the_curve():
    with pytest.raises(ValueError, match="not a G1 point"):
        compress_g1((1, 3))
    with pytest.raises(ValueError, match="not a G2 point"):
        compress_g2(((1, 0), (1, 0)))


def test_deterministic_proof_is_deterministic_and_input_sensitive():
    first = deterministic_proof(b"inputs one")
    assert first == deterministic_proof(b"inputs one")
    other = deterministic_proof(b"inputs two")
    assert all(first[k] != other[k] for k in "abc")
    assert {k: len(v) for k, v in first.items()} == {"a": 32, "b": 64, "c": 32}
    assert is_valid_compressed_proof(first) == []
    assert is_valid_compressed_proof(other) == []


def test_deterministic_proof_points_follow_the_stated_derivation():
    seed = b"derivation"
    k = [int.from_bytes(hashlib.sha256(seed + label).digest(), "big") % CURVE_ORDER for label in (b"A", b"B", b"C")]
    proof = deterministic_proof(seed)
    assert decompress_g1(bytes(proof["a"])) == neg1(g1(k[0]))  # A is already negated
    assert decompress_g2(bytes(proof["b"])) == g2(k[1])
    assert decompress_g1(bytes(proof["c"])) == g1(k[2])


def first_flip_off_curve(a: list[int]) -> list[int]:
    """`a` with one bit of its last byte flipped so that x leaves the curve (found by Euler's criterion)."""
    for bit in range(8):
        flipped = list(a)
        flipped[-1] ^= 1 << bit
        x = int.from_bytes(bytes(flipped), "big") & ((1 << 254) - 1)
        if pow((x**3 + 3) % P, (P - 1) // 2, P) != 1:
            return flipped
    raise AssertionError("no single-bit flip of the last byte leaves the curve")


def test_validator_rejects_broken_proofs():
    good = deterministic_proof(b"good")
    cases = {
        "a: G1 point: no point with x": {**good, "a": first_flip_off_curve(good["a"])},
        "b: expected 64 bytes, got 63": {**good, "b": good["b"][:63]},
        "c: expected 32 bytes, got 33": {**good, "c": [*good["c"], 0]},
        "a[0]: 256 is not a byte": {**good, "a": [256, *good["a"][1:]]},
        "a[1]: -1 is not a byte": {**good, "a": [0, -1, *good["a"][2:]]},
        "c[0]: a bool is not a byte": {**good, "c": [True, *good["c"][1:]]},
        "c[0]: a float is not a byte": {**good, "c": [1.0, *good["c"][1:]]},
        "b: expected a JSON array of 64 bytes, got str": {**good, "b": "00" * 64},
        "c: missing": {"a": good["a"], "b": good["b"]},
        "a: the point at infinity": {**good, "a": list(compress_g1(None))},
        "a: G1 point: both the infinity": {**good, "a": [0xC0, *good["a"][1:]]},
    }
    for message, proof in cases.items():
        problems = is_valid_compressed_proof(proof)
        assert len(problems) == 1 and problems[0].startswith(message), (message, problems)


def test_validator_never_raises_on_hostile_input():
    huge = 10**5000
    for proof in [
        None,
        [],
        "proof",
        7,
        {"a": None, "b": {}, "c": 1.5},
        {"a": [huge] * 32, "b": [[]] * 64, "c": [None] * 32},
        {"a": [0] * 1_000_000, "b": list(range(64)), "c": [-huge] * 32},
    ]:
        problems = is_valid_compressed_proof(proof)
        assert problems and all(isinstance(p, str) and len(p) < 300 for p in problems)


def test_validator_rejects_twist_points_outside_the_subgroup():
    x = (1, 0)
    while (y := bn254._fp2_sqrt(bn254._FP2.add(bn254.fp2_mul(bn254.fp2_mul(x, x), x), bn254._B2))) is None:
        x = (x[0] + 1, 0)
    assert ecc.multiply((ecc.FQ2(x), ecc.FQ2(y), ecc.FQ2.one()), CURVE_ORDER)[2] != ecc.FQ2.zero()
    proof = {**deterministic_proof(b"twist"), "b": list(compress_g2((x, y)))}
    assert is_valid_compressed_proof(proof) == ["b: point on the twist but not in the G2 subgroup of order r"]


def test_g2_membership_agrees_with_the_order_r_definition():
    """ψ(Q) = [6x²]Q is checked against [r]Q = O (py_ecc) on G2 points and other twist points."""
    rng = random.Random(12)
    for k in (1, 2, rng.randrange(1, CURVE_ORDER)):
        assert bn254.in_g2_subgroup(g2(k))
    found = 0
    while found < 3:
        x = (rng.randrange(P), rng.randrange(P))
        y = bn254._fp2_sqrt(bn254._FP2.add(bn254.fp2_mul(bn254.fp2_mul(x, x), x), bn254._B2))
        if y is None:
            continue
        found += 1
        in_g2 = ecc.multiply((ecc.FQ2(x), ecc.FQ2(y), ecc.FQ2.one()), CURVE_ORDER)[2] == ecc.FQ2.zero()
        assert bn254.in_g2_subgroup((x, y)) == in_g2
        q = ecc.normalize(ecc.multiply((ecc.FQ2(x), ecc.FQ2(y), ecc.FQ2.one()), 2**20 + 3))
        assert bn254.in_g2_subgroup((tuple(q[0].coeffs), tuple(q[1].coeffs))) == in_g2


def gnark_hex(n: int) -> str:
    return hex(n)  # the light prover writes 0x-hex without zero padding (Go's big.Int Text(16))


def test_proof_from_gnark_negates_a_and_orders_g2_c1_first():
    a, b, c = g1(11), g2(12), g1(13)
    gnark = {
        "ar": [gnark_hex(a[0]), gnark_hex(a[1])],
        "bs": [[gnark_hex(b[0][1]), gnark_hex(b[0][0])], [gnark_hex(b[1][1]), gnark_hex(b[1][0])]],
        "krs": [gnark_hex(c[0]), gnark_hex(c[1])],
    }
    proof = proof_from_gnark(gnark)
    assert decompress_g1(bytes(proof["a"])) == neg1(a)
    assert decompress_g2(bytes(proof["b"])) == b
    assert decompress_g1(bytes(proof["c"])) == c
    assert is_valid_compressed_proof(proof) == []


def test_proof_from_gnark_matches_the_light_client_vector():
    # The compressed proof the light protocol JS client's own test expects for this prover answer.
    gnark = {
        "ar": [
            "0x22bdaa3187d8fe294925a66fa0165a11bc9e07678fa2fc72402ebfd33d521c69",
            "0x2d18ff780b69898b4cdd8d7b6ac72d077799399f0f45e52665426456f3903584",
        ],
        "bs": [
            [
                "0x138cc0962e49f76a701d2871d2799892c9782940095eb0429e979f336d2e162d",
                "0x2fe1bfbb15cbfb83d7e00ace23e45f890604003783eaf34affa35e0d6f4822bc",
            ],
            [
                "0x1a89264f82cc6e8ef1c696bea0b5803c28c0ba6ab61366bcb71e73a4135cae8d",
                "0xf778d857b3df01a4100265c9d014ce02d47425f0114685356165fa5ee3f3a26",
            ],
        ],
        "krs": [
            "0x176b6ae9001f66832951e2d43a98a972667447bb1781f534b70cb010270dcdd3",
            "0xb748d5fac1686db28d94c02250af7eb4f28dfdabc8983305c45bcbc6e163eeb",
        ],
    }
    proof = proof_from_gnark(gnark)
    assert bytes(proof["a"]).hex() == "22bdaa3187d8fe294925a66fa0165a11bc9e07678fa2fc72402ebfd33d521c69"
    assert bytes(proof["b"]).hex() == (
        "938cc0962e49f76a701d2871d2799892c9782940095eb0429e979f336d2e162d"
        "2fe1bfbb15cbfb83d7e00ace23e45f890604003783eaf34affa35e0d6f4822bc"
    )
    assert bytes(proof["c"]).hex() == "176b6ae9001f66832951e2d43a98a972667447bb1781f534b70cb010270dcdd3"
    assert is_valid_compressed_proof(proof) == []


@pytest.mark.parametrize(
    ("gnark", "message"),
    [
        ([], "expected an object"),
        ({"ar": ["0x1", "0x2"], "bs": [["0x1", "0x1"], ["0x1", "0x1"]]}, "missing krs"),
        ({"ar": ["0x1"], "bs": [], "krs": []}, "ar: expected an array of 2"),
        ({"ar": ["0x1", "2z"], "bs": [], "krs": ["0x1", "0x2"]}, r"ar\[1\]: expected a hex string"),
        ({"ar": ["0x1", 2], "bs": [], "krs": ["0x1", "0x2"]}, r"ar\[1\]: expected a hex string"),
        ({"ar": ["0x1", hex(P)], "bs": [], "krs": ["0x1", "0x2"]}, "not below the field modulus"),
        ({"ar": ["0x1", "0x3"], "bs": [["0x1", "0x1"], ["0x1", "0x1"]], "krs": ["0x1", "0x2"]}, "not a G1 point"),
        ({"ar": ["0x1", "0x2"], "bs": [["0x1", "0x1"], ["0x1", "0x1"]], "krs": ["0x1", "0x2"]}, "not a G2 point"),
    ],
)
def test_proof_from_gnark_rejects(gnark, message):
    with pytest.raises(ValueError, match=message):
        proof_from_gnark(gnark)


def test_import_keeps_the_recursion_limit() -> None:
    """py_ecc raises the limit to 100,000 on import, which turns a deep JSON document into a
    segfault instead of a RecursionError; bn254 puts the interpreter's limit back."""
    import subprocess
    import sys

    code = ("import sys; before = sys.getrecursionlimit(); import csi_conformance.ledger_crypto.bn254; "
            "print(before, sys.getrecursionlimit())")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    before, after = done.stdout.split()
    assert before == after
