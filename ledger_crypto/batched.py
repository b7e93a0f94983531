"""Hashes that only batched (v2) trees use: hash chains, transaction hashes, nullifiers, v2 addresses.

A spend of an account in a batched tree does not zero its leaf: the tree's input queue gets a
nullifier bound to the spending transaction, and the forester later writes that nullifier at the
leaf. New addresses for the batched address tree are derived with the tree and the invoking
program. Sources: Light's `program-libs/hasher/src/hash_chain.rs` and
`program-libs/compressed-account/src/{tx_hash.rs,nullifier.rs,address.rs}`. The account hash
of a batched tree is ``hashing.account_hash(..., batched=True)``, a token account's data hash with the
amount big-endian ``hashing.token_data_hash(..., batched=True)``; today's token program also names the
token data version in the account's discriminator, and its version 3 hashes the data bytes with SHA-256
(`program-libs/token-interface/src/state/compressed_token/{token_data_version.rs,hash.rs}`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from .hashing import hash_to_field, poseidon

__all__ = ["TOKEN_SHA_FLAT_DISCRIMINATOR", "TOKEN_V2_DISCRIMINATOR", "derive_address_v2", "hash_chain",
           "nullifier", "sha256_be", "transaction_hash"]

TOKEN_V2_DISCRIMINATOR = int.from_bytes(bytes([0, 0, 0, 0, 0, 0, 0, 3]), "little")
"""Wire value of a token account of token data version 2: Poseidon data hash, amount big-endian."""
TOKEN_SHA_FLAT_DISCRIMINATOR = int.from_bytes(bytes([0, 0, 0, 0, 0, 0, 0, 4]), "little")
"""Wire value of a token account of token data version 3 ("ShaFlat"): data hash = ``sha256_be(data bytes)``."""

_U64_MAX = 2**64 - 1
_ZERO32 = bytes(32)


def _checked_hash(name: str, value: bytes) -> bytes:
    if not isinstance(value, bytes | bytearray) or len(value) != 32:
        got = len(value) if isinstance(value, bytes | bytearray) else type(value).__name__
        raise ValueError(f"{name} must be 32 bytes, got {got}")
    return bytes(value)


def _u64_word(name: str, value: int) -> bytes:
    """``value`` as a u64 big-endian in the last 8 of 32 bytes."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= _U64_MAX:
        raise ValueError(f"{name} must be an integer in [0, {_U64_MAX}], got {value!r}")
    return value.to_bytes(32, "big")


def hash_chain(values: Sequence[bytes]) -> bytes:
    """Poseidon hash chain: 32 zero bytes for none, the value itself for one, else
    Poseidon(…Poseidon(Poseidon(v0, v1), v2)…, vn)."""
    items = [_checked_hash(f"value {i}", v) for i, v in enumerate(values)]
    if not items:
        return _ZERO32
    node = items[0]
    for item in items[1:]:
        node = poseidon(node, item)
    return node


def transaction_hash(input_hashes: Sequence[bytes], output_hashes: Sequence[bytes], slot: int) -> bytes:
    """Hash of a transaction that spends accounts of a batched tree:
    ``hash_chain([0, hash_chain(inputs), hash_chain(outputs), slot as u64 BE])``.

    ``input_hashes`` / ``output_hashes``: the account hashes in instruction order; ``slot``: the
    slot the transaction ran in (the Clock's). A transaction that opts out of it uses zero.
    """
    return hash_chain([_ZERO32, hash_chain(input_hashes), hash_chain(output_hashes), _u64_word("slot", slot)])


def nullifier(account_hash: bytes, leaf_index: int, tx_hash: bytes) -> bytes:
    """What a spend of the account at ``leaf_index`` puts in a batched tree's input queue and, once
    nullified, at that leaf: Poseidon(account hash, leaf index as u64 BE in 32 bytes, tx hash)."""
    return poseidon(_checked_hash("account_hash", account_hash), _u64_word("leaf_index", leaf_index),
                    _checked_hash("tx_hash", tx_hash))


def derive_address_v2(seed: bytes, address_tree: bytes, program_id: bytes) -> bytes:
    """Address in the batched address tree: H2F(seed ‖ address tree ‖ invoking program id).

    (v1's ``derive_address`` is H2F(tree ‖ seed), its seed made from the program id and seeds.)
    """
    return hash_to_field(_checked_hash("seed", seed), _checked_hash("address_tree", address_tree),
                         _checked_hash("program_id", program_id))


def sha256_be(data: bytes) -> bytes:
    """Light's ``Sha256BE``: SHA-256 with byte 0 cleared, so the hash is a field element (a ShaFlat token
    account's data hash of its borsh bytes)."""
    if not isinstance(data, bytes | bytearray):
        raise ValueError(f"data must be bytes, got {type(data).__name__}")
    return b"\0" + hashlib.sha256(bytes(data)).digest()[1:]
