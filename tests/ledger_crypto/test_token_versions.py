"""The token program's three data hashes, each against an account of Photon's real test data.

v1 (amount little-endian) from `batch_append_nullify` (a v1 tree), v2 (amount big-endian) from
`batched_tree_token_transactions` (a classic account in a batched tree, hashed by the token program's builds
before #1939), ShaFlat (SHA-256 of the bytes, byte 0 cleared) from `index_compress_and_close_with_tlv`.
Each vector is the `dataHash` the transaction itself carries.
"""

from __future__ import annotations

import hashlib

import pytest
from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.ledger_crypto import (
    TOKEN_SHA_FLAT_DISCRIMINATOR,
    TOKEN_V2_DISCRIMINATOR,
    decode_token_data,
    sha256_be,
    token_data_hash,
    token_data_hash_inputs,
)
from csi_conformance.ledger_crypto.hashing import poseidon

V1_DATA = bytes.fromhex(
    "5554af80a2f0e0819b40c4190220aaef2322131b5b60e501df7a981d6b45d53103528a84cf35f33dbef1b32192d935144e9d62"
    "3384d0b079ca687c00109b819600e1f50500000000000000")
V1_HASH = "2BVyqBqfzK4uM5KX54DjQreK72uYNCpwgY7R8ojWtHqo"
V2_DATA = bytes.fromhex(
    "d93b081918ac8fc09c770f66ddbe65612333fce5622c2f357908858a45f3a28dccb8c21575e75a3e75b3a2b54724222f31c3d7"
    "5a7303454ad24ba2bf3f33aacc3530000000000000000000")
V2_HASH = "w9TkLeXhsnEUSwApbFUxqfjH4AHanPZHbuG3gKmy9e2"
SHA_FLAT_DATA = bytes.fromhex(
    "c244262905e6edd9056768e5e14f08abcd53405452e41768013974c1ae835509f8659bee7c37f33543999d4b9235a040b5d380"
    "a58a3b51184fd435ac163c98260000000000000000000001010000001f0000000000000000000000000000000001")
SHA_FLAT_HASH = "1PvBJWtNWuq5vY2iuAht6WVujLCDi2Zfds93R1pADKB"


def _hashes(raw: bytes) -> tuple[str, str]:
    fields = decode_token_data(raw)
    kwargs = dict(mint=fields.mint, owner=fields.owner, amount=fields.amount, delegate=fields.delegate,
                  frozen=fields.state == "frozen")
    return b58encode(token_data_hash(**kwargs)), b58encode(token_data_hash(**kwargs, batched=True))


def test_v1_hash_of_a_v1_tree_account() -> None:
    v1, v2 = _hashes(V1_DATA)
    assert v1 == V1_HASH and v2 != V1_HASH


def test_v2_hash_of_a_batched_tree_account_puts_the_amount_big_endian() -> None:
    v1, v2 = _hashes(V2_DATA)
    assert v2 == V2_HASH and v1 != V2_HASH
    assert decode_token_data(V2_DATA).amount == 12341


def test_v2_inputs_hash_to_the_v2_hash() -> None:
    fields = decode_token_data(V2_DATA)
    inputs = token_data_hash_inputs(mint=fields.mint, owner=fields.owner, amount=fields.amount, delegate=None,
                                    frozen=False, batched=True)
    assert inputs[2] == (12341).to_bytes(32, "big")
    assert b58encode(poseidon(*inputs)) == V2_HASH


def test_sha_flat_hash_is_sha256_of_the_bytes_with_byte_0_cleared() -> None:
    assert b58encode(sha256_be(SHA_FLAT_DATA)) == SHA_FLAT_HASH
    assert sha256_be(SHA_FLAT_DATA)[1:] == hashlib.sha256(SHA_FLAT_DATA).digest()[1:]
    with pytest.raises(ValueError):
        sha256_be("not bytes")  # type: ignore[arg-type]


def test_the_discriminators_are_the_programs_bytes_as_wire_integers() -> None:
    assert TOKEN_V2_DISCRIMINATOR == 216172782113783808 == 3 << 56
    assert TOKEN_SHA_FLAT_DISCRIMINATOR == 288230376151711744 == 4 << 56
