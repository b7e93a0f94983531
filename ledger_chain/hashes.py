"""A generated chain's genesis hash and blockhashes, derived from what the chain holds, as a real chain's are.

A cluster's genesis hash is the hash of its genesis config, and a block's hash is the last entry of its
proof of history, which starts from the parent's blockhash and mixes in the signatures of every
transaction: two chains differ in it from the first block where they differ, and a block's hash says
which transactions it holds. The kit's chain does the same in miniature (SHA-256; the slot, then each
transaction's signatures mixed in, in order), so two generated chains are told apart by their genesis and
by every blockhash, and a cache that holds a block by its hash holds that very block.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence

from solders.hash import Hash
from solders.pubkey import Pubkey
from solders.signature import Signature

__all__ = ["block_hash", "genesis_hash"]

GENESIS_DOMAIN = b"csi-chain genesis 1"
BLOCK_DOMAIN = b"csi-chain block 1"


def _field(data: bytes) -> bytes:
    """A length-prefixed field: no two different lists of fields hash the same bytes."""
    return len(data).to_bytes(4, "little") + data


def genesis_hash(seed: int, programs: str, program_ids: Iterable[Pubkey], funding: Mapping[Pubkey, int],
                 forester: Pubkey) -> Hash:
    """The hash of a chain's genesis: its seed, its program set (label and program ids), who is funded with
    how much, and the forester written into the trees."""
    digest = hashlib.sha256(GENESIS_DOMAIN)
    digest.update(_field(str(seed).encode()) + _field(programs.encode()))
    for program in sorted(program_ids, key=bytes):
        digest.update(_field(bytes(program)))
    for key in sorted(funding, key=bytes):
        digest.update(_field(bytes(key)) + _field(str(funding[key]).encode()))
    digest.update(_field(bytes(forester)))
    return Hash(digest.digest())


def block_hash(parent: Hash, slot: int, signatures: Sequence[Sequence[Signature]]) -> Hash:
    """A block's hash: from its parent's blockhash and its slot, with each transaction's signatures mixed in
    one after the other (`signatures[i]` are transaction i's)."""
    state = hashlib.sha256(BLOCK_DOMAIN + bytes(parent) + slot.to_bytes(8, "little")).digest()
    for transaction in signatures:
        mixed = hashlib.sha256(state)
        for signature in transaction:
            mixed.update(bytes(signature))
        state = mixed.digest()
    return Hash(state)
