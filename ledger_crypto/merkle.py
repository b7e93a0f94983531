"""Poseidon merkle trees as the ledger keeps them: v1 trees of height 26, batched trees of 32 and 40.

Leaves mostly grow from the left, so each level keeps a list for its dense prefix and a dict for
nodes further right; anything absent is the zero hash of its level. A leaf written far beyond the
prefix (a chain's tree seen from leaf 30,000,000 on) costs ``height`` hashes. Every operation
advances a sequence number and records the new root in a cyclic root history, because proofs name
their root by ``seq % history size``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from light_poseidon_python import Hasher

from .hashing import FIELD_MODULUS
from .parallel import parallel_threshold, poseidon_many

__all__ = ["BATCHED_ADDRESS_HEIGHT", "BATCHED_STATE_HEIGHT", "HEIGHT", "MAX_HEIGHT", "ROOT_HISTORY", "ZERO_HASHES",
           "SparseMerkleTree", "StateTree", "fold_path", "zero_hashes"]

HEIGHT = 26  # v1 state and address trees
BATCHED_STATE_HEIGHT = 32  # batched (v2) state trees, `bmt…`
BATCHED_ADDRESS_HEIGHT = 40  # the batched (v2) address tree, `amt2…`
MAX_HEIGHT = BATCHED_ADDRESS_HEIGHT
ROOT_HISTORY = 2400  # root history length of v1 trees; a batched tree's own is in its account

_ZERO32 = bytes(32)
_MODULUS_BYTES = FIELD_MODULUS.to_bytes(32, "big")
_HASHER2 = Hasher(2)
_DENSE_SLACK = 64  # a write this close past the dense prefix extends it (zeros between): ≤ ~2 × 64 more hashes


def _hash2(left: bytes, right: bytes) -> bytes:
    return bytes.fromhex(_HASHER2.hash_bytes_be([left, right])[2:])


_ZEROS = [_ZERO32]
for _ in range(MAX_HEIGHT):
    _ZEROS.append(_hash2(_ZEROS[-1], _ZEROS[-1]))


def zero_hashes(height: int) -> tuple[bytes, ...]:
    """Z0..Z``height``: Z0 = 0, Z(i+1) = Poseidon(Zi, Zi), the root of an empty subtree of height i."""
    if isinstance(height, bool) or not isinstance(height, int) or not 0 <= height <= MAX_HEIGHT:
        raise ValueError(f"height must be an integer in [0, {MAX_HEIGHT}], got {height!r}")
    return tuple(_ZEROS[: height + 1])


ZERO_HASHES: tuple[bytes, ...] = zero_hashes(HEIGHT)
"""Z0..Z26: root of an empty subtree of each height (Z26 is the empty v1 tree's root)."""


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
    """Merkle tree with zero defaults, leaves at any index, sequence number and root history.

    Single operations are exact: each adds 1 to ``seq`` and records its root. Bulk
    operations (``append_many``, ``write_many``, ``insert_many``) hash every dirty node
    once, add their operation count to ``seq`` and record only the final root; the history
    slots of the skipped sequence numbers are cleared, so ``history_root`` never returns a
    root the tree did not have at that sequence number. ``StateTree.write_leaves`` and
    ``AddressTree.write_elements`` are for a ledger told positions and seq, not deriving them.
    """

    def __init__(self, *, height: int = HEIGHT, history_size: int = ROOT_HISTORY) -> None:
        if isinstance(height, bool) or not isinstance(height, int) or not 1 <= height <= MAX_HEIGHT:
            raise ValueError(f"height must be in [1, {MAX_HEIGHT}], got {height!r}")
        if isinstance(history_size, bool) or not isinstance(history_size, int) or history_size < 1:
            raise ValueError(f"history_size must be a positive integer, got {history_size!r}")
        self._height = height
        # Level k (0 = leaves; the root kept apart): the dense prefix, its length always
        # ceil(length below / 2), and the nodes right of it that are not the zero hash.
        self._levels: list[list[bytes]] = [[] for _ in range(height)]
        self._far: list[dict[int, bytes]] = [{} for _ in range(height)]
        self._next_index = 0
        self._root = _ZEROS[height]
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
        """Number of tree operations so far (0 for the empty tree), or the seq a ledger gave."""
        return self._seq

    @property
    def history_size(self) -> int:
        return len(self._history)

    @property
    def root_index(self) -> int:
        """Slot of the current root in the root history (``seq % history size``)."""
        return self._seq % len(self._history)

    @property
    def next_index(self) -> int:
        """Index the next appended leaf gets: the highest leaf position written + 1."""
        return self._next_index

    @property
    def capacity(self) -> int:
        return 1 << self._height

    def __len__(self) -> int:
        return self._next_index

    def history_root(self, root_index: int) -> bytes | None:
        """Root recorded in history slot ``root_index``, or None if it holds none."""
        if not 0 <= root_index < len(self._history):
            raise IndexError(f"root index {root_index} outside [0, {len(self._history)})")
        return self._history[root_index]

    def leaf(self, leaf_index: int) -> bytes:
        """The leaf at a position below ``next_index`` (zero where none was written)."""
        self._check_index(leaf_index)
        return self._node(0, leaf_index)

    def proof(self, leaf_index: int) -> list[bytes]:
        """The ``height`` siblings from the leaf up, as ``fold_path`` consumes them."""
        self._check_index(leaf_index)
        return [self._node(level, (leaf_index >> level) ^ 1) for level in range(self._height)]

    def _node(self, level: int, index: int) -> bytes:
        nodes = self._levels[level]
        if index < len(nodes):
            return nodes[index]
        return self._far[level].get(index, _ZEROS[level])

    # ----------------------------------------------------------------- writing

    def _check_index(self, leaf_index: int) -> None:
        if isinstance(leaf_index, bool) or not isinstance(leaf_index, int):
            raise ValueError(f"leaf index must be an integer, got {leaf_index!r}")
        if not 0 <= leaf_index < self._next_index:
            raise IndexError(f"leaf index {leaf_index} outside [0, {self._next_index})")

    def _check_room(self, count: int) -> None:
        if self._next_index + count > self.capacity:
            raise ValueError(f"tree full: {self._next_index} of {self.capacity} leaves used, cannot add {count}")

    def _append_leaf(self, leaf: bytes) -> int:
        """Exact single append: one operation. Returns the leaf index."""
        leaf = _checked_leaf(leaf)
        self._check_room(1)
        index = self._next_index
        self._place({}, [leaf])
        self._advance(1)
        return index

    def _set_leaf(self, leaf_index: int, leaf: bytes) -> None:
        """Exact single overwrite of an existing leaf: one operation."""
        leaf = _checked_leaf(leaf)
        self._check_index(leaf_index)
        self._place({leaf_index: leaf}, [])
        self._advance(1)

    def _bulk_write(self, updates: dict[int, bytes], appends: list[bytes], operations: int) -> None:
        """Overwrite existing leaves and append new ones, hashing dirty nodes once."""
        updates = {i: _checked_leaf(v) for i, v in updates.items()}
        appends = [_checked_leaf(v) for v in appends]
        for i in updates:
            self._check_index(i)
        self._check_room(len(appends))
        if updates or appends:
            self._place(updates, appends)
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
        checked = {i: _checked_leaf(leaf) for i, leaf in leaves.items()}
        if checked:
            self._place(checked, [])
        return self._take_seq(seq)

    def _take_seq(self, seq: int) -> int:
        """The tree's seq becomes ``seq`` when that is higher (the skipped history slots cleared);
        either way the current root is recorded at the tree's seq."""
        if seq > self._seq:
            self._advance(seq - self._seq)
        else:
            self._history[self._seq % len(self._history)] = self._root
        return self._seq

    def _place(self, writes: dict[int, bytes], appends: list[bytes]) -> None:
        """Put checked leaves: ``writes`` at their indices, ``appends`` from ``next_index`` on; rehash."""
        dense = self._levels[0]
        far = self._far[0]
        start = len(dense)
        first = self._next_index
        spans = [(i, i + 1) for i in writes if i >= start]
        if appends:
            spans.append((first, first + len(appends)))
        end = start
        for left, right in sorted(spans):  # the prefix grows over each span starting within the slack
            if left >= end + _DENSE_SLACK:
                break
            end = max(end, right)
        if end > start:  # the prefix grows: leaves far held so far move into it
            dense.extend([far.pop(i, _ZERO32) for i in range(start, end)] if far else [_ZERO32] * (end - start))
        dirty = [i for i in writes if i < start]
        dirty.sort()
        dirty.extend(range(start, end))
        outer: list[int] = []
        for i, leaf in writes.items():
            if i < end:
                dense[i] = leaf
            else:
                far[i] = leaf
                outer.append(i)
        if appends:
            stop = first + len(appends)
            if stop <= end:
                dense[first:stop] = appends
            else:
                far.update(zip(range(first, stop), appends, strict=True))
                outer.extend(range(first, stop))
            self._next_index = max(self._next_index, stop)
        if writes:
            self._next_index = max(self._next_index, max(writes) + 1)
        if outer:
            outer.sort()
            dirty.extend(outer)  # all of them lie right of the dense prefix: the order holds
        self._rehash(dirty)

    def _rehash(self, dirty: list[int]) -> None:
        """Recompute the ancestors of ``dirty`` (ascending leaf indices), level by level."""
        hash_hex = _HASHER2.hash_bytes_be
        fromhex = bytes.fromhex
        top = self._height - 1
        threshold = parallel_threshold()
        for level in range(self._height):
            nodes = self._levels[level]
            far = self._far[level]
            count = len(nodes)
            zero = _ZEROS[level]
            if level == top:
                left = nodes[0] if count else far.get(0, zero)
                right = nodes[1] if count > 1 else far.get(1, zero)
                self._root = fromhex(hash_hex([left, right])[2:])
                return
            parents: list[int] = []
            last = -1
            for i in dirty:
                p = i >> 1
                if p != last:
                    parents.append(p)
                    last = p
            if threshold is not None and len(parents) >= threshold:
                self._rehash_level_in_batch(level, parents)
                dirty = parents
                continue
            upper = self._levels[level + 1]
            upper_far = self._far[level + 1]
            size = (count + 1) >> 1  # the dense prefix of the level above, after this pass
            for p in parents:
                left_i = p << 1
                if left_i + 1 < count:
                    left, right = nodes[left_i], nodes[left_i + 1]
                else:
                    left = nodes[left_i] if left_i < count else far.get(left_i, zero)
                    right = far.get(left_i + 1, zero)
                value = fromhex(hash_hex([left, right])[2:])
                if p < len(upper):
                    upper[p] = value
                elif p < size:  # p == len(upper): dirty parents of the prefix come in order
                    upper.append(value)
                    if upper_far:
                        upper_far.pop(p, None)
                else:
                    upper_far[p] = value
            dirty = parents

    def _rehash_level_in_batch(self, level: int, parents: list[int]) -> None:
        """One level's parents through ``poseidon_many``, shared with the hashing workers."""
        pairs = [(self._node(level, p << 1), self._node(level, (p << 1) + 1)) for p in parents]
        upper, upper_far = self._levels[level + 1], self._far[level + 1]
        size = (len(self._levels[level]) + 1) >> 1
        for p, value in zip(parents, poseidon_many(pairs), strict=True):
            if p < len(upper):
                upper[p] = value
            elif p < size:
                upper.append(value)
                upper_far.pop(p, None)
            else:
                upper_far[p] = value

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
    """State tree: account hashes are appended; consuming one zeroes its leaf (v1). A batched tree is
    written by ``write_leaves`` at the positions and seq its batch events state (a spent leaf holds
    its nullifier there)."""

    def append(self, leaf: bytes) -> tuple[int, int]:
        """Append one leaf; returns ``(leaf_index, seq)``, seq being that after it."""
        index = self._append_leaf(leaf)
        return index, self._seq

    def append_many(self, leaves: Iterable[bytes]) -> list[tuple[int, int]]:
        """Bulk append in O(n) hashes; returns ``(leaf_index, seq)`` per leaf. ``seq`` and the final
        root are those of repeated appends, but only that final root is recorded in the history."""
        batch = list(leaves)
        start, seq0 = self.next_index, self._seq
        self._bulk_write({}, batch, len(batch))
        return [(start + i, seq0 + i + 1) for i in range(len(batch))]

    def write_many(self, *, appends: Iterable[bytes] = (), nullify: Iterable[int] = ()) -> int:
        """Append ``appends``, then zero the leaves at ``nullify``, hashing each dirty node once.

        ``nullify`` may name leaves appended by the same call. The final leaves, root and seq
        are those of one ``append`` per leaf followed by one ``nullify`` per index (seq grows by
        their total count), in O(n) hashes instead of a full path per consumed account. Only the
        final root is recorded. Nothing changes if a leaf or an index is rejected. Returns the new seq.
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

        For a ledger that reads leaf positions and sequence numbers from the chain. An index past the
        end extends the tree (positions between hold zero), at O(height) hashes however far it is. The
        tree's seq becomes ``seq`` when that is higher (skipped history slots cleared); either way the
        new root is recorded at the tree's seq. Nothing changes if a leaf or an index is
        rejected. Returns the tree's seq.
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
