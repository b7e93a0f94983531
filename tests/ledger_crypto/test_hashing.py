"""Hash primitives, account and token hashes, token codec and base58 (ledger-facts)."""

import hashlib
import random

import base58
import pytest
from Crypto.Hash import keccak
from csi_conformance import ledger_crypto
from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.ledger_crypto import (
    FIELD_MODULUS,
    TOKEN_PROGRAM_ID,
    TokenDataFields,
    account_hash,
    account_hash_inputs,
    decode_token_data,
    derive_address,
    encode_token_data,
    hash_to_field,
    poseidon,
    token_data_hash,
    token_data_hash_inputs,
)
from csi_conformance.ledger_crypto.hashing import _account_hash, _token_data_hash


def word(n: int) -> bytes:
    return n.to_bytes(32, "big")


def key(byte: int) -> bytes:
    """7 zero bytes, then ``byte``, then 24 zero bytes: the pubkeys of the vectors."""
    return bytes(7) + bytes([byte]) + bytes(24)


# ------------------------------------------------------------------ Poseidon and H2F


@pytest.mark.parametrize(
    ("inputs", "expected"),
    [
        ((1, 2), "115cc0f5e7d690413df64c6b9662e9cf2a3617f2743245519e19607a4417189a"),
        ((0, 0), "2098f5fb9e239eab3ceac3f27b81e481dc3124d55ffed523a839ee8446b64864"),
        ((0, 0, 0), "0bc188d27dcceadc1dcfb6af0a7af08fe2864eecec96c5ae7cee6db31ba599aa"),
    ],
)
def test_poseidon_vectors(inputs, expected):
    assert poseidon(*(word(i) for i in inputs)).hex() == expected


def test_poseidon_keeps_leading_zero_bytes():
    # Some outputs start with a zero byte; they must still be 32 bytes long.
    outputs = [poseidon(word(i), word(0)) for i in range(300)]
    assert all(len(o) == 32 for o in outputs)
    assert any(o[0] == 0 for o in outputs)


@pytest.mark.parametrize(
    "inputs",
    [
        (),
        tuple(word(1) for _ in range(13)),
        (bytes(31),),
        (bytes(33), word(1)),
        (word(FIELD_MODULUS),),
    ],
    ids=["none", "thirteen", "short", "long", "modulus"],
)
def test_poseidon_rejects_bad_inputs(inputs):
    with pytest.raises(ValueError):
        poseidon(*inputs)


def test_poseidon_accepts_modulus_minus_one_and_twelve_inputs():
    assert len(poseidon(word(FIELD_MODULUS - 1))) == 32
    assert len(poseidon(*(word(i) for i in range(12)))) == 32


def test_hash_to_field_is_keccak_with_ff_suffix_and_cleared_first_byte():
    parts = (b"abc", bytes(range(40)))
    digest = keccak.new(digest_bits=256, data=b"abc" + bytes(range(40)) + b"\xff").digest()
    result = hash_to_field(*parts)
    assert result == b"\x00" + digest[1:]
    assert result == hash_to_field(b"abc" + bytes(range(40)))
    # Original Keccak padding, not SHA3-256.
    sha3 = hashlib.sha3_256(b"abc" + bytes(range(40)) + b"\xff").digest()
    assert result[1:] != sha3[1:]


def test_hash_to_field_is_below_2_248():
    for i in range(50):
        assert int.from_bytes(hash_to_field(bytes([i]) * 32), "big") < 2**248


# ------------------------------------------------------------------ account hash

VECTOR_ADDRESS = bytes.fromhex("0015f50f3d9de0544530be482b132f190e761493288daf21e93a24b349895463")


def vector_account() -> dict:
    return {
        "owner": key(1),
        "leaf_index": 1,
        "tree": key(3),
        "lamports": 100,
        "address": VECTOR_ADDRESS,
        "discriminator": int.from_bytes(bytes([0, 0, 0, 0, 0, 0, 0, 1]), "little"),
        "data_hash": poseidon(b"\x02" * 31 + b"\x00"),
    }


