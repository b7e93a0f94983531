"""A batched state tree when the forester nullifies a spend before appending its leaf: the nullifier stays.

A transaction may spend an account by index while it still waits in the output queue; its nullifier
then enters the input queue, and a BatchNullify may write it at the account's leaf before the
BatchAppend that covers that leaf. Light's append keeps a leaf that already holds a value, so the
append writes the queued outputs everywhere else and leaves the nullifier in place. The roots the
events state are computed here from the leaves alone (Poseidon up a height-32 tree), not by the tree
under test; a tree that wrote the spent output over its nullifier reaches another root and refuses the
append.
"""

from __future__ import annotations

import pytest
from csi_conformance.ledger_crypto import BATCHED_STATE_HEIGHT, poseidon
from csi_conformance.ledger_ingest import BatchEvent, QueuedNullifier
from csi_conformance.reference_server.batched import BatchedStateTree

TREE = bytes([7]) * 32
QUEUE = bytes([9]) * 32
TX_HASH = poseidon((42).to_bytes(32, "big"))
OUTPUTS = [poseidon(n.to_bytes(32, "big")) for n in (1, 2, 3, 4)]
"""Four account hashes queued at leaves 0 to 3."""


def _zero_hashes() -> list[bytes]:
    zeros = [bytes(32)]
    for _ in range(BATCHED_STATE_HEIGHT):
        zeros.append(poseidon(zeros[-1], zeros[-1]))
    return zeros


def _root(leaves: dict[int, bytes]) -> bytes:
    """The root of a height-32 Poseidon tree holding `leaves` (zero elsewhere), level by level."""
    zeros = _zero_hashes()
    level = dict(leaves)
    for height in range(BATCHED_STATE_HEIGHT):
        level = {i: poseidon(level.get(2 * i, zeros[height]), level.get(2 * i + 1, zeros[height]))
                 for i in {index // 2 for index in level}}
    return level[0] if level else zeros[-1]


def _spend(leaf_index: int, queue_index: int) -> QueuedNullifier:
    account = OUTPUTS[leaf_index]
    nullifier = poseidon(account, leaf_index.to_bytes(32, "big"), TX_HASH)
    return QueuedNullifier(TREE, queue_index, account, leaf_index, nullifier, True, TX_HASH)


def _event(kind: str, old: int, new: int, leaves: dict[int, bytes], seq: int) -> BatchEvent:
    """A forester's event stating the root of `leaves` (root index and sequence number both `seq`)."""
    return BatchEvent(kind=kind, tree=TREE, batch_index=0, zkp_batch_index=seq - 1, zkp_batch_size=new - old,
                      old_next_index=old, new_next_index=new, new_root=_root(leaves), root_index=seq, seq=seq,
                      queue=QUEUE if kind == "append" else None)


def _tree() -> BatchedStateTree:
    tree = BatchedStateTree(QUEUE)
    for index, hash_ in enumerate(OUTPUTS):
        tree.queue_output(index, hash_)
    return tree


@pytest.mark.parametrize("spent", [[1], [0, 3], [2, 1]], ids=["middle", "both ends", "out of order"])
def test_a_nullify_before_the_append_keeps_its_nullifiers_at_their_leaves(spent: list[int]) -> None:
    tree = _tree()
    spends = [_spend(leaf, queue_index) for queue_index, leaf in enumerate(spent)]
    for item in spends:
        tree.queue_nullifier(item)
    nullified = {item.leaf_index: item.nullifier for item in spends}
    tree.apply(_event("nullify", 0, len(spends), nullified, seq=1))
    assert tree.root == _root(nullified) and tree.appended == 0

    final = {**dict(enumerate(OUTPUTS)), **nullified}
    tree.apply(_event("append", 0, len(OUTPUTS), final, seq=2))
    assert tree.whole and tree.appended == len(OUTPUTS)
    assert [tree.leaf(index) for index in range(len(OUTPUTS))] == [final[i] for i in range(len(OUTPUTS))]
    assert tree.root == _root(final) and tree.root_index == 2


def test_an_append_before_the_nullify_writes_every_output_then_the_nullifier_over_it() -> None:
    """The usual order, for contrast: the same leaves at the end."""
    tree = _tree()
    spend = _spend(1, 0)
    tree.queue_nullifier(spend)
    tree.apply(_event("append", 0, len(OUTPUTS), dict(enumerate(OUTPUTS)), seq=1))
    final = {**dict(enumerate(OUTPUTS)), 1: spend.nullifier}
    tree.apply(_event("nullify", 0, 1, final, seq=2))
    assert tree.root == _root(final)


def test_an_append_stating_the_output_over_the_nullifier_is_refused() -> None:
    """A forester's event claiming the spent output went in over its nullifier states a root the queues
    do not reach: the tree says so, naming the batch."""
    tree = _tree()
    spend = _spend(1, 0)
    tree.queue_nullifier(spend)
    tree.apply(_event("nullify", 0, 1, {1: spend.nullifier}, seq=1))
    with pytest.raises(ValueError, match=r"batch append of tree .* states root"):
        tree.apply(_event("append", 0, len(OUTPUTS), dict(enumerate(OUTPUTS)), seq=2))
