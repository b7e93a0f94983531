"""The kit's model of a chain of today's programs: the v1 model, and each batched tree's output queue.

An output to a batched tree waits in its output queue at a leaf index the queue's `next_index`
gives; a spend by index zeroes that value in the queue and puts a nullifier into the tree's input
queue; the tree itself changes only by the forester's batch append and nullify (`batch_forester.py`,
proofs under the kit setup; without it the tree stays empty). After every transaction the queue and
tree accounts are read and must say exactly that: values, next index, sequence number, root history
(`check`).

Account layouts (measured on the 0.28.3 dumps, Light's `program-libs/batched-merkle-tree`):
an output queue has `QueueBatches` at byte 232 (num_batches, batch_size, zkp_batch_size,
bloom_filter_capacity, currently_processing_batch_index, pending_batch_index, next_index), then per
batch a value vector (u64 length, u64 capacity, `batch_size` 32-byte values) from byte 552; a tree
has its sequence number and next index at 232, its input queue's `QueueBatches` at 264, and its
root history (u64 current index, length, capacity, capacity; then the roots) from byte 672.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field, replace

from csi_conformance.ledger_chain.model import LiveAccount, Model
from csi_conformance.ledger_chain.runtime import ChainError, Runtime
from csi_conformance.ledger_crypto import BATCHED_STATE_HEIGHT, StateTree
from csi_conformance.ledger_ingest import LedgerTransaction, QueuedNullifier
from solders.pubkey import Pubkey

__all__ = ["OnChainQueue", "QueueMirror", "TodayModel", "read_batched_tree", "read_output_queue"]

_ZERO = bytes(32)
ZERO_ROOT = StateTree(height=BATCHED_STATE_HEIGHT).root
QUEUE_BATCHES = 232
VALUES = 552
TREE_NUMBERS = 232
INPUT_QUEUE_BATCHES = 264
ROOT_HISTORY = 672


@dataclass(frozen=True)
class OnChainQueue:
    """An output queue account as the program left it."""

    batch_size: int
    num_batches: int
    next_index: int
    values: dict[int, bytes]
    """Leaf index -> the value held (zero once spent by index), for every index below `next_index`."""


@dataclass(frozen=True)
class OnChainBatchedTree:
    sequence_number: int
    next_index: int
    input_next_index: int
    """Nullifiers the input queue received."""
    root: bytes
    history: tuple[bytes, ...] = ()
    """The root history as the account holds it (a cyclic buffer: slot = sequence number % capacity)."""
    root_index: int = 0
    """The slot of the current root in the root history: what a proof against it names."""


def _history(roots: list[bytes], length: int) -> tuple[bytes, ...]:
    """The cyclic root history of `length` slots after `roots`, as the program keeps it."""
    slots: list[bytes] = [b""] * length
    for sequence, root in enumerate(roots[-length:] if length else [], start=max(0, len(roots) - length)):
        slots[sequence % length] = root
    return tuple(slots)


def _same_history(onchain: tuple[bytes, ...], kit: tuple[bytes, ...]) -> bool:
    """Slot by slot equal, but for slots the program zeroed: when it clears an input-queue batch's bloom filter it
    zeroes the roots that could still prove what that filter held, which the kit does not model."""
    return len(onchain) == len(kit) and all(a in (b, _ZERO) for a, b in zip(onchain, kit, strict=True))


def read_output_queue(data: bytes) -> OnChainQueue:
    num_batches, batch_size, *_, next_index = struct.unpack_from("<7Q", data, QUEUE_BATCHES)
    values = {}
    for index in range(next_index):
        batch, position = divmod(index, batch_size)
        start = VALUES + batch % num_batches * (16 + 32 * batch_size) + 16 + 32 * position
        values[index] = bytes(data[start:start + 32])
    return OnChainQueue(batch_size, num_batches, next_index, values)


def read_batched_tree(data: bytes) -> OnChainBatchedTree:
    sequence_number, next_index = struct.unpack_from("<QQ", data, TREE_NUMBERS)
    input_next_index = struct.unpack_from("<7Q", data, INPUT_QUEUE_BATCHES)[6]
    length, capacity = struct.unpack_from("<QQ", data, ROOT_HISTORY + 8)
    start = ROOT_HISTORY + 32 + 32 * (sequence_number % capacity)  # one root per sequence number, cyclic
    history = tuple(bytes(data[ROOT_HISTORY + 32 + 32 * i:ROOT_HISTORY + 64 + 32 * i]) for i in range(length))
    return OnChainBatchedTree(sequence_number, next_index, input_next_index, bytes(data[start:start + 32]), history,
                              sequence_number % capacity)


@dataclass
class QueueMirror:
    """A batched tree's output queue (values by leaf index, zero once spent) and its input queue count."""

    queue: Pubkey
    outputs: dict[int, bytes] = field(default_factory=dict)
    nullifiers: int = 0
    tree: StateTree = field(default_factory=lambda: StateTree(height=BATCHED_STATE_HEIGHT))
    """The tree itself: it changes only by the forester's batches (`batch_forester.py`)."""
    hashes: dict[int, bytes] = field(default_factory=dict)
    """Leaf index -> the hash queued there (kept when spent by index: a batch append proves it)."""
    queued: dict[int, QueuedNullifier] = field(default_factory=dict)
    """Input-queue index -> the nullifier queued there."""
    appended: int = 0
    """The tree's next index: leaves the forester appended."""
    nullified: int = 0
    """Input-queue entries the forester wrote into the tree."""
    roots: list[bytes] = field(default_factory=lambda: [ZERO_ROOT])
    """Every root the tree had, the empty tree's first: one more per batch (its sequence number)."""

    def record_root(self, root: bytes) -> None:
        self.roots.append(root)

    @property
    def next_index(self) -> int:
        return len(self.outputs)


