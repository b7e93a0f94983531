"""Batched (v2) trees as an indexer keeps them: queues, and the forester's batch events that empty them.

A user transaction never writes a batched tree. Its outputs wait in the tree's output queue (their leaf
index is known at once), its spends put a nullifier into the tree's input queue, and its new addresses
wait in the address tree's queue. Only a forester's batch event moves them (Light's
`programs/account-compression/src/instructions/batch_*.rs`, as Photon's
`src/ingester/persist/persisted_batch_event/` applies them):

- BatchAppend: leaves `[old, new)` become the queued outputs, except a leaf that already holds a
  nullifier (a spend may be nullified before its leaf is appended);
- BatchNullify: the nullifiers with input-queue index in `[old, new)` are written at their accounts' leaves
  (a v2 nullified leaf is the nullifier, not zero);
- BatchAddressAppend: the addresses with address-queue index in `[old − 1, new − 1)` enter the indexed tree.

Each event states the tree's new root, root index and sequence number. The trees here are rebuilt from
the queues, so the root an event states is a check of everything read before it: a tree whose every queued
value was seen must reach it, or the event is refused. A tree seen from the middle of its life (a slice of
the chain) cannot be checked, and says so (`whole`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.ledger_crypto import BATCHED_STATE_HEIGHT, BatchedAddressTree, StateTree

if TYPE_CHECKING:
    from csi_conformance.ledger_ingest import BatchEvent, QueuedAddress, QueuedNullifier

__all__ = ["BatchedAddressQueue", "BatchedStateTree"]

_ZERO = bytes(32)


class BatchedStateTree(StateTree):
    """A batched state tree of height 32 with its output queue and input queue.

    `root_index` is the one the last batch event stated (the tree's own root-history length decides it,
    and that length lives in the tree's account, not in its events); 0 before any event.
    """

    def __init__(self, queue: bytes) -> None:
        super().__init__(height=BATCHED_STATE_HEIGHT)
        self.queue = queue
        self.outputs: dict[int, bytes] = {}
        """Output-queue leaf index -> account hash, as queued (a spend by index does not remove it)."""
        self.nullifiers: dict[int, tuple[int, bytes]] = {}
        """Input-queue index -> (leaf index, nullifier)."""
        self.spends: dict[int, QueuedNullifier] = {}
        """Leaf index -> the spend that queued its nullifier (what a V2 answer says of a closed account)."""
        self.appended = 0
        """The tree's next index: leaves below it left the output queue."""
        self.stated_root_index = 0
        self.whole = True
        """Whether every queued value a batch event moved was seen (a slice from the chain's start)."""

    @property
    def root_index(self) -> int:
        return self.stated_root_index

    def in_queue(self, leaf_index: int) -> bool:
        """Whether the account at `leaf_index` still waits in the output queue (no leaf in the tree yet)."""
        return leaf_index >= self.appended

    def queue_output(self, leaf_index: int, hash_: bytes) -> None:
        self.outputs[leaf_index] = hash_

    def queue_nullifier(self, item: QueuedNullifier) -> None:
        self.nullifiers[item.queue_index] = (item.leaf_index, item.nullifier)
        self.spends[item.leaf_index] = item

    def apply(self, event: BatchEvent) -> None:
        """Apply a BatchAppend or BatchNullify; ValueError when the root it states is not the one reached."""
        writes: dict[int, bytes] = {}
        if event.kind == "append":
            for index in range(event.old_next_index, event.new_next_index):
                hash_ = self.outputs.get(index)
                if hash_ is None:
                    self.whole = False
                elif index >= self.next_index or self.leaf(index) == _ZERO:
                    writes[index] = hash_
            self.appended = max(self.appended, event.new_next_index)
        else:
            for queue_index in range(event.old_next_index, event.new_next_index):
                entry = self.nullifiers.get(queue_index)
                if entry is None:
                    self.whole = False
                else:
                    writes[entry[0]] = entry[1]
        self.write_leaves(writes, seq=event.seq)
        self.stated_root_index = event.root_index
        _check_root(self.whole, self.root, event)


class BatchedAddressQueue:
    """The batched address tree (height 40) and its queue of addresses waiting to be inserted."""

    def __init__(self) -> None:
        self.tree = BatchedAddressTree()
        self.queued: dict[int, bytes] = {}
        """Address-queue index -> address."""
        self._queued_set: set[bytes] = set()
        self.stated_root_index = 0
        self.whole = True

    def holds(self, address: bytes) -> bool:
        """Whether `address` is taken here: queued, or in the tree."""
        return address in self._queued_set or int.from_bytes(address, "big") in self.tree

    def queue(self, items: Sequence[QueuedAddress]) -> None:
        for item in items:
            self.queued[item.queue_index] = item.address
            self._queued_set.add(item.address)

    def apply(self, event: BatchEvent) -> None:
        """Apply a BatchAddressAppend: queue indices `[old − 1, new − 1)`, in queue order."""
        values = []
        for queue_index in range(event.old_next_index - 1, event.new_next_index - 1):
            address = self.queued.get(queue_index)
            if address is None:
                self.whole = False
            else:
                values.append(int.from_bytes(address, "big"))
        self.tree.insert_batch(values, seq=event.seq)
        self.stated_root_index = event.root_index
        _check_root(self.whole, self.tree.root, event)


def _check_root(whole: bool, root: bytes, event: BatchEvent) -> None:
    if whole and root != event.new_root:
        raise ValueError(f"batch {event.kind} of tree {b58encode(event.tree)} (seq {event.seq}) states root "
                         f"{event.new_root.hex()}, the queued values read before it give {root.hex()}")
