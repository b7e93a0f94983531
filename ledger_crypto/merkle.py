"""Poseidon merkle trees of height 26, as the ledger keeps v1 state and address trees.

Leaf positions are only ever appended (a leaf may later be overwritten), so each level
is a plain list holding the nodes that exist; anything to its right is the zero hash of
that level. Every operation advances a sequence number and records the new root in a
cyclic root history, because proofs name their root by ``seq % ROOT_HISTORY``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from light_poseidon_python import Hasher

from .hashing import FIELD_MODULUS
from .parallel import parallel_threshold, poseidon_many

__all__ = [
    "HEIGHT",
    "ROOT_HISTORY",
    "ZERO_HASHES",
    "SparseMerkleTree",
    "StateTree",
    "fold_path",
]

HEIGHT = 26
ROOT_HISTORY = 2400

_ZERO32 = bytes(32)
_MODULUS_BYTES = FIELD_MODULUS.to_bytes(32, "big")
_HASHER2 = Hasher(2)


def _hash2(left: bytes, right: bytes) -> bytes:
    return bytes.fromhex(_HASHER2.hash_bytes_be([left, right])[2:])


def _zero_hashes(height: int) -> tuple[bytes, ...]:
    zeros = [_ZERO32]
    for _ in range(height):
        zeros.append(_hash2(zeros[-1], zeros[-1]))
    return tuple(zeros)


ZERO_HASHES: tuple[bytes, ...] = _zero_hashes(HEIGHT)
"""Z0..Z26: root of an empty subtree of each height (Z26 is the empty tree's root)."""


def fold_path(leaf: bytes, leaf_index: int, path: Sequence[bytes]) -> bytes:
    """Root reached from ``leaf`` at ``leaf_index`` through the siblings ``path``.

    ``path`` starts at level 0; bit i of the index being 0 means the node at level i is
    the left child. This is the one inclusion check: a proof is valid iff the fold
    equals the claimed root.
    """
    if isinstance(leaf_index, bool) or not isinstance(leaf_index, int):
        raise ValueError(f"leaf_index must be an integer, got {leaf_index!r}")
    if not 0 <= leaf_index < 1 << len(path):
        raise ValueError(f"leaf_index {leaf_index} does not fit a path of {len(path)} levels")
    node = bytes(leaf)
    for level, sibling in enumerate(path):
        sibling = bytes(sibling)
        node = _hash2(sibling, node) if (leaf_index >> level) & 1 else _hash2(node, sibling)
    return node


def _checked_leaf(leaf: bytes) -> bytes:
    if type(leaf) is not bytes:
        if not isinstance(leaf, bytes | bytearray | memoryview):
            raise ValueError(f"leaf must be bytes, got {type(leaf).__name__}")
        leaf = bytes(leaf)
    if len(leaf) != 32:
        raise ValueError(f"leaf must be 32 bytes, got {len(leaf)}")
    # Same-length big-endian byte strings compare like the integers they encode.
    if leaf >= _MODULUS_BYTES:
        raise ValueError(f"leaf 0x{leaf.hex()} is not below the field modulus")
    return leaf


class SparseMerkleTree:
    """Append-position merkle tree with zero defaults, sequence number and root history.

    Single operations are exact: each adds 1 to ``seq`` and records its root. Bulk
    operations (``append_many``, ``write_many``, ``insert_many``) hash every dirty node
    once, add their operation count to ``seq`` and record only the final root; the history
    slots of the skipped sequence numbers are cleared, so ``history_root`` never returns a
    root the tree did not have at that sequence number. ``StateTree.write_leaves`` and
    ``AddressTree.write_elements`` are for a ledger told positions and seq, not deriving them.
    """

    def __init__(self, *, height: int = HEIGHT, history_size: int = ROOT_HISTORY) -> None:
        if not 1 <= height <= HEIGHT:
            raise ValueError(f"height must be in [1, {HEIGHT}], got {height}")
        if history_size < 1:
            raise ValueError(f"history_size must be positive, got {history_size}")
        self._height = height
        # _levels[k] holds the existing nodes of level k (0 = leaves); root kept apart.
        self._levels: list[list[bytes]] = [[] for _ in range(height)]
        self._root = ZERO_HASHES[height]
        self._seq = 0
        self._history: list[bytes | None] = [None] * history_size
        self._history[0] = self._root

    # ----------------------------------------------------------------- reading

    @property
    def height(self) -> int:
        return self._height

    @property
    def root(self) -> bytes:
        return self._root

    @property
    def seq(self) -> int:
        """Number of tree operations so far (0 for the empty tree)."""
        return self._seq

    @property
    def root_index(self) -> int:
        """Slot of the current root in the root history (``seq % history size``)."""
        return self._seq % len(self._history)

    @property
    def next_index(self) -> int:
        """Index the next appended leaf gets (= number of leaf positions in use)."""
        return len(self._levels[0])

    @property
    def capacity(self) -> int:
        return 1 << self._height

    def __len__(self) -> int:
        return len(self._levels[0])

    def history_root(self, root_index: int) -> bytes | None:
        """Root recorded in history slot ``root_index``, or None if it holds none."""
        if not 0 <= root_index < len(self._history):
            raise IndexError(f"root index {root_index} outside [0, {len(self._history)})")
        return self._history[root_index]

    def leaf(self, leaf_index: int) -> bytes:
        self._check_index(leaf_index)
        return self._levels[0][leaf_index]

    def proof(self, leaf_index: int) -> list[bytes]:
        """The ``height`` siblings from the leaf up, as ``fold_path`` consumes them."""
        self._check_index(leaf_index)
        path = []
        for level, nodes in enumerate(self._levels):
            sibling = (leaf_index >> level) ^ 1
            path.append(nodes[sibling] if sibling < len(nodes) else ZERO_HASHES[level])
        return path

    # ----------------------------------------------------------------- writing

    def _check_index(self, leaf_index: int) -> None:
        if isinstance(leaf_index, bool) or not isinstance(leaf_index, int):
            raise ValueError(f"leaf index must be an integer, got {leaf_index!r}")
        if not 0 <= leaf_index < len(self._levels[0]):
            raise IndexError(f"leaf index {leaf_index} outside [0, {len(self._levels[0])})")

    def _check_room(self, count: int) -> None:
        if len(self._levels[0]) + count > self.capacity:
            raise ValueError(f"tree full: {len(self._levels[0])} of {self.capacity} leaves used, cannot add {count}")

    def _append_leaf(self, leaf: bytes) -> int:
        """Exact single append: one operation. Returns the leaf index."""
        leaf = _checked_leaf(leaf)
        self._check_room(1)
        index = len(self._levels[0])
        self._levels[0].append(leaf)
        self._rehash((index,))
        self._advance(1)
        return index

    def _set_leaf(self, leaf_index: int, leaf: bytes) -> None:
        """Exact single overwrite of an existing leaf: one operation."""
        leaf = _checked_leaf(leaf)
        self._check_index(leaf_index)
        self._levels[0][leaf_index] = leaf
        self._rehash((leaf_index,))
        self._advance(1)

    def _bulk_write(self, updates: dict[int, bytes], appends: list[bytes], operations: int) -> None:
        """Overwrite existing leaves and append new ones, hashing dirty nodes once."""
        updates = {i: _checked_leaf(v) for i, v in updates.items()}
        appends = [_checked_leaf(v) for v in appends]
        for i in updates:
            self._check_index(i)
        self._check_room(len(appends))
        leaves = self._levels[0]
        start = len(leaves)
        for i, value in updates.items():
            leaves[i] = value
        leaves.extend(appends)
        dirty: list[int] = sorted(updates)
        dirty.extend(range(start, len(leaves)))
        if dirty:
            self._rehash(dirty)
        if operations:
            self._advance(operations)

    def _write_at(self, leaves: Mapping[int, bytes], seq: int) -> int:
        """Write leaves at any indices (positions between never written hold zero), then take
        ``seq`` as the tree's seq when it is higher, recording the root at the tree's seq."""
        if isinstance(seq, bool) or not isinstance(seq, int):
            raise ValueError(f"seq must be an integer, got {seq!r}")
        for index in leaves:
            if isinstance(index, bool) or not isinstance(index, int):
                raise ValueError(f"leaf index must be an integer, got {index!r}")
            if not 0 <= index < self.capacity:
                raise IndexError(f"leaf index {index} outside a tree of {self.capacity} leaves")
        start = len(self._levels[0])
        updates = {i: leaf for i, leaf in leaves.items() if i < start}
        appends: list[bytes] = []
        if len(updates) < len(leaves):
            appends = [_ZERO32] * (max(leaves) + 1 - start)
            for i, leaf in leaves.items():
                if i >= start:
                    appends[i - start] = leaf
        self._bulk_write(updates, appends, 0)
        if seq > self._seq:
            self._advance(seq - self._seq)
        else:
            self._history[self._seq % len(self._history)] = self._root
        return self._seq

    def _rehash(self, dirty: Iterable[int]) -> None:
        """Recompute the ancestors of ``dirty`` (ascending leaf indices) per level."""
        hash_hex = _HASHER2.hash_bytes_be
        fromhex = bytes.fromhex
        top = self._height - 1
        threshold = parallel_threshold()
        for level in range(self._height):
            nodes = self._levels[level]
            count = len(nodes)
            zero = ZERO_HASHES[level]
            parents: list[int] = []
            last = -1
            for i in dirty:
                p = i >> 1
                if p != last:
                    parents.append(p)
                    last = p
            if level == top:
                left = nodes[0] if count else zero
                right = nodes[1] if count > 1 else zero
                self._root = fromhex(hash_hex([left, right])[2:])
                return
            upper = self._levels[level + 1]
            if threshold is not None and len(parents) >= threshold:
                self._rehash_level_in_batch(nodes, upper, parents, zero)
                dirty = parents
                continue
            for p in parents:
                left_i = p << 1
                left = nodes[left_i]
                right = nodes[left_i + 1] if left_i + 1 < count else zero
                value = fromhex(hash_hex([left, right])[2:])
                if p < len(upper):
                    upper[p] = value
                else:
                    upper.append(value)
            dirty = parents

    @staticmethod
    def _rehash_level_in_batch(nodes: list[bytes], upper: list[bytes], parents: list[int], zero: bytes) -> None:
        """One level's parents through ``poseidon_many``, shared with the hashing workers."""
        count = len(nodes)
        pairs = [(nodes[p << 1], nodes[(p << 1) + 1] if (p << 1) + 1 < count else zero) for p in parents]
        for p, value in zip(parents, poseidon_many(pairs), strict=True):
            if p < len(upper):
                upper[p] = value
            else:
                upper.append(value)

    def _advance(self, operations: int) -> None:
        history = self._history
        size = len(history)
        first = self._seq + 1
        self._seq += operations
        if operations >= size:
            history[:] = [None] * size
        else:
            for s in range(first, self._seq):
                history[s % size] = None
        history[self._seq % size] = self._root


class StateTree(SparseMerkleTree):
    """v1 state tree: account hashes are appended; consuming one zeroes its leaf."""

    def append(self, leaf: bytes) -> tuple[int, int]:
        """Append one leaf; returns ``(leaf_index, seq)``, seq being that after it."""
        index = self._append_leaf(leaf)
        return index, self._seq

    def append_many(self, leaves: Iterable[bytes]) -> list[tuple[int, int]]:
        """Bulk append in O(n) hashes; returns ``(leaf_index, seq)`` per leaf.

        ``seq`` advances by one per leaf exactly as with ``append``, and the final root
        equals the one repeated appends give, but only that final root is recorded in
        the root history.
        """
        batch = list(leaves)
        start, seq0 = self.next_index, self._seq
        self._bulk_write({}, batch, len(batch))
        return [(start + i, seq0 + i + 1) for i in range(len(batch))]

    def write_many(self, *, appends: Iterable[bytes] = (), nullify: Iterable[int] = ()) -> int:
        """Append ``appends``, then zero the leaves at ``nullify``, hashing each dirty node once.

        ``nullify`` may name leaves appended by the same call. The final leaves, root and seq
        are those of one ``append`` per leaf followed by one ``nullify`` per index (seq grows by
        their total count), so a ledger can write a whole block of transactions in O(n) hashes
        instead of a 26-hash update per consumed account. Only the final root is recorded in the
        root history. Nothing changes if a leaf or an index is rejected. Returns the new seq.
        """
        batch = list(appends)
        indices = list(nullify)
        start = self.next_index
        updates: dict[int, bytes] = {}
        for index in indices:
            if isinstance(index, bool) or not isinstance(index, int):
                raise ValueError(f"leaf index must be an integer, got {index!r}")
            if not 0 <= index < start + len(batch):
                raise IndexError(f"leaf index {index} outside [0, {start + len(batch)})")
        batch = [_checked_leaf(leaf) for leaf in batch]
        for index in indices:
            if index >= start:
                batch[index - start] = _ZERO32
            else:
                updates[index] = _ZERO32
        self._bulk_write(updates, batch, len(batch) + len(indices))
        return self._seq

    def write_leaves(self, leaves: Mapping[int, bytes], *, seq: int) -> int:
        """Write leaves at given indices and take the tree's seq as given, hashing each dirty node once.

        For a ledger that reads leaf positions and sequence numbers from the chain instead of
        deriving them. An index past the end extends the tree; positions between that were never
        written hold zero. The tree's seq becomes ``seq`` when that is higher (the history slots
        skipped are cleared) and stays otherwise; either way the new root is recorded at the
        tree's seq. Nothing changes if a leaf or an index is rejected. Returns the tree's seq.
        """
        return self._write_at(leaves, seq)

    def nullify_many(self, leaf_indices: Iterable[int]) -> int:
        """Zero many existing leaves in one pass (one operation each); returns the new seq."""
        return self.write_many(nullify=leaf_indices)

    def update(self, leaf_index: int, new_leaf: bytes) -> int:
        """Overwrite an existing leaf (one operation); returns the new seq."""
        self._set_leaf(leaf_index, new_leaf)
        return self._seq

    def nullify(self, leaf_index: int) -> int:
        """Mark a consumed account: its leaf becomes 32 zero bytes. Returns new seq."""
        return self.update(leaf_index, _ZERO32)
