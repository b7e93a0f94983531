"""Indexed merkle trees of addresses and their non-inclusion proofs: v1 (height 26) and batched (height 40).

Elements form a linked list sorted by value inside a merkle tree; a value is absent when some
element's range (value, next_value) strictly contains it. New addresses are proven absent this
way before they are created. The two kinds differ in their leaf (v1 hashes value, next index and
next value; the batched tree value and next value only) and their first state (Light's
`program-libs/batched-merkle-tree/src/constants.rs` for the batched one).
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .hashing import HIGHEST_ADDRESS_PLUS_ONE, poseidon
from .merkle import BATCHED_ADDRESS_HEIGHT, HEIGHT, ROOT_HISTORY, SparseMerkleTree, fold_path
from .parallel import poseidon_many

__all__ = [
    "AddressElement",
    "AddressExistsError",
    "AddressTree",
    "BatchedAddressTree",
    "NonInclusionProof",
    "batched_element_leaf",
    "element_leaf",
    "verify_non_inclusion",
]

_VALUE_BOUND = 2**248


class AddressExistsError(ValueError):
    """The address is in the tree already: it cannot be inserted or proven absent."""


class AddressElement(NamedTuple):
    value: int
    next_index: int
    next_value: int


_NO_ELEMENT = AddressElement(0, 0, 0)


@dataclass(frozen=True)
class NonInclusionProof:
    """Everything needed to check that ``value`` is absent from the tree at ``root``."""

    value: int
    low_value: int
    low_next_index: int
    low_next_value: int
    low_leaf_index: int
    path: tuple[bytes, ...]
    root: bytes
    root_seq: int
    history_size: int = ROOT_HISTORY

    @property
    def root_index(self) -> int:
        return self.root_seq % self.history_size


def element_leaf(value: int, next_index: int, next_value: int) -> bytes:
    """Leaf of a v1 element: Poseidon(value, next_index, next_value), all 32-byte BE."""
    return poseidon(*_v1_row(value, next_index, next_value))


def batched_element_leaf(value: int, next_value: int) -> bytes:
    """Leaf of a batched-tree element: Poseidon(value, next_value), 32-byte BE (next index not hashed)."""
    return poseidon(value.to_bytes(32, "big"), next_value.to_bytes(32, "big"))


def _v1_row(value: int, next_index: int, next_value: int) -> tuple[bytes, ...]:
    return value.to_bytes(32, "big"), next_index.to_bytes(32, "big"), next_value.to_bytes(32, "big")


def _batched_row(value: int, next_index: int, next_value: int) -> tuple[bytes, ...]:
    return value.to_bytes(32, "big"), next_value.to_bytes(32, "big")


def _check_value(value: int, bound: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"address value must be an integer, got {value!r}")
    if not 0 < value < bound:
        upper = "2^248" if bound == _VALUE_BOUND else "2^248 - 1"
        raise ValueError(f"address value must be in (0, {upper}), got {value}")


class AddressTree(SparseMerkleTree):
    """v1 indexed merkle tree starting with the sentinels 0 and HIGHEST_ADDRESS_PLUS_ONE.

    A fresh tree is built by the ledger's own three operations (append the zero
    element, then insert the highest element), so it starts at seq 3 with the known
    root.
    """

    _value_bound = _VALUE_BOUND
    _row = staticmethod(_v1_row)

    def __init__(self, *, height: int = HEIGHT, history_size: int = ROOT_HISTORY) -> None:
        super().__init__(height=height, history_size=history_size)
        self._elements: dict[int, AddressElement] = {}
        """Element index -> element; a position below next_index missing here holds zero and no value."""
        self._sorted: list[int] = [0]
        self._index_of: dict[int, int] = {0: 0}
        self._start()

    def _start(self) -> None:
        self._append_element(0, 0, 0)
        self._insert_checked(HIGHEST_ADDRESS_PLUS_ONE)

    # ----------------------------------------------------------------- reading

    def contains(self, value: int) -> bool:
        return value in self._index_of

    def __contains__(self, value: object) -> bool:
        return value in self._index_of

    @property
    def unwritten(self) -> int:
        """Element positions below the last written one that no write has filled (`write_elements` at given
        indices): a tree built from part of a history; 0 for a tree built by insertions."""
        return self.next_index - len(self._elements)

    def element(self, index: int) -> AddressElement:
        self._check_index(index)
        return self._elements.get(index, _NO_ELEMENT)

    def non_inclusion_proof(self, value: int) -> NonInclusionProof:
        """Proof that ``value`` is absent; AddressExistsError if it is present."""
        _check_value(value, self._value_bound)
        pos = self._position(value)
        low = self._index_of[self._sorted[pos - 1]]
        element = self._elements[low]
        return NonInclusionProof(
            value=value,
            low_value=element.value,
            low_next_index=element.next_index,
            low_next_value=element.next_value,
            low_leaf_index=low,
            path=tuple(self.proof(low)),
            root=self.root,
            root_seq=self.seq,
            history_size=self.history_size,
        )

    # ----------------------------------------------------------------- writing

    def insert(self, value: int) -> int:
        """Insert an address value (two tree operations); returns its element index."""
        _check_value(value, self._value_bound)
        return self._insert_checked(value)

    def insert_many(self, values: Iterable[int]) -> list[int]:
        """Insert many values at once; returns their element indices in the given order.

        The final elements, root and seq are those of inserting the values one by one
        in the given order: value j lands at index ``next_index + j`` and the list stays
        sorted, so every element's final (next_index, next_value) is just its sorted
        successor. Only the final root is recorded in the root history. Nothing changes
        if any value is rejected.
        """
        batch = self._checked_batch(values)
        return self._insert_values(batch, self._operations(len(batch)))

    def insert_batch(self, values: Iterable[int], *, seq: int) -> list[int]:
        """``insert_many``, then take the tree's seq as given (as ``StateTree.write_leaves``): for a
        ledger applying a batch event that states its sequence number. Nothing changes if rejected."""
        if isinstance(seq, bool) or not isinstance(seq, int):
            raise ValueError(f"seq must be an integer, got {seq!r}")
        indices = self._insert_values(self._checked_batch(values), 0)
        self._take_seq(seq)
        return indices

    def _operations(self, count: int) -> int:
        """Tree operations (seq steps) of inserting ``count`` values at once: v1, two per value."""
        return 2 * count

    def _checked_batch(self, values: Iterable[int]) -> list[int]:
        batch = list(values)
        for value in batch:
            _check_value(value, self._value_bound)
        seen: set[int] = set()
        for value in batch:
            if value in seen or value in self._index_of:
                raise AddressExistsError(f"address value {value} is already in the tree")
            seen.add(value)
        self._check_room(len(batch))
        return batch

    def _insert_values(self, batch: list[int], operations: int) -> list[int]:
        if not batch:
            return []
        start = self.next_index
        new_index = {v: start + j for j, v in enumerate(batch)}
        next_idx: dict[int, int] = {}
        next_val: dict[int, int] = {}
        ordered = sorted(batch)
        old = self._sorted
        j = 0
        while j < len(ordered):
            # A run of new values that all fall between the same two existing elements.
            pos = bisect_left(old, ordered[j])
            # Past the last element: the end of the list (a batched tree has no highest element).
            successor, successor_index = (old[pos], self._index_of[old[pos]]) if pos < len(old) else (
                HIGHEST_ADDRESS_PLUS_ONE, 0)
            k = j
            while k + 1 < len(ordered) and ordered[k + 1] < successor:
                k += 1
            pred = self._index_of[old[pos - 1]]
            for v in ordered[j : k + 1]:
                next_idx[pred], next_val[pred] = new_index[v], v
                pred = new_index[v]
            next_idx[pred], next_val[pred] = successor_index, successor
            j = k + 1
        changed = sorted(i for i in next_idx if i < start)
        elements = self._elements
        for index in changed:
            elements[index] = AddressElement(elements[index].value, next_idx[index], next_val[index])
        for v in batch:
            i = new_index[v]
            elements[i] = AddressElement(v, next_idx[i], next_val[i])
        rows = [self._row(*elements[i]) for i in changed]
        rows.extend(self._row(*elements[new_index[v]]) for v in batch)
        leaves = poseidon_many(rows)  # shared with the hashing workers when a pool is open
        updates = dict(zip(changed, leaves, strict=False))
        self._bulk_write(updates, leaves[len(changed) :], operations)
        old.extend(batch)
        old.sort()
        self._index_of.update(new_index)
        return [new_index[v] for v in batch]

    def write_elements(self, elements: Sequence[tuple[int, tuple[int, int, int]]], *, seq: int) -> int:
        """Set elements at given indices, in order, and take the tree's seq as given.

        For a ledger that reads the address tree from the chain's indexed-tree events instead of
        inserting values itself. A later element at the same index replaces an earlier one. An
        index past the end extends the tree; positions between that were never written hold
        zero and no value (they are in no range of a non-inclusion proof). Leaves are each
        element's leaf, written in one pass; seq is as in `StateTree.write_leaves`.
        Nothing changes if an element is rejected (a value out of range, or one another index
        would hold too: AddressExistsError). Returns the tree's seq.
        """
        batch = [(index, AddressElement(*element)) for index, element in elements]
        for index, element in batch:
            if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < self.capacity:
                raise IndexError(f"element index {index!r} outside a tree of {self.capacity} leaves")
            if not all(type(v) is int for v in element):
                raise ValueError(f"element {index}: value, next index and next value must be integers")
            if not (0 <= element.value < _VALUE_BOUND and 0 <= element.next_value < _VALUE_BOUND
                    and 0 <= element.next_index < self.capacity):
                raise ValueError(f"element {index}: value, next value or next index out of range")
        if isinstance(seq, bool) or not isinstance(seq, int):
            raise ValueError(f"seq must be an integer, got {seq!r}")
        owners = self._owners_after(batch)
        final = dict(batch)
        for value, owner in owners.items():
            before = self._index_of.get(value)
            if owner is None and before is not None:
                del self._index_of[value]
                del self._sorted[bisect_left(self._sorted, value)]
            elif owner is not None:
                if before is None:
                    insort(self._sorted, value)
                self._index_of[value] = owner
        self._elements.update(final)
        leaves = poseidon_many([self._row(*element) for element in final.values()])
        return self._write_at(dict(zip(final, leaves, strict=True)), seq)

    def _owners_after(self, batch: Sequence[tuple[int, AddressElement]]) -> dict[int, int | None]:
        """The index owning each value the batch touches once it is applied (None: no index);
        AddressExistsError, before any change, when a value would be held by two indices."""
        owners: dict[int, int | None] = {}
        held: dict[int, int | None] = {}

        def owner(value: int) -> int | None:
            return owners[value] if value in owners else self._index_of.get(value)

        for index, element in batch:
            if index in held:
                old = held[index]
            elif index in self._elements:
                old = self._elements[index].value
            else:
                old = None
            if old is not None and old != element.value and owner(old) == index:
                owners[old] = None
            current = owner(element.value)
            if current != index:
                if current is not None:
                    raise AddressExistsError(f"address value {element.value} is already element {current}, "
                                             f"it cannot also be element {index}")
                owners[element.value] = index
            held[index] = element.value
        return owners

    def _position(self, value: int) -> int:
        """Position of ``value`` in the sorted values; raises if it is already there."""
        pos = bisect_left(self._sorted, value)
        if pos < len(self._sorted) and self._sorted[pos] == value:
            raise AddressExistsError(f"address value {value} is already in the tree")
        return pos

    def _insert_checked(self, value: int) -> int:
        pos = self._position(value)
        self._check_room(1)
        low = self._index_of[self._sorted[pos - 1]]
        new = self.next_index
        low_element = self._elements[low]
        # The ledger updates the low element first, then appends the new one.
        self._elements[low] = AddressElement(low_element.value, new, value)
        self._set_leaf(low, poseidon(*self._row(low_element.value, new, value)))
        self._append_element(value, low_element.next_index, low_element.next_value)
        self._sorted.insert(pos, value)
        self._index_of[value] = new
        return new

    def _append_element(self, value: int, next_index: int, next_value: int) -> None:
        self._elements[self.next_index] = AddressElement(value, next_index, next_value)
        self._append_leaf(poseidon(*self._row(value, next_index, next_value)))


class BatchedAddressTree(AddressTree):
    """The batched (v2) address tree: height 40, leaf Poseidon(value, next_value).

    It starts with one element, (0, next value HIGHEST_ADDRESS_PLUS_ONE) at leaf 0, next index 1,
    seq 0; the highest value is never an element (the last element points past the list with next
    index 0). A batch event inserts many addresses as one operation: `insert` and `insert_many` add
    1 to seq per call, `insert_batch` takes the event's seq. ``history_size`` is the tree account's
    root-history length (root index = seq % that).
    """

    _value_bound = HIGHEST_ADDRESS_PLUS_ONE
    _row = staticmethod(_batched_row)

    def __init__(self, *, height: int = BATCHED_ADDRESS_HEIGHT, history_size: int = ROOT_HISTORY) -> None:
        super().__init__(height=height, history_size=history_size)

    def _start(self) -> None:
        self._elements[0] = AddressElement(0, 0, HIGHEST_ADDRESS_PLUS_ONE)
        self._write_at({0: batched_element_leaf(0, HIGHEST_ADDRESS_PLUS_ONE)}, 0)

    def insert(self, value: int) -> int:
        """Insert one address value (one tree operation); returns its element index."""
        return self.insert_many([value])[0]

    def _operations(self, count: int) -> int:
        return 1 if count else 0


def verify_non_inclusion(proof: NonInclusionProof, *, height: int = HEIGHT, batched: bool = False) -> bool:
    """True iff the low element's leaf folds to the root and strictly brackets value.

    ``batched``: the proof is of a batched address tree (leaf of value and next value; give
    ``height=BATCHED_ADDRESS_HEIGHT``). Malformed proofs (wrong path length, values out of range,
    bad hashes) give False rather than an exception, since proofs usually come from the server
    under test.
    """
    ints = (proof.value, proof.low_value, proof.low_next_value)
    if any(isinstance(v, bool) or not isinstance(v, int) for v in ints):
        return False
    if not all(0 <= v < _VALUE_BOUND for v in ints):
        return False
    if not proof.low_value < proof.value < proof.low_next_value:
        return False
    for index in (proof.low_next_index, proof.low_leaf_index):
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < 1 << height:
            return False
    if len(proof.path) != height or not isinstance(proof.root, bytes) or len(proof.root) != 32:
        return False
    try:
        if batched:
            leaf = batched_element_leaf(proof.low_value, proof.low_next_value)
        else:
            leaf = element_leaf(proof.low_value, proof.low_next_index, proof.low_next_value)
        return fold_path(leaf, proof.low_leaf_index, proof.path) == proof.root
    except (ValueError, TypeError):
        return False
