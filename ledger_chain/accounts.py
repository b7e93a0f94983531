"""Reading account compression's accounts: trees (root history, sequence number, changelog) and queues.

A tree account is an 8-byte discriminator, `MerkleTreeMetadata` (216 bytes: access and rollover
metadata, associated queue, next tree), then a zero-copy `ConcurrentMerkleTree<Poseidon, 26>`:
height, canopy depth, next index and sequence number (u64 each), the rightmost leaf, the
metadata of four vectors (filled subtrees, changelog, roots, canopy), then their elements. The
roots vector is cyclic: the root after operation `seq` sits at index `seq % capacity`, which is
why a proof names its root by that index. An address tree follows with its indexed changelog.
A queue account is the discriminator, `QueueMetadata` (224 bytes), then a hash set: capacity,
sequence threshold, one unused word, then 48-byte cells of `Option<HashSetCell{value,
sequence_number: Option<usize>}>`, laid out as the sequence number's tag and value words, then the
32-byte value (measured); a value sits at `(value + (i + capacity // 10)²) % capacity`
for the first probe `i` that holds it.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from solders.pubkey import Pubkey

__all__ = ["QUEUE_PROBES", "TreeAccount", "queue_index", "read_tree"]

TREE_START = 8 + 216
"""Where the concurrent merkle tree begins in a state or address tree account."""
QUEUE_START = 8 + 224 + 24
"""Where the queue's cells begin."""
CELL = 48
"""One `Option<HashSetCell>`: `Option<usize>` (tag word, value word), then the 32-byte value."""
VALUE_AT = 16
CHANGELOG_ENTRY = 872
"""`ChangelogEntry<26>`: 26 optional 32-byte nodes (33 bytes each), padded to 864, then the leaf index."""
QUEUE_PROBES = 20
"""Probes the queue tries before it reports itself full (`ITERATIONS` of the hash set)."""
ASSOCIATED_QUEUE = slice(8 + 96 + 56, 8 + 96 + 56 + 32)


@dataclass(frozen=True, slots=True)
class TreeAccount:
    """What a forester and a prover need of an on-chain tree."""

    height: int
    canopy_depth: int
    next_index: int
    sequence_number: int
    changelog_index: int
    """The latest changelog entry (a forester's update names it)."""
    roots: tuple[bytes, ...]
    """The cyclic root history, by index (a slot never written holds zeros)."""
    associated_queue: Pubkey
    indexed_changelog_index: int | None = None
    """The latest indexed-changelog entry of an address tree; None for a state tree."""

    @property
    def root(self) -> bytes:
        return self.roots[self.sequence_number % len(self.roots)]

    @property
    def root_index(self) -> int:
        return self.sequence_number % len(self.roots)


def _words(data: bytes, offset: int, count: int) -> tuple[int, ...]:
    return struct.unpack_from(f"<{count}Q", data, offset)


def read_tree(data: bytes) -> TreeAccount:
    """Parse a state or address tree account (ValueError when it is not one)."""
    if len(data) < TREE_START + 160:
        raise ValueError(f"a tree account is larger than {len(data)} bytes")
    height, canopy_depth, next_index, sequence_number = _words(data, TREE_START, 4)
    offset = TREE_START + 64
    filled_capacity, _ = _words(data, offset, 2)
    changelog = _words(data, offset + 16, 4)  # capacity, length, first index, last index
    roots_meta = _words(data, offset + 48, 4)
    canopy_capacity, _ = _words(data, offset + 80, 2)
    offset += 96 + 32 * filled_capacity + CHANGELOG_ENTRY * changelog[0]
    roots = tuple(data[offset + 32 * i: offset + 32 * i + 32] for i in range(roots_meta[0]))
    end = offset + 32 * roots_meta[0] + 32 * canopy_capacity
    if height != 26 or end > len(data):
        raise ValueError(f"not a height-26 tree account (height {height}, {len(data)} bytes, layout needs {end})")
    indexed = _words(data, end, 4)[3] if len(data) > end else None
    return TreeAccount(height, canopy_depth, next_index, sequence_number, changelog[3], roots,
                       Pubkey.from_bytes(data[ASSOCIATED_QUEUE]), indexed)


def queue_index(data: bytes, value: bytes) -> int:
    """The cell of a queue that holds `value` (a spent account's hash, or a new address), probed as
    the program probes; ValueError when the queue does not hold it."""
    capacity = _words(data, QUEUE_START - 24, 1)[0]
    number = int.from_bytes(value, "big")
    for probe in range(QUEUE_PROBES):
        step = probe + capacity // 10
        index = (number + step * step) % capacity
        cell = QUEUE_START + CELL * index + VALUE_AT
        if data[cell: cell + 32] == value:
            return index
    raise ValueError(f"the queue does not hold 0x{value.hex()}")