def test_account_hash_v1_vector():
    expected = "023d8a07931cd50f9570cc999ffe807644da78e5b6406c8a72abe0fd392f0366"
    assert account_hash(**vector_account()).hex() == expected


def test_account_hash_v2_vector_with_big_endian_integers():
    expected = 15638319165413000277907073391141043184436601830909724248083671155000605125280
    result = _account_hash(**vector_account(), big_endian=True)
    assert int.from_bytes(result, "big") == expected


def test_batch_inputs_hash_to_the_same_values():
    """account_hash_inputs and token_data_hash_inputs feed poseidon_many; they must agree."""
    account = vector_account()
    assert poseidon(*account_hash_inputs(**account)) == account_hash(**account)
    plain = {**account, "address": None, "discriminator": None, "data_hash": None, "lamports": 0}
    assert len(account_hash_inputs(**plain)) == 3
    token = {"mint": key(1), "owner": key(2), "amount": 7, "delegate": key(3), "frozen": True}
    assert poseidon(*token_data_hash_inputs(**token)) == token_data_hash(**token)
    with pytest.raises(ValueError, match="leaf_index"):
        account_hash_inputs(**{**account, "leaf_index": -1})


def test_account_hash_omits_zero_lamports_address_and_data():
    plain = account_hash(
        owner=key(1),
        leaf_index=1,
        tree=key(3),
        lamports=0,
        address=None,
        discriminator=None,
        data_hash=None,
    )
    leaf_index_word = bytes(28) + (1).to_bytes(4, "little")
    assert plain == poseidon(hash_to_field(key(1)), leaf_index_word, hash_to_field(key(3)))


def test_account_hash_lamports_word_is_little_endian_and_tagged():
    with_lamports = account_hash(
        owner=key(1),
        leaf_index=0,
        tree=key(3),
        lamports=100,
        address=None,
        discriminator=None,
        data_hash=None,
    )
    lamports_word = bytes(23) + b"\x01" + (100).to_bytes(8, "little")
    expected = poseidon(hash_to_field(key(1)), bytes(32), hash_to_field(key(3)), lamports_word)
    assert with_lamports == expected


@pytest.mark.parametrize(
    "change",
    [
        {"discriminator": None},
        {"data_hash": None},
        {"leaf_index": 2**32},
        {"leaf_index": -1},
        {"lamports": 2**64},
        {"owner": bytes(31)},
        {"address": bytes(33)},
        {"discriminator": 2**64},
    ],
)
def test_account_hash_rejects_bad_fields(change):
    with pytest.raises(ValueError):
        account_hash(**{**vector_account(), **change})


# ------------------------------------------------------------------ token data


def test_token_data_hash_v2_vector():
    expected = 12698830169693734517877055378728747723888091986541703429186543307137690361131
    result = _token_data_hash(
        mint=key(1),
        owner=key(2),
        amount=1_000_000,
        delegate=key(3),
        frozen=False,
        big_endian=True,
    )
    assert int.from_bytes(result, "big") == expected


def test_token_data_hash_v1_layout():
    amount_word = bytes(24) + (1_000_000).to_bytes(8, "little")
    base = (hash_to_field(key(1)), hash_to_field(key(2)), amount_word)
    plain = token_data_hash(mint=key(1), owner=key(2), amount=1_000_000, delegate=None, frozen=False)
    assert plain == poseidon(*base)
    frozen = token_data_hash(mint=key(1), owner=key(2), amount=1_000_000, delegate=key(3), frozen=True)
    assert frozen == poseidon(*base, hash_to_field(key(3)), word(1))


def test_token_data_roundtrip_minimal_is_75_bytes():
    fields = TokenDataFields(mint=key(1), owner=key(2), amount=5)
    raw = encode_token_data(fields)
    assert len(raw) == 75
    assert raw[64:72] == (5).to_bytes(8, "little")
    assert raw[72:] == b"\x00\x00\x00"
    assert decode_token_data(raw) == fields