@dataclass
class TodayModel(Model):
    batched: dict[Pubkey, QueueMirror] = field(default_factory=dict)
    """Batched state tree -> its queues."""
    capacity: int = 100
    """Values an output or input queue takes before the forester must empty a batch (two batches of 50)."""

    def batched_spent(self) -> list[LiveAccount]:
        return [a for a in self.spent.values() if a.tree in self.batched]

    def has_room(self, tree: Pubkey, outputs: int) -> bool:
        """Whether `outputs` more fit the tree's output queue (no batch append empties it here)."""
        mirror = self.batched.get(tree)
        return mirror is None or mirror.next_index + outputs <= self.capacity

    def spendable(self, tree: Pubkey, inputs: int = 8) -> bool:
        """Whether `inputs` more nullifiers fit the tree's input queue (two batches of 50, as the outputs)."""
        mirror = self.batched.get(tree)
        return mirror is not None and mirror.nullifiers + inputs <= self.capacity

    def apply(self, changes: LedgerTransaction, *, queued: tuple[int, ...] = ()) -> None:
        """The v1 share as the v1 model learns it, then what entered the batched trees' queues."""
        v1 = tuple(o for o in changes.opened if o.queue is None)
        super().apply(replace(changes, opened=v1), queued=queued)
        for output in changes.opened:
            if output.queue is None:
                continue
            tree = Pubkey.from_bytes(output.tree)
            mirror = self.batched.get(tree)
            if mirror is None or bytes(mirror.queue) != output.queue:
                raise ChainError(f"the chain queued 0x{output.hash.hex()} for tree {tree} in queue "
                                 f"{Pubkey.from_bytes(output.queue)}, which the kit does not hold for it")
            if output.leaf_index != mirror.next_index:
                raise ChainError(f"the chain queued 0x{output.hash.hex()} at leaf {output.leaf_index}; the kit's "
                                 f"queue of {tree} is at {mirror.next_index}")
            mirror.outputs[output.leaf_index] = output.hash
            mirror.hashes[output.leaf_index] = output.hash
            self.live[output.hash] = LiveAccount(output.hash, tree, output.leaf_index, Pubkey.from_bytes(output.owner),
                                                 output.lamports, output.address, output.token)
        for item in changes.queued_nullifiers:
            mirror = self.batched[Pubkey.from_bytes(item.tree)]
            if item.queue_index != mirror.nullifiers:
                raise ChainError(f"the chain put a nullifier at input-queue index {item.queue_index}; the kit's "
                                 f"input queue is at {mirror.nullifiers}")
            mirror.nullifiers += 1
            mirror.queued[item.queue_index] = item
            if item.prove_by_index or item.leaf_index in mirror.outputs:
                # the program zeroes a spent account's value wherever its batch still holds it, proven by index or
                # by root (batched-merkle-tree `prove_inclusion_by_index_and_zero_out_leaf`: "always check and zero
                # out an existing value"); the kit's queue never reuses a batch, so it holds every leaf it received
                mirror.outputs[item.leaf_index] = _ZERO

    def check(self, runtime: Runtime) -> None:
        """The v1 trees as the v1 model checks them; each output queue's values and next index, and each
        batched tree's next index, input queue and root, equal the kit's."""
        super().check(runtime)
        for tree, mirror in self.batched.items():
            queue = read_output_queue(runtime.data(mirror.queue))
            if queue.values != mirror.outputs:
                differ = sorted(i for i in set(queue.values) | set(mirror.outputs)
                                if queue.values.get(i) != mirror.outputs.get(i))
                raise ChainError(f"output queue {mirror.queue}: next index {queue.next_index}, the kit's "
                                 f"{mirror.next_index}; values differ at leaves {differ[:5]}")
            onchain = read_batched_tree(runtime.data(tree))
            expected = (len(mirror.roots) - 1, mirror.appended, mirror.nullifiers, mirror.tree.root)
            found = (onchain.sequence_number, onchain.next_index, onchain.input_next_index, onchain.root)
            if found != expected or not _same_history(onchain.history, _history(mirror.roots, len(onchain.history))):
                raise ChainError(f"batched tree {tree}: on-chain (seq, next index, nullifiers, root) {found}, "
                                 f"the kit's {expected} (or their root histories differ)")
