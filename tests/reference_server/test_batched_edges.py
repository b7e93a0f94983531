"""A batched tree's edges: a tree seen from the middle of its life (a batch event moving values never seen is
taken on its word, and says so), where an account leaves the output queue, what an address queue holds, and
the root index before any event. Roots are Poseidon's over the leaves (tests/reference_server/
test_batched_order.py), and the address tree's are those of ledger_crypto's batched address tree."""

from __future__ import annotations

import dataclasses

from csi_conformance.ledger_crypto import BatchedAddressTree
from csi_conformance.ledger_ingest import BatchEvent, QueuedAddress
from csi_conformance.reference_server.batched import BatchedAddressQueue

from tests.reference_server.test_batched_order import OUTPUTS, TREE, _event, _root, _spend, _tree

ANY_ROOT = bytes(31) + b"\x01"
ADDRESS = bytes([0, 7]) + bytes([3]) * 30
OTHER = bytes([0, 9]) + bytes([3]) * 30


def _with_root(event: BatchEvent, root: bytes) -> BatchEvent:
    return dataclasses.replace(event, new_root=root)


def test_an_append_of_outputs_never_seen_is_taken_on_its_word() -> None:
    tree = _tree()
    tree.outputs.pop(0)  # the slice starts after leaf 0 was queued
    tree.apply(_with_root(_event("append", 0, len(OUTPUTS), {}, seq=1), ANY_ROOT))
    assert not tree.whole and tree.appended == len(OUTPUTS) and tree.root_index == 1


def test_a_nullify_of_spends_never_seen_is_taken_on_its_word() -> None:
    tree = _tree()
    tree.apply(_event("append", 0, len(OUTPUTS), dict(enumerate(OUTPUTS)), seq=1))
    tree.queue_nullifier(_spend(2, 1))  # input-queue index 0 was never seen
    tree.apply(_with_root(_event("nullify", 0, 2, {}, seq=2), ANY_ROOT))
    assert not tree.whole and tree.root_index == 2


def test_an_address_append_of_addresses_never_seen_is_taken_on_its_word() -> None:
    queue = BatchedAddressQueue()
    queue.apply(_with_root(_event("address_append", 1, 3, {}, seq=1), ANY_ROOT))
    assert not queue.whole and queue.stated_root_index == 1


def test_an_account_is_in_the_queue_from_the_tree_s_next_index_on() -> None:
    tree = _tree()
    assert tree.root_index == 0 and all(tree.in_queue(i) for i in range(len(OUTPUTS)))
    tree.apply(_event("append", 0, 2, {0: OUTPUTS[0], 1: OUTPUTS[1]}, seq=1))
    assert [tree.in_queue(i) for i in range(len(OUTPUTS))] == [False, False, True, True]
    assert tree.root == _root({0: OUTPUTS[0], 1: OUTPUTS[1]})


def test_an_address_is_held_while_queued_and_once_in_the_tree() -> None:
    queue = BatchedAddressQueue()
    assert queue.stated_root_index == 0 and not queue.holds(ADDRESS)
    queue.queue([QueuedAddress(TREE, 0, ADDRESS)])
    assert queue.holds(ADDRESS) and not queue.holds(OTHER)
    expected = BatchedAddressTree()
    expected.insert(int.from_bytes(ADDRESS, "big"))
    queue.apply(_with_root(_event("address_append", 1, 2, {}, seq=1), expected.root))
    assert queue.whole and queue.holds(ADDRESS) and int.from_bytes(ADDRESS, "big") in queue.tree
    assert not queue.holds(OTHER)