def test_token_data_roundtrip_full():
    fields = TokenDataFields(
        mint=key(1),
        owner=key(2),
        amount=2**64 - 1,
        delegate=key(3),
        state="frozen",
        tlv=b"xyz",
    )
    raw = encode_token_data(fields)
    assert len(raw) == 75 + 32 + 4 + 3
    assert decode_token_data(raw) == fields


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (bytes(74), "truncated"),
        (bytes(72) + b"\x02\x00\x00", "delegate option tag"),
        (bytes(72) + b"\x00\x02\x00", "state"),
        (bytes(72) + b"\x00\x00\x05", "tlv option tag"),
        (bytes(72) + b"\x00\x00\x01\x05\x00\x00\x00ab", "truncated"),
        (bytes(75) + b"\x00", "trailing"),
    ],
)
def test_decode_token_data_rejects_bad_bytes(raw, message):
    with pytest.raises(ValueError, match=message):
        decode_token_data(raw)


def test_token_data_fields_validate():
    with pytest.raises(ValueError, match="state"):
        TokenDataFields(mint=key(1), owner=key(2), amount=1, state="closed")  # type: ignore
    with pytest.raises(ValueError, match="amount"):
        TokenDataFields(mint=key(1), owner=key(2), amount=-1)
    with pytest.raises(ValueError, match="mint"):
        TokenDataFields(mint=bytes(3), owner=key(2), amount=1)


# -------------------------------------------------------------- addresses and base58


def test_derive_address_layout():
    program, tree, seeds = key(9), key(4), [b"seed", bytes(range(32))]
    seed = bytearray(keccak.new(digest_bits=256, data=program + b"seed" + bytes(range(32))).digest())
    seed[0] = 0
    address = derive_address(program_id=program, seeds=seeds, address_tree=tree)
    assert address == hash_to_field(tree, bytes(seed))
    assert address[0] == 0
    assert address != derive_address(program_id=program, seeds=[b"other"], address_tree=tree)


def test_token_program_id_roundtrips():
    assert len(TOKEN_PROGRAM_ID) == 32
    assert b58encode(TOKEN_PROGRAM_ID) == "cTokenmWW8bLPjZEBAUgYy3zKxQZW6VKi7bqNFEVv3m"


def test_base58_agrees_with_the_base58_package():
    """The two-digit codec is checked against an independent implementation."""
    rng = random.Random(8)
    for size in (0, 1, 2, 31, 32, 33, 64):
        for zeros in range(min(size, 3) + 1):
            raw = bytes(zeros) + rng.randbytes(size - zeros)
            text = b58encode(raw)
            assert text == base58.b58encode(raw).decode("ascii")
            assert b58decode(text) == raw == base58.b58decode(text)
    assert b58decode("") == b"" and b58decode("z") == bytes([57])


def test_base58_roundtrip_keeps_leading_zeros():
    raw = bytes(3) + bytes(range(1, 30))
    text = b58encode(raw)
    assert text.startswith("111")
    assert b58decode(text, length=32) == raw


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("11111111111111111111111111111111", None),
        ("1111", "expected 32 bytes"),
        ("0OIl", "invalid base58"),
        (" 1111", "invalid base58"),
        (b"1111", "expected a base58 string"),
    ],
)
def test_b58decode_strictness(text, message):
    if message is None:
        assert b58decode(text, length=32) == bytes(32)
    else:
        with pytest.raises(ValueError, match=message):
            b58decode(text, length=32)


def test_package_exports_exactly_its_public_names():
    public = {n for n in dir(ledger_crypto) if not n.startswith(("_", "@"))}  # "@": pytest assert rewriting
    modules = {"address_tree", "batched", "bn254", "groth16", "hashing", "merkle", "parallel"}
    assert set(ledger_crypto.__all__) == public - modules
